package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/editor"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/session"
)

// Submitter plans and sends the human's drafts as one review of a pull or
// merge request. *app.Submitter implements it.
type Submitter interface {
	PlanSubmission(ctx context.Context, req app.SubmitRequest) (app.Plan, error)
	Submit(ctx context.Context, plan app.Plan) (app.Result, error)
}

// submitPhase is where the confirmation screen stands. The zero value is
// invalid.
type submitPhase uint8

const (
	submitPlanning submitPhase = iota + 1
	submitReady
	submitSending
)

// submitView is the confirmation screen S opens: what the plan sends,
// what it leaves behind and why, the event and the summary. Nothing is
// sent until the reader confirms; a plan that went stale while shown
// (the head moved, the drafts changed) is made again and shown again.
type submitView struct {
	phase   submitPhase
	plan    app.Plan
	planned bool // plan holds a plan
	event   forge.Event
	body    string
	// note says why the plan is shown again; err is the last failure.
	note string
	err  error
	top  int
}

type (
	planMsg struct {
		plan app.Plan
		err  error
	}
	submittedMsg struct {
		plan app.Plan
		res  app.Result
		err  error
	}
	// summaryMsg carries the summary written in the editor.
	summaryMsg struct{ body string }
)

// events are the review's possible verdicts, in the order tab cycles
// through them.
var events = []forge.Event{forge.EventComment, forge.EventApprove, forge.EventRequestChanges}

func (m *Model) openSubmit() tea.Cmd {
	if m.opts.Submitter == nil {
		m.setErr(errors.New("submitting works on a GitHub pull request or a GitLab merge request, and this review is neither: `leanreview export` writes the drafts out"))
		return nil
	}
	m.submit = &submitView{phase: submitPlanning, event: forge.EventComment}
	m.overlay = overlaySubmit
	return m.planCmd(false)
}

// planCmd plans the submission with the chosen event and summary; reload
// first reads the change again, so the diff on screen is the new head's.
// Drafts the host already held are cleared from the drafts file by the
// plan and forgotten by the live session here.
func (m *Model) planCmd(reload bool) tea.Cmd {
	sub, svc, ctx := m.opts.Submitter, m.svc, m.ctx
	req := app.SubmitRequest{Event: m.submit.event, Body: m.submit.body}
	return func() tea.Msg {
		if reload {
			if err := svc.Reload(ctx); err != nil {
				return planMsg{err: err}
			}
		}
		plan, err := sub.PlanSubmission(ctx, req)
		if err == nil {
			err = forget(ctx, svc, plan.Reconciled)
		}
		return planMsg{plan: plan, err: err}
	}
}

// sendCmd sends plan and forgets, in the live session, the drafts the
// host took (the submitter cleared them from the drafts file).
func (m *Model) sendCmd(plan app.Plan) tea.Cmd {
	sub, svc, ctx := m.opts.Submitter, m.svc, m.ctx
	return func() tea.Msg {
		res, err := sub.Submit(ctx, plan)
		if ferr := forget(ctx, svc, res.Cleared); ferr != nil && err == nil {
			err = ferr
		}
		return submittedMsg{plan: plan, res: res, err: err}
	}
}

// forget deletes from the live session the drafts with ids, which the
// host now holds; a draft the session no longer has is skipped.
func forget(ctx context.Context, svc app.Service, ids []string) error {
	for _, id := range ids {
		if _, err := svc.DeleteComment(ctx, session.ActorHuman, id); err != nil && !errors.Is(err, app.ErrNotFound) {
			return fmt.Errorf("forget the sent draft %s: %w", id, err)
		}
	}
	return nil
}

// handleSubmit applies what a submission command reported.
func (m *Model) handleSubmit(msg tea.Msg) tea.Cmd {
	sv := m.submit
	switch msg := msg.(type) {
	case planMsg:
		if sv == nil {
			return nil
		}
		sv.phase, sv.top = submitReady, 0
		if msg.err != nil {
			sv.err, sv.planned = msg.err, false
			return m.refresh()
		}
		sv.plan, sv.planned = msg.plan, true
		if msg.plan.Resume {
			sv.event, sv.body = msg.plan.Event, msg.plan.Body
		}
		return m.refresh()
	case summaryMsg:
		if sv != nil && sv.planned && !sv.plan.Resume {
			sv.body, sv.plan.Body = msg.body, msg.body
		}
	case submittedMsg:
		if sv == nil {
			return nil
		}
		return m.submitted(msg)
	}
	return nil
}

// submitted closes the screen on success; on a plan gone stale it plans
// again (reading the change again when its head moved) and shows it again.
func (m *Model) submitted(msg submittedMsg) tea.Cmd {
	sv := m.submit
	// after takes a new snapshot (the sent drafts are gone) and reads the
	// threads again (they now hold what was sent).
	after := func() tea.Cmd { return tea.Batch(m.refresh(), m.loadThreads()) }
	switch {
	case msg.err == nil:
		m.submit, m.overlay = nil, overlayNone
		m.setInfo("%s", sentSummary(msg.plan, msg.res))
		return after()
	case errors.Is(msg.err, forge.ErrHeadMoved):
		sv.phase, sv.err = submitPlanning, nil
		sv.note = fmt.Sprintf("%s moved to a new head while you confirmed: nothing was sent; the drafts are placed on the new head below, confirm again.", msg.plan.Change.Label)
		return m.planCmd(true)
	case errors.Is(msg.err, app.ErrPlanStale):
		sv.phase, sv.err = submitPlanning, nil
		sv.note = "The drafts changed while you confirmed: nothing was sent; this is what is there now, confirm again."
		return tea.Batch(after(), m.planCmd(false))
	}
	sv.phase, sv.err = submitPlanning, msg.err
	sv.note = "Enter tries again and sends only what is still pending."
	if n := len(msg.res.Cleared); n > 0 {
		sv.note = fmt.Sprintf("%s took %s before the failure; they are no longer drafts. Enter sends the rest.",
			msg.plan.Change.Ref.Kind.Title(), plural(n, "draft"))
	}
	return tea.Batch(after(), m.planCmd(false))
}

// sentSummary is the status line after a successful submission.
func sentSummary(p app.Plan, res app.Result) string {
	var parts []string
	if n := len(p.Comments); n > 0 {
		parts = append(parts, plural(n, "comment"))
	}
	if n := len(p.Replies); n > 0 {
		parts = append(parts, pluralReplies(n))
	}
	what := strings.Join(parts, " and ")
	if what == "" {
		what = "the review"
	}
	s := fmt.Sprintf("submitted to %s (%s): %s sent", safe(p.Change.Label), eventWord(p.Event), what)
	if n := len(res.Rejected); n > 0 {
		s += fmt.Sprintf("; %s refused %s", p.Change.Ref.Kind.Title(), plural(n, "draft"))
	}
	if res.Remaining > 0 {
		s += fmt.Sprintf("; %s left as drafts", plural(res.Remaining, "draft"))
	}
	return s
}

func pluralReplies(n int) string {
	if n == 1 {
		return "1 reply"
	}
	return fmt.Sprintf("%d replies", n)
}

func eventWord(e forge.Event) string {
	if e == forge.EventRequestChanges {
		return "request changes"
	}
	return e.String()
}

// submitKey handles a key on the confirmation screen: Enter or y sends,
// tab cycles the event, s writes the summary in the editor, j/k scroll,
// esc or q cancels (nothing is sent).
func (m *Model) submitKey(key string) tea.Cmd {
	sv := m.submit
	switch key {
	case "esc", "q":
		if sv.phase == submitSending {
			m.setInfo("sending: wait for the host's answer")
			return nil
		}
		m.submit, m.overlay = nil, overlayNone
		m.setInfo("not submitted; nothing was sent")
	case "j", "down":
		sv.top++
	case "k", "up":
		sv.top = max(sv.top-1, 0)
	case "pgdown", "space":
		sv.top += m.bodyHeight() / 2
	case "pgup":
		sv.top = max(sv.top-m.bodyHeight()/2, 0)
	case "tab", "e":
		if sv.planned && !sv.plan.Resume && sv.phase == submitReady {
			for i, e := range events {
				if e == sv.event {
					sv.event = events[(i+1)%len(events)]
					break
				}
			}
			sv.plan.Event = sv.event
		}
	case "s":
		if sv.phase == submitReady && sv.planned && !sv.plan.Resume {
			return m.prepareEditor(editor.Request{Body: sv.body}, commentOp{summary: true})
		}
	case "enter", "y":
		switch {
		case sv.phase != submitReady:
		case !sv.planned:
			sv.phase, sv.err = submitPlanning, nil
			return m.planCmd(false)
		case sv.plan.Empty():
			m.setInfo("nothing to submit: no comment, reply or summary, and the event is a plain comment")
		default:
			sv.phase, sv.note = submitSending, ""
			return m.sendCmd(sv.plan)
		}
	}
	return nil
}
