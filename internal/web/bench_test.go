package web_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

var (
	webBenchFlag     = flag.String("webbench", "", "CACHE directory of ../shared/bench/big-patch.sh: measure the page on CACHE/big/medium.diff (scripts/web-bench)")
	webBenchFileFlag = flag.String("webbench.file", "medium.diff", "the patch under CACHE/big that -webbench measures")
)

// loadTimes are the page's performance marks, in ms since navigation.
type loadTimes struct {
	Fetched   float64 `json:"fetched"`
	Parsed    float64 `json:"parsed"`
	Indexed   float64 `json:"indexed"`
	FirstRows float64 `json:"firstRows"`
	Items     int     `json:"items"`
	Rows      int     `json:"rows"`
}

const loadScript = `(() => {
  const m = (n) => { const e = performance.getEntriesByName(n); return e.length ? e[e.length - 1].startTime : -1; };
  return { fetched: m("lr:fetched"), parsed: m("lr:parsed"), indexed: m("lr:indexed"), firstRows: m("lr:first-rows"),
    items: Number(document.getElementById("diff").dataset.items || 0), rows: document.querySelectorAll("#diff .row").length };
})()`

// TestWebBench measures the page on the 100,000-line medium.diff: the time
// to the first rows on screen, then a scroll from top to bottom in steps.
// It runs only with -webbench CACHE; scripts/web-bench runs it.
func TestWebBench(t *testing.T) {
	if *webBenchFlag == "" {
		t.Skip("run with -webbench CACHE (scripts/web-bench CACHE)")
	}
	patch := filepath.Join(*webBenchFlag, "big", *webBenchFileFlag)
	if _, err := os.Stat(patch); err != nil {
		t.Fatalf("%v: generate it with ../shared/bench/big-patch.sh CACHE", err)
	}
	s := startServer(t, patch)
	// Warm the daemon's encoded changeset, as a second tab or a reload
	// finds it; the cold figure is measured too.
	for _, round := range []string{"cold", "warm"} {
		b := newBrowser(t, s.disc.BaseURL(), 1600, 1000)
		start := time.Now()
		b.login(t, s)
		wall := time.Since(start)
		lt := evalJS[loadTimes](t, b, loadScript)
		heap, err := chromedp.Call(b.ctx, runtime.GetHeapUsage, cdp.Empty{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s load: changeset fetched %.0f ms, parsed %.0f ms, laid out and drawn %.0f ms, first rows painted %.0f ms after navigation (login to ready %v); JS heap in use %.0f MiB; %d row elements",
			round, lt.Fetched, lt.Parsed, lt.Indexed, lt.FirstRows, wall.Round(time.Millisecond), heap.UsedSize/(1<<20), lt.Rows)
		if round == "cold" {
			b.checkClean(t)
			continue
		}
		size := evalJS[float64](t, b, `performance.getEntriesByType("resource").filter(e => e.name.endsWith("/changeset")).map(e => e.decodedBodySize)[0] || 0`)
		t.Logf("changeset: %.1f MB of JSON", size/1e6)
		for _, run := range []struct {
			name      string
			steps     int
			from, to  float64
			stepLabel string
		}{
			{"jump scroll top to bottom", 400, 0, 1, "each step a new screen"},
			{"wheel-like scroll", 300, 0.5, 0.5 + 300*120/float64(3e6), "120 px steps"},
		} {
			r := evalJS[scrollResult](t, b, scrollScript+fmt.Sprintf(`(%d, %g, %g)`, run.steps, run.from, run.to))
			t.Logf("%s (%d steps, %s): rows re-rendered in p50 %.1f ms, p95 %.1f ms, max %.1f ms of script per step; step to the painted frame after it (two animation frames, so 33 ms at 60 Hz is no frame lost) p50 %.1f ms, p95 %.1f ms, max %.1f ms; %d tasks over 50 ms (longest %.0f ms); at most %d row elements in the DOM (bound %d)",
				run.name, run.steps, run.stepLabel, pct(r.Render, 50), pct(r.Render, 95), pct(r.Render, 100), pct(r.Times, 50), pct(r.Times, 95), pct(r.Times, 100), len(r.Long), pct(r.Long, 100), r.MaxRows, r.Bound)
			if run.to == 1 && !r.AtEnd {
				t.Errorf("%s did not reach the end", run.name)
			}
			if r.MaxRows > r.Bound {
				t.Errorf("%s: the DOM held %d rows, over the bound %d", run.name, r.MaxRows, r.Bound)
			}
		}
		jump := evalJS[float64](t, b, `(async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const t0 = performance.now();
  document.dispatchEvent(new KeyboardEvent("keydown", { key: "G", bubbles: true }));
  await frame();
  const t1 = performance.now();
  document.dispatchEvent(new KeyboardEvent("keydown", { key: "g", bubbles: true }));
  document.dispatchEvent(new KeyboardEvent("keydown", { key: "g", bubbles: true }));
  await frame();
  return Math.max(t1 - t0, performance.now() - t1);
})()`)
		t.Logf("keys G and gg (jump to the last and first line): %.1f ms to the painted frame, the slower of the two", jump)
		t0 := evalJS[float64](t, b, `(async () => {
  const t0 = performance.now();
  document.getElementById("view-split").click();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now() - t0;
})()`)
		t.Logf("switch to the split view (a new layout of every row): %.0f ms to the painted frame", t0)
		b.checkClean(t)
	}
}

// pct is the p-th percentile of xs (nearest rank), 0 for none.
func pct(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}
