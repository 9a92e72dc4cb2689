package tui

import (
	"fmt"
	"strings"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/session"
)

// line is one line of an overlay's text and how it looks.
type line struct {
	text string
	a    attrs
}

// render draws the confirmation screen: a heading, the plan (scrolled by
// top), and the keys on the last line.
func (sv *submitView) render(m *Model, width, height int) []string {
	th := m.th
	title := " Submit the review of " + safe(m.opts.Label)
	if sv.planned {
		title = " Submit the review of " + safe(sv.plan.Change.Label)
	}
	out := []string{th.fit(title, th.fileHeader, width)}
	var body []string
	for _, l := range sv.lines(m) {
		for _, w := range wordWrap(l.text, width) {
			body = append(body, th.fit(w, l.a, width))
		}
	}
	rows := max(height-2, 0)
	sv.top = max(min(sv.top, len(body)-rows), 0)
	for i := sv.top; i < len(body) && len(out) < height-1; i++ {
		out = append(out, body[i])
	}
	for len(out) < height-1 {
		out = append(out, th.fit("", attrs{}, width))
	}
	keys := " Enter: send · tab: event · s: summary · j/k: scroll · esc: cancel"
	switch {
	case sv.phase == submitSending:
		keys = " Sending… (the host's answer decides what is cleared)"
	case sv.planned && sv.plan.Resume:
		keys = " Enter finishes the review sent earlier · esc cancels"
	}
	if height > 1 {
		out = append(out, th.fit(keys, th.status, width))
	}
	return out[:height]
}

// lines is the screen's text: notes and errors, the change, the event and
// summary, what will be sent, what will NOT be sent.
func (sv *submitView) lines(m *Model) []line {
	th := m.th
	var out []line
	add := func(a attrs, format string, args ...any) { out = append(out, line{fmt.Sprintf(format, args...), a}) }
	if sv.note != "" {
		add(th.orphaned, " %s", safe(sv.note))
	}
	if sv.err != nil {
		add(th.orphaned, " error: %s", oneLine(sv.err.Error()))
	}
	switch {
	case sv.phase == submitPlanning:
		add(th.dim, " Reading the change and placing the drafts on its head…")
		return out
	case !sv.planned:
		add(attrs{}, " Enter tries again; esc cancels.")
		return out
	}
	p := sv.plan
	ch := p.Change
	add(attrs{}, " %q by %s · head %s", oneLine(ch.Title), safe(ch.Author), shortSHA(ch.HeadSHA))
	if p.Resume {
		add(th.orphaned, " %s already holds the review sent earlier (%s): Enter finishes it; it is not sent twice.", ch.Ref.Kind.Title(), eventWord(p.Event))
	}
	add(attrs{}, "")
	add(attrs{}, " Event:    %s", eventChoice(sv.event))
	summary := "(none; s writes one)"
	if s := strings.TrimSpace(sv.body); s != "" {
		summary = oneLine(firstLine(s))
		if strings.Contains(s, "\n") {
			summary += " …"
		}
	}
	add(attrs{}, " Summary:  %s", summary)
	add(attrs{}, "")
	sv.sendLines(m, add)
	sv.keptLines(m, add)
	for _, n := range p.Notices {
		add(th.dim, " note: %s", oneLine(string(n)))
	}
	return out
}

// eventChoice shows the three events with the chosen one bracketed.
func eventChoice(chosen forge.Event) string {
	var parts []string
	for _, e := range events {
		w := eventWord(e)
		if e == chosen {
			w = "[" + w + "]"
		} else {
			w = " " + w + " "
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, " ")
}

// sendLines lists what will be sent: the comments per file and the
// replies.
func (sv *submitView) sendLines(m *Model, add func(attrs, string, ...any)) {
	p, th := sv.plan, m.th
	if len(p.Comments)+len(p.Replies) == 0 {
		if p.Empty() {
			add(attrs{}, " Nothing to send: no comment, no reply, and a plain comment event without a summary.")
		} else {
			add(attrs{}, " Will send the %s with no line comments.", eventWord(p.Event))
		}
		add(attrs{}, "")
		return
	}
	var what []string
	if n := len(p.Comments); n > 0 {
		what = append(what, plural(n, "comment"))
	}
	if n := len(p.Replies); n > 0 {
		what = append(what, pluralReplies(n))
	}
	add(th.hunkHeader, " Will send %s:", strings.Join(what, " and "))
	width := 0
	for _, fc := range p.Files {
		width = max(width, textCells(safe(fc.Path), 8))
	}
	for _, fc := range p.Files {
		add(attrs{}, "   %s  %s", padRight(safe(fc.Path), width), plural(fc.Comments, "comment"))
	}
	switch n := len(p.Replies); {
	case n == 1:
		add(attrs{}, "   1 reply to an existing thread")
	case n > 1:
		add(attrs{}, "   %s to existing threads", pluralReplies(n))
	}
	add(attrs{}, "")
}

// keptLines lists, with a warning, the drafts that will NOT be sent.
func (sv *submitView) keptLines(m *Model, add func(attrs, string, ...any)) {
	p := sv.plan
	th := m.th
	host := p.Change.Ref.Kind.Title()
	if n := len(p.Orphans); n > 0 {
		add(th.orphaned, " ⚠ Will NOT send %s: the code it was written on is gone; it stays a draft (C lists it, m moves it).", plural(n, "orphaned draft"))
		for _, d := range p.Orphans {
			add(attrs{}, "   %s", keptDraft(d))
		}
		add(attrs{}, "")
	}
	if n := len(p.OffDiff); n > 0 {
		add(th.orphaned, " ⚠ Will NOT send %s on lines %s takes no comments on; it stays a draft.", plural(n, "draft"), host)
		for _, o := range p.OffDiff {
			add(attrs{}, "   %s: %s", keptDraft(o.Draft), oneLine(o.Reason))
		}
		add(attrs{}, "")
	}
	if n := len(p.Deferred); n > 0 {
		add(th.dim, " Kept for the next submission: %s written since the earlier review.", plural(n, "draft"))
	}
	if n := len(p.Reconciled); n > 0 {
		was := "1 draft was"
		if n != 1 {
			was = fmt.Sprintf("%d drafts were", n)
		}
		add(th.dim, " %s already on %s (an earlier answer was lost) and cleared.", was, host)
	}
}

// wordWrap breaks s (plain text, no tabs) at spaces into lines of at most
// width cells; continuation lines are indented like the first line plus
// two cells. A word longer than a line is cut later by fit.
func wordWrap(s string, width int) []string {
	if textCells(s, 8) <= width || width < 8 {
		return []string{s}
	}
	lead := len(s) - len(strings.TrimLeft(s, " "))
	indent := strings.Repeat(" ", min(lead+2, width/2))
	var out []string
	cur := s[:lead]
	for _, w := range strings.Fields(s) {
		switch {
		case strings.TrimSpace(cur) == "":
			cur += w
		case textCells(cur, 8)+1+textCells(w, 8) <= width:
			cur += " " + w
		default:
			out = append(out, cur)
			cur = indent + w
		}
	}
	return append(out, cur)
}

// keptDraft describes a draft that stays: where it was written and its
// first line.
func keptDraft(d session.Placed) string {
	a := d.Anchor
	return fmt.Sprintf("%s %s  %s", safe(a.Path), lineSpan(a.Side, a.Start, a.End), oneLine(firstLine(d.Body)))
}

func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
