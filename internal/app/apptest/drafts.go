package apptest

import (
	"testing"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

func init() {
	register("Comment_HumanDraftIsPlacedExactAndSurvivesAReopen", func(t *testing.T, h *harness) {
		p := h.comment(h.Human, human, ref20, "check the error")
		if p.Author != human || p.Rung != changeset.RungExact || p.Location.Path != "calc.go" || p.Location.Start != 20 {
			t.Errorf("placed %+v", p)
		}
		if p.Anchor.Lines[0] != "\treturn x * 5 + 1 // v1" {
			t.Errorf("anchored %q", p.Anchor.Lines)
		}
		again := h.reopen()
		d := h.draft(h.snap(again.Human), p.ID)
		if d.Body != "check the error" || d.Author != human || d.Rung != changeset.RungExact {
			t.Errorf("after reopening: %+v", d)
		}
	})

	register("Comment_AgentDraftIsEphemeral", func(t *testing.T, h *harness) {
		p := h.comment(h.Agent, agent, ref20, "the agent's remark")
		if got := h.draft(h.snap(h.Human), p.ID); got.Author != agent {
			t.Errorf("the human sees %+v", got)
		}
		if drafts := h.snap(h.reopen().Human).Drafts; len(drafts) != 0 {
			t.Errorf("after reopening the agent's remark is still there: %+v", drafts)
		}
	})

	register("Comment_RefusesWhatCannotBeAnchoredOrSaid", func(t *testing.T, h *harness) {
		for _, tc := range []struct {
			name   string
			ref    app.LineRef
			body   string
			target error
		}{
			{"a line the diff does not show", app.LineRef{Path: "calc.go", Side: changeset.SideNew, Start: 50}, "x", app.ErrNotInChange},
			{"a file not in the change", app.LineRef{Path: "nope.go", Side: changeset.SideNew, Start: 1}, "x", app.ErrNotInChange},
			{"an empty body", ref20, "  \n", app.ErrInvalid},
		} {
			_, err := h.Human.Comment(h.ctx, human, app.CommentRequest{Ref: tc.ref, Body: tc.body})
			wantErr(t, tc.name, err, tc.target)
		}
		if d := h.snap(h.Human).Drafts; len(d) != 0 {
			t.Errorf("a refused comment was kept: %+v", d)
		}
	})

	register("EditComment_OnlyTheAuthorEdits", func(t *testing.T, h *harness) {
		mine := h.comment(h.Human, human, ref20, "first")
		theirs := h.comment(h.Agent, agent, ref20, "agent")
		if err := h.Human.EditComment(h.ctx, human, mine.ID, "second"); err != nil {
			t.Fatal(err)
		}
		wantErr(t, "the agent editing the human's", h.Agent.EditComment(h.ctx, agent, mine.ID, "rewritten"), session.ErrForbidden)
		wantErr(t, "the human editing the agent's", h.Human.EditComment(h.ctx, human, theirs.ID, "rewritten"), session.ErrForbidden)
		wantErr(t, "an empty body", h.Human.EditComment(h.ctx, human, mine.ID, ""), app.ErrInvalid)
		s := h.snap(h.Agent)
		if got := h.draft(s, mine.ID); got.Body != "second" || !got.Updated.After(got.Created) {
			t.Errorf("after editing: %+v", got)
		}
		if got := h.draft(s, theirs.ID); got.Body != "agent" {
			t.Errorf("the agent's draft became %+v", got)
		}
	})

	register("DeleteComment_ReturnsTheDraftForRestore", func(t *testing.T, h *harness) {
		p := h.comment(h.Human, human, ref20, "regret")
		d, err := h.Human.DeleteComment(h.ctx, human, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if d.ID != p.ID || d.Body != "regret" || d.Author != human {
			t.Errorf("deleted %+v", d)
		}
		if n := len(h.snap(h.Human).Drafts); n != 0 {
			t.Fatalf("%d drafts after delete", n)
		}
		if err := h.Human.RestoreComment(h.ctx, human, d); err != nil {
			t.Fatal(err)
		}
		got := h.draft(h.snap(h.reopen().Human), p.ID)
		if got.Body != "regret" || got.Rung != changeset.RungExact {
			t.Errorf("restored %+v", got)
		}
	})

	register("DeleteComment_AgentCannotDeleteOrRestoreAsTheHuman", func(t *testing.T, h *harness) {
		p := h.comment(h.Human, human, ref20, "mine")
		_, err := h.Agent.DeleteComment(h.ctx, agent, p.ID)
		wantErr(t, "the agent deleting the human's draft", err, session.ErrForbidden)
		forged := p.Draft
		forged.ID, forged.Body = "forged", "words put in the human's mouth"
		wantErr(t, "the agent restoring a human draft", h.Agent.RestoreComment(h.ctx, agent, forged), session.ErrForbidden)
		s := h.snap(h.Human)
		if len(s.Drafts) != 1 || s.Drafts[0].ID != p.ID {
			t.Errorf("drafts %+v", s.Drafts)
		}
	})

	register("MoveComment_ReanchorsTheDraft", func(t *testing.T, h *harness) {
		p := h.comment(h.Human, human, ref20, "belongs lower")
		to := app.LineRef{Path: "calc.go", Side: changeset.SideNew, Start: 80}
		if err := h.Human.MoveComment(h.ctx, human, p.ID, to); err != nil {
			t.Fatal(err)
		}
		got := h.draft(h.snap(h.Human), p.ID)
		if got.Location.Start != 80 || got.Anchor.Lines[0] != "\treturn x * 20 - 1 // v1" {
			t.Errorf("moved %+v", got)
		}
		wantErr(t, "moving onto a line not shown", h.Human.MoveComment(h.ctx, human, p.ID, app.LineRef{Path: "calc.go", Side: changeset.SideNew, Start: 50}), app.ErrNotInChange)
		wantErr(t, "the agent moving the human's", h.Agent.MoveComment(h.ctx, agent, p.ID, ref20), session.ErrForbidden)
	})

	register("ResolveComment_EitherPartyResolves", func(t *testing.T, h *harness) {
		mine := h.comment(h.Human, human, ref20, "human point")
		theirs := h.comment(h.Agent, agent, ref20, "agent point")
		if err := h.Agent.ResolveComment(h.ctx, agent, mine.ID, true); err != nil {
			t.Fatal(err)
		}
		if err := h.Human.ResolveComment(h.ctx, human, theirs.ID, true); err != nil {
			t.Fatal(err)
		}
		s := h.snap(h.Human)
		if !h.draft(s, mine.ID).Resolved || !h.draft(s, theirs.ID).Resolved {
			t.Errorf("drafts %+v", s.Drafts)
		}
		if err := h.Human.ResolveComment(h.ctx, human, mine.ID, false); err != nil {
			t.Fatal(err)
		}
		if h.draft(h.snap(h.reopen().Human), mine.ID).Resolved {
			t.Error("reopening undid the human's unresolve")
		}
	})

	register("UnknownDraftIsNotFound", func(t *testing.T, h *harness) {
		wantErr(t, "edit", h.Human.EditComment(h.ctx, human, "nope", "x"), app.ErrNotFound)
		_, err := h.Human.DeleteComment(h.ctx, human, "nope")
		wantErr(t, "delete", err, app.ErrNotFound)
		wantErr(t, "resolve", h.Human.ResolveComment(h.ctx, human, "nope", true), app.ErrNotFound)
		wantErr(t, "move", h.Human.MoveComment(h.ctx, human, "nope", ref20), app.ErrNotFound)
	})
}
