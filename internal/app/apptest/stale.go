package apptest

import (
	"errors"
	"testing"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

func init() {
	register("AsOf_EveryWriteAgainstAMovedChangeIsRefusedWithTheCurrentDigest", func(t *testing.T, h *harness) {
		old := h.snap(h.Human).AsOf
		p := h.comment(h.Human, human, ref20, "written on v1")
		sug, err := h.Agent.Suggest(h.ctx, agent, app.SuggestionRequest{Path: "calc.go", Hunk: 0, Reason: "x"})
		if err != nil {
			t.Fatal(err)
		}
		h.env.Source.Set(V2)
		if err := h.Human.Reload(h.ctx); err != nil {
			t.Fatal(err)
		}
		cur := h.snap(h.Agent).AsOf
		if cur == old || cur != h.snap(h.Human).Changeset.Digest {
			t.Fatalf("after reload as_of %q (was %q)", cur, old)
		}
		stale := app.At(h.Human, old)
		staleAgent := app.At(h.Agent, old)
		for name, err := range map[string]error{
			"comment": func() error {
				_, err := stale.Comment(h.ctx, human, app.CommentRequest{Ref: ref20, Body: "x"})
				return err
			}(),
			"edit":    stale.EditComment(h.ctx, human, p.ID, "x"),
			"move":    stale.MoveComment(h.ctx, human, p.ID, ref20),
			"resolve": stale.ResolveComment(h.ctx, human, p.ID, true),
			"delete": func() error {
				_, err := stale.DeleteComment(h.ctx, human, p.ID)
				return err
			}(),
			"restore": stale.RestoreComment(h.ctx, human, p.Draft),
			"viewed": func() error {
				_, err := stale.MarkViewed(h.ctx, human, "x", true)
				return err
			}(),
			"cursor": stale.SetCursor(h.ctx, human, app.Cursor{Path: "calc.go", Hunk: -1}),
			"answer": stale.AnswerSuggestion(h.ctx, human, sug.ID, true),
			"suggest": func() error {
				_, err := staleAgent.Suggest(h.ctx, agent, app.SuggestionRequest{Path: "calc.go", Reason: "x"})
				return err
			}(),
			"agent comment": func() error {
				_, err := staleAgent.Comment(h.ctx, agent, app.CommentRequest{Ref: ref20, Body: "x"})
				return err
			}(),
		} {
			var se *app.StaleError
			if !errors.As(err, &se) || !errors.Is(err, app.ErrStale) || se.Current != cur || se.AsOf != old {
				t.Errorf("%s against the old changeset: err = %#v, want a StaleError naming %s", name, err, cur)
			}
		}
		s := h.snap(h.Human)
		if d := h.draft(s, p.ID); d.Body != "written on v1" || d.Resolved {
			t.Errorf("a stale write changed the draft: %+v", d)
		}
		if s.Suggestions[0].State != app.SuggestionPending {
			t.Errorf("a stale answer was recorded: %+v", s.Suggestions[0])
		}
		if _, err := app.At(h.Human, cur).Comment(h.ctx, human, app.CommentRequest{Ref: app.LineRef{Path: "calc.go", Side: changeset.SideNew, Start: 2}, Body: "on v2"}); err != nil {
			t.Errorf("a write naming the current digest: %v", err)
		}
		if err := app.At(h.Human, "").SetCursor(h.ctx, human, app.Cursor{Path: "calc.go", Hunk: -1}); err != nil {
			t.Errorf("an unconditional write: %v", err)
		}
	})

	register("Reload_RelocatesDraftsOntoTheNewChange", func(t *testing.T, h *harness) {
		moved := h.comment(h.Human, human, ref20, "survives")
		lost := h.comment(h.Human, human, app.LineRef{Path: "calc.go", Side: changeset.SideNew, Start: 80}, "rewritten under me")
		h.env.Source.Set(V2)
		if err := h.Agent.Reload(h.ctx); err != nil {
			t.Fatal(err)
		}
		s := h.snap(h.Human)
		if d := h.draft(s, moved.ID); d.Rung != changeset.RungMoved || d.Location.Start != 24 {
			t.Errorf("the draft on an unchanged line: %+v", d)
		}
		if d := h.draft(s, lost.ID); d.Rung != changeset.RungOrphaned || d.Body != "rewritten under me" {
			t.Errorf("the draft on a rewritten line: %+v", d)
		}
	})

	register("Subscribe_TellsEverySurfaceOfTheOthersWrites", func(t *testing.T, h *harness) {
		humanEvents, err := h.Human.Subscribe(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		agentEvents, err := h.Agent.Subscribe(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		asOf := h.snap(h.Human).AsOf
		if _, err := h.Agent.Suggest(h.ctx, agent, app.SuggestionRequest{Path: "calc.go", Reason: "x"}); err != nil {
			t.Fatal(err)
		}
		ev := awaitEvent(t, humanEvents, func(e app.Event) bool { return e.Kind == app.EventChanged })
		if ev.AsOf != asOf {
			t.Errorf("event %+v, want as_of %s", ev, asOf)
		}
		if err := h.Human.SetCursor(h.ctx, session.ActorHuman, app.Cursor{Path: "dup.txt", Hunk: -1}); err != nil {
			t.Fatal(err)
		}
		awaitEvent(t, agentEvents, func(e app.Event) bool { return e.Kind == app.EventChanged })

		h.env.Source.Set(V2)
		if err := h.Agent.Reload(h.ctx); err != nil {
			t.Fatal(err)
		}
		cur := h.snap(h.Agent).AsOf
		awaitEvent(t, humanEvents, func(e app.Event) bool { return e.Kind == app.EventReloaded && e.AsOf == cur })
	})

	register("Transport_EachSurfaceSpeaksOnlyForItsActor", func(t *testing.T, h *harness) {
		p := h.comment(h.Human, human, ref20, "mine")
		_, err := h.Human.Comment(h.ctx, agent, app.CommentRequest{Ref: ref20, Body: "an agent on the human's transport"})
		wantErr(t, "the human's surface writing as the agent", err, session.ErrForbidden)
		_, err = h.Agent.Comment(h.ctx, human, app.CommentRequest{Ref: ref20, Body: "posing as the human"})
		wantErr(t, "the agent's surface writing as the human", err, session.ErrForbidden)
		wantErr(t, "the agent's surface moving the cursor as the human", h.Agent.SetCursor(h.ctx, human, app.Cursor{Path: "dup.txt", Hunk: -1}), session.ErrForbidden)
		_, err = h.Agent.DeleteComment(h.ctx, human, p.ID)
		wantErr(t, "the agent's surface deleting as the human", err, session.ErrForbidden)
		if s := h.snap(h.Human); len(s.Drafts) != 1 || s.Cursor.Path != "calc.go" {
			t.Errorf("a refused claim changed the review: %+v", s)
		}
	})
}
