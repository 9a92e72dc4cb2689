package changeset

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlaceThreads_PutsEachThreadOnTheHunkHoldingItsLine(t *testing.T) {
	// v2.diff: calc.go has hunks at new lines 1-9, 21-27 and 81-87 (old
	// 17-23 and 77-83 for the last two); dup.txt was renamed to dup2.txt.
	v2 := mustParseFile(t, "v2.diff")
	in := []ThreadPosition{
		{Path: "calc.go", Line: 3},
		{Path: "calc.go", Side: SideNew, Line: 24},
		{Path: "calc.go", Side: SideNew, Line: 15},
		{Path: "calc.go", Side: SideNew, Line: 87},
		{Path: "calc.go", Side: SideNew, Line: 88},
		{Path: "calc.go", Side: SideOld, Line: 80},
		{Path: "dup2.txt", Side: SideNew, Line: 8},
		{Path: "dup.txt", Side: SideOld, Line: 6},
		{Path: "dup.txt", Side: SideNew, Line: 6},
		{Path: "missing.go", Side: SideNew, Line: 3},
		{Path: "calc.go", Side: SideNew, Line: 0},
	}
	want := []int{0, 1, -1, 2, -1, 2, 0, 0, -1, -1, -1}
	before := append([]ThreadPosition(nil), in...)

	got := PlaceThreads(v2.Files, in)

	var hunks []int
	for i, p := range got {
		hunks = append(hunks, p.Hunk)
		if p.Path != in[i].Path || p.Line != in[i].Line || p.Side != in[i].Side {
			t.Errorf("thread %d came back as %+v: order or position changed", i, p)
		}
	}
	if d := cmp.Diff(want, hunks); d != "" {
		t.Errorf("hunks (-want +got):\n%s", d)
	}
	if d := cmp.Diff(before, in); d != "" {
		t.Errorf("PlaceThreads modified its input (-before +after):\n%s", d)
	}
}

func TestPlaceThreads_NoFilesLeavesEveryThreadUnplaced(t *testing.T) {
	got := PlaceThreads(nil, []ThreadPosition{{Path: "a.go", Line: 1, Hunk: 3}})
	if len(got) != 1 || got[0].Hunk != -1 {
		t.Errorf("got %+v, want one thread with Hunk -1", got)
	}
	if got := PlaceThreads(nil, nil); len(got) != 0 {
		t.Errorf("no threads placed into %+v", got)
	}
}
