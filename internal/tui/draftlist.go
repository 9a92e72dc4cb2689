package tui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/leanreview/leanreview/internal/session"
)

// draftList is the list of every draft, orphans included: Enter jumps to
// one, m moves the selected draft (typically an orphan) to the line the
// cursor was on when the list opened.
type draftList struct {
	order []int // indexes into the snapshot's drafts, in display order
	sel   int
	top   int
}

func newDraftList(drafts []session.Placed) *draftList {
	d := &draftList{}
	for i := range drafts {
		d.order = append(d.order, i)
	}
	sort.SliceStable(d.order, func(a, b int) bool {
		x, y := drafts[d.order[a]], drafts[d.order[b]]
		if x.Orphaned() != y.Orphaned() {
			return x.Orphaned()
		}
		if x.Location.Path != y.Location.Path {
			return x.Location.Path < y.Location.Path
		}
		return x.Location.Start < y.Location.Start
	})
	return d
}

func (d *draftList) move(n int) { d.sel = max(min(d.sel+n, len(d.order)-1), 0) }

// selected returns the index of the selected draft, or -1 when the list is
// empty.
func (d *draftList) selected() int {
	if len(d.order) == 0 {
		return -1
	}
	return d.order[d.sel]
}

// draftLine is one entry: where, a tag, and the first line of the body.
func draftLine(p session.Placed) (where, tag, body string) {
	switch {
	case p.Orphaned():
		where = fmt.Sprintf("%s (was %s)", safe(p.Anchor.Path), lineSpan(p.Anchor.Side, p.Anchor.Start, p.Anchor.End))
		tag = "[orphaned]"
	default:
		where = fmt.Sprintf("%s %s", safe(p.Location.Path), lineSpan(p.Location.Side, p.Location.Start, p.Location.End))
		if p.Rung.String() == "moved" {
			tag = "[moved]"
		}
	}
	if p.Author == session.ActorAgent {
		tag = strings.TrimSpace(tag + " [agent]")
	}
	body = safe(bodyLines(p.Body)[0])
	return where, tag, body
}

func (d *draftList) render(m *Model, width, height int) []string {
	th := m.th
	out := []string{th.fit(fmt.Sprintf(" Drafts: %d (Enter jumps, m moves the selected draft to the cursor line, esc closes)", len(d.order)), th.fileHeader, width)}
	rows := height - 1
	if d.sel < d.top {
		d.top = d.sel
	}
	if d.sel >= d.top+rows {
		d.top = d.sel - rows + 1
	}
	for i := d.top; i < len(d.order) && len(out) < height; i++ {
		p := m.snap.Drafts[d.order[i]]
		where, tag, body := draftLine(p)
		a, mark := attrs{}, "  "
		if i == d.sel {
			a, mark = th.cursor, "> "
		}
		line := mark + where + " "
		if textCells(line+tag, 8)+2 > width {
			out = append(out, th.fit(line+tag+" "+body, a, width))
			continue
		}
		pt := &painter{t: th}
		pt.write(a, line)
		if tag != "" {
			pt.write(a.over(th.orphaned), tag+" ")
		}
		head := pt.String()
		used := textCells(line, 8) + textCells(tag, 8) + min(len(tag), 1)
		out = append(out, head+th.fit(body, a.over(th.comment), max(width-used, 0)))
	}
	if len(d.order) == 0 {
		out = append(out, th.fit("  no drafts yet: press c on a line to write one", th.dim, width))
	}
	for len(out) < height {
		out = append(out, th.fit("", attrs{}, width))
	}
	return out
}
