package changeset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustParseFile(t testing.TB, name string) *Changeset {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "anchor", name))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := ParseBytes(b)
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return cs
}

func fileNamed(t testing.TB, cs *Changeset, path string) *File {
	t.Helper()
	for i := range cs.Files {
		if cs.Files[i].Path == path {
			return &cs.Files[i]
		}
	}
	t.Fatalf("no file %s", path)
	return nil
}

func TestCaptureAnchor_RemembersLinesAndVisibleContext(t *testing.T) {
	v1 := mustParseFile(t, "v1.diff")
	a := CaptureAnchor(fileNamed(t, v1, "calc.go"), SideNew, 20, 20)
	want := Anchor{
		Path: "calc.go", OldPath: "calc.go", Side: SideNew, Start: 20, End: 20,
		Lines:  []string{"\treturn x * 5 + 1 // v1"},
		Before: []string{"}", "", "func F5(x int) int {"},
		After:  []string{"}", "", "func F6(x int) int {"},
	}
	if diff := cmp.Diff(want, a); diff != "" {
		t.Errorf("anchor (-want +got):\n%s", diff)
	}
}

func TestCaptureAnchor_LineTheDiffDoesNotShowIsZero(t *testing.T) {
	v1 := mustParseFile(t, "v1.diff")
	f := fileNamed(t, v1, "calc.go")
	for _, tc := range []struct {
		name       string
		side       Side
		start, end int
	}{
		{"outside every hunk", SideNew, 50, 50},
		{"range leaving the hunk", SideNew, 22, 30},
		{"added line asked on the old side", SideOld, 0, 0},
		{"end before start", SideNew, 20, 19},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if a := CaptureAnchor(f, tc.side, tc.start, tc.end); !a.IsZero() {
				t.Errorf("CaptureAnchor(%v, %d, %d) = %+v, want the zero anchor", tc.side, tc.start, tc.end, a)
			}
		})
	}
}

func TestLocateAnchor_AcrossAForcePush(t *testing.T) {
	v1, v2 := mustParseFile(t, "v1.diff"), mustParseFile(t, "v2.diff")
	tests := []struct {
		name       string
		path       string
		side       Side
		start, end int
		want       Location
		rung       Rung
	}{
		{"shifted by lines inserted above moves with them", "calc.go", SideNew, 20, 20,
			Location{Path: "calc.go", Side: SideNew, Start: 24, End: 24}, RungMoved},
		{"old side unchanged stays exact", "calc.go", SideOld, 20, 20,
			Location{Path: "calc.go", Side: SideOld, Start: 20, End: 20}, RungExact},
		{"a range moves as a whole", "calc.go", SideNew, 19, 21,
			Location{Path: "calc.go", Side: SideNew, Start: 23, End: 25}, RungMoved},
		{"rewritten line is orphaned, not guessed", "calc.go", SideNew, 80, 80, Location{}, RungOrphaned},
		{"renamed file is followed", "dup.txt", SideNew, 8, 8,
			Location{Path: "dup2.txt", Side: SideNew, Start: 8, End: 8}, RungMoved},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := CaptureAnchor(fileNamed(t, v1, tc.path), tc.side, tc.start, tc.end)
			if a.IsZero() {
				t.Fatal("captured a zero anchor")
			}
			loc, rung := LocateAnchor(a, v2.Files, tc.start)
			if rung != tc.rung || loc != tc.want {
				t.Errorf("LocateAnchor = %+v %v, want %+v %v", loc, rung, tc.want, tc.rung)
			}
		})
	}
}

// twoEqualRuns is a file showing the same three lines twice, at 10-12 and
// 40-42, with identical surroundings.
func twoEqualRuns() []File {
	mk := func(start int) Hunk {
		lines := []string{"ctx a", "x := 1", "ctx b"}
		h := Hunk{}
		for i, l := range lines {
			n := start + i
			h.Rows = append(h.Rows, Row{Kind: KindContext, Text: l, OldLine: &n, NewLine: &n})
		}
		return h
	}
	return []File{{Path: "f.go", OldPath: "f.go", Status: StatusModified, Hunks: []Hunk{mk(10), mk(40)}}}
}

func TestLocateAnchor_AmbiguousContextOrphansTheComment(t *testing.T) {
	files := twoEqualRuns()
	a := CaptureAnchor(&files[0], SideNew, 11, 11)
	if _, rung := LocateAnchor(a, files, 25); rung != RungOrphaned {
		t.Errorf("two equal matches, neither remembered: rung %v, want orphaned", rung)
	}
}

func TestLocateAnchor_RememberedLineBreaksATie(t *testing.T) {
	files := twoEqualRuns()
	a := CaptureAnchor(&files[0], SideNew, 41, 41)
	loc, rung := LocateAnchor(a, files, 41)
	if rung != RungExact || loc.Start != 41 {
		t.Errorf("LocateAnchor = %+v %v, want exact at 41", loc, rung)
	}
}

func TestLocateAnchor_DeletedFileOrphansNewSideAnchors(t *testing.T) {
	v1 := mustParseFile(t, "v1.diff")
	a := CaptureAnchor(fileNamed(t, v1, "calc.go"), SideNew, 20, 20)
	files := []File{{Path: "calc.go", OldPath: "calc.go", Status: StatusDeleted}}
	if _, rung := LocateAnchor(a, files, 20); rung != RungOrphaned {
		t.Errorf("rung %v, want orphaned", rung)
	}
}
