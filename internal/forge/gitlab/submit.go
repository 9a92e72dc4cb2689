package gitlab

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
)

// item is one note Submit sends: a line comment, a reply or the summary.
type item struct {
	marker  string
	body    string
	kind    forge.PostedKind
	thread  string              // replies: the discussion answered
	located *forge.Located      // line comments
	pos     *gl.PositionOptions // line comments
}

// Submit implements forge.Forge. GitLab has no atomic review: where the
// server offers draft notes (and the user has none of their own that a
// bulk publish would send along), every note goes up as a draft and one
// bulk publish makes them visible together; otherwise each becomes a
// positioned discussion, reply or note, in order. The event follows:
// approval (with review.CommitID as sha), or for request-changes the
// summary note and the withdrawal of an earlier approval. A comment GitLab
// refuses (400) is reported in Rejected and the rest go on.
func (c *Client) Submit(ctx context.Context, ref forge.Ref, review forge.Review) (forge.SubmitResult, error) {
	var res forge.SubmitResult
	if err := review.Validate(); err != nil {
		return res, err
	}
	mr, err := c.mergeRequest(ctx, ref)
	if err != nil {
		return res, err
	}
	if head := mr.DiffRefs.HeadSha; head != review.CommitID {
		return res, &forge.HeadMovedError{Ref: ref, Anchored: review.CommitID, HeadNow: head}
	}
	shas, err := c.versionOf(ctx, ref, review.CommitID)
	if err != nil {
		return res, err
	}
	located, rejected := forge.Check(review.Diff, review.Comments)
	res.Rejected = rejected
	items := make([]item, 0, len(located)+len(review.Replies)+1)
	for i := range located {
		l := &located[i]
		items = append(items, item{marker: l.MarkerID, body: l.Body, kind: forge.PostedLineComment, located: l, pos: position(shas, l.Position)})
	}
	for _, r := range review.Replies {
		items = append(items, item{marker: r.MarkerID, body: r.Body, kind: forge.PostedReply, thread: r.ThreadID})
	}
	if body, ok := summary(review); ok {
		items = append(items, item{marker: review.MarkerID, body: body, kind: forge.PostedReview})
	}
	st, err := c.scan(ctx, ref)
	if err != nil {
		return res, err
	}
	if st.draftNotes && !st.foreignDrafts {
		err = c.sendAsDrafts(ctx, ref, items, st, &res)
	} else {
		err = c.sendOneByOne(ctx, ref, items, st, &res)
	}
	if err != nil {
		return res, err
	}
	if err := c.applyEvent(ctx, ref, review); err != nil {
		return res, err
	}
	if _, ok := summary(review); !ok {
		accept(&res, forge.Posted{MarkerID: review.MarkerID, Kind: forge.PostedReview})
	}
	return res, nil
}

// summary is the note a review's body and event become, if any.
func summary(r forge.Review) (string, bool) {
	body := strings.TrimSpace(r.Body)
	if r.Event == forge.EventRequestChanges && body == "" {
		body = "Changes requested."
	}
	return body, body != ""
}

func accept(res *forge.SubmitResult, p forge.Posted) {
	res.Accepted = append(res.Accepted, p.MarkerID)
	res.Posted = append(res.Posted, p)
}

// versionOf finds the diff version whose head is commit, for the
// base/start/head SHAs a position must name.
func (c *Client) versionOf(ctx context.Context, ref forge.Ref, commit string) (*gl.MergeRequestDiffVersion, error) {
	versions, err := listAll(ctx, c, "list the versions of "+subject(ref), func(lo gl.ListOptions, opt gl.RequestOptionFunc) ([]*gl.MergeRequestDiffVersion, *gl.Response, error) {
		return c.gl.MergeRequests.GetMergeRequestDiffVersions(ref.Repo, int64(ref.Number), &gl.GetMergeRequestDiffVersionsOptions{ListOptions: lo}, opt)
	})
	if err != nil {
		return nil, err
	}
	for _, v := range versions {
		if v.HeadCommitSHA == commit {
			return v, nil
		}
	}
	return nil, &forge.HeadMovedError{Ref: ref, Anchored: commit, HeadNow: "(no version with that head)"}
}

// position is GitLab's form of a located comment: new_line for an added
// row, old_line for a removed one, both for context; a range adds
// line_range with line codes.
func position(v *gl.MergeRequestDiffVersion, p forge.Position) *gl.PositionOptions {
	o := &gl.PositionOptions{BaseSHA: new(v.BaseCommitSHA), StartSHA: new(v.StartCommitSHA), HeadSHA: new(v.HeadCommitSHA),
		PositionType: new("text"), OldPath: new(p.OldPath), NewPath: new(p.Path)}
	if p.End.Kind != changeset.KindAdd {
		o.OldLine = new(int64(p.End.OldLine))
	}
	if p.End.Kind != changeset.KindDel {
		o.NewLine = new(int64(p.End.NewLine))
	}
	if p.Start != p.End {
		o.LineRange = &gl.LineRangeOptions{Start: linePosition(p.Path, p.Start), End: linePosition(p.Path, p.End)}
	}
	return o
}

func linePosition(path string, r forge.Row) *gl.LinePositionOptions {
	sum := sha1.Sum([]byte(path))
	lp := &gl.LinePositionOptions{LineCode: new(fmt.Sprintf("%s_%d_%d", hex.EncodeToString(sum[:]), r.OldLine, r.NewLine))}
	switch r.Kind {
	case changeset.KindAdd:
		lp.Type, lp.NewLine = new("new"), new(int64(r.NewLine))
	case changeset.KindDel:
		lp.Type, lp.OldLine = new("old"), new(int64(r.OldLine))
	default:
		lp.OldLine, lp.NewLine = new(int64(r.OldLine)), new(int64(r.NewLine))
	}
	return lp
}

// refused reports a failure that concerns one note only: GitLab refused
// its content or its thread is gone. The other notes still go.
func refused(err error) bool {
	return errors.Is(err, forge.ErrRejected) || errors.Is(err, forge.ErrNotFound)
}

// heldBy returns a present check: does the host hold marker now
// (published, or as a draft when drafts count)?
func (c *Client) heldBy(ref forge.Ref, marker string, draftsCount bool) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		st, err := c.scan(ctx, ref)
		if err != nil {
			return false, err
		}
		p, ok := st.held[marker]
		return ok && (draftsCount || !p.Pending), nil
	}
}

func (c *Client) sendAsDrafts(ctx context.Context, ref forge.Ref, items []item, st *hostState, res *forge.SubmitResult) error {
	var batch []item
	for _, it := range items {
		if p, ok := st.held[it.marker]; ok {
			if !p.Pending {
				accept(res, p)
			} else {
				batch = append(batch, it)
			}
			continue
		}
		opt := &gl.CreateDraftNoteOptions{Note: new(forge.WithMarker(it.body, it.marker)), Position: it.pos}
		if it.thread != "" {
			opt.InReplyToDiscussionID = new(it.thread)
		}
		err := c.write(ctx, fmt.Sprintf("create a draft note on %s", subject(ref)), func(o gl.RequestOptionFunc) (*gl.Response, error) {
			_, resp, err := c.gl.DraftNotes.CreateDraftNote(ref.Repo, int64(ref.Number), opt, o)
			return resp, err
		}, c.heldBy(ref, it.marker, true))
		switch {
		case err != nil && refused(err):
			res.Rejected = append(res.Rejected, forge.Rejection{MarkerID: it.marker, Reason: err.Error()})
			continue
		case err != nil:
			return err
		}
		batch = append(batch, it)
	}
	if len(batch) == 0 {
		return nil
	}
	last := batch[len(batch)-1].marker
	err := c.write(ctx, "publish the draft notes on "+subject(ref), func(o gl.RequestOptionFunc) (*gl.Response, error) {
		return c.gl.DraftNotes.PublishAllDraftNotes(ref.Repo, int64(ref.Number), o)
	}, c.heldBy(ref, last, false))
	if err != nil {
		return err
	}
	st, err = c.scan(ctx, ref)
	if err != nil {
		return err
	}
	for _, it := range batch {
		if p, ok := st.held[it.marker]; ok && !p.Pending {
			accept(res, p)
		}
	}
	return nil
}

func (c *Client) sendOneByOne(ctx context.Context, ref forge.Ref, items []item, st *hostState, res *forge.SubmitResult) error {
	for _, it := range items {
		p, ok := st.held[it.marker]
		if ok && p.Pending {
			// Our draft from an earlier try; publish just it.
			id := st.drafts[it.marker]
			err := c.write(ctx, "publish a draft note on "+subject(ref), func(o gl.RequestOptionFunc) (*gl.Response, error) {
				return c.gl.DraftNotes.PublishDraftNote(ref.Repo, int64(ref.Number), id, o)
			}, c.heldBy(ref, it.marker, false))
			if err != nil {
				return err
			}
			p.Pending = false
		}
		if !ok {
			var err error
			if p, err = c.post(ctx, ref, it); err != nil {
				if refused(err) {
					res.Rejected = append(res.Rejected, forge.Rejection{MarkerID: it.marker, Reason: err.Error()})
					continue
				}
				return err
			}
		}
		accept(res, p)
	}
	return nil
}

// post sends one item as a discussion, a reply or a note.
func (c *Client) post(ctx context.Context, ref forge.Ref, it item) (forge.Posted, error) {
	body := new(forge.WithMarker(it.body, it.marker))
	p := forge.Posted{MarkerID: it.marker, Kind: it.kind, ThreadID: it.thread}
	var send func(o gl.RequestOptionFunc) (*gl.Response, error)
	switch it.kind {
	case forge.PostedLineComment:
		send = func(o gl.RequestOptionFunc) (*gl.Response, error) {
			d, resp, err := c.gl.Discussions.CreateMergeRequestDiscussion(ref.Repo, int64(ref.Number), &gl.CreateMergeRequestDiscussionOptions{Body: body, Position: it.pos}, o)
			if err == nil {
				p.ThreadID, p.CommentID = d.ID, strconv.FormatInt(d.Notes[0].ID, 10)
			}
			return resp, err
		}
	case forge.PostedReply:
		send = func(o gl.RequestOptionFunc) (*gl.Response, error) {
			n, resp, err := c.gl.Discussions.AddMergeRequestDiscussionNote(ref.Repo, int64(ref.Number), it.thread, &gl.AddMergeRequestDiscussionNoteOptions{Body: body}, o)
			if err == nil {
				p.CommentID = strconv.FormatInt(n.ID, 10)
			}
			return resp, err
		}
	default:
		send = func(o gl.RequestOptionFunc) (*gl.Response, error) {
			n, resp, err := c.gl.Notes.CreateMergeRequestNote(ref.Repo, int64(ref.Number), &gl.CreateMergeRequestNoteOptions{Body: body}, o)
			if err == nil {
				p.CommentID = strconv.FormatInt(n.ID, 10)
			}
			return resp, err
		}
	}
	present := func(ctx context.Context) (bool, error) {
		st, err := c.scan(ctx, ref)
		if err != nil {
			return false, err
		}
		h, ok := st.held[it.marker]
		if ok {
			p = h
		}
		return ok && !h.Pending, nil
	}
	err := c.write(ctx, fmt.Sprintf("post %s %s on %s", it.kind, it.marker, subject(ref)), send, present)
	return p, err
}

// applyEvent approves, or withdraws an approval for request-changes.
// Approving twice answers 401 on GitLab, so the approval state is read
// first and again after a 401.
func (c *Client) applyEvent(ctx context.Context, ref forge.Ref, review forge.Review) error {
	if review.Event == forge.EventComment {
		return nil
	}
	approved, err := c.approved(ctx, ref)
	if err != nil {
		return err
	}
	switch {
	case review.Event == forge.EventApprove && !approved:
		err = c.write(ctx, "approve "+subject(ref), func(o gl.RequestOptionFunc) (*gl.Response, error) {
			_, resp, err := c.gl.MergeRequestApprovals.ApproveMergeRequest(ref.Repo, int64(ref.Number), &gl.ApproveMergeRequestOptions{SHA: new(review.CommitID)}, o)
			return resp, err
		}, func(ctx context.Context) (bool, error) { return c.approved(ctx, ref) })
		if errors.Is(err, forge.ErrUnauthorized) {
			if ok, aerr := c.approved(ctx, ref); aerr == nil && ok {
				return nil // an approval whose answer was lost
			}
		}
		return err
	case review.Event == forge.EventRequestChanges && approved:
		err = c.write(ctx, "withdraw the approval of "+subject(ref), func(o gl.RequestOptionFunc) (*gl.Response, error) {
			return c.gl.MergeRequestApprovals.UnapproveMergeRequest(ref.Repo, int64(ref.Number), o)
		}, func(ctx context.Context) (bool, error) { ok, err := c.approved(ctx, ref); return !ok, err })
		if errors.Is(err, forge.ErrNotFound) {
			return nil // not approved after all
		}
		return err
	}
	return nil
}

func (c *Client) approved(ctx context.Context, ref forge.Ref) (bool, error) {
	var a *gl.MergeRequestApprovals
	err := c.read(ctx, "read the approvals of "+subject(ref), func(o gl.RequestOptionFunc) (resp *gl.Response, err error) {
		a, resp, err = c.gl.MergeRequestApprovals.GetConfiguration(ref.Repo, int64(ref.Number), o)
		return resp, err
	})
	if err != nil {
		return false, err
	}
	return a.UserHasApproved, nil
}

// Reply implements forge.Forge: one note in a discussion, after checking
// that GitLab does not already hold it.
func (c *Client) Reply(ctx context.Context, ref forge.Ref, reply forge.Reply) (forge.Posted, error) {
	if !forge.ValidMarkerID(reply.MarkerID) || reply.ThreadID == "" {
		return forge.Posted{}, &forge.InputError{Field: "reply", Reason: "a reply needs a marker id and a thread"}
	}
	st, err := c.scan(ctx, ref)
	if err != nil {
		return forge.Posted{}, err
	}
	if p, ok := st.held[reply.MarkerID]; ok && !p.Pending {
		return p, nil
	}
	var res forge.SubmitResult
	err = c.sendOneByOne(ctx, ref, []item{{marker: reply.MarkerID, body: reply.Body, kind: forge.PostedReply, thread: reply.ThreadID}}, st, &res)
	if err != nil {
		return forge.Posted{}, err
	}
	if len(res.Rejected) > 0 {
		return forge.Posted{}, &forge.HostError{Kind: forge.KindGitLab, Op: "reply to " + reply.ThreadID, Class: forge.ErrRejected, Reason: res.Rejected[0].Reason}
	}
	return res.Posted[0], nil
}
