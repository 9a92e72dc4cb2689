package changeset

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the parser's output")

// TestParse_MatchesGoldenJSON pins the whole wire form (files, hunks, rows,
// digests, display, emphasis) of every testdata patch that parses, and the
// error message of every one that does not. Run
// `go test ./internal/changeset -run Golden -update` after an intended
// change and review the diff.
func TestParse_MatchesGoldenJSON(t *testing.T) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasSuffix(name, ".md") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			golden := filepath.Join("testdata", "golden", name+".json")
			var got []byte
			if c, err := ParseBytes(readTestdata(t, name)); err != nil {
				// A refused patch pins its message instead.
				golden = filepath.Join("testdata", "golden", name+".err")
				got = []byte(err.Error() + "\n")
			} else if got, err = json.MarshalIndent(c, "", "  "); err != nil {
				t.Fatal(err)
			} else {
				got = append(got, '\n')
			}
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(want, got) {
				t.Errorf("JSON differs from %s (-want +got):\n%s", golden, cmp.Diff(string(want), string(got)))
			}
		})
	}
}
