package github

import "testing"

func TestGraphQLURL_SitsBesideTheRESTRoot(t *testing.T) {
	tests := []struct{ base, want string }{
		{"", "https://api.github.com/graphql"},
		{"https://api.github.com/", "https://api.github.com/graphql"},
		{"https://ghe.example.com/api/v3/", "https://ghe.example.com/api/graphql"},
		{"https://ghe.example.com/api/v3", "https://ghe.example.com/api/graphql"},
		{"https://ghe.example.com:8443/prefix/api/v3/", "https://ghe.example.com:8443/prefix/api/graphql"},
		{"https://api.acme.ghe.com/", "https://api.acme.ghe.com/graphql"},
		{"http://127.0.0.1:4321/", "http://127.0.0.1:4321/graphql"},
		{"http://127.0.0.1:4321/proxy/?x=1", "http://127.0.0.1:4321/proxy/graphql"},
	}
	for _, tt := range tests {
		got, err := graphQLURL(tt.base)
		if err != nil || got != tt.want {
			t.Errorf("graphQLURL(%q) = %q, %v; want %q", tt.base, got, err, tt.want)
		}
	}
	for _, bad := range []string{"api.github.com", "://x", "/api/v3/"} {
		if got, err := graphQLURL(bad); err == nil {
			t.Errorf("graphQLURL(%q) = %q, want an error", bad, got)
		}
	}
}

func TestNew_RefusesAGraphQLURLThatIsNotAbsolute(t *testing.T) {
	for _, o := range []Options{{Token: "t", GraphQLURL: "/graphql"}, {Token: "t", BaseURL: "ghe.example.com/api/v3/"}} {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) took it", o)
		}
	}
}
