package tui

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

func parseTestdata(t *testing.T, name string) *changeset.Changeset {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := changeset.ParseBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// Every slot maps to an item and back, in both views, with folds and
// previews, and rows appear in diff order exactly once.
func TestLayout_SlotsAndPositionsRoundTrip(t *testing.T) {
	cs := parseTestdata(t, "review.patch")
	drafts := []session.Placed{{
		Draft:    session.Draft{ID: "a", Body: "x"},
		Rung:     changeset.RungExact,
		Location: changeset.Location{Path: "cmd/server/main.go", Side: changeset.SideNew, Start: 14, End: 14},
	}, {
		Draft:    session.Draft{ID: "b", Body: "y"},
		Rung:     changeset.RungExact,
		Location: changeset.Location{Path: "internal/ratelimit/bucket.go", Side: changeset.SideOld, Start: 18, End: 18},
	}}
	for _, split := range []bool{false, true} {
		for _, fold := range []bool{false, true} {
			l := newLayout(cs)
			l.setDrafts(drafts)
			l.setSplit(split)
			if fold {
				l.hunks[4].folded = true
				l.resum()
			}
			previews, rows := 0, 0
			for s := slot(0); s < l.total; s++ {
				it := l.at(s)
				switch it.kind {
				case itemPreview:
					previews++
					continue
				case itemFileNote:
					continue
				case itemRow:
					rows++
				}
				p := l.posOf(it, changeset.SideNew)
				if got := l.slotOf(p); got != s {
					t.Fatalf("split=%v fold=%v: slot %d is %+v at %+v, which maps back to slot %d", split, fold, s, it, p, got)
				}
			}
			if previews != 2 {
				t.Errorf("split=%v fold=%v: %d previews, want 2", split, fold, previews)
			}
			want := 0
			for g := range l.hunks {
				if !l.hunks[g].folded {
					want += l.bodyItems(g)
				}
			}
			if rows != want {
				t.Errorf("split=%v fold=%v: %d rows, want %d", split, fold, rows, want)
			}
		}
	}
}

func TestPairRows_PairsRewritesSideBySide(t *testing.T) {
	k := func(kinds string) []changeset.Row {
		var rows []changeset.Row
		for _, c := range kinds {
			rows = append(rows, changeset.Row{Kind: map[rune]changeset.Kind{' ': changeset.KindContext, '-': changeset.KindDel, '+': changeset.KindAdd, '\\': changeset.KindMeta}[c]})
		}
		return rows
	}
	tests := []struct {
		kinds string
		want  []pair
	}{
		{" -+ ", []pair{{0, 0}, {1, 2}, {3, 3}}},
		{"--+", []pair{{0, 2}, {1, -1}}},
		{"-++", []pair{{0, 1}, {-1, 2}}},
		{"-+-+", []pair{{0, 1}, {2, 3}}},
		{"+ -", []pair{{-1, 0}, {1, 1}, {2, -1}}},
		{"-\\+\\", []pair{{0, 2}, {1, 3}}},
		{" \\", []pair{{0, 0}, {1, 1}}},
	}
	for _, tt := range tests {
		rows := k(tt.kinds)
		p := pairRows(rows)
		if diff := cmp.Diff(tt.want, p.pairs, cmp.AllowUnexported(pair{})); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.kinds, diff)
		}
		if n := countPairs(rows); n != len(p.pairs) {
			t.Errorf("%q: countPairs says %d, pairRows made %d", tt.kinds, n, len(p.pairs))
		}
		for i, pi := range p.rowPair {
			pr := p.pairs[pi]
			if int(pr.l) != i && int(pr.r) != i {
				t.Errorf("%q: row %d maps to pair %v, which does not show it", tt.kinds, i, pr)
			}
		}
	}
}
