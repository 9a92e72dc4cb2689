package tui

import (
	"fmt"

	"github.com/leanreview/leanreview/internal/changeset"
)

// sidebar is the file list: one line per file with its status letter,
// path, +/- counts, viewed progress and draft count. It draws only the
// files on screen.
type sidebar struct {
	top           int
	width, height int
}

func (s *sidebar) setSize(w, h int) { s.width, s.height = w, h }

// statusLetter is the one-letter status of a file in the sidebar: A added,
// D deleted, M modified, R renamed, C copied, B binary, X mode change only.
func statusLetter(f *changeset.File) string {
	switch {
	case f.Binary:
		return "B"
	case len(f.Hunks) == 0 && modeChanged(f) && f.Status == changeset.StatusModified:
		return "X"
	}
	return map[changeset.Status]string{
		changeset.StatusAdded: "A", changeset.StatusDeleted: "D", changeset.StatusModified: "M",
		changeset.StatusRenamed: "R", changeset.StatusCopied: "C",
	}[f.Status]
}

// fileStats is the right-hand part of a sidebar line.
func fileStats(f *changeset.File, viewed, drafts int) string {
	s := fmt.Sprintf("+%d -%d", f.Additions, f.Deletions)
	if f.Binary {
		// A binary file has no lines to count; "+0 -0" would read as "no change".
		s = "binary"
	}
	if n := len(f.Hunks); n > 0 {
		if viewed == n {
			s += " ✓"
		} else {
			s += fmt.Sprintf(" %d/%d", viewed, n)
		}
	}
	if drafts > 0 {
		s += fmt.Sprintf(" ●%d", drafts)
	}
	return s
}

// render draws height lines of width cells, keeping file cur in view.
func (s *sidebar) render(m *Model) []string {
	files := m.diff.lay.cs.Files
	cur := m.diff.cursor.File
	if cur < s.top {
		s.top = cur
	}
	if cur >= s.top+s.height {
		s.top = cur - s.height + 1
	}
	s.top = max(min(s.top, len(files)-s.height), 0)
	th := m.th
	out := make([]string, 0, s.height)
	for i := s.top; i < len(files) && len(out) < s.height; i++ {
		f := &files[i]
		a := th.sidebar
		mark := " "
		if i == cur {
			a, mark = a.over(th.cursor), ">"
		}
		name := safe(f.Path)
		if f.Status == changeset.StatusRenamed || f.Status == changeset.StatusCopied {
			name = safe(f.OldPath) + " -> " + name
		}
		stats := " " + fileStats(f, m.fileViewed[i], m.fileDrafts[f.Path])
		sw := min(textCells(stats, 8), max(s.width-10, 0))
		head := th.fit(mark+statusLetter(f)+" ", a, min(3, s.width))
		out = append(out, head+th.fitLeft(name, a, s.width-sw-3)+th.fitLeft(stats, a, sw))
	}
	for len(out) < s.height {
		out = append(out, th.fit("", th.sidebar, s.width))
	}
	return out
}
