package forge

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRef_ReadsEveryForm(t *testing.T) {
	hosts := DefaultHosts()
	hosts["ghe.example.com"] = KindGitHub
	hosts["code.example.org"] = KindGitLab
	ghRemote := &Remote{Host: "github.com", Kind: KindGitHub, Repo: "acme/tool"}
	glRemote := &Remote{Host: "code.example.org", Kind: KindGitLab, Repo: "grp/sub/proj"}
	tests := []struct {
		in     string
		remote *Remote
		want   Ref
	}{
		{"https://github.com/acme/tool/pull/12", nil, Ref{"github.com", KindGitHub, "acme/tool", 12}},
		{"https://github.com/acme/tool/pull/12/files#diff-1", nil, Ref{"github.com", KindGitHub, "acme/tool", 12}},
		{"https://GHE.example.com/acme/tool/pull/3", nil, Ref{"ghe.example.com", KindGitHub, "acme/tool", 3}},
		{"https://gitlab.com/grp/sub/proj/-/merge_requests/7", nil, Ref{"gitlab.com", KindGitLab, "grp/sub/proj", 7}},
		{"https://code.example.org/grp/proj/-/merge_requests/9/diffs", nil, Ref{"code.example.org", KindGitLab, "grp/proj", 9}},
		{"https://unlisted.example/grp/proj/-/merge_requests/9", nil, Ref{"unlisted.example", KindGitLab, "grp/proj", 9}},
		{"acme/tool#5", nil, Ref{"github.com", KindGitHub, "acme/tool", 5}},
		{"grp/sub/proj!4", nil, Ref{"gitlab.com", KindGitLab, "grp/sub/proj", 4}},
		{"grp/proj!4", glRemote, Ref{"code.example.org", KindGitLab, "grp/proj", 4}},
		{"#8", ghRemote, Ref{"github.com", KindGitHub, "acme/tool", 8}},
		{"8", ghRemote, Ref{"github.com", KindGitHub, "acme/tool", 8}},
		{"!2", glRemote, Ref{"code.example.org", KindGitLab, "grp/sub/proj", 2}},
		{" 2 ", glRemote, Ref{"code.example.org", KindGitLab, "grp/sub/proj", 2}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseRef(tt.in, hosts, tt.remote)
			if err != nil {
				t.Fatalf("ParseRef(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseRef(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseRef_RefusesWhatIsNotAReference(t *testing.T) {
	ghRemote := &Remote{Host: "github.com", Kind: KindGitHub, Repo: "acme/tool"}
	glRemote := &Remote{Host: "gitlab.com", Kind: KindGitLab, Repo: "g/p"}
	tests := []struct {
		in     string
		remote *Remote
	}{
		{"12", nil},
		{"#12", glRemote},
		{"!12", ghRemote},
		{"acme#12", nil},
		{"a/b/c#12", nil},
		{"acme/tool#x", nil},
		{"acme/tool#0", nil},
		{"https://github.com/acme/tool/issues/12", nil},
		{"https://elsewhere.example/acme/tool", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseRef(tt.in, DefaultHosts(), tt.remote)
			if !errors.Is(err, ErrInput) {
				t.Fatalf("ParseRef(%q) = %v, want ErrInput", tt.in, err)
			}
		})
	}
}

func TestParseRemote_ReadsHTTPSAndSSHForms(t *testing.T) {
	hosts := DefaultHosts()
	hosts["git.corp.example"] = KindGitLab
	tests := []struct {
		in   string
		want Remote
	}{
		{"https://github.com/acme/tool.git", Remote{"github.com", KindGitHub, "acme/tool"}},
		{"https://github.com/acme/tool", Remote{"github.com", KindGitHub, "acme/tool"}},
		{"git@github.com:acme/tool.git", Remote{"github.com", KindGitHub, "acme/tool"}},
		{"ssh://git@gitlab.com/grp/sub/proj.git", Remote{"gitlab.com", KindGitLab, "grp/sub/proj"}},
		{"ssh://git@git.corp.example:2222/grp/proj.git", Remote{"git.corp.example", KindGitLab, "grp/proj"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseRemote(tt.in, hosts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, *got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, err := ParseRemote("https://bitbucket.org/a/b.git", hosts); !errors.Is(err, ErrInput) {
		t.Errorf("unknown host: err = %v, want ErrInput", err)
	}
}

func TestRef_KeyAndStringNameTheChange(t *testing.T) {
	gh := Ref{Host: "github.com", Kind: KindGitHub, Repo: "acme/tool", Number: 12}
	gl := Ref{Host: "gitlab.com", Kind: KindGitLab, Repo: "g/s/p", Number: 3}
	got := []string{gh.Key(), gh.String(), gh.Owner(), gh.Name(), gl.Key(), gl.String(), gl.Name()}
	want := []string{"github.com/acme/tool/12", "github.com/acme/tool#12", "acme", "tool", "gitlab.com/g/s/p/3", "gitlab.com/g/s/p!3", "p"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
