package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/editor"
	"github.com/leanreview/leanreview/internal/session"
)

// commentOp is what an editor session is for: a new draft on ref, an
// edit of draft id, a reply to a forge thread (replyTo, with ref the
// thread's line when the diff shows it; thread names it for messages), or
// the summary of a submission.
type commentOp struct {
	ref     app.LineRef
	id      string
	replyTo string
	thread  string
	summary bool
}

type (
	editorReadyMsg struct {
		buf *editor.Buffer
		err error
		op  commentOp
	}
	editorDoneMsg struct {
		buf    *editor.Buffer
		runErr error
		op     commentOp
	}
)

// commentTarget is the line (or, with withSelection, the selected range)
// a comment at the cursor is about, with the lines' text.
func (m *Model) commentTarget(withSelection bool) (app.LineRef, []string, error) {
	d := m.diff
	if d.empty() || d.cursor.Row < 0 {
		return app.LineRef{}, nil, errors.New("move the cursor onto a line of the diff to comment")
	}
	f := &d.lay.cs.Files[d.cursor.File]
	rows := f.Hunks[d.cursor.Hunk].Rows
	lo, hi := d.cursor.Row, d.cursor.Row
	anchor := rows[d.cursor.Row]
	if withSelection && d.sel != nil && d.sel.File == d.cursor.File && d.sel.Hunk == d.cursor.Hunk {
		lo, hi = min(d.sel.Row, d.cursor.Row), max(d.sel.Row, d.cursor.Row)
		anchor = rows[d.sel.Row]
	}
	side := rowSide(anchor, d.side)
	ref := app.LineRef{Path: f.Path, Side: side}
	var code []string
	for i := lo; i <= hi; i++ {
		n := sideLine(rows[i], side)
		if n == 0 || rows[i].Kind == changeset.KindMeta {
			continue
		}
		if ref.Start == 0 {
			ref.Start = n
		}
		ref.End = n
		code = append(code, rows[i].Text)
	}
	if ref.Start == 0 {
		return app.LineRef{}, nil, fmt.Errorf("this line has no %s side to comment on", side)
	}
	return ref, code, nil
}

func (m *Model) startComment() tea.Cmd {
	ref, code, err := m.commentTarget(true)
	if err != nil {
		m.setErr(err)
		return nil
	}
	m.diff.sel = nil
	f := &m.diff.lay.cs.Files[m.diff.cursor.File]
	ctx := editor.Context{Path: f.Path, Side: ref.Side, StartLine: ref.Start, EndLine: ref.End, Code: code}
	if f.OldPath != f.Path {
		ctx.OldPath = f.OldPath
	}
	return m.prepareEditor(editor.Request{Context: ctx}, commentOp{ref: ref})
}

// draftAtCursor returns the index of the human's first draft covering the
// cursor's row.
func (m *Model) draftAtCursor() (int, error) {
	d := m.diff
	if d.cursor.Row < 0 {
		return -1, errors.New("no draft here: move onto a line marked ●")
	}
	ids := d.lay.rowDrafts[rowRef{d.curHunk(), d.cursor.Row}]
	for _, i := range ids {
		if d.drafts[i].Author == session.ActorHuman {
			return i, nil
		}
	}
	if len(ids) > 0 {
		return -1, errors.New("the draft on this line is the agent's; only its author edits it")
	}
	return -1, errors.New("no draft on this line")
}

func (m *Model) startEdit() tea.Cmd {
	i, err := m.draftAtCursor()
	if err != nil {
		m.setErr(err)
		return nil
	}
	p := m.diff.drafts[i]
	ctx := editor.Context{Path: p.Location.Path, Side: p.Location.Side, StartLine: p.Location.Start, EndLine: p.Location.End, Code: p.Anchor.Lines}
	return m.prepareEditor(editor.Request{Context: ctx, Body: p.Body}, commentOp{id: p.ID})
}

func (m *Model) prepareEditor(req editor.Request, op commentOp) tea.Cmd {
	ed, ctx := m.opts.Editor, m.ctx
	if ed == nil {
		m.setErr(errors.New("no editor is configured"))
		return nil
	}
	return func() tea.Msg {
		buf, err := ed.Prepare(ctx, req)
		return editorReadyMsg{buf: buf, err: err, op: op}
	}
}

// runEditor hands the terminal to the editor; Bubble Tea restores the
// screen when it exits.
func (m *Model) runEditor(msg editorReadyMsg) tea.Cmd {
	if msg.err != nil {
		m.setErr(msg.err)
		return nil
	}
	return tea.ExecProcess(msg.buf.Cmd(), func(err error) tea.Msg {
		return editorDoneMsg{buf: msg.buf, runErr: err, op: msg.op}
	})
}

// finishEditor reads the comment back and saves, edits or drops it.
func (m *Model) finishEditor(msg editorDoneMsg) tea.Cmd {
	svc, ctx := m.svc, m.ctx
	return func() tea.Msg {
		res, err := msg.buf.Finish(msg.runErr)
		if err != nil {
			return opDoneMsg{err: err}
		}
		op := msg.op
		switch {
		case op.summary:
			return summaryMsg{body: res.Body}
		case op.replyTo != "" && res.Outcome == editor.OutcomeDiscarded:
			return opDoneMsg{info: "empty reply discarded"}
		case op.replyTo != "":
			_, err := svc.Comment(ctx, session.ActorHuman, app.CommentRequest{Ref: op.ref, Body: res.Body, ReplyTo: op.replyTo})
			if err != nil {
				return opDoneMsg{err: fmt.Errorf("stage the reply to %s: %w", op.thread, err)}
			}
			return opDoneMsg{info: "reply staged: S sends it after the review"}
		case op.id == "" && res.Outcome == editor.OutcomeDiscarded:
			return opDoneMsg{info: "empty comment discarded"}
		case op.id == "":
			p, err := svc.Comment(ctx, session.ActorHuman, app.CommentRequest{Ref: op.ref, Body: res.Body})
			if err != nil {
				return opDoneMsg{err: err}
			}
			return opDoneMsg{info: "draft saved on " + lineSpan(p.Location.Side, p.Location.Start, p.Location.End)}
		case res.Outcome == editor.OutcomeDiscarded:
			d, err := svc.DeleteComment(ctx, session.ActorHuman, op.id)
			if err != nil {
				return opDoneMsg{err: err}
			}
			return opDoneMsg{info: "emptied draft deleted (u undoes)", deleted: &d}
		case !res.Changed:
			return opDoneMsg{info: "draft unchanged"}
		}
		if err := svc.EditComment(ctx, session.ActorHuman, op.id, res.Body); err != nil {
			return opDoneMsg{err: err}
		}
		return opDoneMsg{info: "draft updated"}
	}
}

func (m *Model) deleteDraft() tea.Cmd {
	i, err := m.draftAtCursor()
	if err != nil {
		m.setErr(err)
		return nil
	}
	id := m.diff.drafts[i].ID
	svc, ctx := m.svc, m.ctx
	return func() tea.Msg {
		d, err := svc.DeleteComment(ctx, session.ActorHuman, id)
		if err != nil {
			return opDoneMsg{err: err}
		}
		return opDoneMsg{info: "draft deleted (u undoes)", deleted: &d}
	}
}

func (m *Model) undoDelete() tea.Cmd {
	if len(m.undo) == 0 {
		m.setInfo("nothing to undo")
		return nil
	}
	d := m.undo[len(m.undo)-1]
	m.undo = m.undo[:len(m.undo)-1]
	svc, ctx := m.svc, m.ctx
	return func() tea.Msg {
		if err := svc.RestoreComment(ctx, session.ActorHuman, d); err != nil {
			return opDoneMsg{err: err}
		}
		return opDoneMsg{info: "draft restored: " + strings.TrimSpace(bodyLines(d.Body)[0])}
	}
}

func (m *Model) moveDraft(id string, ref app.LineRef) tea.Cmd {
	svc, ctx := m.svc, m.ctx
	return func() tea.Msg {
		if err := svc.MoveComment(ctx, session.ActorHuman, id, ref); err != nil {
			return opDoneMsg{err: err}
		}
		return opDoneMsg{info: "draft moved to " + lineSpan(ref.Side, ref.Start, ref.End)}
	}
}
