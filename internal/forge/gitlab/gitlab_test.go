package gitlab_test

import (
	"context"
	"strings"
	"testing"
	"time"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
	"github.com/leanreview/leanreview/internal/forge/gitlab"
)

func setup(t *testing.T, opts forgetest.GitLabOptions) (*forgetest.GitLab, *gitlab.Client, forge.Ref) {
	t.Helper()
	g := forgetest.NewGitLab(t, opts)
	ref := g.Seed(forgetest.ChangeSeed{Repo: forgetest.FixtureRepo, Number: 3, Title: "t", Base: forgetest.FixtureBase, Head: forgetest.FixtureHead, Patch: forgetest.FixturePatch()})
	c, err := gitlab.New(gitlab.Options{BaseURL: g.URL(), Token: g.Token(), HTTPClient: g.Client(), Sleeper: forgetest.NewClock(time.Now())})
	if err != nil {
		t.Fatal(err)
	}
	return g, c, ref
}

// staleDiff is the fixture with one more added line in main.go than the
// host has: a comment on it passes the local check and GitLab refuses it.
func staleDiff(t *testing.T) []changeset.File {
	t.Helper()
	patch := strings.Replace(string(forgetest.FixturePatch()), "@@ -23,8 +27,9 @@ func more() int {\n }\n",
		"@@ -23,8 +27,10 @@ func more() int {\n }\n+// extra\n", 1)
	files, err := forgetest.ParseFiles([]byte(patch))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestSubmit_ReportsTheCommentGitLabRefusesAndSendsTheRest(t *testing.T) {
	for _, opts := range []forgetest.GitLabOptions{{}, {NoDraftNotes: true}} {
		t.Run(map[bool]string{true: "discussions", false: "draft-notes"}[opts.NoDraftNotes], func(t *testing.T) {
			g, c, ref := setup(t, opts)
			rv := forge.Review{MarkerID: "r", CommitID: forgetest.FixtureHead, Event: forge.EventComment, Diff: staleDiff(t),
				Comments: []forge.Comment{
					{MarkerID: "good", Path: "main.go", Side: changeset.SideNew, Line: 9, Body: "fine"},
					{MarkerID: "stale", Path: "main.go", Side: changeset.SideNew, Line: 28, Body: "on a line GitLab does not have"},
				}}
			res, err := c.Submit(context.Background(), ref, rv)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rejected) != 1 || res.Rejected[0].MarkerID != "stale" || !strings.Contains(res.Rejected[0].Reason, "must be a valid line code") {
				t.Errorf("rejected = %+v, want stale with GitLab's reason", res.Rejected)
			}
			if strings.Join(res.Accepted, " ") != "good r" {
				t.Errorf("accepted = %v", res.Accepted)
			}
			for _, hc := range g.Posted(ref) {
				if forge.MarkerOf(hc.Body) == "good" && hc.Pending {
					t.Error("the good comment was left unpublished")
				}
			}
		})
	}
}

func TestSubmit_LeavesTheUsersOwnDraftsUnpublished(t *testing.T) {
	g, c, ref := setup(t, forgetest.GitLabOptions{})
	raw, err := gl.NewClient(g.Token(), gl.WithBaseURL(g.URL()), gl.WithHTTPClient(g.Client()), gl.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := raw.DraftNotes.CreateDraftNote(forgetest.FixtureRepo, 3, &gl.CreateDraftNoteOptions{Note: new("my own unfinished note")}); err != nil {
		t.Fatal(err)
	}
	diff, _ := forgetest.ParseFiles(forgetest.FixturePatch())
	rv := forge.Review{MarkerID: "r", CommitID: forgetest.FixtureHead, Event: forge.EventComment, Diff: diff,
		Comments: []forge.Comment{{MarkerID: "c", Path: "version.go", Side: changeset.SideNew, Line: 3, Body: "bump"}}}
	if _, err := c.Submit(context.Background(), ref, rv); err != nil {
		t.Fatal(err)
	}
	var pending, published []string
	for _, hc := range g.Posted(ref) {
		if hc.Pending {
			pending = append(pending, hc.Body)
		} else {
			published = append(published, forge.MarkerOf(hc.Body))
		}
	}
	if strings.Join(pending, "|") != "my own unfinished note" || strings.Join(published, "|") != "c" {
		t.Errorf("pending %q, published %q: the user's draft must stay a draft", pending, published)
	}
}

func TestSubmit_ApprovingAnApprovedMergeRequestIsNotAnError(t *testing.T) {
	g, c, ref := setup(t, forgetest.GitLabOptions{})
	rv := forge.Review{MarkerID: "r", CommitID: forgetest.FixtureHead, Event: forge.EventApprove}
	for i := range 2 {
		if _, err := c.Submit(context.Background(), ref, rv); err != nil {
			t.Fatalf("submit %d: %v", i+1, err)
		}
	}
	if v := g.Verdicts(ref); len(v) != 1 || v[0].Event != forge.EventApprove {
		t.Errorf("verdicts = %+v, want one approval", v)
	}
	rc := forge.Review{MarkerID: "r2", CommitID: forgetest.FixtureHead, Event: forge.EventRequestChanges, Body: "Wait."}
	if _, err := c.Submit(context.Background(), ref, rc); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Submit(context.Background(), ref, rc); err != nil {
		t.Fatalf("a second request-changes: %v", err)
	}
	if v := g.Verdicts(ref); len(v) != 2 || v[1].Body != "Wait.\n\n<!-- leanreview:r2 -->" {
		t.Errorf("verdicts = %+v, want the approval then one summary note", v)
	}
}
