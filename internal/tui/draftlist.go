package tui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/session"
)

// draftList is the list of every draft, orphans included, and of the
// host's review threads after them: Enter jumps to one, m moves the
// selected draft (typically an orphan) to the line the cursor was on when
// the list opened, r replies to the selected thread.
type draftList struct {
	entries []listEntry
	drafts  int // entries before this index are drafts
	sel     int
	top     int
}

// listEntry is a draft (an index into the snapshot's drafts) or, when
// thread is set, a thread (an index into the Model's threads).
type listEntry struct {
	index  int
	thread bool
}

func newDraftList(drafts []session.Placed, threads []app.PlacedThread, placed map[int]rowRef) *draftList {
	d := &draftList{}
	for i := range drafts {
		d.entries = append(d.entries, listEntry{index: i})
	}
	sort.SliceStable(d.entries, func(a, b int) bool {
		x, y := drafts[d.entries[a].index], drafts[d.entries[b].index]
		if x.Orphaned() != y.Orphaned() {
			return x.Orphaned()
		}
		if x.Location.Path != y.Location.Path {
			return x.Location.Path < y.Location.Path
		}
		return x.Location.Start < y.Location.Start
	})
	d.drafts = len(d.entries)
	for i := range threads {
		d.entries = append(d.entries, listEntry{index: i, thread: true})
	}
	// Threads on the diff first, in diff order; then the others, as the
	// host lists them.
	th := d.entries[d.drafts:]
	sort.SliceStable(th, func(a, b int) bool {
		x, okx := placed[th[a].index]
		y, oky := placed[th[b].index]
		if okx != oky {
			return okx
		}
		if x.g != y.g {
			return x.g < y.g
		}
		return x.row < y.row
	})
	return d
}

func (d *draftList) move(n int) { d.sel = max(min(d.sel+n, len(d.entries)-1), 0) }

// selected returns the index of the selected draft, or -1 when the
// selection is a thread or the list is empty.
func (d *draftList) selected() int {
	if len(d.entries) == 0 || d.entries[d.sel].thread {
		return -1
	}
	return d.entries[d.sel].index
}

// selectedThread returns the index of the selected thread.
func (d *draftList) selectedThread() (int, bool) {
	if len(d.entries) == 0 || !d.entries[d.sel].thread {
		return -1, false
	}
	return d.entries[d.sel].index, true
}

// scroll keeps the selection within rows lines from top and returns the
// range of entries shown.
func (d *draftList) scroll(rows int) (lo, hi int) {
	rows = max(rows, 1)
	if d.sel < d.top {
		d.top = d.sel
	}
	if d.sel >= d.top+rows {
		d.top = d.sel - rows + 1
	}
	return d.top, min(d.top+rows, len(d.entries))
}

// threadsOnScreen lists the threads the list shows in a pane of height
// lines (one is its heading).
func (d *draftList) threadsOnScreen(height int) []int {
	lo, hi := d.scroll(height - 1)
	var out []int
	for _, e := range d.entries[lo:hi] {
		if e.thread {
			out = append(out, e.index)
		}
	}
	return out
}

// draftLine is one entry: where, a tag, and the first line of the body.
func draftLine(p session.Placed) (where, tag, body string) {
	switch {
	case p.ReplyTo != "" && p.Location.Path == "":
		where = "reply to thread " + safe(p.ReplyTo)
	case p.Orphaned():
		where = fmt.Sprintf("%s (was %s)", safe(p.Anchor.Path), lineSpan(p.Anchor.Side, p.Anchor.Start, p.Anchor.End))
		tag = "[orphaned]"
	default:
		where = fmt.Sprintf("%s %s", safe(p.Location.Path), lineSpan(p.Location.Side, p.Location.Start, p.Location.End))
		if p.Rung.String() == "moved" {
			tag = "[moved]"
		}
	}
	if p.ReplyTo != "" {
		tag = strings.TrimSpace("[reply] " + tag)
	}
	if p.Author == session.ActorAgent {
		tag = strings.TrimSpace(tag + " [agent]")
	}
	body = safe(bodyLines(p.Body)[0])
	return where, tag, body
}

// threadLine is one thread entry: where, its tags, and its first comment.
func threadLine(t app.PlacedThread) (where, tag, body string) {
	where = "(on the change)"
	if t.Path != "" {
		where = safe(t.Path)
		if t.Line > 0 {
			where += " " + lineSpan(threadSide(t.Thread), t.Line, t.Line)
		}
	}
	tags := []string{"[thread]"}
	if t.Resolved {
		tags = append(tags, "[resolved]")
	}
	if t.Outdated {
		tags = append(tags, "[outdated]")
	}
	if t.New {
		tags = append(tags, "[new]")
	}
	if len(t.Comments) > 0 {
		c := t.Comments[0]
		body = safe(c.Author) + ": " + oneLine(firstLine(forge.StripMarker(c.Body)))
		if n := len(t.Comments) - 1; n > 0 {
			body += " (" + pluralReplies(n) + ")"
		}
	}
	return where, strings.Join(tags, " "), body
}

func (d *draftList) render(m *Model, width, height int) []string {
	th := m.th
	head := fmt.Sprintf(" Drafts: %d (Enter jumps, m moves the selected draft to the cursor line, esc closes)", d.drafts)
	if n := len(d.entries) - d.drafts; n > 0 || m.opts.Threads != nil {
		head = fmt.Sprintf(" Drafts: %d · threads: %d (Enter jumps, r replies to a thread, m moves a draft to the cursor line, esc closes)", d.drafts, n)
	}
	out := []string{th.fit(head, th.fileHeader, width)}
	lo, hi := d.scroll(height - 1)
	for i := lo; i < hi; i++ {
		e := d.entries[i]
		var where, tag, body string
		tagAttrs := th.orphaned
		if e.thread {
			where, tag, body = threadLine(m.threads[e.index])
			tagAttrs = th.threadHead
		} else {
			where, tag, body = draftLine(m.snap.Drafts[e.index])
		}
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
			pt.write(a.over(tagAttrs), tag+" ")
		}
		head := pt.String()
		used := textCells(line, 8) + textCells(tag, 8) + min(len(tag), 1)
		out = append(out, head+th.fit(body, a.over(th.comment), max(width-used, 0)))
	}
	if len(d.entries) == 0 {
		out = append(out, th.fit("  no drafts yet: press c on a line to write one", th.dim, width))
	}
	for len(out) < height {
		out = append(out, th.fit("", attrs{}, width))
	}
	return out
}
