package tui

import (
	"errors"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/editor"
	"github.com/leanreview/leanreview/internal/forge"
)

// startReply opens the editor on a reply to thread i, the thread quoted
// in the buffer's header. The reply is staged as a draft (CommentRequest
// with ReplyTo) anchored on the thread's line when the diff shows it, so
// it is previewed under the thread; Submit posts it after the review.
func (m *Model) startReply(i int) tea.Cmd {
	t := m.threads[i]
	if t.ReplyTo == "" {
		m.setErr(errors.New("this is a comment on the change as a whole; the host takes no replies to it, so comment on a line instead"))
		return nil
	}
	ctx := editor.Context{Path: t.Path, OldPath: t.OldPath, Side: threadSide(t.Thread), StartLine: t.StartLine, EndLine: t.Line}
	if t.StartLine <= 0 {
		ctx.StartLine = t.Line
	}
	for _, c := range t.Comments {
		ctx.Thread = append(ctx.Thread, editor.Note{Author: c.Author, Body: forge.StripMarker(c.Body)})
	}
	op := commentOp{replyTo: t.ReplyTo, thread: threadWho(t)}
	if ref, ok := m.diff.lay.threadAt[i]; ok {
		f := &m.diff.lay.cs.Files[m.diff.lay.hunks[ref.g].file]
		row := m.diff.lay.hunk(ref.g).Rows[ref.row]
		side := threadSide(t.Thread)
		op.ref = app.LineRef{Path: f.Path, Side: side, Start: t.Line, End: t.Line}
		ctx.Path, ctx.Code = f.Path, []string{row.Text}
		ctx.StartLine = t.Line
	}
	return m.prepareEditor(editor.Request{Context: ctx}, op)
}

// threadWho names a thread for messages: "alice's thread".
func threadWho(t app.PlacedThread) string {
	if len(t.Comments) == 0 || t.Comments[0].Author == "" {
		return "the thread"
	}
	return safe(t.Comments[0].Author) + "'s thread"
}

// jumpToThread closes the list and puts the cursor on thread i's line.
func (m *Model) jumpToThread(i int) tea.Cmd {
	ref, ok := m.diff.lay.threadAt[i]
	if !ok {
		m.setInfo("this thread is not on the diff shown (outdated, or about the whole change): r replies to it from here")
		return nil
	}
	m.overlay = overlayNone
	d := m.diff
	d.unfold(ref.g)
	hm := d.lay.hunks[ref.g]
	d.jump(Pos{File: int(hm.file), Hunk: int(hm.index), Row: ref.row})
	return m.syncCursor()
}
