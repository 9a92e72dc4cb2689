package forgetest

import (
	"strconv"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
)

var _ Host = (*GitLab)(nil)

// Seed implements Host: an open merge request by GitLabAuthor with one
// version.
func (g *GitLab) Seed(s ChangeSeed) forge.Ref {
	g.t.Helper()
	files, err := parsePatch(string(s.Patch))
	if err != nil {
		g.t.Fatalf("fake GitLab: seed patch: %v", err)
	}
	if s.Start == "" {
		s.Start = s.Base
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.mrs[mrKey(s.Repo, s.Number)] = &glMR{project: s.Repo, iid: s.Number, title: s.Title, author: GitLabAuthor, state: "opened",
		versions: []glVersion{{id: g.newID(), base: s.Base, start: s.Start, head: s.Head, files: files, created: g.opts.Now()}},
		files:    files, created: g.opts.Now()}
	return forge.Ref{Host: "gitlab.com", Kind: forge.KindGitLab, Repo: s.Repo, Number: s.Number}
}

// Push implements Host: a new version, newest first.
func (g *GitLab) Push(ref forge.Ref, head string, patch []byte) {
	g.t.Helper()
	files, err := parsePatch(string(patch))
	if err != nil {
		g.t.Fatalf("fake GitLab: push patch: %v", err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	mr := g.mrs[mrKey(ref.Repo, ref.Number)]
	v := mr.versions[0]
	mr.versions = append([]glVersion{{id: g.newID(), base: v.base, start: v.start, head: head, files: files, created: g.opts.Now()}}, mr.versions...)
	mr.files = files
}

// SeedThread implements Host: a positioned discussion by GitLabAuthor on
// the newest version, with replies; it returns the discussion id.
func (g *GitLab) SeedThread(ref forge.Ref, s ThreadSeed) string {
	g.t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	mr := g.mrs[mrKey(ref.Repo, ref.Number)]
	v := mr.versions[0]
	f := fileNamed(v.files, s.Path)
	if f == nil {
		g.t.Fatalf("fake GitLab: seed thread on %s, which the diff lacks", s.Path)
	}
	var row glRow
	found := false
	for _, r := range glRows(*f) {
		if (s.Side == changeset.SideNew && r.kind != '-' && r.new == s.Line) || (s.Side == changeset.SideOld && r.kind != '+' && r.old == s.Line) {
			row, found = r, true
			break
		}
	}
	if !found {
		g.t.Fatalf("fake GitLab: seed thread on %s:%d, which the diff lacks", s.Path, s.Line)
	}
	pos := &glPosition{base: v.base, start: v.start, head: v.head, oldPath: f.OldPath, newPath: f.Path}
	if row.kind != '+' {
		pos.oldLine = row.old
	}
	if row.kind != '-' {
		pos.newLine = row.new
	}
	d := g.newDiscussionLocked(mr, GitLabAuthor, s.Body, pos)
	for _, body := range s.Replies {
		d.notes = append(d.notes, &glNote{id: g.newID(), author: GitLabAuthor, body: body, position: pos, created: g.opts.Now()})
	}
	return d.id
}

// Resolve implements Host: every resolvable note of the discussion is
// marked resolved by GitLabAuthor, as GitLab does when a discussion is
// resolved.
func (g *GitLab) Resolve(ref forge.Ref, thread string) {
	g.t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	mr := g.mrs[mrKey(ref.Repo, ref.Number)]
	if mr == nil {
		g.t.Fatalf("fake GitLab: resolve a discussion on %s, which it does not hold", ref)
	}
	d := g.findDiscussion(mr, thread)
	if d == nil {
		g.t.Fatalf("fake GitLab: resolve discussion %s, which %s does not hold", thread, ref)
	}
	resolvable := false
	for _, n := range d.notes {
		if n.position != nil {
			n.resolved, n.resolvedBy, n.resolvedAt = true, GitLabAuthor, g.opts.Now()
			resolvable = true
		}
	}
	if !resolvable {
		g.t.Fatalf("fake GitLab: discussion %s has no resolvable note", thread)
	}
}

// Posted implements Host: every note of every discussion, then the
// unpublished draft notes.
func (g *GitLab) Posted(ref forge.Ref) []HostComment {
	g.mu.Lock()
	defer g.mu.Unlock()
	mr := g.mrs[mrKey(ref.Repo, ref.Number)]
	var out []HostComment
	for _, d := range mr.discussions {
		for i, n := range d.notes {
			hc := HostComment{ID: strconv.FormatInt(n.id, 10), Thread: d.id, Author: n.author, Body: n.body, Reply: i > 0}
			placeComment(&hc, n.position)
			out = append(out, hc)
		}
	}
	for _, d := range mr.drafts {
		hc := HostComment{ID: strconv.FormatInt(d.id, 10), Thread: d.replyTo, Author: d.author, Body: d.note, Reply: d.replyTo != "", Pending: true}
		placeComment(&hc, d.position)
		out = append(out, hc)
	}
	return out
}

// placeComment maps a position to host-neutral coordinates: a context
// row, which GitLab shows on both sides, reads as the new side.
func placeComment(hc *HostComment, p *glPosition) {
	if p == nil {
		return
	}
	hc.Path = p.newPath
	if p.oldPath != p.newPath {
		hc.OldPath = p.oldPath
	}
	hc.Side, hc.Line = changeset.SideNew, p.newLine
	if p.newLine == 0 {
		hc.Side, hc.Line = changeset.SideOld, p.oldLine
	}
	if p.rng != nil && p.rng.start != p.rng.end {
		s := p.rng.start
		hc.StartSide, hc.StartLine = changeset.SideNew, s.new
		if s.kind == '-' {
			hc.StartSide, hc.StartLine = changeset.SideOld, s.old
		}
	}
}

// Verdicts implements Host: the reviewer's approvals and summary notes.
func (g *GitLab) Verdicts(ref forge.Ref) []Verdict {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]Verdict(nil), g.mrs[mrKey(ref.Repo, ref.Number)].verdicts...)
}
