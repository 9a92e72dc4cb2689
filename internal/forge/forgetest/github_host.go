package forgetest

import (
	"strconv"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
)

var _ Host = (*GitHub)(nil)

// Seed implements Host with AddPull.
func (g *GitHub) Seed(s ChangeSeed) forge.Ref {
	g.t.Helper()
	return g.AddPull(PullSeed{Repo: s.Repo, Number: s.Number, Title: s.Title, Base: s.Base, Head: s.Head, Patch: s.Patch})
}

// SeedThread implements Host: a submitted review by GitHubAuthor with one
// comment, then one reply per s.Replies. It returns the root comment id.
func (g *GitHub) SeedThread(ref forge.Ref, s ThreadSeed) string {
	g.t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	p := g.pulls[pullKey(ref.Repo, ref.Number)]
	f := fileNamed(p.files, s.Path)
	if f == nil {
		g.t.Fatalf("fake GitHub: seed thread on %s, which the diff lacks", s.Path)
	}
	side := "RIGHT"
	if s.Side == changeset.SideOld {
		side = "LEFT"
	}
	hunk, row, _, found := f.rowAt(s.Side, s.Line)
	if !found {
		g.t.Fatalf("fake GitHub: seed thread on %s:%d, which the diff lacks", s.Path, s.Line)
	}
	reviewID := g.submitReviewLocked(p, GitHubAuthor, "COMMENTED", "", p.head)
	root := &ghComment{id: g.newID(), reviewID: reviewID, user: GitHubAuthor, path: s.Path, body: s.Body, side: side,
		line: s.Line, position: diffPosition(f, hunk, row), diffHunk: diffHunk(f, hunk, row), commitID: p.head,
		originalCommitID: p.head, created: g.opts.Now()}
	p.comments = append(p.comments, root)
	for _, body := range s.Replies {
		r := *root
		r.id, r.inReplyTo, r.body = g.newID(), root.id, body
		r.reviewID = g.submitReviewLocked(p, GitHubAuthor, "COMMENTED", "", p.head)
		p.comments = append(p.comments, &r)
	}
	return strconv.FormatInt(root.id, 10)
}

// Posted implements Host.
func (g *GitHub) Posted(ref forge.Ref) []HostComment {
	g.mu.Lock()
	defer g.mu.Unlock()
	p := g.pulls[pullKey(ref.Repo, ref.Number)]
	var out []HostComment
	for _, c := range p.comments {
		thread := c.id
		if c.inReplyTo != 0 {
			thread = c.inReplyTo
		}
		hc := HostComment{ID: strconv.FormatInt(c.id, 10), Thread: strconv.FormatInt(thread, 10), Author: c.user,
			Path: c.path, Side: sideOf(c.side), Line: c.line, StartLine: c.startLine, Body: c.body,
			Reply: c.inReplyTo != 0, Pending: g.pendingReview(p, c.reviewID)}
		if c.startSide != "" {
			hc.StartSide = sideOf(c.startSide)
		}
		if f := fileNamed(p.files, c.path); f != nil && f.OldPath != f.Path {
			hc.OldPath = f.OldPath
		}
		out = append(out, hc)
	}
	for _, ic := range p.issueComments {
		id := strconv.FormatInt(ic.id, 10)
		out = append(out, HostComment{ID: id, Thread: id, Author: ic.user, Body: ic.body})
	}
	return out
}

// Verdicts implements Host: the reviewer's submitted reviews, in order,
// leaving out the reviews GitHub creates around lone replies.
func (g *GitHub) Verdicts(ref forge.Ref) []Verdict {
	g.mu.Lock()
	defer g.mu.Unlock()
	p := g.pulls[pullKey(ref.Repo, ref.Number)]
	var out []Verdict
	for _, r := range p.reviews {
		if r.user != GitHubReviewer || r.state == "PENDING" || (r.state == "COMMENTED" && r.body == "") {
			continue
		}
		ev := map[string]forge.Event{"APPROVED": forge.EventApprove, "CHANGES_REQUESTED": forge.EventRequestChanges, "COMMENTED": forge.EventComment}[r.state]
		out = append(out, Verdict{Event: ev, Body: r.body})
	}
	return out
}
