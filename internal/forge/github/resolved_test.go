package github_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
	"github.com/leanreview/leanreview/internal/forge/github"
)

// seedThreads puts two threads on the fake's pull request, resolves the
// first, and returns their ids.
func seedThreads(t *testing.T, g *forgetest.GitHub, ref forge.Ref) []string {
	t.Helper()
	var ids []string
	for i := range 2 {
		ids = append(ids, g.SeedThread(ref, forgetest.ThreadSeed{Path: "main.go", Side: changeset.SideNew, Line: 9, Body: fmt.Sprintf("thread %d", i)}))
	}
	g.Resolve(ref, ids[0])
	return ids
}

func resolvedOf(t *testing.T, threads []forge.Thread) []bool {
	t.Helper()
	var out []bool
	for _, th := range threads {
		out = append(out, th.Resolved)
	}
	return out
}

// graphQLPosts counts the GraphQL requests the fake has had.
func graphQLPosts(g *forgetest.GitHub) int {
	n := 0
	for _, r := range g.Requests() {
		if strings.HasPrefix(r, "POST ") && strings.HasSuffix(r, "/graphql") {
			n++
		}
	}
	return n
}

func TestThreads_AsksForDatabaseIDWhereTheSchemaLacksFullDatabaseID(t *testing.T) {
	g := forgetest.NewGitHub(t, forgetest.GitHubOptions{GraphQLMissingFields: []string{"PullRequestReviewComment.fullDatabaseId"}})
	ref := seed(t, g)
	seedThreads(t, g, ref)
	c := newClient(t, g)
	for round, wantPosts := range []int{2, 3} {
		threads, err := c.Threads(context.Background(), ref)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]bool{true, false}, resolvedOf(t, threads)); d != "" {
			t.Errorf("round %d: resolved (-want +got):\n%s", round, d)
		}
		// The refused query is asked once, then the Client remembers.
		if got := graphQLPosts(g); got != wantPosts {
			t.Errorf("round %d: %d GraphQL requests so far, want %d", round, got, wantPosts)
		}
	}
}

func TestThreads_WithoutGraphQLReadUnresolvedAndStopAsking(t *testing.T) {
	tests := []struct {
		name string
		opts forgetest.GitHubOptions
	}{
		{"404", forgetest.GitHubOptions{GraphQLStatus: http.StatusNotFound}},
		{"410", forgetest.GitHubOptions{GraphQLStatus: http.StatusGone}},
		{"no isResolved", forgetest.GitHubOptions{GraphQLMissingFields: []string{"PullRequestReviewThread.isResolved"}}},
		{"no reviewThreads", forgetest.GitHubOptions{GraphQLMissingFields: []string{"PullRequest.reviewThreads"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := forgetest.NewGitHub(t, tt.opts)
			ref := seed(t, g)
			seedThreads(t, g, ref)
			c := newClient(t, g)
			for range 2 {
				threads, err := c.Threads(context.Background(), ref)
				if err != nil {
					t.Fatalf("Threads = %v, want no error", err)
				}
				if d := cmp.Diff([]bool{false, false}, resolvedOf(t, threads)); d != "" {
					t.Errorf("resolved (-want +got):\n%s", d)
				}
				if len(threads[0].Comments) != 1 || threads[0].Comments[0].Body != "thread 0" {
					t.Errorf("thread 0 = %+v", threads[0])
				}
			}
			if got := graphQLPosts(g); got != 1 {
				t.Errorf("%d GraphQL requests over two reads, want 1", got)
			}
		})
	}
}

func TestThreads_RetriesGraphQLOutagesAndRateLimitsThroughTheSleeper(t *testing.T) {
	g := forgetest.NewGitHub(t, forgetest.GitHubOptions{})
	ref := seed(t, g)
	seedThreads(t, g, ref)
	clock := forgetest.NewClock(time.Now())
	c, err := github.New(github.Options{BaseURL: g.URL(), Token: g.Token(), HTTPClient: g.Client(), Sleeper: clock, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	g.Inject(forgetest.Fault{Kind: forgetest.FaultServerError, Method: "POST", Nth: 1},
		forgetest.Fault{Kind: forgetest.FaultDropBeforeCommit, Method: "POST", Nth: 2},
		forgetest.Fault{Kind: forgetest.FaultSecondaryLimit403, Method: "POST", Nth: 3, RetryAfter: 9 * time.Second})
	threads, err := c.Threads(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]bool{true, false}, resolvedOf(t, threads)); d != "" {
		t.Errorf("resolved (-want +got):\n%s", d)
	}
	if fired := g.Fired(); len(fired) != 3 {
		t.Errorf("fired = %v", fired)
	}
	if sleeps := clock.Sleeps(); len(sleeps) != 3 || sleeps[2] != 9*time.Second {
		t.Errorf("sleeps = %v, want three, the last the host's 9s", sleeps)
	}
}

func TestThreads_GraphQLThatKeepsFailingIsAnErrorInWords(t *testing.T) {
	g := forgetest.NewGitHub(t, forgetest.GitHubOptions{})
	ref := seed(t, g)
	seedThreads(t, g, ref)
	for n := 1; n <= 4; n++ {
		g.Inject(forgetest.Fault{Kind: forgetest.FaultServerError, Method: "POST", Nth: n})
	}
	_, err := newClient(t, g).Threads(context.Background(), ref)
	want := "GitHub unavailable for read the resolved state of the review threads of acme/greeter#3 (page 1) (500) after 4 tries: Server Error"
	if !errors.Is(err, forge.ErrUnavailable) || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// canned is a GraphQL endpoint that answers from a script and records
// what it was sent.
type canned struct {
	srv *httptest.Server

	mu      sync.Mutex
	answers []cannedAnswer
	got     []cannedRequest
}

type cannedAnswer struct {
	status int
	header map[string]string
	body   string
}

type cannedRequest struct {
	Method, Path, Auth string
	Query              string
	Variables          map[string]any
}

func newCanned(t *testing.T, answers ...cannedAnswer) *canned {
	t.Helper()
	c := &canned{answers: answers}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Query     string         `json:"query"`
			Variables map[string]any `json:"variables"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("canned GraphQL: body %s: %v", body, err)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.got = append(c.got, cannedRequest{r.Method, r.URL.Path, r.Header.Get("Authorization"), req.Query, req.Variables})
		if len(c.answers) == 0 {
			t.Errorf("canned GraphQL: unexpected request %d", len(c.got))
			w.WriteHeader(http.StatusTeapot)
			return
		}
		a := c.answers[0]
		c.answers = c.answers[1:]
		for k, v := range a.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		_, _ = io.WriteString(w, a.body)
	}))
	t.Cleanup(c.srv.Close)
	t.Cleanup(func() {
		if len(c.answers) > 0 {
			t.Errorf("canned GraphQL: %d answers never asked for", len(c.answers))
		}
	})
	return c
}

// threadsAnswer is a one-page answer saying which thread ids are resolved.
func threadsAnswer(ids []string, resolved ...bool) string {
	var nodes []string
	for i, id := range ids {
		nodes = append(nodes, fmt.Sprintf(`{"isResolved":%v,"isOutdated":false,"comments":{"nodes":[{"fullDatabaseId":%q}]}}`, resolved[i], id))
	}
	return `{"data":{"repository":{"pullRequest":{"reviewThreads":{"pageInfo":{"hasNextPage":false,"endCursor":null},"nodes":[` +
		strings.Join(nodes, ",") + `]}}}}}`
}

// cannedClient reads REST from the fake and GraphQL from c.
func cannedClient(t *testing.T, g *forgetest.GitHub, c *canned, clock *forgetest.Clock) *github.Client {
	t.Helper()
	cl, err := github.New(github.Options{BaseURL: g.URL(), GraphQLURL: c.srv.URL + "/elsewhere/graphql", Token: g.Token(),
		Sleeper: clock, Now: clock.Now, Retry: forge.RetryPolicy{Attempts: 3, Base: time.Second, Max: time.Second, MaxWait: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

func TestThreads_SendsTheQueryToTheGraphQLURLOfTheOptionsWithTheToken(t *testing.T) {
	g := forgetest.NewGitHub(t, forgetest.GitHubOptions{})
	ref := seed(t, g)
	ids := seedThreads(t, g, ref)
	c := newCanned(t, cannedAnswer{status: 200, body: threadsAnswer(ids, false, true)})
	threads, err := cannedClient(t, g, c, forgetest.NewClock(time.Now())).Threads(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]bool{false, true}, resolvedOf(t, threads)); d != "" {
		t.Errorf("resolved (-want +got):\n%s", d)
	}
	got := c.got[0]
	if got.Method != "POST" || got.Path != "/elsewhere/graphql" || got.Auth != "Bearer "+g.Token() {
		t.Errorf("request = %s %s %q", got.Method, got.Path, got.Auth)
	}
	if !strings.Contains(got.Query, "reviewThreads(first: 100, after: $cursor)") || !strings.Contains(got.Query, "isResolved") {
		t.Errorf("query = %s", got.Query)
	}
	if d := cmp.Diff(map[string]any{"owner": "acme", "name": "greeter", "number": 3.0, "cursor": nil}, got.Variables); d != "" {
		t.Errorf("variables (-want +got):\n%s", d)
	}
}

func TestThreads_ExplainsGraphQLErrorsLikeTheRESTStatusTheyStandFor(t *testing.T) {
	gqlErr := func(typ, msg string) string {
		return fmt.Sprintf(`{"data":{"repository":null},"errors":[{"type":%q,"path":["repository"],"message":%q}]}`, typ, msg)
	}
	tests := []struct {
		name    string
		answers []cannedAnswer
		class   error
		want    string
	}{
		{"not found", []cannedAnswer{{200, nil, gqlErr("NOT_FOUND", "Could not resolve to a Repository with the name 'acme/greeter'.")}},
			forge.ErrNotFound, "GitHub found nothing for read the resolved state of the review threads of acme/greeter#3 (page 1) (404): Could not resolve to a Repository with the name 'acme/greeter'."},
		{"forbidden", []cannedAnswer{{200, nil, gqlErr("FORBIDDEN", "Resource not accessible by integration")}},
			forge.ErrForbidden, "GitHub refused read the resolved state of the review threads of acme/greeter#3 (page 1) (403): Resource not accessible by integration"},
		{"scopes", []cannedAnswer{{200, nil, gqlErr("INSUFFICIENT_SCOPES", "Your token has not been granted the required scopes.")}},
			forge.ErrForbidden, "Your token has not been granted the required scopes."},
		{"unknown type", []cannedAnswer{{200, nil, gqlErr("ARGUMENT_LIMIT", "Too many arguments.")}},
			forge.ErrRejected, "GitHub rejected read the resolved state of the review threads of acme/greeter#3 (page 1) (422): Too many arguments."},
		{"bad token", []cannedAnswer{{401, nil, `{"message":"Bad credentials","documentation_url":"https://docs.github.com/graphql"}`}},
			forge.ErrUnauthorized, "GitHub rejected the token (401)"},
		{"always something wrong", []cannedAnswer{
			{200, nil, `{"data":null,"errors":[{"message":"Something went wrong while executing your query. Please include ABC when reporting this issue."}]}`},
			{502, nil, `{"message":"Server Error"}`},
			{200, nil, `{"data":null,"errors":[{"message":"Something went wrong while executing your query."}]}`}},
			forge.ErrUnavailable, "GitHub unavailable for read the resolved state of the review threads of acme/greeter#3 (page 1) (502) after 3 tries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := forgetest.NewGitHub(t, forgetest.GitHubOptions{})
			ref := seed(t, g)
			seedThreads(t, g, ref)
			c := newCanned(t, tt.answers...)
			_, err := cannedClient(t, g, c, forgetest.NewClock(time.Now())).Threads(context.Background(), ref)
			if !errors.Is(err, tt.class) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v\nwant %v containing %q", err, tt.class, tt.want)
			}
		})
	}
}

func TestThreads_WaitsOutASpentGraphQLQuota(t *testing.T) {
	g := forgetest.NewGitHub(t, forgetest.GitHubOptions{})
	ref := seed(t, g)
	ids := seedThreads(t, g, ref)
	clock := forgetest.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	reset := strconv.FormatInt(clock.Now().Add(40*time.Second).Unix(), 10)
	c := newCanned(t,
		cannedAnswer{200, map[string]string{"X-Ratelimit-Remaining": "0", "X-Ratelimit-Reset": reset},
			`{"errors":[{"type":"RATE_LIMITED","message":"API rate limit exceeded for user ID 101."}]}`},
		cannedAnswer{200, nil, threadsAnswer(ids, true, true)})
	threads, err := cannedClient(t, g, c, clock).Threads(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]bool{true, true}, resolvedOf(t, threads)); d != "" {
		t.Errorf("resolved (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]time.Duration{40 * time.Second}, clock.Sleeps()); d != "" {
		t.Errorf("sleeps (-want +got):\n%s", d)
	}
}

func TestThreads_RefusesAPageThatNamesNoNextCursor(t *testing.T) {
	g := forgetest.NewGitHub(t, forgetest.GitHubOptions{})
	ref := seed(t, g)
	seedThreads(t, g, ref)
	c := newCanned(t, cannedAnswer{200, nil, `{"data":{"repository":{"pullRequest":{"reviewThreads":{"pageInfo":{"hasNextPage":true,"endCursor":null},"nodes":[]}}}}}`})
	_, err := cannedClient(t, g, c, forgetest.NewClock(time.Now())).Threads(context.Background(), ref)
	if !errors.Is(err, forge.ErrUnavailable) || !strings.Contains(err.Error(), "named no cursor") {
		t.Errorf("err = %v", err)
	}
}
