package github

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v93/github"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
)

// Submit implements forge.Forge. All line comments go up as ONE review with
// the event, pinned to review.CommitID, so GitHub takes all or nothing;
// replies follow one by one through /replies.
//
// A review whose marker GitHub already holds counts as done. If it was
// done without some of review.Comments (they were added since), Submit
// refuses with ErrInput: they belong in a new review with a new marker.
func (c *Client) Submit(ctx context.Context, ref forge.Ref, review forge.Review) (forge.SubmitResult, error) {
	var res forge.SubmitResult
	if err := review.Validate(); err != nil {
		return res, err
	}
	pr, err := c.pull(ctx, ref)
	if err != nil {
		return res, err
	}
	if head := pr.GetHead().GetSHA(); head != review.CommitID {
		return res, &forge.HeadMovedError{Ref: ref, Anchored: review.CommitID, HeadNow: head}
	}
	located, rejected := forge.Check(review.Diff, review.Comments)
	res.Rejected = rejected
	held, pendingElsewhere, err := c.held(ctx, ref)
	if err != nil {
		return res, err
	}
	var toSend []forge.Located
	for _, l := range located {
		if p, ok := held[l.MarkerID]; ok {
			accept(&res, p)
		} else {
			toSend = append(toSend, l)
		}
	}
	if p, ok := held[review.MarkerID]; ok {
		accept(&res, p)
		if len(toSend) > 0 {
			return res, &forge.InputError{Field: "review", Reason: fmt.Sprintf("review %s was already submitted without %d of its comments: send them under a new review marker", review.MarkerID, len(toSend))}
		}
	} else if err := c.sendReview(ctx, ref, review, toSend, pendingElsewhere, &res); err != nil {
		return res, err
	}
	for _, rp := range review.Replies {
		if p, ok := held[rp.MarkerID]; ok {
			accept(&res, p)
			continue
		}
		p, err := c.postReply(ctx, ref, rp)
		if err != nil {
			return res, err
		}
		accept(&res, p)
	}
	return res, nil
}

func accept(res *forge.SubmitResult, p forge.Posted) {
	res.Accepted = append(res.Accepted, p.MarkerID)
	res.Posted = append(res.Posted, p)
}

// held indexes what the host holds by marker, and says whether a pending
// review of the user's own making blocks a new one.
func (c *Client) held(ctx context.Context, ref forge.Ref) (map[string]forge.Posted, bool, error) {
	posted, pending, err := c.reconcile(ctx, ref)
	if err != nil {
		return nil, false, err
	}
	m := map[string]forge.Posted{}
	for _, p := range posted {
		m[p.MarkerID] = p
	}
	return m, pending, nil
}

// sendReview creates the review with its event and comments and records
// what GitHub accepted. A comment-only review with nothing to say is not
// sent, and counts as done.
func (c *Client) sendReview(ctx context.Context, ref forge.Ref, review forge.Review, toSend []forge.Located, pendingElsewhere bool, res *forge.SubmitResult) error {
	if len(toSend) == 0 && review.Event == forge.EventComment && strings.TrimSpace(review.Body) == "" {
		accept(res, forge.Posted{MarkerID: review.MarkerID, Kind: forge.PostedReview})
		return nil
	}
	op := "create a review on " + subject(ref)
	if pendingElsewhere {
		return &forge.HostError{Kind: forge.KindGitHub, Op: op, Status: 422, Class: forge.ErrRejected,
			Reason: "you have a pending review on this pull request in GitHub's web page; submit or discard it first (GitHub allows one per user)"}
	}
	req := &gh.PullRequestReviewRequest{CommitID: new(review.CommitID), Event: new(event(review.Event)),
		Body: new(forge.WithMarker(review.Body, review.MarkerID))}
	for _, l := range toSend {
		req.Comments = append(req.Comments, draft(l))
	}
	var created *gh.PullRequestReview
	err := c.write(ctx, op, func(ctx context.Context) (resp *gh.Response, err error) {
		created, resp, err = c.gh.PullRequests.CreateReview(ctx, ref.Owner(), ref.Name(), ref.Number, req)
		return resp, err
	}, func(ctx context.Context) (bool, error) {
		held, err := c.Reconcile(ctx, ref)
		for _, p := range held {
			if p.MarkerID == review.MarkerID && p.Kind == forge.PostedReview {
				id, _ := strconv.ParseInt(p.CommentID, 10, 64)
				created = &gh.PullRequestReview{ID: new(id)}
				return true, err
			}
		}
		return false, err
	})
	if err != nil {
		return err
	}
	accept(res, forge.Posted{MarkerID: review.MarkerID, Kind: forge.PostedReview, CommentID: strconv.FormatInt(created.GetID(), 10)})
	ids := c.commentIDs(ctx, ref, created.GetID())
	for _, l := range toSend {
		id := ids[l.MarkerID]
		accept(res, forge.Posted{MarkerID: l.MarkerID, Kind: forge.PostedLineComment, CommentID: id, ThreadID: id})
	}
	return nil
}

// commentIDs maps the markers of a review's comments to their ids. It is
// best effort: the review is in either way, so a failure leaves ids empty.
func (c *Client) commentIDs(ctx context.Context, ref forge.Ref, reviewID int64) map[string]string {
	ids := map[string]string{}
	comments, err := listAll(ctx, c, "list the comments of review "+strconv.FormatInt(reviewID, 10), func(ctx context.Context, opt gh.ListOptions) ([]*gh.PullRequestComment, *gh.Response, error) {
		return c.gh.PullRequests.ListReviewComments(ctx, ref.Owner(), ref.Name(), ref.Number, reviewID, &opt)
	})
	if err != nil {
		return ids
	}
	for _, cm := range comments {
		if m := forge.MarkerOf(cm.GetBody()); m != "" {
			ids[m] = strconv.FormatInt(cm.GetID(), 10)
		}
	}
	return ids
}

func event(e forge.Event) string {
	switch e {
	case forge.EventApprove:
		return "APPROVE"
	case forge.EventRequestChanges:
		return "REQUEST_CHANGES"
	}
	return "COMMENT"
}

func ghSide(s changeset.Side) string {
	if s == changeset.SideOld {
		return "LEFT"
	}
	return "RIGHT"
}

// draft is one located comment in GitHub's line/side form.
func draft(l forge.Located) *gh.DraftReviewComment {
	d := &gh.DraftReviewComment{Path: new(l.Position.Path), Body: new(forge.WithMarker(l.Body, l.MarkerID)),
		Line: new(l.Line), Side: new(ghSide(l.Side))}
	if l.Multiline() {
		start := l.StartSide
		if start == 0 {
			start = l.Side
		}
		d.StartLine, d.StartSide = new(l.StartLine), new(ghSide(start))
	}
	return d
}

// Reply implements forge.Forge. It reconciles first, so a reply GitHub
// already holds under reply.MarkerID is returned rather than posted again.
func (c *Client) Reply(ctx context.Context, ref forge.Ref, reply forge.Reply) (forge.Posted, error) {
	if !forge.ValidMarkerID(reply.MarkerID) || reply.ThreadID == "" {
		return forge.Posted{}, &forge.InputError{Field: "reply", Reason: "a reply needs a marker id and a thread"}
	}
	held, err := c.Reconcile(ctx, ref)
	if err != nil {
		return forge.Posted{}, err
	}
	for _, p := range held {
		if p.MarkerID == reply.MarkerID {
			return p, nil
		}
	}
	return c.postReply(ctx, ref, reply)
}

// postReply posts through POST .../comments/{id}/replies (go-github has no
// method for it; its CreateCommentInReplyTo uses a route GitHub's schema
// rejects).
func (c *Client) postReply(ctx context.Context, ref forge.Ref, reply forge.Reply) (forge.Posted, error) {
	root, err := strconv.ParseInt(reply.ThreadID, 10, 64)
	if err != nil {
		return forge.Posted{}, &forge.InputError{Field: "reply", Reason: fmt.Sprintf("thread %q is not a GitHub review thread", reply.ThreadID)}
	}
	p := forge.Posted{MarkerID: reply.MarkerID, Kind: forge.PostedReply, ThreadID: reply.ThreadID}
	path := fmt.Sprintf("repos/%s/%s/pulls/%d/comments/%d/replies", ref.Owner(), ref.Name(), ref.Number, root)
	body := map[string]string{"body": forge.WithMarker(reply.Body, reply.MarkerID)}
	err = c.write(ctx, fmt.Sprintf("reply to thread %s on %s", reply.ThreadID, subject(ref)), func(ctx context.Context) (*gh.Response, error) {
		req, err := c.gh.NewRequest(ctx, "POST", path, body)
		if err != nil {
			return nil, err
		}
		var cm gh.PullRequestComment
		resp, err := c.gh.Do(req, &cm)
		p.CommentID = strconv.FormatInt(cm.GetID(), 10)
		return resp, err
	}, func(ctx context.Context) (bool, error) {
		held, err := c.Reconcile(ctx, ref)
		for _, h := range held {
			if h.MarkerID == reply.MarkerID {
				p = h
				return true, err
			}
		}
		return false, err
	})
	return p, err
}
