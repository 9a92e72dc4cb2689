package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// refillLine is the new side's line 45 of internal/ratelimit/bucket.go in
// testdata/review.patch (the comment above refill), in its third hunk.
var refillLine = app.SuggestionRequest{Path: "internal/ratelimit/bucket.go", Hunk: 2, Side: changeset.SideNew, Line: 45,
	Reason: "The clock-step guard returns before updating last."}

// agentSuggests makes a suggestion as the agent (as MCP stamps it) and
// delivers the change event the service would publish.
func (h *harness) agentSuggests(req app.SuggestionRequest) app.Suggestion {
	h.t.Helper()
	s, err := h.svc.Suggest(context.Background(), session.ActorAgent, req)
	if err != nil {
		h.t.Fatal(err)
	}
	h.changed()
	return s
}

// changed delivers one "the session changed" event, as Subscribe would.
func (h *harness) changed() {
	ch := make(chan app.Event)
	close(ch)
	h.send(eventMsg{ch})
}

func (h *harness) serviceSnapshot() *app.Snapshot {
	h.t.Helper()
	snap, err := h.svc.Snapshot(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	return snap
}

// A suggestion shows up when its event arrives, with no key pressed: a
// bar above the status line says where and why, and the hunk heading and
// the line it names carry the agent's mark.
func TestSuggestions_AppearWithoutAKeypress(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.keys("]", "f", "]", "f", "]", "f", "]", "c", "]", "c", "]", "c", "ctrl+d")
	h.agentSuggests(refillLine)
	scr := h.screen()
	for _, want := range []string{"◆ agent: …/bucket.go:45 — The clock-step", "◆─ func (b *Bucket) Allow() bool {", "   45 ◆+ // refill adds"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the screen lacks %q:\n%s", want, scr)
		}
	}
	h.golden("suggestion-pending")
}

// Accepting moves the cursor: the service records it and the view follows
// to the suggested line, scrolled into view, from anywhere in the diff.
func TestSuggestions_AcceptMovesTheViewToTheSuggestedLine(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	s := h.agentSuggests(refillLine)
	h.keys("a")
	want := app.Cursor{Path: refillLine.Path, Side: changeset.SideNew, Line: 45, Hunk: 2}
	if got := h.m.diff.serviceCursor(); got != want {
		t.Errorf("the view's cursor is %+v, want %+v", got, want)
	}
	snap := h.serviceSnapshot()
	if snap.Cursor != want {
		t.Errorf("the service's cursor is %+v, want %+v", snap.Cursor, want)
	}
	if got := snap.Suggestions[0]; got.ID != s.ID || got.State != app.SuggestionAccepted {
		t.Errorf("suggestion after accepting: %+v", got)
	}
	if strings.Contains(h.screen(), "agent suggests:") {
		t.Errorf("the bar still offers the answered suggestion:\n%s", h.screen())
	}
	h.golden("suggestion-accepted")
}

// Declining records the answer, so the agent can tell it from "not seen",
// and leaves the cursor where it was.
func TestSuggestions_DeclineIsRecordedAndTheCursorStays(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.keys("]", "c", "j")
	before := h.m.diff.serviceCursor()
	h.agentSuggests(refillLine)
	h.keys("X")
	snap := h.serviceSnapshot()
	if got := snap.Suggestions[0].State; got != app.SuggestionDeclined {
		t.Errorf("state after declining: %v, want declined", got)
	}
	if got := h.m.diff.serviceCursor(); got != before {
		t.Errorf("declining moved the cursor from %+v to %+v", before, got)
	}
	if snap.Cursor != before {
		t.Errorf("the service's cursor is %+v, want it left at %+v", snap.Cursor, before)
	}
	h.golden("suggestion-declined")
}

// Several suggestions: the bar offers the oldest and counts the rest; the
// list shows them all with their reasons, and answers the selected one.
func TestSuggestions_ListShowsEachWithItsReasonAndAnswersTheSelected(t *testing.T) {
	h := newHarness(t, harnessOpts{width: 120, height: 16})
	first := h.agentSuggests(app.SuggestionRequest{Path: "cmd/server/main.go", Hunk: 0, Reason: "Start here: the server wiring."})
	h.agentSuggests(refillLine)
	if !strings.Contains(h.screen(), "Start here: the server wiring. (+1 more)") {
		t.Errorf("the bar does not offer the oldest and count the other:\n%s", h.screen())
	}
	h.keys("X")
	h.keys("A")
	h.golden("suggestions-list")
	h.keys("enter")
	snap := h.serviceSnapshot()
	got := map[string]app.SuggestionState{}
	for _, s := range snap.Suggestions {
		got[s.Reason] = s.State
	}
	want := map[string]app.SuggestionState{first.Reason: app.SuggestionDeclined, refillLine.Reason: app.SuggestionAccepted}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if c := h.m.diff.serviceCursor(); c.Path != refillLine.Path || c.Line != 45 {
		t.Errorf("the cursor is at %+v after accepting from the list", c)
	}
}

// A suggestion accepted on another surface (the browser) moves this view
// too: the human's cursor is one, whichever surface answered.
func TestSuggestions_AcceptedElsewhereIsFollowed(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	s := h.agentSuggests(refillLine)
	if err := h.svc.AnswerSuggestion(context.Background(), session.ActorHuman, s.ID, true); err != nil {
		t.Fatal(err)
	}
	h.changed()
	if c := h.m.diff.serviceCursor(); c.Path != refillLine.Path || c.Line != 45 {
		t.Errorf("the view stayed at %+v after the suggestion was accepted elsewhere", c)
	}
}

// A suggestion for a whole hunk (no line) puts the cursor on its heading.
func TestSuggestions_AcceptingAHunkLandsOnItsHeading(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.agentSuggests(app.SuggestionRequest{Path: "internal/ratelimit/bucket.go", Hunk: 1, Reason: "The refill moved out of Allow."})
	h.keys("a")
	if got, want := h.m.diff.serviceCursor(), (app.Cursor{Path: "internal/ratelimit/bucket.go", Hunk: 1}); got != want {
		t.Errorf("cursor %+v, want %+v", got, want)
	}
	if !strings.Contains(h.screen(), ">── func (b *Bucket) Allow() bool {") && !strings.Contains(h.screen(), ">── ") {
		t.Errorf("the hunk heading is not under the cursor:\n%s", h.screen())
	}
}

// The agent's reason is text from outside: escapes and bidi controls are
// shown as visible escapes, never sent to the terminal.
func TestSuggestions_HostileReasonIsEscaped(t *testing.T) {
	h := newHarness(t, harnessOpts{width: 200, height: 30})
	h.agentSuggests(app.SuggestionRequest{Path: "notes.txt", Hunk: 0, Reason: "look \x1b]0;pwned\x07 here \u202e reversed\nsecond line"})
	for _, keys := range [][]string{nil, {"A"}} {
		h.keys(keys...)
		scr := h.screen()
		if strings.ContainsAny(scr, "\x1b\x07\u202e") {
			t.Errorf("after %v raw control characters reach the screen:\n%q", keys, scr)
		}
		if !strings.Contains(scr, "<U+001B>]0;pwned<U+0007> here <U+202E> reversed second line") {
			t.Errorf("after %v the reason is not shown escaped on one line:\n%s", keys, scr)
		}
	}
}

// Moving tells the service where the human is looking, in semantic
// coordinates, so the agent and the browser can follow.
func TestSuggestions_CursorMovesReachTheService(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.keys("]", "f", "]", "f", "]", "f", "J")
	want := app.Cursor{Path: "internal/ratelimit/bucket.go", Side: changeset.SideOld, Line: 18, Hunk: 0}
	if got := h.serviceSnapshot().Cursor; got != want {
		t.Errorf("the service's cursor is %+v, want %+v", got, want)
	}
}

// The bar and the list keep every screen line exactly the terminal's
// width, and the bar takes its row from the diff pane, not the status.
func TestSuggestions_BarAndListFillTheWidth(t *testing.T) {
	for _, keys := range [][]string{nil, {"A"}, {"t"}, {"\\"}} {
		h := newHarness(t, harnessOpts{width: 73, height: 17})
		h.agentSuggests(refillLine)
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
		if !strings.Contains(lines[15], "◆ agent") || !strings.Contains(lines[16], "hunks") {
			t.Errorf("after %v the bar or the status line is missing:\n%s", keys, h.screen())
		}
	}
}
