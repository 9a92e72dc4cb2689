package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// agentQueue is what the UI shows of the agent's suggestions in the
// current snapshot: the pending ones, oldest first (the one the bar above
// the status line offers), and where they point in the layout, for the
// marks on hunk headings and rows. Rebuilt per snapshot in
// O(suggestions * log hunks); drawing reads it in O(1).
type agentQueue struct {
	pending []app.Suggestion
	hunks   map[int]int     // global hunk index -> pending suggestions on it
	rows    map[rowRef]bool // rows a pending suggestion names a line of
}

func newAgentQueue(all []app.Suggestion, lay *layout) agentQueue {
	q := agentQueue{hunks: map[int]int{}, rows: map[rowRef]bool{}}
	for _, s := range all {
		if s.State != app.SuggestionPending {
			continue
		}
		q.pending = append(q.pending, s)
		p, ok := lay.place(s.Path, s.Side, s.Line, s.Hunk)
		if !ok || p.Hunk < 0 {
			continue
		}
		g := lay.global(p.File, p.Hunk)
		q.hunks[g]++
		if p.Row >= 0 {
			q.rows[rowRef{g, p.Row}] = true
		}
	}
	return q
}

// place maps a semantic place (a path, a side, a 1-based line on that
// side, a hunk index within the file) onto a Pos: the line's row when the
// diff shows it, else the hunk's heading, else the file's heading. A zero
// side means the new side. ok is false when the change has no such file.
func (l *layout) place(path string, side changeset.Side, line, hunk int) (Pos, bool) {
	f := l.fileIndex(path)
	if f < 0 {
		return Pos{}, false
	}
	if side == 0 {
		side = changeset.SideNew
	}
	if line > 0 {
		if ref, ok := l.findRow(f, side, line); ok {
			return Pos{File: f, Hunk: int(l.hunks[ref.g].index), Row: ref.row}, true
		}
	}
	if hunk >= 0 && hunk < len(l.cs.Files[f].Hunks) {
		return Pos{File: f, Hunk: hunk, Row: -1}, true
	}
	return Pos{File: f, Hunk: -1, Row: -1}, true
}

// suggestionSpot is the short form of suggestionWhere for the bar:
// "server/handler.go:23" for a line of the new side, else the long form.
// short keeps only the file's name of the path.
func suggestionSpot(s app.Suggestion, short bool) string {
	p := s.Path
	if short {
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			p = "…" + p[i:]
		}
	}
	if s.Line > 0 && s.Side != changeset.SideOld {
		return fmt.Sprintf("%s:%d", safe(p), s.Line)
	}
	s.Path = p
	return suggestionWhere(s)
}

// suggestionWhere names the place a suggestion points at as the diff
// pane's headings do: "server/handler.go hunk 2, new line 23".
func suggestionWhere(s app.Suggestion) string {
	w := safe(s.Path)
	if s.Hunk >= 0 {
		w += fmt.Sprintf(" hunk %d", s.Hunk+1)
	}
	if s.Line > 0 {
		side := s.Side
		if side == 0 {
			side = changeset.SideNew
		}
		w += fmt.Sprintf(", %s line %d", side, s.Line)
	}
	return w
}

// oneLine is s sanitized for display on a single screen line.
func oneLine(s string) string {
	return safe(strings.Join(strings.Fields(s), " "))
}

// barLines is how many screen rows the suggestion bar above the status
// line takes: one while a suggestion waits for an answer, else none.
func (m *Model) barLines() int {
	if len(m.agent.pending) == 0 || m.height < 4 {
		return 0
	}
	return 1
}

// bodyHeight is the height of the panes above the bars.
func (m *Model) bodyHeight() int { return max(m.height-1-m.barLines(), 1) }

// suggestionBar offers the oldest pending suggestion: where, why, how many
// more wait, and the keys that answer it.
func (m *Model) suggestionBar() string {
	a := m.th.agent
	s := m.agent.pending[0]
	more := ""
	if n := len(m.agent.pending) - 1; n > 0 {
		more = fmt.Sprintf(" (+%d more)", n)
	}
	var hints []string
	for _, h := range []struct {
		act  Action
		what string
	}{{ActAcceptSuggestion, "go"}, {ActDeclineSuggestion, "decline"}, {ActSuggestions, "all"}} {
		if keys := m.km.Keys(h.act); len(keys) > 0 {
			hints = append(hints, keys[0]+" "+h.what)
		}
	}
	right := " " + strings.Join(hints, " · ") + " "
	rw := min(textCells(right, 8), m.width/3)
	reason := oneLine(s.Reason)
	left := " ◆ agent suggests: " + suggestionSpot(s, false) + " — " + reason + more
	if textCells(left, 8) > m.width-rw {
		// Too long: the file's name and the reason say more than the path.
		left = " ◆ agent: " + suggestionSpot(s, true) + " — " + reason + more
	}
	return m.th.fit(left, a, m.width-rw) + m.th.fitLeft(right, a, rw)
}

// answerSuggestion sends the human's answer, conditional on the change
// the suggestion was shown against. The cursor follows an accepted
// suggestion when the snapshot that records it arrives (followAccepted),
// whichever surface accepted it.
func (m *Model) answerSuggestion(s app.Suggestion, accept bool) tea.Cmd {
	svc, ctx, asOf := m.svc, m.ctx, m.snap.AsOf
	return func() tea.Msg {
		err := app.At(svc, asOf).AnswerSuggestion(ctx, session.ActorHuman, s.ID, accept)
		switch {
		case errors.Is(err, app.ErrStale):
			return opDoneMsg{err: fmt.Errorf("the change moved since the agent suggested this; look again: %w", err)}
		case err != nil:
			return opDoneMsg{err: err}
		case accept:
			return opDoneMsg{info: "accepted: " + suggestionWhere(s)}
		}
		return opDoneMsg{info: "declined: " + suggestionWhere(s) + " (the agent is told)"}
	}
}

// firstPending returns the suggestion the bar offers.
func (m *Model) firstPending() (app.Suggestion, bool) {
	if len(m.agent.pending) == 0 {
		m.setInfo("the agent has no suggestion waiting")
		return app.Suggestion{}, false
	}
	return m.agent.pending[0], true
}

// followAccepted moves the cursor to a suggestion that was pending in prev
// and is accepted in snap: the service moved the human's cursor there, and
// the screen goes along. The cursor is sent back so that a move of the
// human's still on its way cannot leave the service pointing elsewhere.
func (m *Model) followAccepted(prev, snap *app.Snapshot) tea.Cmd {
	if prev == nil {
		return nil
	}
	was := map[string]bool{}
	for _, s := range prev.Suggestions {
		if s.State == app.SuggestionPending {
			was[s.ID] = true
		}
	}
	var target *app.Suggestion
	for i, s := range snap.Suggestions {
		if s.State == app.SuggestionAccepted && was[s.ID] {
			target = &snap.Suggestions[i]
		}
	}
	if target == nil {
		return nil
	}
	if !m.goTo(target.Path, target.Side, target.Line, target.Hunk) {
		m.setErr(fmt.Errorf("%s is not in the change shown", safe(target.Path)))
		return nil
	}
	return m.syncCursor()
}

// goTo puts the cursor on a semantic place (see layout.place), unfolding
// its hunk when a line of it is named, and scrolls it into view.
func (m *Model) goTo(path string, side changeset.Side, line, hunk int) bool {
	d := m.diff
	p, ok := d.lay.place(path, side, line, hunk)
	if !ok || d.empty() {
		return false
	}
	if p.Row >= 0 {
		d.unfold(d.lay.global(p.File, p.Hunk))
	}
	m.overlay = overlayNone
	d.jump(p)
	return true
}
