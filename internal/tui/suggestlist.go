package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/app"
)

// suggestionList is the overlay listing every suggestion of the session:
// the pending ones first, oldest first, then the answered ones, newest
// first. It keeps its own copy, so a snapshot arriving while it is open
// does not move the selection under the reader; answering refreshes it.
type suggestionList struct {
	items []app.Suggestion
	sel   int
	top   int
}

func newSuggestionList(all []app.Suggestion) *suggestionList {
	l := &suggestionList{}
	for _, s := range all {
		if s.State == app.SuggestionPending {
			l.items = append(l.items, s)
		}
	}
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].State != app.SuggestionPending {
			l.items = append(l.items, all[i])
		}
	}
	return l
}

func (l *suggestionList) move(n int) { l.sel = max(min(l.sel+n, len(l.items)-1), 0) }

// selected returns the selected suggestion; ok is false for an empty list.
func (l *suggestionList) selected() (app.Suggestion, bool) {
	if len(l.items) == 0 {
		return app.Suggestion{}, false
	}
	return l.items[l.sel], true
}

func stateWord(s app.SuggestionState) string {
	switch s {
	case app.SuggestionPending:
		return "pending "
	case app.SuggestionAccepted:
		return "accepted"
	case app.SuggestionDeclined:
		return "declined"
	}
	return "?       "
}

func (l *suggestionList) render(m *Model, width, height int) []string {
	th := m.th
	pending := 0
	for _, s := range l.items {
		if s.State == app.SuggestionPending {
			pending++
		}
	}
	head := fmt.Sprintf(" Agent suggestions: %d waiting, %d answered (Enter accepts, %s declines, esc closes)",
		pending, len(l.items)-pending, firstKey(m.km, ActDeclineSuggestion))
	out := []string{th.fit(head, th.fileHeader, width)}
	rows := height - 1
	if l.sel < l.top {
		l.top = l.sel
	}
	if l.sel >= l.top+rows {
		l.top = l.sel - rows + 1
	}
	for i := l.top; i < len(l.items) && len(out) < height; i++ {
		s := l.items[i]
		a, mark := attrs{}, "  "
		if i == l.sel {
			a, mark = th.cursor, "> "
		}
		if s.State != app.SuggestionPending {
			a = a.over(th.dim)
		}
		line := mark + "◆ " + stateWord(s.State) + "  " + suggestionWhere(s) + " — " + oneLine(s.Reason)
		out = append(out, th.fit(line, a, width))
	}
	if len(l.items) == 0 {
		out = append(out, th.fit("  no suggestions: the agent asks for your attention here (MCP tool suggest_focus)", th.dim, width))
	}
	for len(out) < height {
		out = append(out, th.fit("", attrs{}, width))
	}
	return out
}

// firstKey is the first key bound to a, or "(unbound)".
func firstKey(km *Keymap, a Action) string {
	if keys := km.Keys(a); len(keys) > 0 {
		return keys[0]
	}
	return "(unbound)"
}

// suggestionsKey handles a key while the suggestion list is open: j/k
// move, Enter (or the accept key) accepts a pending suggestion or goes to
// an answered one, the decline key declines, esc closes.
func (m *Model) suggestionsKey(key string) tea.Cmd {
	l := m.suggest
	switch key {
	case "esc", "q":
		m.overlay = overlayNone
		return nil
	case "j", "down":
		l.move(1)
		return nil
	case "k", "up":
		l.move(-1)
		return nil
	}
	act, _ := m.km.Match("", key)
	if key == "enter" {
		act = ActAcceptSuggestion
	}
	s, ok := l.selected()
	switch {
	case act == ActSuggestions:
		m.overlay = overlayNone
	case !ok || (act != ActAcceptSuggestion && act != ActDeclineSuggestion):
	case s.State != app.SuggestionPending && act == ActAcceptSuggestion:
		// Answered already: Enter just goes there.
		if m.goTo(s.Path, s.Side, s.Line, s.Hunk) {
			return m.syncCursor()
		}
		m.setErr(fmt.Errorf("%s is not in the change shown", safe(s.Path)))
	case s.State != app.SuggestionPending:
		m.setInfo("this suggestion was %s already", strings.TrimSpace(stateWord(s.State)))
	default:
		m.overlay = overlayNone
		return m.answerSuggestion(s, act == ActAcceptSuggestion)
	}
	return nil
}
