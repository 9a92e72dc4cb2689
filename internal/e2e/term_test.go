package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/e2e/tmux"
)

// term is one leanreview run in a tmux pane, with its state and config
// directories in the test's temporary directory.
type term struct {
	t   *testing.T
	s   *tmux.Session
	ctx context.Context
}

// termHome is one user's directories for the terminal tests: state and
// config survive a restart.
type termHome struct {
	state, config, dir string
	editorLog          string
}

// newTermHome makes the directories and a scripted editor that appends body
// to the comment buffer and records each run.
func newTermHome(t *testing.T, body string) *termHome {
	t.Helper()
	dir := t.TempDir()
	h := &termHome{state: filepath.Join(dir, "state"), config: filepath.Join(dir, "config"), dir: dir, editorLog: filepath.Join(dir, "editor.log")}
	script := "#!/bin/sh\necho \"$1\" >> " + h.editorLog + "\nprintf '%s\\n' '" + body + "' >> \"$1\"\n"
	if err := os.WriteFile(filepath.Join(dir, "editor.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *termHome) env() []string {
	return []string{
		"XDG_STATE_HOME=" + h.state, "XDG_CONFIG_HOME=" + h.config,
		"LEANREVIEW_EDITOR=" + filepath.Join(h.dir, "editor.sh"),
		"HOME=" + h.dir, "TERM=tmux-256color",
	}
}

func socketName(t *testing.T) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "lr-e2e-" + hex.EncodeToString(b[:])
}

func requireTmux(t *testing.T) {
	t.Helper()
	if !tmux.Available() {
		t.Skip("tmux is not installed: the end-to-end terminal tests need it (apt-get install tmux)")
	}
}

// open starts leanreview on args in a w x h terminal.
func open(t *testing.T, h *termHome, w, hgt int, args ...string) *term {
	t.Helper()
	requireTmux(t)
	if !wired {
		t.Fatal("leanreview's root command does not open the review UI: wire reviewRun and --demo in internal/cli/cli.go (see internal/cli/review.go)")
	}
	ctx := context.Background()
	s, err := tmux.Start(ctx, tmux.Options{
		Socket: socketName(t), Width: w, Height: hgt, Dir: h.dir, Env: h.env(),
		Argv: append([]string{bin}, args...),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	tm := &term{t: t, s: s, ctx: ctx}
	tm.wait("the first screen", func(s string) bool { return strings.Contains(s, " hunks · ") })
	return tm
}

func (tm *term) keys(keys ...string) {
	tm.t.Helper()
	if err := tm.s.Keys(tm.ctx, keys...); err != nil {
		tm.t.Fatal(err)
	}
}

func (tm *term) typ(text string) {
	tm.t.Helper()
	if err := tm.s.Type(tm.ctx, text); err != nil {
		tm.t.Fatal(err)
	}
}

// wait polls the screen until ok accepts it (10 s at most).
func (tm *term) wait(what string, ok func(string) bool) string {
	tm.t.Helper()
	scr, err := tm.s.WaitFor(tm.ctx, 10*time.Second, 5*time.Millisecond, ok)
	if err != nil {
		tm.t.Fatalf("waiting for %s: %v; the screen:\n%s", what, err, scr)
	}
	return scr
}

func (tm *term) waitText(text string) string {
	tm.t.Helper()
	return tm.wait(quote(text), func(s string) bool { return strings.Contains(s, text) })
}

func quote(s string) string { return "\"" + s + "\"" }

// quit presses q and waits for the program to exit.
func (tm *term) quit() {
	tm.t.Helper()
	tm.keys("q")
	deadline := time.Now().Add(10 * time.Second)
	for !tm.s.Dead(tm.ctx) {
		if time.Now().After(deadline) {
			scr, _ := tm.s.Screen(tm.ctx)
			tm.t.Fatalf("leanreview did not exit on q; the screen:\n%s", scr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// pickFile jumps to the file whose path matches query with the picker.
func (tm *term) pickFile(query, status string) {
	tm.t.Helper()
	tm.keys("f")
	tm.waitText("file: ")
	tm.typ(query)
	tm.waitText("file: " + query)
	tm.keys("Enter")
	tm.waitText(status)
}

// statusPos reads the "slot/total" position at the end of the status line.
var statusPos = regexp.MustCompile(`· (\d+)/(\d+) *$`)

func lines(screen string) []string { return strings.Split(strings.TrimRight(screen, "\n"), "\n") }

func status(screen string) string {
	ls := lines(screen)
	return ls[len(ls)-1]
}
