package apptest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
)

func init() {
	register("Snapshot_ShowsTheChangesetAsOfItsDigest", func(t *testing.T, h *harness) {
		s := h.snap(h.Human)
		if s.Changeset == nil || s.AsOf == "" || s.AsOf != s.Changeset.Digest {
			t.Fatalf("as_of %q, changeset %v", s.AsOf, s.Changeset)
		}
		var paths []string
		for _, f := range s.Changeset.Files {
			paths = append(paths, f.Path)
		}
		if diff := cmp.Diff([]string{"calc.go", "dup.txt"}, paths); diff != "" {
			t.Errorf("files (-want +got):\n%s", diff)
		}
		if s.Source.Key != h.env.Info.Key || s.Source.Kind != h.env.Info.Kind {
			t.Errorf("source %+v, want %+v", s.Source, h.env.Info)
		}
		want := app.Cursor{Path: "calc.go", Hunk: -1}
		if s.Cursor != want {
			t.Errorf("cursor %+v, want %+v", s.Cursor, want)
		}
		if len(s.Drafts) != 0 || len(s.Viewed) != 0 || len(s.Suggestions) != 0 || len(s.Receipts) != 0 {
			t.Errorf("a fresh review has state: %+v", s)
		}
	})

	register("Snapshot_EverySurfaceSeesTheSameReview", func(t *testing.T, h *harness) {
		h.comment(h.Human, human, ref20, "human")
		h.comment(h.Agent, agent, app.LineRef{Path: "dup.txt", Side: changeset.SideNew, Start: 8}, "agent")
		if _, err := h.Agent.Suggest(h.ctx, agent, app.SuggestionRequest{Path: "dup.txt", Hunk: 0, Line: 8, Side: changeset.SideNew, Reason: "look"}); err != nil {
			t.Fatal(err)
		}
		digest := h.snap(h.Human).Changeset.Files[1].Hunks[0].Digest
		if _, err := h.Human.MarkViewed(h.ctx, human, digest, true); err != nil {
			t.Fatal(err)
		}
		a, b := h.snap(h.Human), h.snap(h.Agent)
		if diff := cmp.Diff(a, b, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("the human's and the agent's snapshots differ (-human +agent):\n%s", diff)
		}
	})
}
