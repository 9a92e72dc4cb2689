package github

import (
	"context"
	"strconv"

	gh "github.com/google/go-github/v93/github"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
)

// Threads implements forge.Forge: review comments grouped into threads by
// their root, then the conversation's issue comments, each a thread of its
// own. Resolved, and Outdated, come from GitHub's GraphQL API, since REST
// does not say whether a thread is resolved; on a host without it they
// fall back to false and to REST's view (outdated: GitHub no longer places
// the comment on a line), with no error (see resolved.go).
func (c *Client) Threads(ctx context.Context, ref forge.Ref) ([]forge.Thread, error) {
	comments, err := c.reviewComments(ctx, ref)
	if err != nil {
		return nil, err
	}
	var threads []forge.Thread
	at := map[int64]int{} // root comment id -> index in threads
	for _, cm := range comments {
		root := cm.GetInReplyTo()
		if root == 0 {
			at[cm.GetID()] = len(threads)
			threads = append(threads, lineThread(cm))
			continue
		}
		i, ok := at[root]
		if !ok {
			// A reply whose root is gone (deleted): keep it, as its own thread.
			at[root] = len(threads)
			threads = append(threads, lineThread(cm))
			threads[len(threads)-1].ID = strconv.FormatInt(root, 10)
			threads[len(threads)-1].ReplyTo = strconv.FormatInt(root, 10)
			continue
		}
		threads[i].Comments = append(threads[i].Comments, threadComment(cm.GetID(), cm.GetUser(), cm.GetBody(), cm.GetCreatedAt()))
	}
	states, err := c.threadStates(ctx, ref)
	if err != nil {
		return nil, err
	}
	resolvedAndOutdated(threads, states)
	issue, err := c.issueComments(ctx, ref)
	if err != nil {
		return nil, err
	}
	for _, ic := range issue {
		threads = append(threads, forge.Thread{ID: "issuecomment-" + strconv.FormatInt(ic.GetID(), 10),
			Comments: []forge.ThreadComment{threadComment(ic.GetID(), ic.GetUser(), ic.GetBody(), ic.GetCreatedAt())}})
	}
	return threads, nil
}

func lineThread(cm *gh.PullRequestComment) forge.Thread {
	id := strconv.FormatInt(cm.GetID(), 10)
	t := forge.Thread{ID: id, ReplyTo: id, Path: cm.GetPath(), Side: side(cm.GetSide()), Line: cm.GetLine(),
		StartLine: cm.GetStartLine(), Outdated: cm.Line == nil,
		Comments: []forge.ThreadComment{threadComment(cm.GetID(), cm.GetUser(), cm.GetBody(), cm.GetCreatedAt())}}
	return t
}

func side(s string) changeset.Side {
	if s == "LEFT" {
		return changeset.SideOld
	}
	return changeset.SideNew
}

func threadComment(id int64, u *gh.User, body string, created gh.Timestamp) forge.ThreadComment {
	return forge.ThreadComment{ID: strconv.FormatInt(id, 10), Author: u.GetLogin(), Body: forge.StripMarker(body),
		Created: created.Time, Marker: forge.MarkerOf(body)}
}

func (c *Client) reviewComments(ctx context.Context, ref forge.Ref) ([]*gh.PullRequestComment, error) {
	return listAll(ctx, c, "list the review comments of "+subject(ref), func(ctx context.Context, opt gh.ListOptions) ([]*gh.PullRequestComment, *gh.Response, error) {
		return c.gh.PullRequests.ListComments(ctx, ref.Owner(), ref.Name(), ref.Number, &gh.PullRequestListCommentsOptions{ListOptions: opt})
	})
}

func (c *Client) issueComments(ctx context.Context, ref forge.Ref) ([]*gh.IssueComment, error) {
	return listAll(ctx, c, "list the conversation of "+subject(ref), func(ctx context.Context, opt gh.ListOptions) ([]*gh.IssueComment, *gh.Response, error) {
		return c.gh.Issues.ListComments(ctx, ref.Owner(), ref.Name(), ref.Number, &gh.IssueListCommentsOptions{ListOptions: opt})
	})
}

func (c *Client) reviews(ctx context.Context, ref forge.Ref) ([]*gh.PullRequestReview, error) {
	return listAll(ctx, c, "list the reviews of "+subject(ref), func(ctx context.Context, opt gh.ListOptions) ([]*gh.PullRequestReview, *gh.Response, error) {
		return c.gh.PullRequests.ListReviews(ctx, ref.Owner(), ref.Name(), ref.Number, &opt)
	})
}

// Reconcile implements forge.Forge: the token user's reviews and review
// comments that end with a marker. A comment of a review still PENDING is
// not listed by GitHub; leanreview never leaves one pending.
func (c *Client) Reconcile(ctx context.Context, ref forge.Ref) ([]forge.Posted, error) {
	posted, _, err := c.reconcile(ctx, ref)
	return posted, err
}

// reconcile is Reconcile, and also reports whether the user has a PENDING
// review without a marker (one started in GitHub's web page), which blocks
// creating another.
func (c *Client) reconcile(ctx context.Context, ref forge.Ref) (out []forge.Posted, pendingElsewhere bool, err error) {
	login, err := c.me(ctx)
	if err != nil {
		return nil, false, err
	}
	reviews, err := c.reviews(ctx, ref)
	if err != nil {
		return nil, false, err
	}
	for _, r := range reviews {
		if r.GetUser().GetLogin() != login {
			continue
		}
		m := forge.MarkerOf(r.GetBody())
		if m == "" {
			pendingElsewhere = pendingElsewhere || r.GetState() == "PENDING"
			continue
		}
		out = append(out, forge.Posted{MarkerID: m, Kind: forge.PostedReview, CommentID: strconv.FormatInt(r.GetID(), 10),
			Pending: r.GetState() == "PENDING"})
	}
	comments, err := c.reviewComments(ctx, ref)
	if err != nil {
		return nil, false, err
	}
	for _, cm := range comments {
		m := forge.MarkerOf(cm.GetBody())
		if m == "" || cm.GetUser().GetLogin() != login {
			continue
		}
		p := forge.Posted{MarkerID: m, Kind: forge.PostedLineComment, CommentID: strconv.FormatInt(cm.GetID(), 10),
			ThreadID: strconv.FormatInt(cm.GetID(), 10)}
		if root := cm.GetInReplyTo(); root != 0 {
			p.Kind, p.ThreadID = forge.PostedReply, strconv.FormatInt(root, 10)
		}
		out = append(out, p)
	}
	return out, pendingElsewhere, nil
}
