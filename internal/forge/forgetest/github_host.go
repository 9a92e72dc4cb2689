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

// PullSeed describes a pull request to put on the fake.
type PullSeed struct {
	Repo   string // "owner/repo"
	Number int
	Title  string
	// Author defaults to GitHubAuthor.
	Author     string
	Base, Head string
	Patch      []byte
	Draft      bool
}

// AddPull puts a pull request on the fake and returns its reference.
func (g *GitHub) AddPull(s PullSeed) forge.Ref {
	g.t.Helper()
	files, err := parsePatch(string(s.Patch))
	if err != nil {
		g.t.Fatalf("fake GitHub: seed patch: %v", err)
	}
	if s.Author == "" {
		s.Author = GitHubAuthor
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pulls[pullKey(s.Repo, s.Number)] = &ghPull{repo: s.Repo, number: s.Number, title: s.Title, author: s.Author,
		draft: s.Draft, base: s.Base, head: s.Head, heads: []string{s.Head}, patch: string(s.Patch), files: files,
		created: g.opts.Now()}
	return forge.Ref{Host: "github.com", Kind: forge.KindGitHub, Repo: s.Repo, Number: s.Number}
}

// Push moves a pull request to a new head with a new diff, as a force-push
// does. Comments whose line no longer shows the same text become outdated.
func (g *GitHub) Push(ref forge.Ref, head string, patch []byte) {
	g.t.Helper()
	files, err := parsePatch(string(patch))
	if err != nil {
		g.t.Fatalf("fake GitHub: push patch: %v", err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	p := g.pulls[pullKey(ref.Repo, ref.Number)]
	oldFiles := p.files
	p.head, p.patch, p.files = head, string(patch), files
	p.heads = append(p.heads, head)
	for _, c := range p.comments {
		if !c.outdated && !sameLineText(oldFiles, files, c) {
			c.outdated = true
		}
	}
}

func sameLineText(before, after []patchFile, c *ghComment) bool {
	side := changeset.SideNew
	if c.side == "LEFT" {
		side = changeset.SideOld
	}
	was, now := fileNamed(before, c.path), fileNamed(after, c.path)
	if was == nil || now == nil {
		return false
	}
	_, _, a, ok1 := was.rowAt(side, c.line)
	_, _, b, ok2 := now.rowAt(side, c.line)
	return ok1 && ok2 && a == b
}

func fileNamed(files []patchFile, path string) *patchFile {
	for i := range files {
		if files[i].Path == path {
			return &files[i]
		}
	}
	return nil
}

func pullKey(repo string, n int) string { return repo + "#" + strconv.Itoa(n) }
