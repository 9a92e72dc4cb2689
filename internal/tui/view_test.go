package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/editor"
)

// Each case presses keys on the test patch at 80x24 with no colour and
// compares the screen with testdata/NAME.golden.
func TestView_Golden(t *testing.T) {
	tests := []struct {
		name string
		keys []string
	}{
		{"first-screen", nil},
		{"nav-next-hunk", []string{"]", "c"}},
		{"nav-next-change", []string{"]", "c", "J", "J"}},
		{"nav-next-file-twice", []string{"]", "f", "]", "f"}},
		{"nav-bottom", []string{"G"}},
		{"nav-bottom-then-top", []string{"G", "g", "g"}},
		{"nav-page-down", []string{"pgdown"}},
		{"nav-half-page-down-up", []string{"ctrl+d", "ctrl+d", "ctrl+u"}},
		{"split-view", []string{"]", "c", "j", "j", "j", "t"}},
		{"split-view-old-side", []string{"]", "f", "]", "f", "]", "f", "J", "t", "h"}},
		{"fold-hunk", []string{"]", "c", "j", "z", "a"}},
		{"fold-then-unfold", []string{"]", "c", "j", "z", "a", "z", "a"}},
		{"nowrap", []string{"]", "c", "w"}},
		{"search-prompt", []string{"/", "type:retry-after"}},
		{"search-first-match", []string{"/", "type:retry-after", "enter"}},
		{"search-next-match", []string{"/", "type:retry-after", "enter", "n", "n"}},
		{"search-prev-wraps", []string{"/", "type:retry-after", "enter", "N"}},
		{"help", []string{"?"}},
		{"file-picker", []string{"f", "type:bkt"}},
		{"sidebar-hidden", []string{"\\", "]", "c"}},
		{"viewed-hunk", []string{"]", "c", "v"}},
		{"viewed-file", []string{"]", "f", "]", "f", "]", "f", "v"}},
		{"hostile-escapes", []string{"f", "type:notes", "enter", "j", "j", "j"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, harnessOpts{})
			h.keys(tt.keys...)
			h.golden(tt.name)
		})
	}
}

// A resize re-lays the screen around the same semantic line: the cursor's
// file, hunk and row never change, only where they are drawn.
func TestView_ResizeKeepsTheCursorLine(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.keys("]", "f", "]", "f", "]", "f", "J", "J")
	want := h.m.diff.cursor
	for _, size := range []struct {
		name string
		w, h int
	}{{"resize-narrow", 50, 14}, {"resize-wide", 120, 30}, {"resize-tiny", 30, 6}} {
		h.send(tea.WindowSizeMsg{Width: size.w, Height: size.h})
		if got := h.m.diff.cursor; got != want {
			t.Fatalf("%s: the cursor moved from %+v to %+v", size.name, want, got)
		}
		h.golden(size.name)
	}
}

// Toggling the view, wrapping, previews and folding another hunk moves
// only the projection; the cursor stays on its line.
func TestView_ProjectionTogglesKeepTheCursorLine(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.keys("]", "f", "]", "f", "]", "f", "J", "J", "j")
	want := h.m.diff.cursor
	for _, keys := range [][]string{{"t"}, {"w"}, {"t"}, {"w"}, {"i"}, {"i"}} {
		h.keys(keys...)
		if got := h.m.diff.cursor; got != want {
			t.Fatalf("after %v the cursor moved from %+v to %+v", keys, want, got)
		}
		if !strings.Contains(h.screen(), ">") {
			t.Fatalf("after %v the cursor is not on screen:\n%s", keys, h.screen())
		}
	}
}

// fakeEditor writes a scripted editor that appends body to the buffer.
func fakeEditor(t *testing.T, body string) *editor.Editor {
	t.Helper()
	path := filepath.Join(t.TempDir(), "editor.sh")
	script := "#!/bin/sh\nprintf '%s\\n' '" + body + "' >> \"$1\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &editor.Editor{Command: editor.Command{Line: path, Args: []string{path}, Setting: "test"}}
}

// A comment written on a line is previewed under it, marked in the
// gutter, listed in the drafts list, and survives the view toggle.
func TestView_CommentPreviewAndDraftsList(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, harnessOpts{editor: fakeEditor(t, "Use the refill time here."), dir: dir})
	h.keys("]", "c", "J", "c")
	h.golden("comment-preview")
	h.keys("t")
	h.golden("comment-preview-split")
	h.keys("C")
	h.golden("drafts-list")

	// Reopening the same review brings the draft back on the same line.
	h2 := newHarness(t, harnessOpts{dir: dir})
	h2.keys("]", "c", "J")
	h2.golden("comment-preview-reopened")
}

// V starts a selection; c on its other end comments on the whole range.
func TestView_RangeComment(t *testing.T) {
	h := newHarness(t, harnessOpts{editor: fakeEditor(t, "These three lines need a test.")})
	h.keys("]", "c", "J", "J", "V", "j", "j")
	h.golden("range-selected")
	h.keys("c")
	h.golden("range-commented")
}

// dd deletes the draft under the cursor and u brings it back.
func TestView_DeleteAndUndo(t *testing.T) {
	h := newHarness(t, harnessOpts{editor: fakeEditor(t, "Temporary remark.")})
	h.keys("]", "c", "J", "c")
	if n := len(h.m.snap.Drafts); n != 1 {
		t.Fatalf("%d drafts after commenting, want 1", n)
	}
	h.keys("d", "d")
	if n := len(h.m.snap.Drafts); n != 0 {
		t.Fatalf("%d drafts after dd, want 0", n)
	}
	h.keys("u")
	if n := len(h.m.snap.Drafts); n != 1 || !strings.Contains(h.screen(), "Temporary remark.") {
		t.Fatalf("undo did not restore the draft (%d drafts):\n%s", n, h.screen())
	}
}

// Every line of every screen is exactly the terminal's width.
func TestView_LinesFillTheWidth(t *testing.T) {
	for _, keys := range [][]string{nil, {"t"}, {"w"}, {"G"}, {"?"}, {"f"}, {"C"}, {"\\"}} {
		h := newHarness(t, harnessOpts{width: 73, height: 17})
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

// Text pasted into the search prompt (bracketed paste) is searched for
// as typed.
func TestView_PasteIntoSearchPrompt(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.keys("/")
	h.send(tea.PasteMsg{Content: "Retry-After\n"})
	h.keys("enter")
	if !strings.Contains(h.screen(), "match 1 of 2") {
		t.Fatalf("the pasted pattern was not searched:\n%s", h.screen())
	}
}

// An empty change (what a diff of two equal trees prints) shows a screen
// that says so, and no key breaks it.
func TestView_EmptyChange(t *testing.T) {
	h := newHarness(t, harnessOpts{patch: "empty.patch"})
	h.keys("j", "k", "J", "]", "c", "]", "f", "[", "f", "G", "g", "g", "pgdown", "t", "w", "z", "a", "v", "c", "V", "d", "d", "u", "/", "type:x", "enter", "n", "C", "esc", "f", "enter", "?", "esc")
	h.send(tea.WindowSizeMsg{Width: 40, Height: 8})
	h.golden("empty-change")
}
