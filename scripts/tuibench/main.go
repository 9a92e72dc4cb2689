// Command tuibench measures leanreview's terminal UI in tmux; see
// scripts/tui-bench, which builds it and the binary.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leanreview/leanreview/internal/e2e/tmux"
)

var (
	bin     = flag.String("bin", "leanreview", "the leanreview binary")
	cache   = flag.String("cache", "", "folder holding small.diff, medium.diff and large.diff")
	repeats = flag.Int("n", 20, "presses of each key")
	sizes   = flag.String("sizes", "small,medium,large", "patches to measure")
)

// pos is the "slot/total" position at the end of the status line.
var pos = regexp.MustCompile(`· (\d+)/(\d+) *$`)

func main() {
	flag.Parse()
	if *cache == "" {
		fmt.Fprintln(os.Stderr, "usage: tuibench -bin BIN -cache CACHE")
		os.Exit(2)
	}
	fmt.Printf("%-7s %8s %11s %13s", "patch", "size", "first frame", "peak RSS")
	for _, k := range keySpecs {
		fmt.Printf(" %13s", k.name)
	}
	fmt.Println()
	fmt.Printf("%-7s %8s %11s %13s", "", "", "", "")
	for range keySpecs {
		fmt.Printf(" %13s", "median/worst")
	}
	fmt.Println()
	for _, name := range strings.Split(*sizes, ",") {
		if err := measure(name); err != nil {
			fmt.Fprintf(os.Stderr, "tuibench %s: %v\n", name, err)
			os.Exit(1)
		}
	}
}

// bench is one running leanreview.
type bench struct {
	ctx context.Context
	s   *tmux.Session
}

func (b *bench) status() (string, error) {
	scr, err := b.s.Screen(b.ctx)
	if err != nil {
		return "", err
	}
	ls := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	return ls[len(ls)-1], nil
}

// press sends keys and returns how long until the status line satisfies
// ok, polling capture-pane every half millisecond.
func (b *bench) press(ok func(status string) bool, keys ...string) (time.Duration, error) {
	start := time.Now()
	if err := b.s.Keys(b.ctx, keys...); err != nil {
		return 0, err
	}
	for {
		st, err := b.status()
		if err != nil {
			return 0, err
		}
		if ok(st) {
			return time.Since(start), nil
		}
		if time.Since(start) > 20*time.Second {
			return 0, fmt.Errorf("keys %v: the screen never showed the expected state; status: %q", keys, st)
		}
		time.Sleep(500 * time.Microsecond)
	}
}

func position(st string) (cur, total int) {
	m := pos.FindStringSubmatch(st)
	if m == nil {
		return -1, -1
	}
	cur, _ = strconv.Atoi(m[1])
	total, _ = strconv.Atoi(m[2])
	return cur, total
}

// keySpec is one measured key: setup (untimed, before each press) and
// the key with the screen it must produce.
type keySpec struct {
	name  string
	setup func(b *bench) error
	keys  []string
	// done says whether the status line after the key shows its effect,
	// given the status line before.
	done func(before, after string) bool
}

func moved(before, after string) bool {
	c0, _ := position(before)
	c1, _ := position(after)
	return c1 >= 0 && c1 != c0
}

var keySpecs = []keySpec{
	{name: "j", keys: []string{"j"}, done: moved},
	{name: "page down", keys: []string{"NPage"}, done: moved},
	{name: "G", setup: func(b *bench) error {
		_, err := b.press(func(st string) bool { c, _ := position(st); return c == 1 }, "g", "g")
		return err
	}, keys: []string{"G"}, done: func(_, after string) bool { c, t := position(after); return c == t && c > 1 }},
	{name: "n", keys: []string{"n"}, done: moved},
	{name: "t", keys: []string{"t"}, done: func(before, after string) bool {
		return strings.Contains(before, "unified ·") != strings.Contains(after, "unified ·") && pos.MatchString(after)
	}},
	{name: "za", keys: []string{"z", "a"}, done: func(before, after string) bool {
		_, t0 := position(before)
		_, t1 := position(after)
		return t1 > 0 && t1 != t0
	}},
}

func measure(name string) error {
	patch := filepath.Join(*cache, name+".diff")
	fi, err := os.Stat(patch)
	if err != nil {
		return err
	}
	state, err := os.MkdirTemp("", "tuibench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(state)
	ctx := context.Background()
	start := time.Now()
	s, err := tmux.Start(ctx, tmux.Options{
		Socket: fmt.Sprintf("tuibench-%d-%s", os.Getpid(), name), Width: 160, Height: 50, Dir: state,
		Env:  []string{"XDG_STATE_HOME=" + state, "XDG_CONFIG_HOME=" + state, "TERM=tmux-256color"},
		Argv: []string{*bin, patch},
	})
	if err != nil {
		return err
	}
	defer s.Close()
	b := &bench{ctx: ctx, s: s}
	if _, err := s.WaitFor(ctx, 60*time.Second, time.Millisecond, func(scr string) bool { return strings.Contains(scr, " hunks · ") }); err != nil {
		return fmt.Errorf("first frame: %w", err)
	}
	first := time.Since(start)

	results, err := timeKeys(b)
	if err != nil {
		return err
	}
	rss, err := peakRSS(b)
	if err != nil {
		return err
	}
	fmt.Printf("%-7s %7.1fM %9dms %8dM %3.1fx", name, float64(fi.Size())/1e6, first.Milliseconds(), rss>>20, float64(rss)/float64(fi.Size()))
	for _, r := range results {
		slices.Sort(r)
		fmt.Printf(" %6.1f/%6.1f", ms(r[len(r)/2]), ms(r[len(r)-1]))
	}
	fmt.Println()
	return nil
}

// timeKeys presses each measured key -n times and returns the times.
func timeKeys(b *bench) ([][]time.Duration, error) {
	results := make([][]time.Duration, len(keySpecs))
	for i, k := range keySpecs {
		if k.name == "n" {
			if err := b.search("return"); err != nil {
				return nil, err
			}
		}
		if k.name == "za" {
			// Fold the hunk under the cursor: start on the first hunk.
			if _, err := b.press(func(st string) bool { c, _ := position(st); return c == 1 }, "g", "g"); err != nil {
				return nil, err
			}
			if _, err := b.press(func(st string) bool { c, _ := position(st); return c > 1 }, "]", "c"); err != nil {
				return nil, err
			}
		}
		for r := 0; r < *repeats; r++ {
			if k.setup != nil {
				if err := k.setup(b); err != nil {
					return nil, err
				}
			}
			before, err := b.status()
			if err != nil {
				return nil, err
			}
			d, err := b.press(func(st string) bool { return k.done(before, st) }, k.keys...)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k.name, err)
			}
			results[i] = append(results[i], d)
		}
	}
	return results, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// search runs /pattern and waits for the background scan to finish.
func (b *bench) search(pattern string) error {
	if err := b.s.Keys(b.ctx, "/"); err != nil {
		return err
	}
	if err := b.s.Type(b.ctx, pattern); err != nil {
		return err
	}
	_, err := b.press(func(st string) bool { return strings.Contains(st, "matches") }, "Enter")
	return err
}

// peakRSS reads the program's high-water resident set from /proc.
func peakRSS(b *bench) (int64, error) {
	pid, err := b.s.Display(b.ctx, "#{pane_pid}")
	if err != nil {
		return 0, err
	}
	data, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/" + pid + "/status")
}
