package forgetest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v93/github"
	gitlab "gitlab.com/gitlab-org/api/client-go"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
)

// gqlAnswer is a GraphQL answer as the tests read it.
type gqlAnswer struct {
	Data   json.RawMessage  `json:"data"`
	Errors []map[string]any `json:"errors"`
}

// postGraphQL sends body to the fake's GraphQL endpoint: /graphql, or
// /api/graphql beside an Enterprise-shaped fake's /api/v3/.
func postGraphQL(t *testing.T, g *forgetest.GitHub, token string, body []byte) (int, gqlAnswer) {
	t.Helper()
	endpoint := strings.TrimSuffix(strings.TrimSuffix(g.URL(), "/"), "/v3") + "/graphql"
	req, err := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := g.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ans gqlAnswer
	if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil {
		t.Fatalf("answer is not JSON: %v", err)
	}
	return resp.StatusCode, ans
}

func query(t *testing.T, g *forgetest.GitHub, q string, vars map[string]any) gqlAnswer {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": q, "variables": vars})
	status, ans := postGraphQL(t, g, g.Token(), body)
	if status != http.StatusOK {
		t.Fatalf("status %d, want 200: %+v", status, ans.Errors)
	}
	return ans
}

const threadsQuery = `query($owner: String!, $name: String!, $number: Int!, $cursor: String, $first: Int) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: $first, after: $cursor) {
        totalCount
        pageInfo { hasNextPage endCursor }
        nodes {
          resolved: isResolved
          isOutdated
          path
          comments(first: 1) { totalCount nodes { databaseId fullDatabaseId } }
        }
      }
    }
  }
}`

type threadsPage struct {
	Repository struct {
		PullRequest struct {
			ReviewThreads struct {
				TotalCount int
				PageInfo   struct {
					HasNextPage bool
					EndCursor   *string
				}
				Nodes []struct {
					Resolved   bool
					IsOutdated bool
					Path       string
					Comments   struct {
						TotalCount int
						Nodes      []struct {
							DatabaseID     int64
							FullDatabaseID string
						}
					}
				}
			}
		}
	}
}

func TestFakeGitHubGraphQL_PagesReviewThreadsWithTheirResolvedState(t *testing.T) {
	g, _, ref := newGitHub(t, forgetest.GitHubOptions{}, reviewerToken(t))
	var ids []string
	for i := range 5 {
		ids = append(ids, g.SeedThread(ref, forgetest.ThreadSeed{Path: "main.go", Side: changeset.SideNew, Line: 9,
			Body: fmt.Sprintf("thread %d", i), Replies: []string{"reply"}}))
	}
	g.Resolve(ref, ids[1])
	g.Resolve(ref, ids[4])
	vars := map[string]any{"owner": "acme", "name": "tool", "number": 7, "first": 2}
	var got []string
	pages := 0
	for {
		ans := query(t, g, threadsQuery, vars)
		if len(ans.Errors) > 0 {
			t.Fatalf("errors: %v", ans.Errors)
		}
		var page threadsPage
		if err := json.Unmarshal(ans.Data, &page); err != nil {
			t.Fatal(err)
		}
		pages++
		rt := page.Repository.PullRequest.ReviewThreads
		if rt.TotalCount != 5 {
			t.Errorf("totalCount = %d, want 5", rt.TotalCount)
		}
		for _, n := range rt.Nodes {
			c := n.Comments.Nodes[0]
			got = append(got, fmt.Sprintf("%d=%s %v %v %s %d", c.DatabaseID, c.FullDatabaseID, n.Resolved, n.IsOutdated, n.Path, n.Comments.TotalCount))
		}
		if !rt.PageInfo.HasNextPage {
			break
		}
		vars["cursor"] = *rt.PageInfo.EndCursor
	}
	var want []string
	for i, id := range ids {
		want = append(want, fmt.Sprintf("%s=%s %v false main.go 2", id, id, i == 1 || i == 4))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("threads (-want +got):\n%s", d)
	}
	if pages != 3 {
		t.Errorf("read %d pages of 2 for 5 threads, want 3", pages)
	}
}

func TestFakeGitHubGraphQL_RefusesWhatGitHubRefusesAndRecordsTheViolation(t *testing.T) {
	vars := map[string]any{"owner": "acme", "name": "tool", "number": 7}
	threads := func(args, fields string) string {
		return `query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) {
		  pullRequest(number: $number) { reviewThreads` + args + ` { nodes { ` + fields + ` } } } } }`
	}
	tests := []struct {
		name   string
		body   any
		status int
		want   string
	}{
		{"unknown field", map[string]any{"query": threads("(first: 10)", "isResolve"), "variables": vars}, 200,
			"Field 'isResolve' doesn't exist on type 'PullRequestReviewThread'"},
		{"more than 100", map[string]any{"query": threads("(first: 101)", "isResolved"), "variables": vars}, 200,
			"Requesting 101 records on the `reviewThreads` connection exceeds the `first` limit of 100 records."},
		{"no first or last", map[string]any{"query": threads("", "isResolved"), "variables": vars}, 200,
			"You must provide a `first` or `last` value to properly paginate the `reviewThreads` connection."},
		{"variable missing", map[string]any{"query": threads("(first: 10)", "isResolved"), "variables": map[string]any{"owner": "acme", "name": "tool"}}, 200,
			"Variable $number of type Int! was provided invalid value"},
		{"variable mistyped", map[string]any{"query": threads("(first: 10)", "isResolved"), "variables": map[string]any{"owner": "acme", "name": "tool", "number": "seven"}}, 200,
			"Variable $number of type Int! was provided invalid value"},
		{"a cursor never given", map[string]any{"query": threads(`(first: 10, after: "Y3Vyc29yOnYyOjE=")`, "isResolved"), "variables": vars}, 200,
			"does not appear to be a valid cursor"},
		{"a mutation", map[string]any{"query": `mutation { resolveReviewThread(input: {threadId: "x"}) { clientMutationId } }`}, 200,
			`does not support operation type "mutation"`},
		{"unknown body field", map[string]any{"query": threads("(first: 10)", "isResolved"), "variables": vars, "variable": 1}, 400,
			"Problems parsing JSON"},
		{"not JSON", "query { }", 400, "Problems parsing JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _, _ := newGitHub(t, forgetest.GitHubOptions{}, reviewerToken(t))
			body, _ := json.Marshal(tt.body)
			if s, ok := tt.body.(string); ok {
				body = []byte(s)
			}
			status, ans := postGraphQL(t, g, g.Token(), body)
			if status != tt.status || len(ans.Errors) == 0 {
				t.Fatalf("answer %d %+v, want %d with errors", status, ans, tt.status)
			}
			if msg, _ := ans.Errors[0]["message"].(string); !strings.Contains(msg, tt.want) {
				t.Errorf("message %q, want it to contain %q", msg, tt.want)
			}
			if v := g.TakeViolations(); len(v) != 1 {
				t.Errorf("violations = %q, want one", v)
			}
		})
	}
}

func TestFakeGitHubGraphQL_AnswersAMissingPullAsGitHubDoes(t *testing.T) {
	g, _, _ := newGitHub(t, forgetest.GitHubOptions{}, reviewerToken(t))
	ans := query(t, g, threadsQuery, map[string]any{"owner": "acme", "name": "tool", "number": 99, "first": 10})
	if string(ans.Data) != `{"repository":{"pullRequest":null}}` {
		t.Errorf("data = %s", ans.Data)
	}
	want := []map[string]any{{"type": "NOT_FOUND", "path": []any{"repository", "pullRequest"},
		"locations": []any{map[string]any{"line": 3.0, "column": 5.0}}, "message": "Could not resolve to a PullRequest with the number of 99."}}
	if d := cmp.Diff(want, ans.Errors); d != "" {
		t.Errorf("errors (-want +got):\n%s", d)
	}
}

func TestFakeGitHubGraphQL_StandsInForHostsWithoutIt(t *testing.T) {
	body, _ := json.Marshal(map[string]any{"query": threadsQuery, "variables": map[string]any{"owner": "acme", "name": "tool", "number": 7, "first": 1}})
	t.Run("a field the schema lacks is refused without a violation", func(t *testing.T) {
		g, _, _ := newGitHub(t, forgetest.GitHubOptions{GraphQLMissingFields: []string{"PullRequestReviewThread.isResolved"}}, reviewerToken(t))
		_, ans := postGraphQL(t, g, g.Token(), body)
		want := []map[string]any{{"message": "Field 'isResolved' doesn't exist on type 'PullRequestReviewThread'",
			"locations":  []any{map[string]any{"line": 8.0, "column": 11.0}},
			"extensions": map[string]any{"code": "undefinedField", "typeName": "PullRequestReviewThread", "fieldName": "isResolved"}}}
		if d := cmp.Diff(want, ans.Errors); d != "" {
			t.Errorf("errors (-want +got):\n%s", d)
		}
	})
	t.Run("no endpoint", func(t *testing.T) {
		g, _, _ := newGitHub(t, forgetest.GitHubOptions{GraphQLStatus: http.StatusGone}, reviewerToken(t))
		if status, _ := postGraphQL(t, g, g.Token(), body); status != http.StatusGone {
			t.Errorf("status %d, want 410", status)
		}
	})
	t.Run("a bad token", func(t *testing.T) {
		g, _, _ := newGitHub(t, forgetest.GitHubOptions{}, reviewerToken(t))
		if status, _ := postGraphQL(t, g, "nope", body); status != http.StatusUnauthorized {
			t.Errorf("status %d, want 401", status)
		}
	})
}

func TestFakeGitHub_EnterpriseServesRESTUnderAPIV3AndGraphQLBesideIt(t *testing.T) {
	g := forgetest.NewGitHub(t, forgetest.GitHubOptions{Enterprise: true})
	ref := g.AddPull(forgetest.PullSeed{Repo: "acme/tool", Number: 7, Title: "t", Base: baseSHA, Head: headSHA, Patch: readPatch(t)})
	g.SeedThread(ref, forgetest.ThreadSeed{Path: "main.go", Side: changeset.SideNew, Line: 9, Body: "why?"})
	if !strings.HasSuffix(g.URL(), "/api/v3/") {
		t.Fatalf("URL = %s, want the /api/v3/ root", g.URL())
	}
	url := g.URL()
	c, err := github.NewClient(github.WithHTTPClient(g.Client()), github.WithURLs(&url, &url), github.WithAuthToken(g.Token()))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.PullRequests.ListComments(context.Background(), "acme", "tool", 7, &github.PullRequestListCommentsOptions{}); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"query": threadsQuery, "variables": map[string]any{"owner": "acme", "name": "tool", "number": 7, "first": 1}})
	status, ans := postGraphQL(t, g, g.Token(), body)
	if status != http.StatusOK || len(ans.Errors) > 0 || !strings.Contains(string(ans.Data), `"totalCount":1`) {
		t.Errorf("POST /api/graphql = %d %s %v", status, ans.Data, ans.Errors)
	}
	want := []string{"GET /api/v3/repos/acme/tool/pulls/7/comments", "POST /api/graphql"}
	if d := cmp.Diff(want, g.Requests()); d != "" {
		t.Errorf("requests (-want +got):\n%s", d)
	}
}

func TestFakeGitLab_ResolveMarksTheDiscussionsNotesResolved(t *testing.T) {
	g, c, ref := newGitLab(t, forgetest.GitLabOptions{})
	g.SeedThread(ref, forgetest.ThreadSeed{Path: "main.go", Side: changeset.SideNew, Line: 9, Body: "open"})
	done := g.SeedThread(ref, forgetest.ThreadSeed{Path: "main.go", Side: changeset.SideNew, Line: 9, Body: "done", Replies: []string{"fixed"}})
	g.Resolve(ref, done)
	ds, _, err := c.Discussions.ListMergeRequestDiscussions(glProject, 7, &gitlab.ListMergeRequestDiscussionsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		for _, n := range d.Notes {
			got = append(got, fmt.Sprintf("%v %s %v by %q", d.ID == done, n.Body, n.Resolved, n.ResolvedBy.Username))
		}
	}
	want := []string{`false open false by ""`, `true done true by "author"`, `true fixed true by "author"`}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
}
