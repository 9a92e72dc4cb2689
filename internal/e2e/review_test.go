package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func reviewPatch(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "review.patch"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The row the test comments on, and what the preview under it says.
const (
	commentedRow = `w.Header().Set("Retry-After", "1")`
	nextRow      = `"slow down"`
	draftBody    = "Derive Retry-After from the refill time."
	preview      = "your draft on" // the rest may be cut in a narrow pane
)

// draftUnderRow checks that the draft's preview is drawn right under the
// commented row (after its wrapped continuation, before the next row) and
// that the row carries the draft mark.
func draftUnderRow(screen string) bool {
	ls := lines(screen)
	row, pre, next := -1, -1, -1
	for i, l := range ls {
		switch {
		case row < 0 && commentedMark.MatchString(l):
			row = i
		case row >= 0 && pre < 0 && strings.Contains(l, preview):
			pre = i
		case row >= 0 && next < 0 && strings.Contains(l, nextRow):
			next = i
		}
	}
	return row >= 0 && pre > row && (next < 0 || pre < next)
}

// commentedMark is the commented row's gutter in either view: its new
// line number and the draft mark before the + sign.
var commentedMark = regexp.MustCompile(`(^|[ │])14 ●\+`)

func TestReview_CommentSurvivesRestartSplitAndResize(t *testing.T) {
	h := newTermHome(t, draftBody)
	patch := reviewPatch(t)

	tm := open(t, h, 100, 30, patch)
	tm.pickFile("server/main", " 2/7 cmd/server/main.go")
	tm.keys("J")
	tm.wait("the cursor on the first added line", func(s string) bool {
		for _, l := range lines(s) {
			if strings.Contains(l, ">") && strings.Contains(l, commentedRow[:20]) {
				return true
			}
		}
		return false
	})
	tm.keys("c")
	tm.waitText("draft saved on new line 14")
	scr := tm.wait("the preview under the commented line", draftUnderRow)
	if !strings.Contains(scr, draftBody) || !strings.Contains(scr, "your draft on new line 14") {
		t.Errorf("the preview does not show the body %q:\n%s", draftBody, scr)
	}
	if log, err := os.ReadFile(h.editorLog); err != nil || !strings.Contains(string(log), "leanreview-comment.md") {
		t.Errorf("the scripted editor was not run on the comment buffer (log %q, %v)", log, err)
	}
	tm.quit()

	tm = open(t, h, 100, 30, patch)
	tm.waitText("1 draft")
	tm.pickFile("server/main", " 2/7 cmd/server/main.go")
	tm.wait("the draft under the same line after a restart", draftUnderRow)

	tm.keys("t")
	tm.waitText("split ·")
	tm.wait("the draft under the same line in split view", draftUnderRow)
	for _, size := range [][2]int{{140, 40}, {72, 20}} {
		if err := tm.s.Resize(tm.ctx, size[0], size[1]); err != nil {
			t.Fatal(err)
		}
		tm.wait("the draft under the same line at "+strconv.Itoa(size[0])+" columns", draftUnderRow)
	}
	tm.keys("t")
	tm.waitText("unified ·")
	tm.wait("the draft under the same line back in unified view", draftUnderRow)
	tm.quit()
}

func TestReview_ViewedMarkSurvivesRestart(t *testing.T) {
	h := newTermHome(t, "unused")
	patch := reviewPatch(t)

	tm := open(t, h, 100, 30, patch)
	tm.waitText(" 0/7 hunks")
	tm.keys("]", "c")
	tm.waitText(">── func main() {")
	tm.keys("v")
	scr := tm.waitText(" 1/7 hunks")
	if !strings.Contains(scr, "viewed ✓") {
		t.Errorf("the hunk heading does not say it was viewed:\n%s", scr)
	}
	tm.quit()

	tm = open(t, h, 100, 30, patch)
	scr = tm.waitText(" 1/7 hunks")
	if !strings.Contains(scr, "+7 -0 ✓") {
		t.Errorf("the sidebar does not show cmd/server/main.go complete after a restart:\n%s", scr)
	}
	tm.keys("]", "c")
	tm.wait("the hunk still marked viewed", func(s string) bool {
		return strings.Contains(s, "── func main() {") && strings.Contains(s, "viewed ✓")
	})
	tm.quit()
}

func TestReview_HostileTextIsEscapedAndTitleUntouched(t *testing.T) {
	h := newTermHome(t, "unused")
	tm := open(t, h, 120, 30, reviewPatch(t))
	before, err := tm.s.Display(tm.ctx, "#{pane_title}")
	if err != nil {
		t.Fatal(err)
	}
	tm.pickFile("notes", " 6/7 notes.txt")
	scr := tm.waitText("<U+001B>]0;pwned<U+0007> title change attempt")
	tm.pickFile("server/main", " 2/7 cmd/server/main.go")
	scr += tm.waitText("if !isAdmin { <U+202E>}")
	after, err := tm.s.Display(tm.ctx, "#{pane_title}")
	if err != nil {
		t.Fatal(err)
	}
	if after != before || strings.Contains(after, "pwned") {
		t.Errorf("the pane title changed from %q to %q", before, after)
	}
	if strings.ContainsAny(scr, "\x1b\x07\u202e") {
		t.Errorf("raw control characters reached the screen:\n%q", scr)
	}
	tm.quit()
}

func TestReview_BurstOfKeysIsHandledInFull(t *testing.T) {
	h := newTermHome(t, "unused")
	tm := open(t, h, 100, 30, reviewPatch(t))
	tm.keys("]", "c")
	start := statusPos.FindStringSubmatch(status(tm.waitText(">── func main() {")))
	if start == nil {
		t.Fatal("no position in the status line")
	}
	// Twelve j in one write, as key repeat or a slow link delivers them;
	// the hunk's next twelve items are all lines.
	tm.typ(strings.Repeat("j", 12))
	from, _ := strconv.Atoi(start[1])
	want := " " + strconv.Itoa(from+12) + "/" + start[2]
	tm.waitText(want)

	// A pattern typed in one write into the search prompt.
	tm.keys("/")
	tm.typ("retry-after")
	tm.waitText("/retry-after")
	tm.keys("Enter")
	tm.waitText("matches")
	tm.quit()
}
