package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/session"
)

// Result is what one Submit achieved. It is meaningful even when Submit
// returns an error: Cleared is what the host took before the failure.
type Result struct {
	Marker string `json:"marker"`
	// Cleared names the drafts the host accepted, now removed from the
	// drafts book.
	Cleared []string `json:"cleared"`
	// Rejected are drafts the host would not take; they stay drafts.
	Rejected []forge.Rejection `json:"rejected"`
	// Done reports that the whole plan is on the host, its event and
	// summary included.
	Done bool `json:"done"`
	// Remaining is how many drafts the book holds afterwards (orphans,
	// rejected and deferred drafts, and any written meanwhile).
	Remaining int `json:"remaining"`
	// Notices are trouble after the fact the reader should hear about.
	Notices []Notice `json:"notices,omitempty"`
}

// Submit sends plan, which must come from PlanSubmission on this
// Submitter. It records the submission before sending, clears exactly the
// drafts the host accepted (also when it fails part way), and forgets the
// record once the host holds everything.
//
// Errors: ErrPlanStale when the planned drafts changed since (nothing is
// sent); forge.ErrHeadMoved when the change moved past plan.Change.HeadSHA
// (nothing is sent: plan again and confirm again); a *forge.HostError when
// the host failed, with Result saying what it took first.
func (s *Submitter) Submit(ctx context.Context, plan Plan) (Result, error) {
	res := Result{Marker: plan.Marker}
	if plan.cs == nil {
		return res, fmt.Errorf("submit %s: the plan was not made by PlanSubmission: %w", s.deps.Source.Label, ErrInvalid)
	}
	book, _, err := LoadDraftBook(ctx, s.deps.Drafts, s.deps.Source, s.deps.Now)
	if err != nil {
		return res, err
	}
	if err := plan.stillCurrent(book); err != nil {
		return res, err
	}
	if err := s.record(ctx, plan); err != nil {
		return res, err
	}
	sent, serr := s.deps.Forge.Submit(ctx, s.deps.Ref, plan.review())
	res.Rejected = sent.Rejected
	mine := plan.draftIDs()
	for _, m := range sent.Accepted {
		if slices.Contains(mine, m) {
			res.Cleared = append(res.Cleared, m)
		}
	}
	_, cerr := book.Clear(ctx, res.Cleared)
	res.Remaining = len(book.Drafts())
	if err := s.recordSent(ctx, sent.Posted); err != nil {
		res.Notices = append(res.Notices, Notice(err.Error()))
	}
	if serr != nil {
		if cerr != nil {
			return res, fmt.Errorf("%w (and the sent drafts could not be cleared: %v; the next submit reconciles them)", serr, cerr)
		}
		return res, serr
	}
	res.Done = true
	if err := s.deps.Submissions.Remove(ctx, s.deps.Source.Key); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, fmt.Errorf("forget the finished submission %s: %w", plan.Marker, err)
	}
	if cerr != nil {
		return res, fmt.Errorf("clear the sent drafts of %s: %w (the next submit reconciles them)", s.deps.Source.Label, cerr)
	}
	return res, nil
}

// stillCurrent checks that every draft the plan sends is still in book as
// it was planned.
func (p Plan) stillCurrent(book *DraftBook) error {
	for _, id := range p.draftIDs() {
		d, ok := book.Find(id)
		switch {
		case !ok:
			return fmt.Errorf("draft %s is gone: %w", id, ErrPlanStale)
		case !d.Updated.Equal(p.stamps[id]):
			return fmt.Errorf("draft %s was edited: %w", id, ErrPlanStale)
		}
	}
	return nil
}

// record persists the submission before anything is sent. A resumed plan
// keeps the record it resumes, which names what the host already holds.
func (s *Submitter) record(ctx context.Context, plan Plan) error {
	var doc submissionDoc
	err := s.deps.Submissions.Update(ctx, s.deps.Source.Key, &doc, func(exists bool) error {
		if exists && doc.Marker == plan.Marker {
			return nil
		}
		if exists {
			// Another submission recorded itself after this plan was made
			// (PlanSubmission resumes any record it finds): it is in flight
			// or was cut short, and sending a second review beside it would
			// post every comment twice.
			return fmt.Errorf("another submission of %s (review %s, started %s) is not finished; nothing was sent, and submitting again finishes it: %w",
				s.deps.Source.Label, doc.Marker, doc.Started.Format(time.RFC3339), ErrPlanStale)
		}
		doc = submissionDoc{Schema: submissionSchema, Source: s.deps.Source, Marker: plan.Marker, Event: plan.Event.String(),
			Body: plan.Body, Commit: plan.Change.HeadSHA, Drafts: plan.draftIDs(), Started: s.deps.Now()}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record the submission of %s before sending: %w", s.deps.Source.Label, err)
	}
	return nil
}

// submissionSchema is the version of submissionDoc written to disk.
const submissionSchema = 1

// submissionDoc is the record of one source's submission in flight. It
// exists from just before a review is sent until the host holds all of it.
type submissionDoc struct {
	Schema int        `json:"schema"`
	Source SourceInfo `json:"source"`
	// Marker is the review's marker id, reused by every retry.
	Marker string `json:"marker"`
	// Event and Body are what was sent, for finishing a review the host
	// already holds.
	Event  string   `json:"event"`
	Body   string   `json:"body"`
	Commit string   `json:"commit"`
	Drafts []string `json:"drafts"`
	// Started is when the submission was first sent.
	Started time.Time `json:"started"`
}

// Validate rejects a record whose marker or event cannot be used again.
func (d *submissionDoc) Validate() error {
	if !forge.ValidMarkerID(d.Marker) {
		return fmt.Errorf("submission marker %q is not a marker id", d.Marker)
	}
	if _, err := forge.ParseEvent(d.Event); err != nil {
		return fmt.Errorf("submission event: %w", err)
	}
	return nil
}

func (d *submissionDoc) event() forge.Event {
	e, _ := forge.ParseEvent(d.Event)
	return e
}

// loadSubmission reads source's submission record: nil when there is none.
// A damaged record is set aside and reported; submitting then starts a new
// review marker, and only a review-level event sent before could repeat.
func loadSubmission(ctx context.Context, docs Documents, source SourceInfo) (*submissionDoc, []Notice, error) {
	var doc submissionDoc
	err := docs.Read(ctx, source.Key, &doc)
	switch {
	case err == nil:
		return &doc, nil, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, nil
	case isCorrupt(err):
		return nil, []Notice{Notice(fmt.Sprintf("the record of an earlier submission could not be read: %v", err))}, nil
	}
	return nil, nil, fmt.Errorf("load the submission record %s: %w", source.Key, err)
}

// Clear removes the drafts with ids, ignoring ids the book does not hold,
// and reports how many it removed. An empty ids writes nothing.
func (b *DraftBook) Clear(ctx context.Context, ids []string) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	gone := make(map[string]bool, len(ids))
	for _, id := range ids {
		gone[id] = true
	}
	n := 0
	for _, d := range b.drafts {
		if gone[d.ID] {
			n++
		}
	}
	keep := func(list []session.Draft) []session.Draft {
		out := list[:0]
		for _, d := range list {
			if !gone[d.ID] {
				out = append(out, d)
			}
		}
		return out
	}
	return n, b.apply(ctx, keep)
}
