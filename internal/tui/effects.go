package tui

import (
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"

	tea "charm.land/bubbletea/v2"
)

// Messages carrying the results of commands back to Update.
type (
	openedMsg struct {
		svc  app.Service
		snap *app.Snapshot
		lay  *layout
		err  error
	}
	snapshotMsg struct {
		snap *app.Snapshot
		lay  *layout // non-nil when the changeset changed
		err  error
	}
	subscribedMsg struct{ ch <-chan app.Event }
	eventMsg      struct{ ch <-chan app.Event }
	cursorSentMsg struct{}
	// opDoneMsg ends a write: a message for the status line, an error, or
	// a deleted draft to remember for undo.
	opDoneMsg struct {
		info    string
		err     error
		deleted *session.Draft
	}
)

// openCmd reads the review and lays out its changeset off the UI
// goroutine.
func (m *Model) openCmd() tea.Cmd {
	open, ctx := m.opts.Open, m.ctx
	return func() tea.Msg {
		svc, err := open(ctx)
		if err != nil {
			return openedMsg{err: err}
		}
		snap, err := svc.Snapshot(ctx)
		if err != nil {
			return openedMsg{err: err}
		}
		return openedMsg{svc: svc, snap: snap, lay: newLayout(snap.Changeset)}
	}
}

// refresh takes a new snapshot, one at a time: a request while one is in
// flight is remembered and served when it returns.
func (m *Model) refresh() tea.Cmd {
	if m.snapBusy {
		m.snapDirty = true
		return nil
	}
	m.snapBusy = true
	svc, ctx := m.svc, m.ctx
	cur := m.diff.lay.cs
	return func() tea.Msg {
		snap, err := svc.Snapshot(ctx)
		if err != nil {
			return snapshotMsg{err: err}
		}
		var lay *layout
		if snap.Changeset != cur {
			lay = newLayout(snap.Changeset)
		}
		return snapshotMsg{snap: snap, lay: lay}
	}
}

func waitEvent(ch <-chan app.Event) tea.Cmd {
	return func() tea.Msg {
		if _, ok := <-ch; !ok {
			return nil
		}
		return eventMsg{ch}
	}
}

// syncCursor tells the service where the human is looking, one call at a
// time, so a burst of keys costs one call per round trip, not per key.
func (m *Model) syncCursor() tea.Cmd {
	if m.svc == nil || m.diff == nil || m.diff.empty() {
		return nil
	}
	if m.cursorBusy {
		m.cursorDirty = true
		return nil
	}
	m.cursorBusy = true
	c := m.diff.serviceCursor()
	svc, ctx := m.svc, m.ctx
	return func() tea.Msg {
		_ = svc.SetCursor(ctx, session.ActorHuman, c)
		return cursorSentMsg{}
	}
}

// serviceCursor is the cursor in the service's coordinates.
func (v *diffView) serviceCursor() app.Cursor {
	f := &v.lay.cs.Files[v.cursor.File]
	c := app.Cursor{Path: f.Path, Hunk: v.cursor.Hunk}
	if v.cursor.Hunk >= 0 && v.cursor.Row >= 0 {
		row := f.Hunks[v.cursor.Hunk].Rows[v.cursor.Row]
		c.Side = rowSide(row, v.side)
		c.Line = sideLine(row, c.Side)
	}
	return c
}

// rowSide is the side a remark on row is about: a deleted line's old
// side, an added line's new side, and for a context line the side the
// reader is on (new in unified view).
func rowSide(row changeset.Row, pref changeset.Side) changeset.Side {
	switch {
	case row.Kind == changeset.KindDel:
		return changeset.SideOld
	case row.Kind == changeset.KindAdd:
		return changeset.SideNew
	case row.Kind == changeset.KindMeta && row.NewLine == nil:
		return changeset.SideOld
	}
	return pref
}

// handleResult applies what a command reported.
func (m *Model) handleResult(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case openedMsg:
		if msg.err != nil {
			m.loadErr = msg.err
			return tea.Quit
		}
		m.svc = msg.svc
		follow := m.applySnapshot(msg.snap, msg.lay)
		svc, ctx := m.svc, m.ctx
		return tea.Batch(follow, func() tea.Msg {
			ch, err := svc.Subscribe(ctx)
			if err != nil {
				return nil
			}
			return subscribedMsg{ch}
		})
	case subscribedMsg:
		return waitEvent(msg.ch)
	case eventMsg:
		return tea.Batch(m.refresh(), waitEvent(msg.ch))
	case snapshotMsg:
		m.snapBusy = false
		var follow tea.Cmd
		if msg.err != nil {
			m.setErr(msg.err)
		} else {
			follow = m.applySnapshot(msg.snap, msg.lay)
		}
		if m.snapDirty {
			m.snapDirty = false
			return tea.Batch(follow, m.refresh())
		}
		return follow
	case cursorSentMsg:
		m.cursorBusy = false
		if m.cursorDirty {
			m.cursorDirty = false
			return m.syncCursor()
		}
	case opDoneMsg:
		if msg.err != nil {
			m.setErr(msg.err)
		} else if msg.info != "" {
			m.setInfo("%s", msg.info)
		}
		if msg.deleted != nil {
			m.undo = append(m.undo, *msg.deleted)
		}
		return m.refresh()
	case searchDoneMsg:
		m.searchDone(msg)
		return m.syncCursor()
	case editorReadyMsg:
		return m.runEditor(msg)
	case editorDoneMsg:
		return m.finishEditor(msg)
	case threadsMsg:
		m.applyThreads(msg)
	case seenMsg:
		m.seenDone(msg)
	}
	return m.handleSubmit(msg)
}

// applySnapshot shows snap; lay is its changeset's layout when that
// changed (or on first load), nil otherwise. The command it returns tells
// the service where the cursor went when it followed an accepted
// suggestion.
func (m *Model) applySnapshot(snap *app.Snapshot, lay *layout) tea.Cmd {
	first := m.diff == nil
	if lay != nil {
		s := m.opts.Settings
		var old *diffView
		if !first {
			old = m.diff
		}
		m.diff = newDiffView(lay, m.th, m.hl, s.Wrap, s.TabWidth)
		if (old == nil && s.Split) || (old != nil && old.lay.split) {
			lay.setSplit(true)
		}
		if old != nil {
			m.diff.wrap, m.diff.side = old.wrap, old.side
			m.prevCursor = old.serviceCursor()
		}
		m.diff.me = session.ActorHuman
		m.found = searchState{}
		m.layoutPanes()
		go warmLexers(m.paths())
	}
	if lay != nil && !first {
		m.diff.restoreCursor(m.prevCursor)
	}
	d := m.diff
	if lay != nil || !sameDrafts(m.snap, snap) {
		// The drafts change with the layout that places them: the cursor's
		// screen row is measured on the old pair, the new one is laid out
		// from it.
		d.reproject(func() {
			d.drafts = snap.Drafts
			d.lay.setDrafts(snap.Drafts)
		})
	}
	prev := m.snap
	m.snap = snap
	d.viewed = snap.Viewed
	m.count()
	bar := m.barLines()
	m.agent = newAgentQueue(snap.Suggestions, d.lay)
	d.suggested = m.agent
	if m.barLines() != bar {
		m.layoutPanes()
	}
	if first && snap.Cursor.Path != "" && snap.Cursor.Line > 0 {
		if f := d.lay.fileIndex(snap.Cursor.Path); f >= 0 {
			if ref, ok := d.lay.findRow(f, snap.Cursor.Side, snap.Cursor.Line); ok {
				hm := d.lay.hunks[ref.g]
				d.jump(Pos{File: f, Hunk: int(hm.index), Row: ref.row})
			}
		}
	}
	for _, n := range snap.Notices {
		m.setInfo("%s", string(n))
	}
	follow := m.followAccepted(prev, snap)
	if lay != nil {
		return tea.Batch(follow, m.loadThreads())
	}
	return follow
}

// restoreCursor puts the cursor on the line c names in a new changeset
// (after a reload), or on its file's heading when that line is gone.
func (v *diffView) restoreCursor(c app.Cursor) {
	f := v.lay.fileIndex(c.Path)
	if f < 0 || v.empty() {
		return
	}
	p := Pos{File: f, Hunk: -1, Row: -1}
	if c.Line > 0 {
		if ref, ok := v.lay.findRow(f, c.Side, c.Line); ok {
			hm := v.lay.hunks[ref.g]
			p = Pos{File: f, Hunk: int(hm.index), Row: ref.row}
		}
	}
	v.jump(p)
}

// sameDrafts reports whether two snapshots place the same drafts alike.
func sameDrafts(a, b *app.Snapshot) bool {
	if a == nil || len(a.Drafts) != len(b.Drafts) {
		return false
	}
	for i := range a.Drafts {
		x, y := a.Drafts[i], b.Drafts[i]
		if x.ID != y.ID || !x.Updated.Equal(y.Updated) || x.Rung != y.Rung || x.Location != y.Location || x.Body != y.Body {
			return false
		}
	}
	return true
}

// count recomputes the progress figures: O(hunks + drafts).
func (m *Model) count() {
	d := m.diff
	files := d.lay.cs.Files
	if len(m.fileViewed) != len(files) {
		m.fileViewed = make([]int, len(files))
	}
	m.viewedTotal = 0
	for i := range files {
		n := 0
		if len(d.viewed) > 0 {
			for _, h := range files[i].Hunks {
				if d.viewed[h.Digest] {
					n++
				}
			}
		}
		m.fileViewed[i] = n
		m.viewedTotal += n
	}
	m.fileDrafts = map[string]int{}
	m.orphans = 0
	for _, p := range m.snap.Drafts {
		if p.Orphaned() {
			m.orphans++
			continue
		}
		m.fileDrafts[p.Location.Path]++
	}
}

// toggleViewed marks the cursor's hunk read (or unread); on a file
// heading it marks every hunk of the file. The screen updates at once; the
// service persists the marks.
func (m *Model) toggleViewed() tea.Cmd {
	d := m.diff
	if d.empty() {
		return nil
	}
	f := &d.lay.cs.Files[d.cursor.File]
	var digests []string
	if d.cursor.Hunk >= 0 {
		digests = []string{f.Hunks[d.cursor.Hunk].Digest}
	} else {
		for _, h := range f.Hunks {
			digests = append(digests, h.Digest)
		}
	}
	if len(digests) == 0 {
		m.setInfo("this file has no hunks to mark")
		return nil
	}
	viewed := !d.viewed[digests[0]]
	if d.cursor.Hunk < 0 {
		viewed = m.fileViewed[d.cursor.File] < len(digests)
	}
	next := make(map[string]bool, len(d.viewed)+len(digests))
	for k := range d.viewed {
		next[k] = true
	}
	for _, g := range digests {
		if viewed {
			next[g] = true
		} else {
			delete(next, g)
		}
	}
	d.viewed = next
	m.snap.Viewed = next
	m.count()
	svc, ctx := m.svc, m.ctx
	return func() tea.Msg {
		info := ""
		for _, g := range digests {
			done, err := svc.MarkViewed(ctx, session.ActorHuman, g, viewed)
			if err != nil {
				return opDoneMsg{err: err}
			}
			if done != "" {
				info = "all hunks of " + safe(done) + " viewed"
			}
		}
		return opDoneMsg{info: info}
	}
}
