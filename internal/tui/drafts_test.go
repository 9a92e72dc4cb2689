package tui

import (
	"context"

	"github.com/leanreview/leanreview/internal/session"
	"strings"
	"testing"
)

// A draft whose line changed under it is listed as [orphaned], is not
// previewed anywhere, and m in the drafts list moves it to the cursor's
// line, where it is previewed again.
func TestDrafts_OrphanIsTaggedAndMovedToTheCursorLine(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, harnessOpts{editor: fakeEditor(t, "Derive this from the refill time."), dir: dir, key: "pr-1"})
	h.keys("]", "c", "J", "c")

	h = newHarness(t, harnessOpts{dir: dir, key: "pr-1", patch: "review-v2.patch"})
	if h.m.orphans != 1 || !strings.Contains(h.screen(), "(1 orphaned)") {
		t.Fatalf("the status line does not count the orphan:\n%s", h.screen())
	}
	h.keys("]", "c", "J", "j")
	if strings.Contains(h.screen(), "your draft on") {
		t.Fatalf("an orphan is previewed:\n%s", h.screen())
	}
	h.keys("C")
	h.golden("drafts-list-orphan")
	h.keys("m")
	if h.m.orphans != 0 {
		t.Fatalf("the orphan was not moved:\n%s", h.screen())
	}
	h.golden("orphan-moved")
}

// e opens the draft's body in the editor; what the editor saves replaces
// it.
func TestDrafts_EditReplacesTheBody(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, harnessOpts{editor: fakeEditor(t, "First thought."), dir: dir})
	h.keys("]", "c", "J", "c")
	h = newHarness(t, harnessOpts{editor: fakeEditor(t, "Second thought."), dir: dir})
	h.keys("]", "c", "J", "e")
	body := h.m.snap.Drafts[0].Body
	if !strings.Contains(body, "First thought.") || !strings.Contains(body, "Second thought.") {
		t.Fatalf("the edited body is %q, want the old text with the editor's addition", body)
	}
	if !strings.Contains(h.screen(), "draft updated") {
		t.Errorf("no confirmation in the status line:\n%s", h.screen())
	}
}

// The mouse wheel scrolls the diff and drags the cursor along when it
// would leave the screen.
func TestMouse_WheelScrollsAndKeepsTheCursorVisible(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	before := h.m.diff.top
	for i := 0; i < 5; i++ {
		h.send(wheel(false))
	}
	if h.m.diff.top <= before {
		t.Fatalf("the wheel did not scroll: top %d -> %d", before, h.m.diff.top)
	}
	if c := h.m.diff.cursorSlot(); c < h.m.diff.top || c > h.m.diff.lastVisible() {
		t.Fatalf("the cursor (slot %d) left the screen (slots %d-%d)", c, h.m.diff.top, h.m.diff.lastVisible())
	}
	h.golden("mouse-wheel-down")
	for i := 0; i < 5; i++ {
		h.send(wheel(true))
	}
	if h.m.diff.top != before || h.m.diff.skip != 0 {
		t.Errorf("scrolling back up did not return to the top: top %d skip %d", h.m.diff.top, h.m.diff.skip)
	}
}

// A draft deleted elsewhere (the browser, the agent's session) while its
// preview is on screen above the cursor leaves the screen redrawn around
// the same line, not a crash.
func TestDrafts_DeletedElsewhereAboveTheCursor(t *testing.T) {
	h := newHarness(t, harnessOpts{editor: fakeEditor(t, "Gone soon.")})
	h.keys("]", "c", "J", "c", "j", "j", "j")
	want := h.m.diff.cursor
	id := h.m.snap.Drafts[0].ID
	if _, err := h.svc.DeleteComment(context.Background(), session.ActorHuman, id); err != nil {
		t.Fatal(err)
	}
	h.changed()
	if n := len(h.m.snap.Drafts); n != 0 || h.m.diff.cursor != want {
		t.Errorf("after the delete: %d drafts, cursor %+v (want %+v)", n, h.m.diff.cursor, want)
	}
	if strings.Contains(h.screen(), "Gone soon.") {
		t.Errorf("the deleted draft is still previewed:\n%s", h.screen())
	}
}
