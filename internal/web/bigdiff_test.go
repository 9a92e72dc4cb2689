package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/leanreview/internal/app"
)

// bigPatch writes a change of files x hunks hunks of 44 rows each (10
// context, 10 deleted, 14 added, 10 context) and returns its path.
func bigPatch(t testing.TB, files, hunks int) string {
	t.Helper()
	var b strings.Builder
	for f := 0; f < files; f++ {
		p := fmt.Sprintf("pkg/m%03d/file%03d.go", f/10, f)
		fmt.Fprintf(&b, "diff --git a/%s b/%s\nindex 1234567..89abcde 100644\n--- a/%s\n+++ b/%s\n", p, p, p, p)
		for h := 0; h < hunks; h++ {
			old, neu := 1+h*100, 1+h*104
			fmt.Fprintf(&b, "@@ -%d,30 +%d,34 @@ func f%d_%d() {\n", old, neu, f, h)
			for i := 0; i < 10; i++ {
				fmt.Fprintf(&b, " \tx%d := compute(%d, %q)\n", i, i, p)
			}
			for i := 0; i < 10; i++ {
				fmt.Fprintf(&b, "-\treturn old%d(x%d) // file %d hunk %d\n", i, i, f, h)
			}
			for i := 0; i < 14; i++ {
				fmt.Fprintf(&b, "+\treturn fresh%d(x%d, ctx) // file %d hunk %d\n", i, i, f, h)
			}
			for i := 0; i < 10; i++ {
				fmt.Fprintf(&b, " \ty%d := tail(%d)\n", i, i)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "big.diff")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// scrollScript scrolls the diff from top to bottom in steps, waiting for
// the painted frame after each, and reports each step's time, the most row
// elements the DOM held, and the tasks over 50 ms (PerformanceObserver
// longtask) meanwhile. from and to are fractions of the whole height.
const scrollScript = `(async (steps, from, to) => {
  const sc = document.getElementById("diff");
  const max = sc.scrollHeight - sc.clientHeight;
  const long = [];
  const po = new PerformanceObserver((l) => long.push(...l.getEntries().map((e) => e.duration)));
  po.observe({ type: "longtask" });
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  sc.scrollTop = Math.round(max * from);
  await frame();
  const stats = window.leanreviewStats;
  stats.times.length = 0;
  const times = [];
  let maxRows = 0;
  for (let k = 1; k <= steps; k++) {
    const t0 = performance.now();
    sc.scrollTop = Math.round(max * (from + (to - from) * k / steps));
    await frame();
    times.push(performance.now() - t0);
    maxRows = Math.max(maxRows, sc.querySelectorAll(".row").length);
  }
  await new Promise((r) => setTimeout(r, 100));
  po.disconnect();
  const last = [...sc.querySelectorAll(".row.line")].map((e) => Number(e.dataset.new || e.dataset.old || 0));
  return { times, render: stats.times.slice(), maxRows, long, bound: Math.ceil(sc.clientHeight / 20) + 24, lastLine: Math.max(...last), atEnd: sc.scrollTop >= max - 1 };
})`

type scrollResult struct {
	Times    []float64 `json:"times"`
	Render   []float64 `json:"render"`
	MaxRows  int       `json:"maxRows"`
	Long     []float64 `json:"long"`
	Bound    int       `json:"bound"`
	LastLine int       `json:"lastLine"`
	AtEnd    bool      `json:"atEnd"`
}

// TestBrowser_BigDiffStaysVirtualized loads a change of about 26,000 rows
// and scrolls it from top to bottom: the DOM never holds more than a
// screenful of rows plus the overscan, the end is reached, and the keys
// that jump (G, [f) land on rows that are drawn.
func TestBrowser_BigDiffStaysVirtualized(t *testing.T) {
	s := startServer(t, bigPatch(t, 60, 10))
	b := newBrowser(t, s.disc.BaseURL(), 1280, 800)
	b.login(t, s)
	r := evalJS[scrollResult](t, b, scrollScript+`(60, 0, 1)`)
	if r.MaxRows > r.Bound || r.MaxRows < 20 {
		t.Errorf("the DOM held up to %d rows while scrolling; want between 20 and %d (a screenful plus overscan)", r.MaxRows, r.Bound)
	}
	if !r.AtEnd || r.LastLine != 9*104+34 {
		t.Errorf("at the end of the scroll: at end %v, last line drawn %d, want %d", r.AtEnd, r.LastLine, 9*104+34)
	}

	b.key(t, "g", "g")
	b.waitJS(t, "the first file at the top", `document.querySelector('.row.file[data-path="pkg/m000/file000.go"]') !== null`)
	b.key(t, "G")
	b.waitJS(t, "the last line focused", `(e => e !== null && e.dataset.path === "pkg/m005/file059.go" && e.dataset.new === "970")(document.querySelector(".row.line.focus"))`)
	b.key(t, "[", "f")
	b.waitJS(t, "the last file's heading focused", `(e => e !== null && e.dataset.path === "pkg/m005/file059.go")(document.querySelector(".row.file.focus"))`)
	if n := evalJS[int](t, b, `document.querySelectorAll("#diff .row").length`); n > r.Bound {
		t.Errorf("after the jumps the DOM holds %d rows, over %d", n, r.Bound)
	}
	waitSnapshot(t, s, "the cursor on the last file's heading", func(sn *app.Snapshot) bool {
		return sn.Cursor.Path == "pkg/m005/file059.go" && sn.Cursor.Hunk == -1
	})

	// f filters the file list; Enter goes to the first match.
	b.key(t, "f")
	b.waitJS(t, "the file filter focused", `document.activeElement.id === "file-filter"`)
	b.key(t, "file031", "\r")
	b.waitJS(t, "file031's heading focused", `(e => e !== null && e.dataset.path === "pkg/m003/file031.go")(document.querySelector(".row.file.focus"))`)
	if n := evalJS[int](t, b, `document.querySelectorAll("#files .file-entry").length`); n != 1 {
		t.Errorf("the filter left %d files listed, want 1", n)
	}

	// ? opens the help, drawn from the same table as the keys; Esc closes it.
	b.key(t, "?")
	b.waitJS(t, "the help", `!document.getElementById("help").hidden && document.getElementById("help").textContent.includes("next hunk")`)
	b.key(t, "\x1b")
	b.waitJS(t, "the help closed", `document.getElementById("help").hidden`)

	// The split view lays the same change out side by side, as virtualized.
	b.key(t, "t")
	b.waitJS(t, "the split view", `document.querySelector(".row.line.split") !== null`)
	r = evalJS[scrollResult](t, b, scrollScript+`(30, 0, 1)`)
	if r.MaxRows > r.Bound || !r.AtEnd {
		t.Errorf("split view: up to %d rows (bound %d), at end %v", r.MaxRows, r.Bound, r.AtEnd)
	}
	b.checkClean(t)
}
