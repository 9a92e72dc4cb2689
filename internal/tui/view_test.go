package tui

import "testing"

func TestView_FirstScreen(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.golden("first-screen")
}
