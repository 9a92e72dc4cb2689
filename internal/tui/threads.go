package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
)

// ThreadSource reads a pull or merge request's review threads placed on a
// changeset and records which ones the reader has had on screen.
// *app.Conversation implements it.
type ThreadSource interface {
	Threads(ctx context.Context, cs *changeset.Changeset) ([]app.PlacedThread, error)
	MarkThreadsSeen(ctx context.Context, threads []forge.Thread) error
}

type (
	// threadsMsg carries the threads read for changeset cs.
	threadsMsg struct {
		cs      *changeset.Changeset
		threads []app.PlacedThread
		err     error
	}
	// seenMsg ends a MarkThreadsSeen call for the threads with ids.
	seenMsg struct {
		ids []string
		err error
	}
)

// loadThreads reads the host's threads for the changeset shown, off the
// UI goroutine; nil when the source has none (not a pull or merge
// request).
func (m *Model) loadThreads() tea.Cmd {
	src := m.opts.Threads
	if src == nil || m.diff == nil {
		return nil
	}
	ctx, cs := m.ctx, m.diff.lay.cs
	return func() tea.Msg {
		threads, err := src.Threads(ctx, cs)
		return threadsMsg{cs: cs, threads: threads, err: err}
	}
}

// applyThreads shows threads read for the changeset on screen; threads
// read for an older one are dropped (a newer read is on its way).
func (m *Model) applyThreads(msg threadsMsg) {
	d := m.diff
	if msg.err != nil {
		m.setErr(fmt.Errorf("review threads: %w", msg.err))
		return
	}
	if d == nil || msg.cs != d.lay.cs {
		return
	}
	m.threads = msg.threads
	d.reproject(func() {
		d.threads = msg.threads
		d.lay.setThreads(msg.threads)
	})
	m.fileThreads = map[string]int{}
	m.newThreads = 0
	for _, t := range msg.threads {
		m.fileThreads[t.Path]++
		if t.New {
			m.newThreads++
		}
	}
}

// setThreads places each thread under the row of its line (the last line
// of its range) in the hunk PlaceThreads found for it; threads on no hunk
// (outdated, on the change as a whole, off the diff) are placed nowhere
// and listed by the drafts list. Cost O(threads * (files + hunk rows)).
func (l *layout) setThreads(threads []app.PlacedThread) {
	l.threadAt = map[int]rowRef{}
	l.rowThreads = map[rowRef][]int{}
	for i, t := range threads {
		ref, ok := l.threadRow(t)
		if !ok {
			continue
		}
		l.threadAt[i] = ref
		l.rowThreads[ref] = append(l.rowThreads[ref], i)
	}
	l.placePreviews()
	l.resum()
}

// threadRow finds the row a thread is shown under.
func (l *layout) threadRow(t app.PlacedThread) (rowRef, bool) {
	if t.Hunk < 0 || t.Line <= 0 || t.Path == "" {
		return rowRef{}, false
	}
	side := threadSide(t.Thread)
	f := l.fileIndex(t.Path)
	if f < 0 && side == changeset.SideOld {
		for i := range l.cs.Files {
			if old := l.cs.Files[i].OldPath; old != "" && (old == t.Path || old == t.OldPath) {
				f = i
				break
			}
		}
	}
	if f < 0 {
		return rowRef{}, false
	}
	return l.findRow(f, side, t.Line)
}

// threadSide is the side a thread's line counts in; the zero side is the
// new one, where hosts anchor an ordinary comment.
func threadSide(t forge.Thread) changeset.Side {
	if t.Side == changeset.SideOld {
		return changeset.SideOld
	}
	return changeset.SideNew
}

// threadLimits bound a thread's height under its line: the first
// comment's lines, and how many replies show (their first line each).
const (
	threadBodyLines = 4
	threadReplies   = 3
)

// threadLines is what a thread shows under its line: a heading, then its
// comments, sanitized, each on one screen line (cut, not wrapped, so the
// height depends on the thread alone).
func threadLines(t app.PlacedThread) []string {
	out := []string{threadTitle(t)}
	if len(t.Comments) == 0 {
		return out
	}
	first := t.Comments[0]
	for k, l := range bodyLines(forge.StripMarker(first.Body)) {
		if k == threadBodyLines {
			out = append(out, "  …")
			break
		}
		prefix := "  "
		if k == 0 {
			prefix = safe(first.Author) + ": "
		}
		out = append(out, prefix+strings.ReplaceAll(safe(l), "\t", " "))
	}
	replies := t.Comments[1:]
	for k, c := range replies {
		if k == threadReplies {
			out = append(out, fmt.Sprintf("… %s more (C lists the thread)", pluralReplies(len(replies)-k)))
			break
		}
		out = append(out, "↳ "+safe(c.Author)+": "+oneLine(firstLine(forge.StripMarker(c.Body))))
	}
	return out
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// threadTitle is a thread's heading: whose, where, and its state.
func threadTitle(t app.PlacedThread) string {
	who := "(unknown)"
	if len(t.Comments) > 0 && t.Comments[0].Author != "" {
		who = safe(t.Comments[0].Author)
	}
	s := "thread by " + who
	if t.Line > 0 && t.StartLine > 0 && t.StartLine < t.Line {
		s += " on " + lineSpan(threadSide(t.Thread), t.StartLine, t.Line)
	}
	if n := len(t.Comments) - 1; n > 0 {
		s += " · " + pluralReplies(n)
	}
	if t.Resolved {
		s += " · resolved"
	}
	if t.Outdated {
		s += " · outdated"
	}
	if t.New {
		s += " · new"
	}
	return s
}

// drawThread draws a thread under the row of its line, indented like a
// draft's preview.
func (v *diffView) drawThread(it item) []string {
	t := v.threads[it.thread]
	indent := unifiedGutter(v.numWidth(it.file)) - 2
	if v.lay.split && threadSide(t.Thread) == changeset.SideNew {
		lw, _ := v.halves()
		indent = 1 + lw + 1 + v.numWidth(it.file) + 2
	}
	pad := strings.Repeat(" ", min(indent, v.width/2))
	lines := threadLines(t)
	out := make([]string, len(lines))
	for k, l := range lines {
		a := v.th.thread
		if k == 0 {
			a = v.th.threadHead
		}
		out[k] = v.th.fit(pad+"│ "+l, a, v.width)
	}
	return out
}

// markSeen records the threads on screen now (under their lines, or in
// the drafts list) as seen, once each for the life of the UI. The check
// walks only what is on screen. The threads keep their "new" tag until
// the next read, so the reader sees what was new.
func (m *Model) markSeen() tea.Cmd {
	src := m.opts.Threads
	if src == nil || len(m.threads) == 0 || m.diff == nil {
		return nil
	}
	var shown []int
	switch m.overlay {
	case overlayNone:
		shown = m.diff.threadsOnScreen()
	case overlayDrafts:
		shown = m.drafts.threadsOnScreen(m.bodyHeight())
	}
	var batch []forge.Thread
	var ids []string
	for _, i := range shown {
		t := m.threads[i]
		if !t.New || m.seenSent[t.ID] {
			continue
		}
		m.seenSent[t.ID] = true
		batch = append(batch, t.Thread)
		ids = append(ids, t.ID)
	}
	if len(batch) == 0 {
		return nil
	}
	ctx := m.ctx
	return func() tea.Msg {
		return seenMsg{ids: ids, err: src.MarkThreadsSeen(ctx, batch)}
	}
}

// threadsOnScreen lists the threads drawn in the pane now.
func (v *diffView) threadsOnScreen() []int {
	if len(v.lay.threadAt) == 0 || v.empty() {
		return nil
	}
	var out []int
	rows := -v.skip
	for s := v.top; s < v.lay.total && rows < v.height; s++ {
		it := v.lay.at(s)
		if it.kind == itemThread {
			out = append(out, it.thread)
		}
		rows += v.heightOf(s)
	}
	return out
}

// seenDone forgets a failed mark, so the threads are marked again the
// next time they are on screen.
func (m *Model) seenDone(msg seenMsg) {
	if msg.err == nil {
		return
	}
	for _, id := range msg.ids {
		delete(m.seenSent, id)
	}
	m.setErr(fmt.Errorf("record the threads seen: %w", msg.err))
}

// threadAtCursor returns the index of the first thread under the cursor's
// row.
func (m *Model) threadAtCursor() (int, bool) {
	d := m.diff
	if d.empty() || d.cursor.Row < 0 {
		return -1, false
	}
	ts := d.lay.rowThreads[rowRef{d.curHunk(), d.cursor.Row}]
	if len(ts) == 0 {
		return -1, false
	}
	return ts[0], true
}
