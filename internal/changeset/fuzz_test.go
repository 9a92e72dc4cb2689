package changeset

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParse feeds the parser arbitrary input, seeded with every testdata
// patch. It must never panic; what it accepts must pass checkInvariants
// (rows and counts agree after any recount, Additions and Deletions are the
// counted rows, digests and line numbers are consistent); what it refuses
// must be a *ParseError or a *DialectError. Parsing in chunks on several
// goroutines (chunks.go) must give exactly what one pass gives.
//
//	go test ./internal/changeset -run '^$' -fuzz FuzzParse -fuzztime 4000000x -fuzzminimizetime 10s
//
// A count rather than a duration for -fuzztime: with a duration, Go 1.26's
// coordinator can end a clean run with a spurious "context deadline
// exceeded" (golang/go#75804).
func FuzzParse(f *testing.F) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("testdata", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, patch []byte) {
		c, err := parse(string(patch), math.MaxInt)
		if err != nil {
			if _, cerr := parse(string(patch), 0); cerr == nil || cerr.Error() != err.Error() {
				t.Fatalf("whole: %v; in chunks: %v", err, cerr)
			}
			var pe *ParseError
			var de *DialectError
			if !errors.As(err, &pe) && !errors.As(err, &de) {
				t.Fatalf("error %v (%T) is neither a ParseError nor a DialectError", err, err)
			}
			return
		}
		checkInvariants(t, c)
		chunked, err := parse(string(patch), 0)
		if err != nil {
			t.Fatalf("parsed whole, but in chunks: %v", err)
		}
		if diff := cmp.Diff(c, chunked); diff != "" {
			t.Fatalf("parsing in chunks differs (-whole +chunks):\n%s", diff)
		}
		for _, f := range c.Files {
			for _, h := range f.Hunks {
				for _, r := range h.Rows {
					if r.Emph != nil {
						s := byteSpan(r.Text, *r.Emph)
						if s.Start < 0 || s.End > len(r.Text) || s.Start > s.End {
							t.Fatalf("byte span %+v of %+v outside %q", s, *r.Emph, r.Text)
						}
					}
				}
			}
		}
	})
}
