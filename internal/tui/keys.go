package tui

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/changeset"
)

// handleKey sends a key to whatever has the focus: the search prompt, an
// overlay, or the keymap.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	key := k.String()
	if m.diff == nil {
		if key == "q" || key == "ctrl+c" || key == "esc" {
			return tea.Quit
		}
		return nil
	}
	m.msg = ""
	if m.search != nil {
		return m.searchKey(k)
	}
	switch m.overlay {
	case overlayHelp:
		return m.helpKey(key)
	case overlayPicker:
		return m.pickerKey(k)
	case overlayDrafts:
		return m.draftsKey(key)
	case overlaySuggestions:
		return m.suggestionsKey(key)
	case overlaySubmit:
		return m.submitKey(key)
	}
	act, pending := m.km.Match(m.pending, key)
	m.pending = pending
	if act == 0 {
		return nil
	}
	return m.do(act)
}

func (m *Model) paste(s string) {
	s = strings.TrimRight(s, "\r\n")
	switch {
	case m.search != nil:
		m.search.insert(s)
	case m.overlay == overlayPicker:
		m.picker.query.insert(s)
		m.picker.refilter(m.paths())
	}
}

// moves are the actions that only move the cursor.
var moves = map[Action]bool{
	ActDown: true, ActUp: true, ActNextChange: true, ActPrevChange: true, ActNextHunk: true, ActPrevHunk: true,
	ActNextFile: true, ActPrevFile: true, ActTop: true, ActBottom: true, ActPageDown: true, ActPageUp: true,
	ActHalfDown: true, ActHalfUp: true, ActSideOld: true, ActSideNew: true,
}

// do carries out one action.
func (m *Model) do(act Action) tea.Cmd {
	if moves[act] {
		m.move(act)
		return m.syncCursor()
	}
	d := m.diff
	switch act {
	case ActSearch:
		m.search = &prompt{label: "/"}
	case ActSearchNext, ActSearchPrev:
		m.searchStep(act == ActSearchNext)
		return m.syncCursor()
	case ActPickFile:
		m.picker = newPicker(m.paths())
		m.overlay = overlayPicker
	case ActToggleSidebar:
		m.showSidebar = !m.showSidebar
		m.layoutPanes()
	case ActToggleView:
		d.setSplit(!d.lay.split)
	case ActFoldHunk:
		if !d.toggleFold() {
			m.setInfo("the cursor is not in a hunk")
		}
	case ActToggleWrap:
		d.setWrap(!d.wrap)
	case ActTogglePreviews:
		d.setPreviews(!d.lay.previews)
	case ActSelect:
		m.toggleSelect()
	case ActCancel:
		d.sel = nil
		d.search = nil
	case ActComment:
		return m.startComment()
	case ActEdit:
		return m.startEdit()
	case ActDelete:
		return m.deleteDraft()
	case ActUndo:
		return m.undoDelete()
	case ActMarkViewed:
		return m.toggleViewed()
	case ActDrafts, ActReply, ActSubmit, ActAcceptSuggestion, ActDeclineSuggestion, ActSuggestions:
		return m.doReview(act)
	case ActExportDrafts:
		return m.exportDrafts(m.opts.ExportDir)
	case ActHelp:
		m.overlay = overlayHelp
		m.help.top = 0
	case ActQuit:
		return tea.Quit
	}
	return nil
}

// doReview carries out the actions on the review's conversation: the
// drafts and threads list, replies, submitting, the agent's suggestions.
func (m *Model) doReview(act Action) tea.Cmd {
	d := m.diff
	switch act {
	case ActDrafts:
		m.drafts = newDraftList(m.snap.Drafts, m.threads, d.lay.threadAt)
		m.overlay = overlayDrafts
	case ActReply:
		i, ok := m.threadAtCursor()
		if !ok {
			m.setErr(errors.New("no review thread on this line: threads show under their line, and C lists them all"))
			return nil
		}
		return m.startReply(i)
	case ActSubmit:
		return m.openSubmit()
	case ActAcceptSuggestion, ActDeclineSuggestion:
		if s, ok := m.firstPending(); ok {
			return m.answerSuggestion(s, act == ActAcceptSuggestion)
		}
	case ActSuggestions:
		m.suggest = newSuggestionList(m.snap.Suggestions)
		m.overlay = overlaySuggestions
	}
	return nil
}

func (m *Model) move(act Action) {
	d := m.diff
	ok := true
	switch act {
	case ActDown:
		d.step(1)
	case ActUp:
		d.step(-1)
	case ActNextChange:
		ok = d.nextChange(1)
	case ActPrevChange:
		ok = d.nextChange(-1)
	case ActNextHunk:
		ok = d.nextHunk()
	case ActPrevHunk:
		ok = d.prevHunk()
	case ActNextFile:
		ok = d.nextFile()
	case ActPrevFile:
		ok = d.prevFile()
	case ActTop:
		d.first()
	case ActBottom:
		d.last()
	case ActPageDown:
		d.page(1)
	case ActPageUp:
		d.page(-1)
	case ActHalfDown:
		d.page(0.5)
	case ActHalfUp:
		d.page(-0.5)
	case ActSideOld:
		d.setSide(changeset.SideOld)
	case ActSideNew:
		d.setSide(changeset.SideNew)
	}
	if !ok {
		m.setInfo("nothing further in that direction")
	}
}

func (m *Model) toggleSelect() {
	d := m.diff
	if d.sel != nil {
		d.sel = nil
		return
	}
	if d.cursor.Row < 0 {
		m.setErr(errors.New("a selection starts on a line of the diff"))
		return
	}
	p := d.cursor
	d.sel = &p
	m.setInfo("selecting: move to the last line, then c to comment (esc cancels)")
}

func (m *Model) paths() []string {
	files := m.diff.lay.cs.Files
	out := make([]string, len(files))
	for i := range files {
		out[i] = files[i].Path
	}
	return out
}

func (m *Model) helpKey(key string) tea.Cmd {
	switch key {
	case "?", "esc", "q":
		m.overlay = overlayNone
	case "j", "down":
		m.help.top++
	case "k", "up":
		m.help.top = max(m.help.top-1, 0)
	case "pgdown", "space":
		m.help.top += m.height / 2
	case "pgup":
		m.help.top = max(m.help.top-m.height/2, 0)
	}
	return nil
}

func (m *Model) pickerKey(k tea.KeyPressMsg) tea.Cmd {
	p := m.picker
	switch k.String() {
	case "up", "ctrl+p", "ctrl+k":
		p.move(-1)
		return nil
	case "down", "ctrl+n", "ctrl+j", "tab":
		p.move(1)
		return nil
	case "pgup":
		p.move(-m.height / 2)
		return nil
	case "pgdown":
		p.move(m.height / 2)
		return nil
	}
	switch p.query.key(k) {
	case promptCancel:
		m.overlay = overlayNone
	case promptSubmit:
		m.overlay = overlayNone
		if len(p.matches) > 0 {
			m.diff.jumpTop(Pos{File: p.matches[p.sel], Hunk: -1, Row: -1})
			return m.syncCursor()
		}
	default:
		p.refilter(m.paths())
	}
	return nil
}

func (m *Model) draftsKey(key string) tea.Cmd {
	dl := m.drafts
	switch key {
	case "esc", "q", "C":
		m.overlay = overlayNone
	case "j", "down":
		dl.move(1)
	case "k", "up":
		dl.move(-1)
	case "r":
		if t, ok := dl.selectedThread(); ok {
			m.overlay = overlayNone
			return m.startReply(t)
		}
		m.setInfo("r replies to a thread: select one (they are listed after the drafts)")
	case "enter":
		if t, ok := dl.selectedThread(); ok {
			return m.jumpToThread(t)
		}
		i := dl.selected()
		if i < 0 {
			return nil
		}
		ref, ok := m.diff.lay.anchored[i]
		if !ok {
			m.setInfo("this draft is orphaned: put the cursor on its line and press m in this list to move it there")
			return nil
		}
		m.overlay = overlayNone
		d := m.diff
		d.unfold(ref.g)
		hm := d.lay.hunks[ref.g]
		d.jump(Pos{File: int(hm.file), Hunk: int(hm.index), Row: ref.row})
		return m.syncCursor()
	case "m":
		i := dl.selected()
		if i < 0 {
			m.setInfo("m moves a draft: select one")
			return nil
		}
		ref, _, err := m.commentTarget(false)
		if err != nil {
			m.setErr(err)
			return nil
		}
		m.overlay = overlayNone
		return m.moveDraft(m.snap.Drafts[i].ID, ref)
	}
	return nil
}
