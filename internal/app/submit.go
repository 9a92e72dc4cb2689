package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/session"
)

// Submitting a pull or merge request review happens in two steps, so every
// surface can show the same confirmation: PlanSubmission says what would be
// sent, Submit sends exactly that plan.
//
// Exactly once rests on three things. Every body carries a marker (a draft's
// id, or the review's own marker id), and PlanSubmission first asks the
// host what it already holds under a marker and clears those drafts, so a
// lost answer is reconciled before anything is offered again. Submit
// persists the submission (its review marker) before sending, so a retry
// reuses the marker instead of sending a second review. And whatever the
// host accepted is cleared from the drafts at once, even when the call
// failed part way, so a retry sends only what is still pending.

// ErrPlanStale is returned by Submit when the drafts changed after the plan
// was made (edited, deleted, or sent by another process): plan again and
// confirm what is really there.
var ErrPlanStale = errors.New("the drafts changed since the submission was planned")

// SubmitDeps are what a Submitter is built from. All are required.
type SubmitDeps struct {
	Forge  forge.Forge
	Ref    forge.Ref
	Source SourceInfo
	// Drafts holds the drafts books, as Deps.Documents.
	Drafts Documents
	// Submissions holds one record per source of the submission in flight:
	// its review marker, persisted before anything is sent.
	Submissions Documents
	// Seen is the seen-thread watermark (ConversationDeps.Seen): what the
	// reader sent is recorded there so it never reads as new. Nil records
	// nothing.
	Seen  Documents
	Now   func() time.Time
	NewID func() string
}

// Submitter sends the human's drafts of one pull or merge request to its
// host. It holds no state between calls: drafts and the submission record
// are read afresh from their stores each time, so a surface may keep one
// for the life of a review. Not safe for concurrent use.
type Submitter struct {
	deps SubmitDeps
}

// NewSubmitter returns a Submitter for deps.Ref.
func NewSubmitter(deps SubmitDeps) *Submitter { return &Submitter{deps: deps} }

// SubmitRequest is what the reader chose on the confirmation screen.
type SubmitRequest struct {
	Event forge.Event
	// Body is the review's summary; may be empty.
	Body string
}

// Plan is one submission as it would be sent: what goes, what stays and
// why. Surfaces render it for confirmation and hand it back to Submit
// unchanged.
type Plan struct {
	Source SourceInfo  `json:"source"`
	Change ChangeInfo  `json:"change"`
	Event  forge.Event `json:"-"`
	Body   string      `json:"body"`
	// Marker is the review's marker id.
	Marker string `json:"marker"`
	// Resume reports that the host already holds this review (an earlier
	// submit's answer was lost, or its replies failed): Event and Body are
	// the ones sent then, it is finished rather than sent again, and
	// line-comment drafts wait in Deferred for the next submission.
	Resume bool `json:"resume,omitempty"`
	// Comments are the line comments to send, in diff order (by file, then
	// by the row each ends on); Files counts them per file, in the same
	// order.
	Comments []PlannedComment `json:"comments"`
	Files    []FileCount      `json:"files"`
	// Replies are the staged thread replies, posted after the review.
	Replies []PlannedReply `json:"replies"`
	// Orphans are drafts that could not be placed on the current diff; they
	// are not sent and stay drafts.
	Orphans []session.Placed `json:"orphans"`
	// OffDiff are drafts placed on lines the host will not take a comment
	// on (a range across hunks, a file with no diff text); not sent.
	OffDiff []OffDiff `json:"off_diff"`
	// Deferred are line-comment drafts kept for the next submission (see
	// Resume).
	Deferred []session.Placed `json:"deferred"`
	// Reconciled names the drafts cleared while planning because the host
	// already held them.
	Reconciled []string `json:"reconciled"`
	Notices    []Notice `json:"notices,omitempty"`

	cs     *changeset.Changeset
	stamps map[string]time.Time // draft id -> Updated, as planned
}

// ChangeInfo is the pull or merge request a plan was made against.
type ChangeInfo struct {
	Ref     forge.Ref   `json:"-"`
	Label   string      `json:"label"`
	Title   string      `json:"title"`
	Author  string      `json:"author"`
	State   forge.State `json:"-"`
	URL     string      `json:"url"`
	BaseSHA string      `json:"base_sha"`
	// HeadSHA is the head the drafts were relocated against; the review is
	// pinned to it.
	HeadSHA string `json:"head_sha"`
}

// PlannedComment is one draft going up as a line comment, where it sits on
// the diff now.
type PlannedComment struct {
	DraftID string `json:"draft_id"`
	// Path is the file's path now; OldPath its old one when renamed.
	Path    string         `json:"path"`
	OldPath string         `json:"old_path,omitempty"`
	Side    changeset.Side `json:"side"`
	Start   int            `json:"start_line"`
	End     int            `json:"end_line"`
	// Rung says whether the draft is where it was written or moved there.
	Rung changeset.Rung `json:"status"`
	Body string         `json:"body"`
}

// PlannedReply is one staged reply going to its thread.
type PlannedReply struct {
	DraftID  string `json:"draft_id"`
	ThreadID string `json:"thread_id"`
	Body     string `json:"body"`
}

// FileCount is how many line comments go to one file.
type FileCount struct {
	Path     string `json:"path"`
	Comments int    `json:"comments"`
}

// OffDiff is a draft that will not be sent, and why.
type OffDiff struct {
	Draft  session.Placed `json:"draft"`
	Reason string         `json:"reason"`
}

// Empty reports whether the plan would send nothing at all: no comment, no
// reply, and a plain comment event with no summary.
func (p Plan) Empty() bool {
	return !p.Resume && len(p.Comments) == 0 && len(p.Replies) == 0 && p.Event == forge.EventComment && p.Body == ""
}

// PlanSubmission reads the change as it is now, clears the drafts the host
// already holds, relocates the rest against the current head and sorts
// them into what goes and what stays. It sends nothing, but clearing what
// the host holds is persisted. An invalid req.Event is an error wrapping
// ErrInvalid.
func (s *Submitter) PlanSubmission(ctx context.Context, req SubmitRequest) (Plan, error) {
	if _, err := forge.ParseEvent(req.Event.String()); err != nil {
		return Plan{}, fmt.Errorf("plan submission of %s: %w: %w", s.deps.Source.Label, ErrInvalid, err)
	}
	ch, err := s.deps.Forge.Change(ctx, s.deps.Ref)
	if err != nil {
		return Plan{}, err
	}
	cs, err := changeset.ParseBytes(ch.Patch)
	if err != nil {
		return Plan{}, fmt.Errorf("read %s at %s: %w", s.deps.Source.Label, ch.HeadSHA, err)
	}
	posted, err := s.deps.Forge.Reconcile(ctx, s.deps.Ref)
	if err != nil {
		return Plan{}, err
	}
	held := heldMarkers(posted)
	if err := s.recordSent(ctx, posted); err != nil {
		return Plan{}, err
	}
	book, notices, err := LoadDraftBook(ctx, s.deps.Drafts, s.deps.Source, s.deps.Now)
	if err != nil {
		return Plan{}, err
	}
	plan := Plan{Source: s.deps.Source, Change: changeInfo(ch), Event: req.Event, Body: req.Body, Notices: notices, cs: cs}
	for _, d := range book.Drafts() {
		if held[d.ID] {
			plan.Reconciled = append(plan.Reconciled, d.ID)
		}
	}
	if _, err := book.Clear(ctx, plan.Reconciled); err != nil {
		return Plan{}, fmt.Errorf("clear the drafts %s already holds: %w", s.deps.Ref, err)
	}
	rec, rnotices, err := loadSubmission(ctx, s.deps.Submissions, s.deps.Source)
	if err != nil {
		return Plan{}, err
	}
	plan.Notices = append(plan.Notices, rnotices...)
	switch {
	case rec != nil && held[rec.Marker]:
		plan.Marker, plan.Resume = rec.Marker, true
		plan.Event, plan.Body = rec.event(), rec.Body
	case rec != nil:
		plan.Marker = rec.Marker
	default:
		plan.Marker = "review-" + s.deps.NewID()
	}
	plan.sort(session.Place(book.Drafts(), cs))
	return plan, nil
}

// recordSent adds the markers of what the host holds from the reader to
// the seen watermark.
func (s *Submitter) recordSent(ctx context.Context, posted []forge.Posted) error {
	if s.deps.Seen == nil {
		return nil
	}
	markers := make([]string, 0, len(posted))
	for _, p := range posted {
		markers = append(markers, p.MarkerID)
	}
	if err := addSeen(ctx, s.deps.Seen, s.deps.Source, s.deps.Now, nil, markers); err != nil {
		return fmt.Errorf("record what was sent to %s: %w", s.deps.Ref, err)
	}
	return nil
}

// heldMarkers indexes what the host holds and has published. A GitLab
// draft note (Pending) is not done: Submit publishes it.
func heldMarkers(posted []forge.Posted) map[string]bool {
	held := make(map[string]bool, len(posted))
	for _, p := range posted {
		if !p.Pending {
			held[p.MarkerID] = true
		}
	}
	return held
}

func changeInfo(ch forge.Change) ChangeInfo {
	return ChangeInfo{Ref: ch.Ref, Label: ch.Ref.String(), Title: ch.Title, Author: ch.Author, State: ch.State, URL: ch.URL,
		BaseSHA: ch.BaseSHA, HeadSHA: ch.HeadSHA}
}

// sort files each placed draft under what happens to it.
func (p *Plan) sort(placed []session.Placed) {
	p.stamps = make(map[string]time.Time, len(placed))
	var comments []forge.Comment
	byID := map[string]session.Placed{}
	for _, d := range placed {
		switch {
		case d.ReplyTo != "":
			p.Replies = append(p.Replies, PlannedReply{DraftID: d.ID, ThreadID: d.ReplyTo, Body: d.Body})
			p.stamps[d.ID] = d.Updated
		case d.Orphaned():
			p.Orphans = append(p.Orphans, d)
		case p.Resume:
			p.Deferred = append(p.Deferred, d)
		default:
			comments = append(comments, p.comment(d))
			byID[d.ID] = d
		}
	}
	located, rejected := forge.Check(p.cs.Files, comments)
	for _, r := range rejected {
		p.OffDiff = append(p.OffDiff, OffDiff{Draft: byID[r.MarkerID], Reason: r.Reason})
	}
	fileIndex := map[string]int{}
	for i, f := range p.cs.Files {
		fileIndex[f.Path] = i
	}
	slices.SortStableFunc(located, func(a, b forge.Located) int {
		return cmp.Or(cmp.Compare(fileIndex[a.Path], fileIndex[b.Path]),
			cmp.Compare(a.Position.End.Hunk, b.Position.End.Hunk), cmp.Compare(a.Position.End.Index, b.Position.End.Index))
	})
	for _, l := range located {
		d := byID[l.MarkerID]
		start := l.StartLine
		if start == 0 {
			start = l.Line
		}
		p.Comments = append(p.Comments, PlannedComment{DraftID: d.ID, Path: l.Path, OldPath: l.OldPath, Side: l.Side,
			Start: start, End: l.Line, Rung: d.Rung, Body: d.Body})
		p.stamps[d.ID] = d.Updated
		if n := len(p.Files); n > 0 && p.Files[n-1].Path == l.Path {
			p.Files[n-1].Comments++
		} else {
			p.Files = append(p.Files, FileCount{Path: l.Path, Comments: 1})
		}
	}
}

// comment is the line comment a placed draft becomes: its current
// location, with the file's old path when it was renamed.
func (p *Plan) comment(d session.Placed) forge.Comment {
	loc := d.Location
	c := forge.Comment{MarkerID: d.ID, Path: loc.Path, Side: loc.Side, Line: loc.End, Body: d.Body}
	if loc.End > loc.Start {
		c.StartLine, c.StartSide = loc.Start, loc.Side
	}
	if f := File(p.cs, loc.Path, loc.Side); f != nil && f.OldPath != "" && f.OldPath != f.Path {
		c.Path, c.OldPath = f.Path, f.OldPath
	}
	return c
}

// review is the forge review the plan stands for.
func (p Plan) review() forge.Review {
	rv := forge.Review{MarkerID: p.Marker, CommitID: p.Change.HeadSHA, Event: p.Event, Body: p.Body, Diff: p.cs.Files}
	for _, c := range p.Comments {
		fc := forge.Comment{MarkerID: c.DraftID, Path: c.Path, OldPath: c.OldPath, Side: c.Side, Line: c.End, Body: c.Body}
		if c.End > c.Start {
			fc.StartLine, fc.StartSide = c.Start, c.Side
		}
		rv.Comments = append(rv.Comments, fc)
	}
	for _, r := range p.Replies {
		rv.Replies = append(rv.Replies, forge.Reply{MarkerID: r.DraftID, ThreadID: r.ThreadID, Body: r.Body})
	}
	return rv
}

// draftIDs lists the drafts the plan sends, comments then replies.
func (p Plan) draftIDs() []string {
	ids := make([]string, 0, len(p.Comments)+len(p.Replies))
	for _, c := range p.Comments {
		ids = append(ids, c.DraftID)
	}
	for _, r := range p.Replies {
		ids = append(ids, r.DraftID)
	}
	return ids
}
