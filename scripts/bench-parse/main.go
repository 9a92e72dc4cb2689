// Command bench-parse parses patch files with the changeset package and
// reports what it found and how long it took, for measuring the parser
// against `git apply --numstat` with /usr/bin/time -v:
//
//	go build -o /tmp/bench-parse ./scripts/bench-parse
//	/usr/bin/time -v /tmp/bench-parse [-json] [-gc PERCENT] PATCH...
//
// With -json it prints the parsed changeset of the first patch instead.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/leanreview/leanreview/internal/changeset"
)

func main() {
	asJSON := flag.Bool("json", false, "print the parsed changeset as JSON")
	gc := flag.Int("gc", 100, "garbage collector percentage (debug.SetGCPercent)")
	limit := flag.Int64("memlimit", 0, "soft memory limit in MiB (debug.SetMemoryLimit), 0 for none")
	mem := flag.Bool("mem", false, "report heap statistics after each parse")
	flag.Parse()
	debug.SetGCPercent(*gc)
	if *limit > 0 {
		debug.SetMemoryLimit(*limit << 20)
	}
	status := 0
	for _, path := range flag.Args() {
		start := time.Now()
		b, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			status = 1
			continue
		}
		c, err := changeset.ParseBytes(b)
		elapsed := time.Since(start)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			status = 1
			continue
		}
		if *asJSON {
			enc := json.NewEncoder(os.Stdout)
			enc.SetIndent("", "  ")
			if err := enc.Encode(c); err != nil {
				fmt.Fprintln(os.Stderr, err)
				status = 1
			}
			continue
		}
		var hunks, rows, adds, dels, emph, display int
		for _, f := range c.Files {
			adds += f.Additions
			dels += f.Deletions
			for _, h := range f.Hunks {
				hunks++
				rows += len(h.Rows)
				if h.Display != nil {
					display++
				}
				for _, r := range h.Rows {
					if r.Emph != nil {
						emph++
					}
				}
			}
		}
		if *mem {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			fmt.Printf("heap alloc %d MB, heap sys %d MB, total alloc %d MB, sys %d MB, GC cycles %d\n",
				m.HeapAlloc>>20, m.HeapSys>>20, m.TotalAlloc>>20, m.Sys>>20, m.NumGC)
		}
		fmt.Printf("%s: %d bytes, %d files, %d hunks, %d rows, +%d -%d, %d emphasized rows, %d hunks with display, %.3fs (%.0f MB/s)\n",
			path, len(b), len(c.Files), hunks, rows, adds, dels, emph, display, elapsed.Seconds(), float64(len(b))/elapsed.Seconds()/1e6)
	}
	os.Exit(status)
}
