package tui

import (
	"strings"
)

// helpView is the help screen, generated from the keymap table after
// remapping, so it shows the keys that actually work.
type helpView struct {
	top int
}

// helpLines lists the bindings by group, then the sidebar legend.
func helpLines(km *Keymap) []string {
	var out []string
	group := ""
	for _, b := range km.Bindings {
		if b.Group != group {
			if group != "" {
				out = append(out, "")
			}
			group = b.Group
			out = append(out, group)
		}
		keys := "(unbound)"
		if len(b.Keys) > 0 {
			keys = strings.Join(b.Keys, ", ")
		}
		out = append(out, "  "+padRight(keys, 22)+" "+b.Help)
	}
	out = append(out, "",
		"File list letters",
		"  A added  D deleted  M modified  R renamed  C copied  B binary  X mode change only",
		"  +/- added and deleted lines, 2/5 hunks viewed (✓ all), ●N drafts",
		"",
		"Multi-key sequences are typed one key after the other (g g, ] c, z a, d d).",
		"Keys are remapped in the [keys] table of the config file.")
	return out
}

func padRight(s string, n int) string {
	if w := textCells(s, 8); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}

func (h *helpView) render(m *Model, width, height int) []string {
	lines := helpLines(m.km)
	h.top = max(min(h.top, len(lines)-height+1), 0)
	out := []string{m.th.fit(" Help: keys (j/k scroll, ? or esc closes)", m.th.fileHeader, width)}
	for i := h.top; i < len(lines) && len(out) < height; i++ {
		a := attrs{}
		if lines[i] != "" && !strings.HasPrefix(lines[i], " ") {
			a = m.th.hunkHeader
		}
		out = append(out, m.th.fit(lines[i], a, width))
	}
	for len(out) < height {
		out = append(out, m.th.fit("", attrs{}, width))
	}
	return out
}
