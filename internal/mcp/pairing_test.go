package mcp_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/mcp"
	"github.com/leanreview/leanreview/internal/session"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPairing_AgentCommentsAndSuggestsAndOnlyTheHumanMovesTheCursor is the
// in-process run of issue 6's agent scenario: the agent (an MCP client)
// reads the change, comments and suggests; the session shows both as the
// agent's; moving the cursor or deleting the human's draft is refused by
// the tool list and by the policy; the terminal side (the same service,
// as the human) sees the suggestion and accepts it, and the cursor moves.
func TestPairing_AgentCommentsAndSuggestsAndOnlyTheHumanMovesTheCursor(t *testing.T) {
	ctx := context.Background()
	r := newReview(t, readFile(t, "sample.patch"))
	terminal := r.svc // the human's side: the same session, stamped human
	cs := agent(t, r.svc)

	humanDraft, err := terminal.Comment(ctx, session.ActorHuman, app.CommentRequest{
		Ref: app.LineRef{Path: "server/handler.go", Side: changeset.SideNew, Start: 5}, Body: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	cursorBefore := app.Cursor{Path: "docs/README.md", Side: changeset.SideNew, Line: 3, Hunk: 0}
	if err := terminal.SetCursor(ctx, session.ActorHuman, cursorBefore); err != nil {
		t.Fatal(err)
	}

	summary := call[mcp.ReviewView](t, cs, mcp.ToolRead, map[string]any{"projection": "summary"})
	if len(summary.Files) != 5 || summary.AsOf == "" {
		t.Fatalf("summary: %d files, as_of %q", len(summary.Files), summary.AsOf)
	}
	c := call[mcp.CommentView](t, cs, mcp.ToolComment, map[string]any{
		"path": "server/handler.go", "line": 16, "body": "ServeHTTP has no test for the 404.", "as_of": summary.AsOf})
	s := call[mcp.SuggestionView](t, cs, mcp.ToolSuggest, map[string]any{
		"path": "server/handler.go", "hunk": 1, "line": 23, "reason": "ErrNotFound is not declared anywhere in this change.", "as_of": summary.AsOf})
	if c.Author != "agent" || s.State != "pending" {
		t.Fatalf("comment author %q, suggestion state %q; want agent, pending", c.Author, s.State)
	}

	// The session, as the terminal reads it, holds both as the agent's,
	// and the suggestion has not moved the cursor.
	snap, _ := terminal.Snapshot(ctx)
	authors := map[string]session.Actor{}
	for _, d := range snap.Drafts {
		authors[d.ID] = d.Author
	}
	if diff := cmp.Diff(map[string]session.Actor{humanDraft.ID: session.ActorHuman, c.ID: session.ActorAgent}, authors); diff != "" {
		t.Errorf("draft authors (-want +got):\n%s", diff)
	}
	if len(snap.Suggestions) != 1 || snap.Suggestions[0].State != app.SuggestionPending || snap.Suggestions[0].Path != "server/handler.go" {
		t.Fatalf("suggestions seen by the terminal: %+v", snap.Suggestions)
	}
	if snap.Cursor != cursorBefore {
		t.Errorf("cursor after suggest = %+v, want it unmoved at %+v", snap.Cursor, cursorBefore)
	}

	// No tool moves the cursor or touches a draft, and the policy refuses
	// the agent those writes on whatever path they arrive.
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if n := tool.Name; strings.Contains(n, "cursor") || strings.Contains(n, "delete") || strings.Contains(n, "edit") || strings.Contains(n, "move") {
			t.Errorf("tool %q offers what the agent may not do", n)
		}
	}
	for _, name := range []string{"set_cursor", "delete_comment"} {
		if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: map[string]any{"path": "server/handler.go", "id": humanDraft.ID}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
			t.Errorf("calling %s: %v, want an unknown-tool error", name, err)
		}
	}
	if err := r.svc.SetCursor(ctx, session.ActorAgent, app.Cursor{Path: "server/handler.go", Hunk: 1}); !errors.Is(err, session.ErrForbidden) {
		t.Errorf("SetCursor as the agent: %v, want ErrForbidden", err)
	}
	if _, err := r.svc.DeleteComment(ctx, session.ActorAgent, humanDraft.ID); !errors.Is(err, session.ErrForbidden) {
		t.Errorf("DeleteComment of the human's draft as the agent: %v, want ErrForbidden", err)
	}
	if err := r.svc.EditComment(ctx, session.ActorAgent, humanDraft.ID, "rewritten"); !errors.Is(err, session.ErrForbidden) {
		t.Errorf("EditComment of the human's draft as the agent: %v, want ErrForbidden", err)
	}

	// The human accepts; only now does the cursor move, and the agent
	// sees the answer.
	if err := terminal.AnswerSuggestion(ctx, session.ActorHuman, snap.Suggestions[0].ID, true); err != nil {
		t.Fatal(err)
	}
	snap, _ = terminal.Snapshot(ctx)
	want := app.Cursor{Path: "server/handler.go", Side: changeset.SideNew, Line: 23, Hunk: 1}
	if snap.Cursor != want {
		t.Errorf("cursor after accepting = %+v, want %+v", snap.Cursor, want)
	}
	focus := call[mcp.FocusView](t, cs, mcp.ToolFocus, nil)
	wantFocus := mcp.CursorView{Path: "server/handler.go", Side: "new", Line: 23, Hunk: 1, Declaration: "type Handler struct {"}
	if focus.Cursor != wantFocus || len(focus.Suggestions) != 1 || focus.Suggestions[0].State != "accepted" {
		t.Errorf("focus after accepting: cursor %+v, suggestions %+v", focus.Cursor, focus.Suggestions)
	}
	if d, ok := find(snap.Drafts, humanDraft.ID); !ok || d.Body != "mine" {
		t.Errorf("the human's draft after the refused writes: %+v, %v", d, ok)
	}
}

// TestPairing_DeclinedSuggestionIsToldApartFromPending: the agent can tell
// "not seen yet" from "seen and declined", and a decline leaves the cursor.
func TestPairing_DeclinedSuggestionIsToldApartFromPending(t *testing.T) {
	ctx := context.Background()
	r := newReview(t, readFile(t, "sample.patch"))
	cs := agent(t, r.svc)
	first := call[mcp.SuggestionView](t, cs, mcp.ToolSuggest, map[string]any{"path": "server/accounts.go", "hunk": 0, "reason": "The interface changed."})
	second := call[mcp.SuggestionView](t, cs, mcp.ToolSuggest, map[string]any{"path": "docs/README.md", "hunk": 0, "reason": "The docs promise a 404."})
	before, _ := r.svc.Snapshot(ctx)
	if err := r.svc.AnswerSuggestion(ctx, session.ActorHuman, first.ID, false); err != nil {
		t.Fatal(err)
	}
	focus := call[mcp.FocusView](t, cs, mcp.ToolFocus, nil)
	states := map[string]string{}
	for _, s := range focus.Suggestions {
		states[s.ID] = s.State
	}
	if diff := cmp.Diff(map[string]string{first.ID: "declined", second.ID: "pending"}, states); diff != "" {
		t.Errorf("suggestion states (-want +got):\n%s", diff)
	}
	after, _ := r.svc.Snapshot(ctx)
	if after.Cursor != before.Cursor {
		t.Errorf("a decline moved the cursor from %+v to %+v", before.Cursor, after.Cursor)
	}
	if err := r.svc.AnswerSuggestion(ctx, session.ActorAgent, second.ID, true); !errors.Is(err, session.ErrForbidden) {
		t.Errorf("the agent answering its own suggestion: %v, want ErrForbidden", err)
	}
}

// TestAddComment_ClaimingToBeTheHumanIsRefused: a tool call whose
// arguments name an author is refused before it reaches the session,
// however the claim is spelt, and nothing is written; the same comment
// without the claim is the agent's.
func TestAddComment_ClaimingToBeTheHumanIsRefused(t *testing.T) {
	ctx := context.Background()
	r := newReview(t, readFile(t, "sample.patch"))
	cs := agent(t, r.svc)
	base := map[string]any{"path": "server/handler.go", "line": 16, "body": "as the human"}
	for _, claim := range []map[string]any{
		{"author": "human"},
		{"actor": "human"},
		{"author": map[string]any{"kind": "human"}},
		{"_author": 1},
	} {
		args := map[string]any{}
		for k, v := range base {
			args[k] = v
		}
		for k, v := range claim {
			args[k] = v
		}
		msg := callErr(t, cs, mcp.ToolComment, args)
		for k := range claim {
			if !strings.Contains(msg, k) {
				t.Errorf("refusal %q does not name the property %q", msg, k)
			}
		}
	}
	snap, _ := r.svc.Snapshot(ctx)
	if len(snap.Drafts) != 0 {
		t.Fatalf("refused calls left drafts: %+v", snap.Drafts)
	}
	got := call[mcp.CommentView](t, cs, mcp.ToolComment, base)
	snap, _ = r.svc.Snapshot(ctx)
	if got.Author != "agent" || len(snap.Drafts) != 1 || snap.Drafts[0].Author != session.ActorAgent {
		t.Errorf("comment without the claim: answer author %q, session drafts %+v; want the agent's", got.Author, snap.Drafts)
	}
}

// TestAddComment_AgentCommentIsNotSaved: the agent's comment lives in the
// session only; the human's drafts file never holds it.
func TestAddComment_AgentCommentIsNotSaved(t *testing.T) {
	r := newReview(t, readFile(t, "sample.patch"))
	cs := agent(t, r.svc)
	got := call[mcp.CommentView](t, cs, mcp.ToolComment, map[string]any{"path": "server/accounts.go", "side": "old", "line": 5, "body": "the old signature"})
	if got.Side != "old" || got.Line != 5 || got.Hunk != 0 || got.Status != "exact" {
		t.Errorf("comment = %+v, want exact on old line 5 of hunk 0", got)
	}
	entries, err := os.ReadDir(r.drafts)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(r.drafts, e.Name()))
		if strings.Contains(string(b), "the old signature") {
			t.Errorf("the agent's comment was saved in %s", e.Name())
		}
	}
}

func find(drafts []session.Placed, id string) (session.Placed, bool) {
	i := slices.IndexFunc(drafts, func(p session.Placed) bool { return p.ID == id })
	if i < 0 {
		return session.Placed{}, false
	}
	return drafts[i], true
}
