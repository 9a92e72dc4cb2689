package forgetest_test

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gitlab "gitlab.com/gitlab-org/api/client-go"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
)

const glProject = "acme/tools/greeter"

// newGitLab starts a fake with the fixture merge request !7 and a
// client-go client as the reviewer.
func newGitLab(t *testing.T, opts forgetest.GitLabOptions) (*forgetest.GitLab, *gitlab.Client, forge.Ref) {
	t.Helper()
	g := forgetest.NewGitLab(t, opts)
	ref := g.Seed(forgetest.ChangeSeed{Repo: glProject, Number: 7, Title: "Greet the world", Base: baseSHA, Head: headSHA, Patch: readPatch(t)})
	return g, glClient(t, g, g.Token()), ref
}

func glClient(t *testing.T, g *forgetest.GitLab, token string) *gitlab.Client {
	t.Helper()
	c, err := gitlab.NewClient(token, gitlab.WithBaseURL(g.URL()), gitlab.WithHTTPClient(g.Client()), gitlab.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func code(path string, old, new int) string {
	sum := sha1.Sum([]byte(path))
	return fmt.Sprintf("%s_%d_%d", hex.EncodeToString(sum[:]), old, new)
}

func pos(newLine, oldLine int64) *gitlab.PositionOptions {
	p := &gitlab.PositionOptions{BaseSHA: new(baseSHA), StartSHA: new(baseSHA), HeadSHA: new(headSHA),
		PositionType: new("text"), OldPath: new("main.go"), NewPath: new("main.go")}
	if newLine != 0 {
		p.NewLine = new(newLine)
	}
	if oldLine != 0 {
		p.OldLine = new(oldLine)
	}
	return p
}

func glStatus(t *testing.T, resp *gitlab.Response, err error) (int, string) {
	t.Helper()
	if err == nil {
		t.Fatal("want an error answer, got success")
	}
	var er *gitlab.ErrorResponse
	if errors.As(err, &er) {
		return er.Response.StatusCode, er.Message
	}
	if resp != nil {
		return resp.StatusCode, err.Error()
	}
	t.Fatalf("err = %v, want an answer", err)
	return 0, ""
}

func TestFakeGitLab_ServesDiffRefsVersionsAndPagedDiffs(t *testing.T) {
	g, c, ref := newGitLab(t, forgetest.GitLabOptions{})
	mr, _, err := c.MergeRequests.GetMergeRequest(glProject, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{mr.Title, mr.Author.Username, mr.State, mr.DiffRefs.BaseSha, mr.DiffRefs.StartSha, mr.DiffRefs.HeadSha}
	if d := cmp.Diff([]string{"Greet the world", "author", "opened", baseSHA, baseSHA, headSHA}, got); d != "" {
		t.Errorf("merge request (-want +got):\n%s", d)
	}
	g.Push(ref, "2222222222222222222222222222222222222222", readPatch(t))
	versions, _, err := c.MergeRequests.GetMergeRequestDiffVersions(glProject, 7, nil)
	if err != nil || len(versions) != 2 || versions[0].HeadCommitSHA != "2222222222222222222222222222222222222222" {
		t.Fatalf("versions = %+v, %v: want two, newest first", versions, err)
	}
	diffs, resp, err := c.MergeRequests.ListMergeRequestDiffs(glProject, 7, &gitlab.ListMergeRequestDiffsOptions{ListOptions: gitlab.ListOptions{PerPage: 2}})
	if err != nil || len(diffs) != 2 || resp.NextPage != 2 || resp.TotalPages != 3 {
		t.Fatalf("diffs page 1: %d, next %d, pages %d, %v", len(diffs), resp.NextPage, resp.TotalPages, err)
	}
	if !diffs[0].DeletedFile || diffs[0].OldPath != "gone.txt" || !strings.HasPrefix(diffs[0].Diff, "@@ -1 +0,0 @@") {
		t.Errorf("first diff = %+v", diffs[0])
	}
}

func TestFakeGitLab_ValidatesPositionsLikeGitLab(t *testing.T) {
	lineRange := func(startCode, startType, endCode, endType string) *gitlab.LineRangeOptions {
		return &gitlab.LineRangeOptions{Start: &gitlab.LinePositionOptions{LineCode: new(startCode), Type: new(startType)},
			End: &gitlab.LinePositionOptions{LineCode: new(endCode), Type: new(endType)}}
	}
	withRange := func(p *gitlab.PositionOptions, r *gitlab.LineRangeOptions) *gitlab.PositionOptions {
		p.LineRange = r
		return p
	}
	noStart := pos(9, 0)
	noStart.StartSHA = nil
	tests := []struct {
		name   string
		pos    *gitlab.PositionOptions
		status int
		msg    string
	}{
		{"added line carries new_line", pos(9, 0), 201, ""},
		{"removed line carries old_line", pos(0, 8), 201, ""},
		{"context line carries both", pos(10, 9), 201, ""},
		{"range of added lines", withRange(pos(14, 0), lineRange(code("main.go", 11, 11), "new", code("main.go", 11, 14), "new")), 201, ""},
		{"context line with new_line only", pos(10, 0), 400, `Note {:line_code=>["can't be blank", "must be a valid line code"]}`},
		{"added line with old_line too", pos(9, 8), 400, "must be a valid line code"},
		{"line outside the diff", pos(20, 0), 400, "must be a valid line code"},
		{"range with a wrong code", withRange(pos(14, 0), lineRange(code("main.go", 99, 99), "new", code("main.go", 11, 14), "new")), 400, "must be a valid line code"},
		{"range with the wrong type", withRange(pos(14, 0), lineRange(code("main.go", 11, 11), "old", code("main.go", 11, 14), "new")), 400, "must be a valid line code"},
		{"missing start_sha", noStart, 400, "position[start_sha] is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, c, _ := newGitLab(t, forgetest.GitLabOptions{})
			d, resp, err := c.Discussions.CreateMergeRequestDiscussion(glProject, 7, &gitlab.CreateMergeRequestDiscussionOptions{Body: new("x"), Position: tt.pos})
			if tt.status == 201 {
				if err != nil || d.Notes[0].Position == nil {
					t.Fatalf("create: %v", err)
				}
				return
			}
			status, msg := glStatus(t, resp, err)
			if status != tt.status || !strings.Contains(msg, tt.msg) {
				t.Errorf("answer = %d %q, want %d containing %q", status, msg, tt.status, tt.msg)
			}
		})
	}
}

func TestFakeGitLab_ApprovalRulesAndReplies(t *testing.T) {
	g, c, ref := newGitLab(t, forgetest.GitLabOptions{})
	if _, _, err := c.MergeRequestApprovals.ApproveMergeRequest(glProject, 7, &gitlab.ApproveMergeRequestOptions{SHA: new(headSHA)}); err != nil {
		t.Fatal(err)
	}
	_, resp, err := c.MergeRequestApprovals.ApproveMergeRequest(glProject, 7, nil)
	if status, msg := glStatus(t, resp, err); status != 401 || !strings.Contains(msg, "401 Unauthorized") {
		t.Errorf("second approval = %d %q, want 401", status, msg)
	}
	if _, err := c.MergeRequestApprovals.UnapproveMergeRequest(glProject, 7); err != nil {
		t.Fatal(err)
	}
	resp, err = c.MergeRequestApprovals.UnapproveMergeRequest(glProject, 7)
	if status, _ := glStatus(t, resp, err); status != 404 {
		t.Errorf("unapprove when not approved = %d, want 404", status)
	}
	thread := g.SeedThread(ref, forgetest.ThreadSeed{Path: "main.go", Side: 2, Line: 11, Body: "Why?"})
	note, _, err := c.Discussions.AddMergeRequestDiscussionNote(glProject, 7, thread, &gitlab.AddMergeRequestDiscussionNoteOptions{Body: new("Because.")})
	if err != nil || note.Position == nil || note.Position.NewLine != 11 {
		t.Fatalf("reply = %+v, %v", note, err)
	}
	discs, _, err := c.Discussions.ListMergeRequestDiscussions(glProject, 7, nil)
	if err != nil || len(discs) != 1 || len(discs[0].Notes) != 2 {
		t.Errorf("discussions = %d, %v", len(discs), err)
	}
}

func TestFakeGitLab_DraftNotesPublishAsOneBatch(t *testing.T) {
	g, c, ref := newGitLab(t, forgetest.GitLabOptions{})
	for _, body := range []string{"one", "two"} {
		if _, _, err := c.DraftNotes.CreateDraftNote(glProject, 7, &gitlab.CreateDraftNoteOptions{Note: new(body), Position: pos(9, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := c.DraftNotes.CreateDraftNote(glProject, 7, &gitlab.CreateDraftNoteOptions{Note: new("bad"), Position: pos(20, 0)}); err == nil {
		t.Error("a draft off the diff was accepted")
	}
	drafts, _, err := c.DraftNotes.ListDraftNotes(glProject, 7, nil)
	if err != nil || len(drafts) != 2 {
		t.Fatalf("drafts = %d, %v", len(drafts), err)
	}
	if got := g.Posted(ref); len(got) != 2 || !got[0].Pending {
		t.Errorf("before publishing: %+v", got)
	}
	if _, err := c.DraftNotes.PublishAllDraftNotes(glProject, 7); err != nil {
		t.Fatal(err)
	}
	got := g.Posted(ref)
	if len(got) != 2 || got[0].Pending || got[1].Body != "two" {
		t.Errorf("after publishing: %+v", got)
	}
}

func TestFakeGitLab_RefusesBadTokensUnknownFieldsAndMissingDrafts(t *testing.T) {
	g, _, _ := newGitLab(t, forgetest.GitLabOptions{NoDraftNotes: true})
	bad := glClient(t, g, "glpat-wrong")
	_, resp, err := bad.MergeRequests.GetMergeRequest(glProject, 7, nil)
	if status, msg := glStatus(t, resp, err); status != 401 || !strings.Contains(msg, "401 Unauthorized") {
		t.Errorf("bad token = %d %q", status, msg)
	}
	c := glClient(t, g, g.Token())
	_, resp, err = c.DraftNotes.ListDraftNotes(glProject, 7, nil)
	if status, _ := glStatus(t, resp, err); status != 404 {
		t.Errorf("draft notes on an old GitLab = %d, want 404", status)
	}
	req, err := c.NewRequest("POST", "projects/"+gitlab.PathEscape(glProject)+"/merge_requests/7/notes", map[string]string{"body": "x", "colour": "red"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(req, nil); err == nil {
		t.Error("an unknown field was accepted")
	}
	if v := g.TakeViolations(); len(v) != 1 || !strings.Contains(v[0], "colour") {
		t.Errorf("violations = %q", v)
	}
}
