package mcp_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/mcp"
)

var bigDiff = flag.String("bigdiff", "", "a large patch (big-patch.sh's medium.diff or large.diff) for TestReadReview_BigDiffAnswersStaySmall")

// TestReadReview_BigDiffAnswersStaySmall reads a change of thousands of
// files the way an agent starts: the summary, then full and patch without
// a filter, then one file. It logs each answer's size and time and
// requires the unfiltered reads to stay within the line budget. Run with
// -bigdiff=CACHE/big/medium.diff.
func TestReadReview_BigDiffAnswersStaySmall(t *testing.T) {
	if *bigDiff == "" {
		t.Skip("no -bigdiff given")
	}
	b, err := os.ReadFile(*bigDiff)
	if err != nil {
		t.Fatal(err)
	}
	cs := agent(t, newReview(t, b).svc)
	var first string
	for _, args := range []map[string]any{
		{"projection": "summary"},
		{"projection": "full"},
		{"projection": "patch"},
		{"projection": "conversation"},
		{"projection": "full", "path": "<first>"},
	} {
		if args["path"] == "<first>" {
			args["path"] = first
		}
		start := time.Now()
		res := callTool(t, cs, mcp.ToolRead, args)
		elapsed := time.Since(start)
		if res.IsError {
			t.Fatalf("%v: %s", args, text(res))
		}
		var v mcp.ReviewView
		sc, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(sc, &v); err != nil {
			t.Fatal(err)
		}
		if first == "" && len(v.Files) > 0 {
			for _, f := range v.Files {
				if f.HunkCount > 0 {
					first = f.Path
					break
				}
			}
		}
		rows := 0
		for _, f := range v.Files {
			for _, h := range f.Hunks {
				rows += len(h.Rows)
			}
		}
		label := fmt.Sprint(args["projection"])
		if p, ok := args["path"]; ok {
			label += " path=" + fmt.Sprint(p)
		}
		t.Logf("%-28s text %6.1f KiB  json %6.1f KiB  %6.1f ms  files %4d  rows %4d  omitted %2d",
			label, float64(len(text(res)))/1024, float64(len(sc))/1024, float64(elapsed.Microseconds())/1000, len(v.Files), rows, len(v.Omitted))
		if args["projection"] == "full" && args["path"] == nil && rows > 2000+500 {
			t.Errorf("unfiltered full returned %d rows, past the 2000-line budget", rows)
		}
	}
}
