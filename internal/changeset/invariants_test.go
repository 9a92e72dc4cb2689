package changeset

import (
	"slices"
	"testing"
)

// checkInvariants fails t unless c is internally consistent: what the fuzz
// target asserts of every input and the table tests of every testdata patch.
func checkInvariants(t testing.TB, c *Changeset) {
	t.Helper()
	if c.Files == nil {
		t.Errorf("Files is nil; want an empty slice")
	}
	for _, f := range c.Files {
		if f.Path == "" || f.Path == devNull || f.OldPath == "" || f.OldPath == devNull {
			t.Errorf("file path %q old path %q", f.Path, f.OldPath)
		}
		if f.OldPath != f.Path && f.Status != StatusRenamed && f.Status != StatusCopied {
			t.Errorf("%s: old path %q differs but status is %v", f.Path, f.OldPath, f.Status)
		}
		if _, err := f.Status.MarshalText(); err != nil {
			t.Errorf("%s: %v", f.Path, err)
		}
		if f.Hunks == nil || (f.Binary && len(f.Hunks) > 0) {
			t.Errorf("%s: binary %v with hunks %v", f.Path, f.Binary, f.Hunks)
		}
		adds, dels := 0, 0
		for k, h := range f.Hunks {
			a, d := checkHunk(t, f.Path, k, h)
			adds += a
			dels += d
		}
		if adds != f.Additions || dels != f.Deletions {
			t.Errorf("%s: file says +%d -%d, rows hold +%d -%d", f.Path, f.Additions, f.Deletions, adds, dels)
		}
	}
}

// checkHunk checks one hunk and returns its added and deleted row counts.
func checkHunk(t testing.TB, path string, k int, h Hunk) (adds, dels int) {
	t.Helper()
	if h.Index != k {
		t.Errorf("%s hunk %d: Index %d", path, k, h.Index)
	}
	if len(h.Rows) != len(h.Lines) {
		t.Fatalf("%s hunk %d: %d rows for %d lines", path, k, len(h.Rows), len(h.Lines))
	}
	if want := displayLines(h.Lines); !slices.Equal(h.Display, want) || (h.Display == nil) != (want == nil) {
		t.Errorf("%s hunk %d: Display %q, want %q", path, k, h.Display, want)
	}
	if h.Digest != HunkDigest(path, h.Lines) {
		t.Errorf("%s hunk %d: Digest %s is not HunkDigest of its path and lines", path, k, h.Digest)
	}
	if h.Declaration != DeclarationOf(h.Header) {
		t.Errorf("%s hunk %d: Declaration %q of header %q", path, k, h.Declaration, h.Header)
	}
	oldNo, newNo := max(h.OldStart, 1), max(h.NewStart, 1)
	old, nw := 0, 0
	for i, r := range h.Rows {
		wantOld, wantNew := r.Kind == KindContext || r.Kind == KindDel, r.Kind == KindContext || r.Kind == KindAdd
		if (r.OldLine != nil) != wantOld || (r.NewLine != nil) != wantNew {
			t.Errorf("%s hunk %d row %d (%v): old line %v new line %v", path, k, i, r.Kind, r.OldLine, r.NewLine)
			continue
		}
		if r.OldLine != nil {
			if *r.OldLine != oldNo {
				t.Errorf("%s hunk %d row %d: old line %d, want %d", path, k, i, *r.OldLine, oldNo)
			}
			oldNo++
			old++
		}
		if r.NewLine != nil {
			if *r.NewLine != newNo {
				t.Errorf("%s hunk %d row %d: new line %d, want %d", path, k, i, *r.NewLine, newNo)
			}
			newNo++
			nw++
		}
		switch r.Kind {
		case KindAdd:
			adds++
		case KindDel:
			dels++
		case KindContext, KindMeta:
		default:
			t.Errorf("%s hunk %d row %d: kind %v", path, k, i, r.Kind)
		}
		if r.Emph != nil && (r.Emph.Empty() || r.Emph.Start < 0 || r.Emph.End > utf16Len(r.Text)) {
			t.Errorf("%s hunk %d row %d: emphasis %+v outside %q", path, k, i, *r.Emph, r.Text)
		}
		if r.Emph != nil && r.Kind != KindAdd && r.Kind != KindDel {
			t.Errorf("%s hunk %d row %d: emphasis on a %v row", path, k, i, r.Kind)
		}
	}
	if old != h.OldCount || nw != h.NewCount {
		t.Errorf("%s hunk %d: header counts -%d +%d, rows hold -%d +%d", path, k, h.OldCount, h.NewCount, old, nw)
	}
	if adds+dels == 0 {
		t.Errorf("%s hunk %d changes nothing", path, k)
	}
	for i, s := range RawLineEmphasis(h) {
		if s.End > len(h.Lines[i]) || s.Start > s.End {
			t.Errorf("%s hunk %d row %d: raw emphasis %+v outside %q", path, k, i, s, h.Lines[i])
		}
	}
	return adds, dels
}
