package changeset

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var bigPatchDir = flag.String("bigpatch", "/work/cache/big", "directory of shared/bench/big-patch.sh's small/medium/large.diff; benchmarks on them skip when absent")

// BenchmarkParse reports parse throughput (MB/s) of the full model: rows,
// line numbers, digests, display and emphasis, on a testdata patch and on
// big-patch.sh's diffs when -bigpatch names a directory holding them:
//
//	go test ./internal/changeset -run '^$' -bench Parse -benchmem [-bigpatch DIR]
func BenchmarkParse(b *testing.B) {
	inputs := []struct{ name, path string }{
		{"testdata", filepath.Join("testdata", "git-extended-headers.diff")},
	}
	for _, n := range []string{"small", "medium", "large"} {
		inputs = append(inputs, struct{ name, path string }{n, filepath.Join(*bigPatchDir, n+".diff")})
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			patch, err := os.ReadFile(in.path)
			if err != nil {
				b.Skip(err)
			}
			b.SetBytes(int64(len(patch)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseBytes(patch); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
