package apptest

import (
	"testing"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

func init() {
	register("MarkViewed_ReportsTheFileItFinishedAndMintsOneReceipt", func(t *testing.T, h *harness) {
		calc := h.snap(h.Human).Changeset.Files[0]
		if f, err := h.Human.MarkViewed(h.ctx, human, calc.Hunks[0].Digest, true); err != nil || f != "" {
			t.Fatalf("first hunk: finished %q, err %v", f, err)
		}
		if f, err := h.Human.MarkViewed(h.ctx, human, calc.Hunks[1].Digest, true); err != nil || f != "calc.go" {
			t.Fatalf("last hunk: finished %q, err %v; want calc.go", f, err)
		}
		// Marking an already finished file again finishes nothing.
		if f, err := h.Human.MarkViewed(h.ctx, human, calc.Hunks[1].Digest, true); err != nil || f != "" {
			t.Fatalf("again: finished %q, err %v", f, err)
		}
		s := h.snap(h.Agent)
		if !s.Viewed[calc.Hunks[0].Digest] || !s.Viewed[calc.Hunks[1].Digest] || len(s.Viewed) != 2 {
			t.Errorf("viewed %v", s.Viewed)
		}
		if len(s.Receipts) != 1 || s.Receipts[0].Path != "calc.go" || s.Receipts[0].Fingerprint != app.FileFingerprint(&calc) || s.Receipts[0].At.IsZero() {
			t.Errorf("receipts %+v", s.Receipts)
		}
	})

	register("MarkViewed_MarksPersistButReceiptsAreNeverMintedFromThem", func(t *testing.T, h *harness) {
		dup := h.snap(h.Human).Changeset.Files[1]
		if _, err := h.Human.MarkViewed(h.ctx, human, dup.Hunks[0].Digest, true); err != nil {
			t.Fatal(err)
		}
		s := h.snap(h.reopen().Human)
		if !s.Viewed[dup.Hunks[0].Digest] {
			t.Errorf("after reopening, viewed %v", s.Viewed)
		}
		if len(s.Receipts) != 0 {
			t.Errorf("a reopened review holds receipts %+v", s.Receipts)
		}
	})

	register("MarkViewed_UnmarkAndRefusals", func(t *testing.T, h *harness) {
		d := h.snap(h.Human).Changeset.Files[1].Hunks[0].Digest
		if _, err := h.Human.MarkViewed(h.ctx, human, d, true); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Human.MarkViewed(h.ctx, human, d, false); err != nil {
			t.Fatal(err)
		}
		if v := h.snap(h.Human).Viewed; len(v) != 0 {
			t.Errorf("after unmarking, viewed %v", v)
		}
		_, err := h.Agent.MarkViewed(h.ctx, agent, d, true)
		wantErr(t, "the agent marking a hunk read", err, session.ErrForbidden)
		_, err = h.Human.MarkViewed(h.ctx, human, "no-such-digest", true)
		wantErr(t, "a hunk not in the change", err, app.ErrNotFound)
	})

	register("SetCursor_OnlyTheHumanMovesIt", func(t *testing.T, h *harness) {
		c := app.Cursor{Path: "dup.txt", Side: changeset.SideNew, Line: 7, Hunk: 0}
		if err := h.Human.SetCursor(h.ctx, human, c); err != nil {
			t.Fatal(err)
		}
		if got := h.snap(h.Agent).Cursor; got != c {
			t.Errorf("the agent sees the cursor at %+v, want %+v", got, c)
		}
		wantErr(t, "the agent moving the cursor", h.Agent.SetCursor(h.ctx, agent, app.Cursor{Path: "calc.go", Hunk: -1}), session.ErrForbidden)
		wantErr(t, "a file not in the change", h.Human.SetCursor(h.ctx, human, app.Cursor{Path: "nope.go", Hunk: -1}), app.ErrNotFound)
		if got := h.snap(h.Human).Cursor; got != c {
			t.Errorf("a refused move moved the cursor to %+v", got)
		}
	})

	register("Suggest_QueuesWithoutMovingTheCursorUntilAccepted", func(t *testing.T, h *harness) {
		before := h.snap(h.Human).Cursor
		req := app.SuggestionRequest{Path: "calc.go", Side: changeset.SideNew, Line: 80, Hunk: 1, Reason: "the sign flipped"}
		sug, err := h.Agent.Suggest(h.ctx, agent, req)
		if err != nil {
			t.Fatal(err)
		}
		if sug.ID == "" || sug.State != app.SuggestionPending || sug.SuggestionRequest != req || sug.Created.IsZero() {
			t.Errorf("suggestion %+v", sug)
		}
		s := h.snap(h.Human)
		if s.Cursor != before || len(s.Suggestions) != 1 || s.Suggestions[0].ID != sug.ID {
			t.Fatalf("after suggesting: cursor %+v, suggestions %+v", s.Cursor, s.Suggestions)
		}
		wantErr(t, "the agent accepting its own suggestion", h.Agent.AnswerSuggestion(h.ctx, agent, sug.ID, true), session.ErrForbidden)
		if err := h.Human.AnswerSuggestion(h.ctx, human, sug.ID, true); err != nil {
			t.Fatal(err)
		}
		s = h.snap(h.Agent)
		want := app.Cursor{Path: "calc.go", Side: changeset.SideNew, Line: 80, Hunk: 1}
		if s.Cursor != want || s.Suggestions[0].State != app.SuggestionAccepted {
			t.Errorf("after accepting: cursor %+v, suggestion %+v", s.Cursor, s.Suggestions[0])
		}
		wantErr(t, "answering twice", h.Human.AnswerSuggestion(h.ctx, human, sug.ID, false), app.ErrInvalid)
	})

	register("AnswerSuggestion_DeclineIsRecordedAndLeavesTheCursor", func(t *testing.T, h *harness) {
		sug, err := h.Agent.Suggest(h.ctx, agent, app.SuggestionRequest{Path: "dup.txt", Hunk: 0, Reason: "new line"})
		if err != nil {
			t.Fatal(err)
		}
		before := h.snap(h.Human).Cursor
		if err := h.Human.AnswerSuggestion(h.ctx, human, sug.ID, false); err != nil {
			t.Fatal(err)
		}
		s := h.snap(h.Agent)
		if s.Suggestions[0].State != app.SuggestionDeclined || s.Cursor != before {
			t.Errorf("after declining: %+v, cursor %+v", s.Suggestions[0], s.Cursor)
		}
		wantErr(t, "an unknown suggestion", h.Human.AnswerSuggestion(h.ctx, human, "nope", true), app.ErrNotFound)
		_, err = h.Agent.Suggest(h.ctx, agent, app.SuggestionRequest{Path: "nope.go", Reason: "x"})
		wantErr(t, "a suggestion on a file not in the change", err, app.ErrNotFound)
	})
}
