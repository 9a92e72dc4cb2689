package tui

import (
	"context"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/forge"
	"os"
	"path/filepath"
	"testing"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/editor"
)

// recordingEditor is fakeEditor that also copies the buffer it was given
// to the returned path, to check what the header quoted.
func recordingEditor(t *testing.T, body string) (*editor.Editor, string) {
	t.Helper()
	dir := t.TempDir()
	path, seen := filepath.Join(dir, "editor.sh"), filepath.Join(dir, "buffer.txt")
	script := "#!/bin/sh\ncp \"$1\" '" + seen + "'\nprintf '%s\\n' '" + body + "' >> \"$1\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &editor.Editor{Command: editor.Command{Line: path, Args: []string{path}, Setting: "test"}}, seen
}

// The host's threads are drawn under their line with author, state and
// replies; the file heading and the status line count them.
func TestThreads_ShownUnderTheirLine(t *testing.T) {
	w := newForgeWorld(t)
	w.thread("main.go", changeset.SideNew, 9, "Which world?\nThe greeting should say.", "This one.", "Fine by me.")
	w.thread("main.go", changeset.SideOld, 8, "Why drop the old comment?")
	h := w.open(harnessOpts{})
	h.keys("]", "f", "]", "f", "]", "c")
	h.golden("threads-under-line")
}

// A thread is recorded as seen once it has been on screen, and not
// before: check-review then stops reporting it.
func TestThreads_MarkedSeenOnceOnScreen(t *testing.T) {
	w := newForgeWorld(t)
	w.thread("main.go", changeset.SideNew, 9, "Which world?")
	w.thread("notes.txt", changeset.SideNew, 20, "Words or digits?")
	h := w.open(harnessOpts{width: 80, height: 8})
	newIDs := func() []string {
		res, err := w.conversation().CheckReview(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, th := range res.New {
			out = append(out, th.Path)
		}
		return out
	}
	if diff := cmp.Diff([]string{"main.go", "notes.txt"}, newIDs()); diff != "" {
		t.Fatalf("new threads before anything was shown (-want +got):\n%s", diff)
	}
	h.keys("]", "f", "]", "f", "]", "c", "j", "j", "j", "j", "j", "j")
	if diff := cmp.Diff([]string{"main.go", "notes.txt"}, newIDs()); diff != "" {
		t.Errorf("new threads with main.go's just below the screen (-want +got):\n%s", diff)
	}
	h.keys("j")
	if diff := cmp.Diff([]string{"notes.txt"}, newIDs()); diff != "" {
		t.Errorf("new threads after main.go's was on screen (-want +got):\n%s", diff)
	}
	h.keys("]", "f", "]", "c", "j", "j", "j", "j", "j", "j")
	if got := newIDs(); len(got) != 0 {
		t.Errorf("threads still new after both were on screen: %v", got)
	}
	if !strings.Contains(h.screen(), "(2 new)") {
		t.Errorf("the threads new when the review opened lost their tag:\n%s", h.screen())
	}
}

// r on a thread's line opens the editor with the thread quoted; the reply
// is staged as a draft, previewed under the thread, listed by C next to
// the threads, and sent after the review by S.
func TestThreads_ReplyIsStagedUnderItsThreadAndListed(t *testing.T) {
	w := newForgeWorld(t)
	w.thread("main.go", changeset.SideNew, 9, "Which world?", "This one.")
	w.thread("notes.txt", changeset.SideNew, 20, "Words or digits?")
	ed, buffer := recordingEditor(t, "The one named on the command line.")
	h := w.open(harnessOpts{editor: ed})
	h.keys("]", "f", "]", "f", "]", "c", "j", "j", "j", "j", "j", "j")
	h.keys("r")
	quoted, err := os.ReadFile(buffer)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Replying to:", "author wrote:", "> Which world?", "> This one.", "9 | // or for the world"} {
		if !strings.Contains(string(quoted), want) {
			t.Errorf("the editor's buffer lacks %q:\n%s", want, quoted)
		}
	}
	snap := h.serviceSnapshot()
	if len(snap.Drafts) != 1 || snap.Drafts[0].ReplyTo == "" {
		t.Fatalf("drafts after replying: %+v", snap.Drafts)
	}
	h.golden("thread-reply-staged")
	h.keys("C")
	h.golden("drafts-and-threads")
}

// Thread text comes from the host: escapes and bidi controls are shown
// as visible escapes, under the line, in the list and on the
// confirmation screen, never sent to the terminal.
func TestThreads_HostileTextIsEscaped(t *testing.T) {
	w := newForgeWorld(t)
	w.thread("main.go", changeset.SideNew, 9, "look \x1b]0;pwned\x07 here\u202e", "reply \x1b[2J")
	h := w.open(harnessOpts{width: 120, height: 40})
	for _, keys := range [][]string{nil, {"C"}} {
		h.keys(keys...)
		scr := h.screen()
		if strings.ContainsAny(scr, "\x1b\x07\u202e") {
			t.Errorf("after %v raw control characters reach the screen:\n%q", keys, scr)
		}
		if !strings.Contains(scr, "look <U+001B>]0;pwned<U+0007> here<U+202E>") {
			t.Errorf("after %v the thread is not shown escaped:\n%s", keys, scr)
		}
	}
}

// Every line of the thread, list and confirmation screens is exactly the
// terminal's width.
func TestThreads_ScreensFillTheWidth(t *testing.T) {
	w := newForgeWorld(t)
	w.thread("main.go", changeset.SideNew, 9, "Which world? "+strings.Repeat("long ", 30), "This one.")
	w.thread("main.go", changeset.SideOld, 8, "Why drop it?")
	for _, keys := range [][]string{{"]", "f", "]", "f", "]", "c"}, {"]", "f", "]", "f", "]", "c", "t"}, {"C"}, {"S"}} {
		h := w.open(harnessOpts{width: 73, height: 17})
		h.comment("main.go", changeset.SideNew, 14, "Keep the comma?")
		h.keys(keys...)
		lines := strings.Split(h.screen(), "\n")
		if len(lines) != 17 {
			t.Errorf("after %v: %d lines, want 17", keys, len(lines))
		}
		for i, l := range lines {
			if w := textCells(l, 8); w != 73 {
				t.Errorf("after %v: line %d is %d cells wide, want 73: %q", keys, i, w, l)
			}
		}
	}
}

// staticThreads is a ThreadSource with fixed threads, for threads the
// fake host cannot produce (outdated ones); it records what was marked
// seen.
type staticThreads struct {
	threads []app.PlacedThread
	seen    []string
}

func (s *staticThreads) Threads(context.Context, *changeset.Changeset) ([]app.PlacedThread, error) {
	return s.threads, nil
}

func (s *staticThreads) MarkThreadsSeen(_ context.Context, ts []forge.Thread) error {
	for _, t := range ts {
		s.seen = append(s.seen, t.ID)
	}
	return nil
}

// A thread the diff no longer shows (outdated) is listed by C, marked
// seen there, and r in the list stages a reply to it that has no line.
func TestThreads_ReplyToAnOutdatedThreadFromTheList(t *testing.T) {
	src := &staticThreads{threads: []app.PlacedThread{{Hunk: -1, New: true, Thread: forge.Thread{ID: "77", Path: "cmd/server/main.go",
		Outdated: true, ReplyTo: "77", Comments: []forge.ThreadComment{{ID: "770", Author: "carol", Body: "Was this tested?"}}}}}}
	h := newHarness(t, harnessOpts{editor: fakeEditor(t, "Yes, see the new test."), threads: src})
	if len(src.seen) != 0 {
		t.Fatalf("an outdated thread was marked seen before it was on screen: %v", src.seen)
	}
	h.keys("C")
	if diff := cmp.Diff([]string{"77"}, src.seen); diff != "" {
		t.Errorf("marked seen (-want +got):\n%s", diff)
	}
	h.keys("r")
	snap := h.serviceSnapshot()
	if len(snap.Drafts) != 1 || snap.Drafts[0].ReplyTo != "77" || snap.Drafts[0].Location.Path != "" || snap.Unsaved {
		t.Fatalf("the reply: %+v (unsaved %v)", snap.Drafts, snap.Unsaved)
	}
	h.keys("C")
	h.golden("drafts-outdated-thread-reply")
}
