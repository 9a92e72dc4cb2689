package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/mcp"
	"github.com/leanreview/leanreview/internal/session"
)

// TestWriteTools_RefusalsSayWhatIsValid: coordinates outside the change
// are tool errors naming the valid ones, and nothing is written.
func TestWriteTools_RefusalsSayWhatIsValid(t *testing.T) {
	r := newReview(t, readFile(t, "sample.patch"))
	cs := agent(t, r.svc)
	for _, tc := range []struct {
		name string
		tool string
		args map[string]any
		want []string
	}{
		{"comment on a line the diff does not show", mcp.ToolComment,
			map[string]any{"path": "server/handler.go", "line": 12, "body": "x"},
			[]string{"not_found: add_comment: the diff does not show line 12 on the new side of server/handler.go; the lines it shows there are 2-9 (hunk 0), 15-40 (hunk 1)"}},
		{"comment on an old line past the hunks", mcp.ToolComment,
			map[string]any{"path": "server/handler.go", "side": "old", "line": 30, "end_line": 31, "body": "x"},
			[]string{"lines 30-31 on the old side", "2-7 (hunk 0), 13-27 (hunk 1)"}},
		{"comment on a binary file", mcp.ToolComment,
			map[string]any{"path": "docs/logo.png", "line": 1, "body": "x"},
			[]string{"docs/logo.png; the lines it shows there are none"}},
		{"comment on a misspelt file", mcp.ToolComment,
			map[string]any{"path": "server/acounts.go", "line": 3, "body": "x"},
			[]string{`did you mean "server/accounts.go"`}},
		{"comment range backwards", mcp.ToolComment,
			map[string]any{"path": "server/handler.go", "line": 20, "end_line": 18, "body": "x"},
			[]string{"invalid: add_comment: end_line 18 is before line 20"}},
		{"comment with an empty body", mcp.ToolComment,
			map[string]any{"path": "server/handler.go", "line": 16, "body": ""},
			[]string{"body"}},
		{"comment on side left", mcp.ToolComment,
			map[string]any{"path": "server/handler.go", "line": 16, "side": "left", "body": "x"},
			[]string{"side", "new old"}},
		{"suggest a hunk out of range", mcp.ToolSuggest,
			map[string]any{"path": "server/handler.go", "hunk": 2, "reason": "r"},
			[]string{"not_found: suggest_focus: server/handler.go has 2 hunks, numbered 0 to 1; there is no hunk 2"}},
		{"suggest a negative hunk", mcp.ToolSuggest,
			map[string]any{"path": "server/handler.go", "hunk": -1, "reason": "r"},
			[]string{"hunk", "minimum"}},
		{"suggest a line of another hunk", mcp.ToolSuggest,
			map[string]any{"path": "server/handler.go", "hunk": 0, "line": 30, "reason": "r"},
			[]string{"hunk 0 of server/handler.go does not show line 30 on the new side; it shows lines 2-9 there"}},
		{"suggest a file with no hunks", mcp.ToolSuggest,
			map[string]any{"path": "scripts/deploy.sh", "hunk": 0, "reason": "r"},
			[]string{"scripts/deploy.sh has no hunks (only its name or mode changed)"}},
		{"suggest without a reason", mcp.ToolSuggest,
			map[string]any{"path": "server/handler.go", "hunk": 0, "reason": "  "},
			[]string{"invalid: suggest_focus: give a reason"}},
		{"resolve an unknown id", mcp.ToolResolve,
			map[string]any{"id": "nope"},
			[]string{`not_found: resolve_comment: no comment has id "nope"; read_review with projection conversation lists`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := callErr(t, cs, tc.tool, tc.args)
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if strings.HasSuffix(msg, ": not found") || strings.HasSuffix(msg, ": line is not part of the change") {
				t.Errorf("error %q ends with a sentinel the class already says", msg)
			}
		})
	}
	snap, _ := r.svc.Snapshot(context.Background())
	if len(snap.Drafts) != 0 || len(snap.Suggestions) != 0 {
		t.Errorf("refused calls wrote: drafts %+v, suggestions %+v", snap.Drafts, snap.Suggestions)
	}
}

// TestResolveComment_EitherPartyResolvesAndReopens: the agent resolves the
// human's comment and its own, reopens one, and the human sees it all.
func TestResolveComment_EitherPartyResolvesAndReopens(t *testing.T) {
	ctx := context.Background()
	r := newReview(t, readFile(t, "sample.patch"))
	cs := agent(t, r.svc)
	human, err := r.svc.Comment(ctx, session.ActorHuman, app.CommentRequest{
		Ref: app.LineRef{Path: "docs/README.md", Side: changeset.SideNew, Start: 5}, Body: "Say what the body is."})
	if err != nil {
		t.Fatal(err)
	}
	mine := call[mcp.CommentView](t, cs, mcp.ToolComment, map[string]any{"path": "docs/README.md", "line": 5, "body": "Agreed."})

	got := call[mcp.CommentView](t, cs, mcp.ToolResolve, map[string]any{"id": human.ID})
	if !got.Resolved || got.Author != "human" || got.Body != "Say what the body is." {
		t.Errorf("resolving the human's comment answered %+v", got)
	}
	call[mcp.CommentView](t, cs, mcp.ToolResolve, map[string]any{"id": mine.ID})
	got = call[mcp.CommentView](t, cs, mcp.ToolResolve, map[string]any{"id": mine.ID, "resolved": false})
	if got.Resolved {
		t.Errorf("resolved=false left the comment resolved: %+v", got)
	}
	snap, _ := r.svc.Snapshot(ctx)
	state := map[string]bool{}
	for _, d := range snap.Drafts {
		state[d.ID] = d.Resolved
	}
	if !state[human.ID] || state[mine.ID] || len(state) != 2 {
		t.Errorf("resolved flags seen by the human: %v", state)
	}
}

// TestWriteTools_StaleAsOfIsRefusedAfterTheChangeMoves: the agent read the
// change, the working tree moved and was re-read; a write naming the old
// as_of is refused with the new one, a write naming the new one lands.
func TestWriteTools_StaleAsOfIsRefusedAfterTheChangeMoves(t *testing.T) {
	ctx := context.Background()
	r := newReview(t, readFile(t, "sample.patch"))
	cs := agent(t, r.svc)
	before := call[mcp.ReviewView](t, cs, mcp.ToolRead, nil)

	moved := strings.Replace(string(readFile(t, "sample.patch")), "answers 404 for an unknown account.", "answers 404 for an unknown or closed account.", 1)
	r.src.set([]byte(moved))
	if err := r.svc.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	after := call[mcp.ReviewView](t, cs, mcp.ToolRead, nil)
	if after.AsOf == before.AsOf {
		t.Fatal("as_of did not change with the patch")
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{mcp.ToolComment, map[string]any{"path": "docs/README.md", "line": 5, "body": "x", "as_of": before.AsOf}},
		{mcp.ToolSuggest, map[string]any{"path": "docs/README.md", "hunk": 0, "reason": "x", "as_of": before.AsOf}},
	} {
		msg := callErr(t, cs, tc.tool, tc.args)
		if !strings.HasPrefix(msg, "stale: ") || !strings.Contains(msg, after.AsOf) || !strings.Contains(msg, "call read_review again") {
			t.Errorf("%s with the old as_of: %q, want a stale refusal naming %s", tc.tool, msg, after.AsOf)
		}
	}
	call[mcp.CommentView](t, cs, mcp.ToolComment, map[string]any{"path": "docs/README.md", "line": 5, "body": "x", "as_of": after.AsOf})
}

// frozenSnapshot is a review whose Snapshot still shows the change as it
// was before a reload, as a read racing a reload would: the write must
// still be refused, by the service's own check made with the write.
type frozenSnapshot struct {
	*app.Local
	snap *app.Snapshot
}

func (f frozenSnapshot) Snapshot(context.Context) (*app.Snapshot, error) { return f.snap, nil }

// TestWriteTools_StaleCheckIsMadeWithTheWrite: a reload that lands between
// the tool's read and its write still refuses the write.
func TestWriteTools_StaleCheckIsMadeWithTheWrite(t *testing.T) {
	ctx := context.Background()
	r := newReview(t, readFile(t, "sample.patch"))
	old, _ := r.svc.Snapshot(ctx)
	cs := agent(t, frozenSnapshot{Local: r.svc, snap: old})
	r.src.set([]byte(strings.Replace(string(readFile(t, "sample.patch")), "Serves accounts over HTTP.", "Serves accounts.", 1)))
	if err := r.svc.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	msg := callErr(t, cs, mcp.ToolSuggest, map[string]any{"path": "docs/README.md", "hunk": 0, "reason": "x", "as_of": old.AsOf})
	if !strings.HasPrefix(msg, "stale: ") {
		t.Errorf("a write racing a reload: %q, want a stale refusal", msg)
	}
	if snap, _ := r.svc.Snapshot(ctx); len(snap.Suggestions) != 0 {
		t.Errorf("the stale suggestion was queued: %+v", snap.Suggestions)
	}
}
