package forgetest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v93/github"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
)

const (
	baseSHA = "203bff28dc8d1e8dd0ed444c0efd7d9851984d8b"
	headSHA = "6576ec336a748f565323690665bb7b6c6f381d71"
)

func readPatch(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/review.patch")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// newGitHub starts a fake with the fixture pull request acme/tool#7 and a
// go-github client logged in as token's user.
func newGitHub(t *testing.T, opts forgetest.GitHubOptions, token string) (*forgetest.GitHub, *github.Client, forge.Ref) {
	t.Helper()
	g := forgetest.NewGitHub(t, opts)
	ref := g.AddPull(forgetest.PullSeed{Repo: "acme/tool", Number: 7, Title: "Greet the world", Base: baseSHA, Head: headSHA, Patch: readPatch(t)})
	url := g.URL()
	c, err := github.NewClient(github.WithHTTPClient(g.Client()), github.WithURLs(&url, &url), github.WithAuthToken(token), github.WithDisableRateLimitCheck())
	if err != nil {
		t.Fatal(err)
	}
	return g, c, ref
}

func reviewerToken(t *testing.T) string {
	t.Helper()
	return forgetest.NewGitHub(t, forgetest.GitHubOptions{}).Token()
}

func statusOf(t *testing.T, err error) (int, *github.ErrorResponse) {
	t.Helper()
	var er *github.ErrorResponse
	if !errors.As(err, &er) {
		t.Fatalf("err = %v, want a GitHub error answer", err)
	}
	return er.Response.StatusCode, er
}

func TestFakeGitHub_ServesPullAndDiffWithinTheSpec(t *testing.T) {
	_, c, _ := newGitHub(t, forgetest.GitHubOptions{}, reviewerToken(t))
	ctx := context.Background()
	pr, _, err := c.PullRequests.Get(ctx, "acme", "tool", 7)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{pr.GetTitle(), pr.GetUser().GetLogin(), pr.GetBase().GetSHA(), pr.GetHead().GetSHA(), pr.GetState()}
	if d := cmp.Diff([]string{"Greet the world", forgetest.GitHubAuthor, baseSHA, headSHA, "open"}, got); d != "" {
		t.Errorf("pull (-want +got):\n%s", d)
	}
	diff, _, err := c.PullRequests.GetRaw(ctx, "acme", "tool", 7, github.RawOptions{Type: github.Diff})
	if err != nil {
		t.Fatal(err)
	}
	if diff != string(readPatch(t)) {
		t.Error("diff differs from the seeded patch")
	}
	files, _, err := c.PullRequests.ListFiles(ctx, "acme", "tool", 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.GetStatus()+":"+f.GetFilename()+"<"+f.GetPreviousFilename())
	}
	want := []string{"removed:gone.txt<", "modified:logo.png<", "modified:main.go<", "renamed:notes.txt<old.txt", "added:version.go<"}
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	me, _, err := c.Users.Get(ctx, "")
	if err != nil || me.GetLogin() != forgetest.GitHubReviewer {
		t.Errorf("GET /user = %v, %v", me.GetLogin(), err)
	}
}

func TestFakeGitHub_RejectsAWholeReviewWhenOneLineIsOutsideTheDiff(t *testing.T) {
	g, c, ref := newGitHub(t, forgetest.GitHubOptions{}, reviewerToken(t))
	_, _, err := c.PullRequests.CreateReview(context.Background(), "acme", "tool", 7, &github.PullRequestReviewRequest{
		CommitID: new(headSHA), Event: new("COMMENT"), Body: new("two remarks"),
		Comments: []*github.DraftReviewComment{
			{Path: new("main.go"), Line: new(9), Side: new("RIGHT"), Body: new("fine")},
			{Path: new("main.go"), Line: new(20), Side: new("RIGHT"), Body: new("outside")},
		}})
	status, er := statusOf(t, err)
	if status != 422 || len(er.Errors) != 1 || !strings.HasPrefix(er.Errors[0].Message, "Pull request review thread line must be part of the diff") {
		t.Errorf("answer = %d %+v", status, er.Errors)
	}
	if got := g.Posted(ref); len(got) != 0 {
		t.Errorf("a rejected review left comments: %+v", got)
	}
	if got := g.Verdicts(ref); len(got) != 0 {
		t.Errorf("a rejected review left a review: %+v", got)
	}
}

func TestFakeGitHub_EnforcesTheRulesTheSchemaDoesNotExpress(t *testing.T) {
	line := func(path string, side string, start, end int) *github.DraftReviewComment {
		c := &github.DraftReviewComment{Path: new(path), Side: new(side), Line: new(end), Body: new("x")}
		if start != 0 {
			c.StartLine, c.StartSide = new(start), new(side)
		}
		return c
	}
	tests := []struct {
		name    string
		token   string
		event   string
		body    string
		comment *github.DraftReviewComment
		want    string
	}{
		{"start after end", "", "COMMENT", "b", line("main.go", "RIGHT", 12, 10), "Pull request review thread start line must precede the end line."},
		{"range across hunks", "", "COMMENT", "b", line("main.go", "RIGHT", 9, 30), "Pull request review thread start line must be part of the same hunk as the line."},
		{"unknown path", "", "COMMENT", "b", line("nope.go", "RIGHT", 0, 1), "Line could not be resolved"},
		{"added line on the left", "", "COMMENT", "b", line("version.go", "LEFT", 0, 1), "Pull request review thread line must be part of the diff"},
		{"request changes without body", "", "REQUEST_CHANGES", "", nil, "Body is required"},
		{"comment without body", "", "COMMENT", "", nil, "Body is required"},
		{"author approves own pull", "author", "APPROVE", "", nil, "Review Can not approve your own pull request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			token := reviewerToken(t)
			if tt.token == "author" {
				token = "ghp_fakeAuthorToken00000000000000000000"
			}
			_, c, _ := newGitHub(t, forgetest.GitHubOptions{}, token)
			req := &github.PullRequestReviewRequest{Event: new(tt.event), Body: new(tt.body)}
			if tt.comment != nil {
				req.Comments = []*github.DraftReviewComment{tt.comment}
			}
			_, _, err := c.PullRequests.CreateReview(context.Background(), "acme", "tool", 7, req)
			status, er := statusOf(t, err)
			if status != 422 || len(er.Errors) == 0 || !strings.HasPrefix(er.Errors[0].Message, tt.want) {
				t.Errorf("answer = %d %+v, want 422 %q", status, er.Errors, tt.want)
			}
		})
	}
}

func TestFakeGitHub_KeepsOnePendingReviewPerUserAndSubmitsItByEvent(t *testing.T) {
	g, c, ref := newGitHub(t, forgetest.GitHubOptions{}, reviewerToken(t))
	ctx := context.Background()
	pending, _, err := c.PullRequests.CreateReview(ctx, "acme", "tool", 7, &github.PullRequestReviewRequest{
		Comments: []*github.DraftReviewComment{{Path: new("notes.txt"), Line: new(20), Side: new("RIGHT"), Body: new("twenty?")}}})
	if err != nil || pending.GetState() != "PENDING" {
		t.Fatalf("pending review: %v %v", pending.GetState(), err)
	}
	if got := g.Posted(ref); len(got) != 1 || !got[0].Pending {
		t.Errorf("posted = %+v, want one pending comment", got)
	}
	_, _, err = c.PullRequests.CreateReview(ctx, "acme", "tool", 7, &github.PullRequestReviewRequest{Event: new("APPROVE")})
	if status, _ := statusOf(t, err); status != 422 {
		t.Errorf("second review while one is pending = %d, want 422", status)
	}
	done, _, err := c.PullRequests.SubmitReview(ctx, "acme", "tool", 7, pending.GetID(), github.PullRequestSubmitReviewRequest{Event: "APPROVE"})
	if err != nil || done.GetState() != "APPROVED" {
		t.Fatalf("submit = %v %v", done.GetState(), err)
	}
	if d := cmp.Diff([]forgetest.Verdict{{Event: forge.EventApprove}}, g.Verdicts(ref)); d != "" {
		t.Errorf("verdicts (-want +got):\n%s", d)
	}
}

func TestFakeGitHub_RepliesGoThroughRepliesAndTheLegacyRouteViolatesTheSpec(t *testing.T) {
	g, c, ref := newGitHub(t, forgetest.GitHubOptions{}, reviewerToken(t))
	root := g.SeedThread(ref, forgetest.ThreadSeed{Path: "main.go", Side: 2, Line: 14, Body: "why?"})
	var id int64
	fmt.Sscan(root, &id)
	ctx := context.Background()
	req, err := c.NewRequest(ctx, "POST", fmt.Sprintf("repos/acme/tool/pulls/7/comments/%d/replies", id), map[string]string{"body": "because"})
	if err != nil {
		t.Fatal(err)
	}
	var reply github.PullRequestComment
	if _, err := c.Do(req, &reply); err != nil {
		t.Fatal(err)
	}
	if reply.GetInReplyTo() != id {
		t.Errorf("reply in_reply_to = %d, want %d", reply.GetInReplyTo(), id)
	}
	_, _, err = c.PullRequests.CreateCommentInReplyTo(ctx, "acme", "tool", 7, "legacy", id)
	if status, _ := statusOf(t, err); status != http.StatusBadRequest {
		t.Errorf("legacy reply = %d, want 400 from the spec check", status)
	}
	if v := g.TakeViolations(); len(v) != 1 || !strings.Contains(v[0], "pulls/create-review-comment") {
		t.Errorf("violations = %q", v)
	}
}

func TestFakeGitHub_AnswersTooLargeForBigDiffsAndPagesFiles(t *testing.T) {
	g, c, _ := newGitHub(t, forgetest.GitHubOptions{MaxDiffFiles: 3}, reviewerToken(t))
	ctx := context.Background()
	_, _, err := c.PullRequests.GetRaw(ctx, "acme", "tool", 7, github.RawOptions{Type: github.Diff})
	status, er := statusOf(t, err)
	if status != 406 || len(er.Errors) != 1 || er.Errors[0].Code != "too_large" {
		t.Errorf("big diff = %d %+v, want 406 too_large", status, er.Errors)
	}
	files, resp, err := c.PullRequests.ListFiles(ctx, "acme", "tool", 7, &github.ListOptions{PerPage: 2})
	if err != nil || len(files) != 2 || resp.NextPage != 2 || resp.LastPage != 3 {
		t.Errorf("page 1: %d files, next %d, last %d, %v", len(files), resp.NextPage, resp.LastPage, err)
	}
	if len(g.Violations()) != 0 {
		t.Errorf("violations: %q", g.Violations())
	}
}

func TestFakeGitHub_RejectsABadTokenWith401(t *testing.T) {
	_, c, _ := newGitHub(t, forgetest.GitHubOptions{}, "ghp_wrong")
	_, _, err := c.PullRequests.Get(context.Background(), "acme", "tool", 7)
	if status, er := statusOf(t, err); status != 401 || er.Message != "Bad credentials" {
		t.Errorf("answer = %d %q", status, er.Message)
	}
}

func TestFakeGitHub_DropAfterCommitKeepsTheReview(t *testing.T) {
	g, c, ref := newGitHub(t, forgetest.GitHubOptions{}, reviewerToken(t))
	g.Inject(forgetest.Fault{Kind: forgetest.FaultDropAfterCommit, Method: "POST", Nth: 1})
	_, _, err := c.PullRequests.CreateReview(context.Background(), "acme", "tool", 7, &github.PullRequestReviewRequest{
		Event: new("COMMENT"), Body: new("lost answer")})
	if err == nil {
		t.Fatal("a dropped connection gave no error")
	}
	if d := cmp.Diff([]forgetest.Verdict{{Event: forge.EventComment, Body: "lost answer"}}, g.Verdicts(ref)); d != "" {
		t.Errorf("verdicts (-want +got):\n%s", d)
	}
}
