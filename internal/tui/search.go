package tui

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/changeset"
)

// searchState is the last search: its pattern and, once the background
// scan has finished, every match in diff order.
type searchState struct {
	re      *regexp.Regexp
	gen     int
	running bool
	matches []Pos
	cancel  context.CancelFunc
}

type searchDoneMsg struct {
	gen     int
	matches []Pos
}

// compileSearch compiles a pattern; all lower case means case-insensitive
// (smart case).
func compileSearch(pattern string) (*regexp.Regexp, error) {
	if strings.ToLower(pattern) == pattern {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return re, nil
}

func (m *Model) searchKey(k tea.KeyPressMsg) tea.Cmd {
	switch m.search.key(k) {
	case promptCancel:
		m.search = nil
	case promptSubmit:
		pattern := m.search.value()
		m.search = nil
		if pattern == "" {
			return nil
		}
		re, err := compileSearch(pattern)
		if err != nil {
			m.setErr(err)
			return nil
		}
		return m.startSearch(re)
	}
	return nil
}

// startSearch scans every file path and line for re in the background;
// the scan of a large diff takes a fraction of a second and never blocks
// the keys.
func (m *Model) startSearch(re *regexp.Regexp) tea.Cmd {
	if m.found.cancel != nil {
		m.found.cancel()
	}
	ctx, cancel := context.WithCancel(m.ctx)
	gen := m.found.gen + 1
	m.found = searchState{re: re, gen: gen, running: true, cancel: cancel}
	m.diff.search = re
	m.setInfo("searching…")
	cs := m.diff.lay.cs
	return func() tea.Msg {
		return searchDoneMsg{gen: gen, matches: findAll(ctx, cs, re)}
	}
}

// findAll lists the positions matching re: file headings whose path
// matches, then rows whose text matches, in diff order.
func findAll(ctx context.Context, cs *changeset.Changeset, re *regexp.Regexp) []Pos {
	var out []Pos
	n := 0
	for fi := range cs.Files {
		f := &cs.Files[fi]
		if re.MatchString(f.Path) || (f.OldPath != f.Path && re.MatchString(f.OldPath)) {
			out = append(out, Pos{File: fi, Hunk: -1, Row: -1})
		}
		for hi := range f.Hunks {
			for ri := range f.Hunks[hi].Rows {
				if n++; n&0xfff == 0 && ctx.Err() != nil {
					return nil
				}
				if re.MatchString(f.Hunks[hi].Rows[ri].Text) {
					out = append(out, Pos{File: fi, Hunk: hi, Row: ri})
				}
			}
		}
	}
	return out
}

func (m *Model) searchDone(msg searchDoneMsg) {
	if msg.gen != m.found.gen {
		return
	}
	m.found.running, m.found.matches = false, msg.matches
	if len(msg.matches) == 0 {
		m.setErr(fmt.Errorf("pattern not found: %s", m.found.re))
		return
	}
	m.searchStep(true)
}

// searchStep moves to the next (or previous) match after the cursor,
// wrapping around the ends: a binary search, O(log matches).
func (m *Model) searchStep(forward bool) {
	s := &m.found
	switch {
	case s.re == nil:
		m.setInfo("no search yet: press / to search")
		return
	case s.running:
		m.setInfo("still searching…")
		return
	case len(s.matches) == 0:
		m.setErr(fmt.Errorf("pattern not found: %s", s.re))
		return
	}
	d := m.diff
	cur := d.cursor
	var i int
	if forward {
		i = sort.Search(len(s.matches), func(i int) bool { return cur.less(s.matches[i]) })
		if i == len(s.matches) {
			i = 0
			m.setInfo("search wrapped to the top")
		}
	} else {
		i = sort.Search(len(s.matches), func(i int) bool { return !s.matches[i].less(cur) }) - 1
		if i < 0 {
			i = len(s.matches) - 1
			m.setInfo("search wrapped to the bottom")
		}
	}
	p := s.matches[i]
	if p.Hunk >= 0 {
		d.unfold(d.lay.global(p.File, p.Hunk))
	}
	d.search = s.re
	d.jump(p)
	if m.msg == "" || m.msg == "searching…" {
		m.setInfo("match %d of %d", i+1, len(s.matches))
	}
}
