package session

import (
	"flag"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/changeset"
)

var bigDiff = flag.String("bigdiff", "", "a large patch (big-patch.sh's medium.diff) for TestPlace_ThousandDraftsOnABigDiff")

// TestPlace_ThousandDraftsOnABigDiff relocates 1,000 drafts captured from a
// large patch against that patch as if it had been pushed again (the digest
// differs, so every draft goes through LocateAnchor), and requires it to take
// under a second. Run with -bigdiff=CACHE/big/medium.diff.
func TestPlace_ThousandDraftsOnABigDiff(t *testing.T) {
	if *bigDiff == "" {
		t.Skip("no -bigdiff given")
	}
	b, err := os.ReadFile(*bigDiff)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := changeset.ParseBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	drafts := randomDrafts(cs, 1000)
	start := time.Now()
	placed := Place(drafts, cs)
	elapsed := time.Since(start)
	exact := 0
	for _, p := range placed {
		if p.Rung == changeset.RungExact {
			exact++
		}
	}
	t.Logf("relocated %d drafts against %d files in %v (%d exact, the rest unplaceable duplicates or ties)", len(drafts), len(cs.Files), elapsed, exact)
	if elapsed > time.Second {
		t.Errorf("relocating 1,000 drafts took %v, want under 1s", elapsed)
	}
	if exact < len(drafts)*9/10 {
		t.Errorf("only %d of %d drafts found where they were captured", exact, len(drafts))
	}
}

// randomDrafts captures n single-line anchors at random visible new-side
// lines of cs, with a digest that differs from cs's.
func randomDrafts(cs *changeset.Changeset, n int) []Draft {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []Draft
	for len(out) < n {
		f := &cs.Files[rng.IntN(len(cs.Files))]
		if len(f.Hunks) == 0 {
			continue
		}
		h := f.Hunks[rng.IntN(len(f.Hunks))]
		r := h.Rows[rng.IntN(len(h.Rows))]
		if r.NewLine == nil || r.Kind == changeset.KindMeta {
			continue
		}
		a := changeset.CaptureAnchor(f, changeset.SideNew, *r.NewLine, *r.NewLine)
		if a.IsZero() {
			continue
		}
		out = append(out, Draft{ID: string(rune('a' + len(out)%26)), Anchor: a, Digest: "previous push", Author: ActorHuman})
	}
	return out
}

func TestPlace_DraftFromThisChangesetIsExactWithoutSearching(t *testing.T) {
	n := 3
	cs := &changeset.Changeset{Digest: "d1", Files: []changeset.File{{Path: "a", OldPath: "a", Status: changeset.StatusModified,
		Hunks: []changeset.Hunk{{Rows: []changeset.Row{{Kind: changeset.KindAdd, Text: "x", NewLine: &n}}}}}}}
	a := changeset.CaptureAnchor(&cs.Files[0], changeset.SideNew, 3, 3)
	got := Place([]Draft{{ID: "1", Anchor: a, Digest: "d1"}, {ID: "2", Anchor: a, Digest: "old"}, {ID: "3", ReplyTo: "thread-9"}}, cs)
	for i, want := range []changeset.Rung{changeset.RungExact, changeset.RungExact, changeset.RungExact} {
		if got[i].Rung != want {
			t.Errorf("draft %s: rung %v, want %v", got[i].ID, got[i].Rung, want)
		}
	}
	if got[0].Location.Start != 3 || got[1].Location.Start != 3 {
		t.Errorf("locations %+v %+v, want line 3", got[0].Location, got[1].Location)
	}
}

func TestCanEdit_OnlyTheAuthorEditsADraft(t *testing.T) {
	for _, tc := range []struct {
		actor, author Actor
		ok            bool
	}{
		{ActorHuman, ActorHuman, true},
		{ActorAgent, ActorAgent, true},
		{ActorAgent, ActorHuman, false},
		{ActorHuman, ActorAgent, false},
	} {
		err := CanEdit(tc.actor, Draft{Author: tc.author})
		if (err == nil) != tc.ok {
			t.Errorf("CanEdit(%v, draft by %v) = %v, want ok=%v", tc.actor, tc.author, err, tc.ok)
		}
	}
}
