package forgetest

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/leanreview/leanreview/internal/forge"
)

const glWeb = "https://gitlab.example.com"

func glUserJSON(login string) obj {
	id := glUserIDs[login]
	return obj{"id": id, "username": login, "name": login, "state": "active",
		"avatar_url": "https://secure.gravatar.com/avatar/" + login, "web_url": glWeb + "/" + login}
}

// route dispatches one request; it leaves c.status 0 when nothing matches.
func (g *GitLab) route(c *glCall, segs []string) {
	m := c.r.Method
	if len(segs) == 1 && segs[0] == "user" && m == http.MethodGet {
		c.answer(200, glUserJSON(c.user))
		return
	}
	if len(segs) < 4 || segs[0] != "projects" || segs[2] != "merge_requests" {
		return
	}
	iid, err := strconv.Atoi(segs[3])
	if err != nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	c.mr = g.mrs[mrKey(segs[1], iid)]
	if c.mr == nil {
		c.answer(404, obj{"message": "404 Not found"})
		return
	}
	rest := segs[4:]
	c.parts = rest
	switch {
	case len(rest) == 0 && m == http.MethodGet:
		c.answer(200, g.mrJSON(c.mr))
	case match(rest, "versions") && m == http.MethodGet:
		g.listVersions(c)
	case match(rest, "diffs") && m == http.MethodGet:
		g.listDiffs(c)
	case match(rest, "discussions") && m == http.MethodGet:
		g.listDiscussions(c)
	case match(rest, "discussions") && m == http.MethodPost:
		g.createDiscussion(c)
	case len(rest) == 3 && rest[0] == "discussions" && rest[2] == "notes" && m == http.MethodPost:
		g.replyToDiscussion(c, rest[1])
	case match(rest, "notes") && m == http.MethodPost:
		g.createNote(c)
	case match(rest, "approve") && m == http.MethodPost:
		g.approve(c)
	case match(rest, "unapprove") && m == http.MethodPost:
		g.unapprove(c)
	case match(rest, "approvals") && m == http.MethodGet:
		c.answer(200, g.approvalsJSON(c.mr, c.user))
	case len(rest) >= 1 && rest[0] == "draft_notes":
		g.routeDrafts(c, rest[1:])
	}
}

func match(rest []string, words ...string) bool { return slices.Equal(rest, words) }

func (g *GitLab) mrJSON(mr *glMR) obj {
	v := mr.versions[0]
	return obj{
		"id": int64(mr.iid) + 7000, "iid": mr.iid, "project_id": 42, "title": mr.title, "description": "",
		"state": mr.state, "draft": false, "work_in_progress": false, "author": glUserJSON(mr.author),
		"web_url": fmt.Sprintf("%s/%s/-/merge_requests/%d", glWeb, mr.project, mr.iid), "sha": v.head,
		"diff_refs":     obj{"base_sha": v.base, "head_sha": v.head, "start_sha": v.start},
		"source_branch": "topic", "target_branch": "main", "created_at": mr.created.UTC().Format(time.RFC3339),
		"updated_at": mr.created.UTC().Format(time.RFC3339), "merged_at": nil, "closed_at": nil,
	}
}

func (g *GitLab) listVersions(c *glCall) {
	var out []obj
	for _, v := range c.mr.versions {
		out = append(out, obj{"id": v.id, "head_commit_sha": v.head, "base_commit_sha": v.base, "start_commit_sha": v.start,
			"created_at": v.created.UTC().Format(time.RFC3339), "merge_request_id": int64(c.mr.iid) + 7000,
			"state": "collected", "real_size": strconv.Itoa(len(c.mr.files))})
	}
	c.answer(200, nonNil(glPaginate(c, out)))
}

func (g *GitLab) listDiffs(c *glCall) {
	var out []obj
	for _, f := range glPaginate(c, c.mr.files) {
		body := ""
		switch {
		case f.Binary:
			body = fmt.Sprintf("Binary files a/%s and b/%s differ\n", f.OldPath, f.Path)
		case f.Body() != "":
			body = f.Body() + "\n"
		}
		mode := func(absent bool) string {
			if absent {
				return "0"
			}
			return "100644"
		}
		out = append(out, obj{"old_path": f.OldPath, "new_path": f.Path, "a_mode": mode(f.Status.String() == "added"),
			"b_mode": mode(f.Status.String() == "deleted"), "diff": body, "new_file": f.Status.String() == "added",
			"renamed_file": f.Status.String() == "renamed", "deleted_file": f.Status.String() == "deleted",
			"generated_file": false, "collapsed": false, "too_large": false})
	}
	c.answer(200, nonNil(out))
}

func (g *GitLab) listDiscussions(c *glCall) {
	var out []obj
	for _, d := range glPaginate(c, c.mr.discussions) {
		out = append(out, g.discussionJSON(c.mr, d))
	}
	c.answer(200, nonNil(out))
}

func (g *GitLab) discussionJSON(mr *glMR, d *glDiscussion) obj {
	notes := make([]obj, 0, len(d.notes))
	for _, n := range d.notes {
		notes = append(notes, g.noteJSON(mr, n))
	}
	return obj{"id": d.id, "individual_note": d.individual, "notes": notes}
}

func (g *GitLab) noteJSON(mr *glMR, n *glNote) obj {
	o := obj{"id": n.id, "body": n.body, "attachment": nil, "author": glUserJSON(n.author),
		"created_at": n.created.UTC().Format(time.RFC3339), "updated_at": n.created.UTC().Format(time.RFC3339),
		"system": n.system, "noteable_id": int64(mr.iid) + 7000, "noteable_type": "MergeRequest",
		"noteable_iid": mr.iid, "resolvable": n.position != nil, "resolved": n.resolved, "resolved_by": nil,
		"confidential": false, "internal": false, "commit_id": nil, "type": nil}
	if n.position != nil {
		o["type"], o["position"] = "DiffNote", n.position.json()
	}
	if n.resolved {
		o["resolved_by"], o["resolved_at"] = glUserJSON(n.resolvedBy), n.resolvedAt.UTC().Format(time.RFC3339)
	}
	return o
}

// newDiscussionLocked opens a discussion with its first note; g.mu is held.
func (g *GitLab) newDiscussionLocked(mr *glMR, author, body string, pos *glPosition) *glDiscussion {
	sum := sha1.Sum([]byte(strconv.FormatInt(g.newID(), 10)))
	d := &glDiscussion{id: hex.EncodeToString(sum[:]), individual: pos == nil}
	d.notes = append(d.notes, &glNote{id: g.newID(), author: author, body: body, position: pos, created: g.opts.Now()})
	mr.discussions = append(mr.discussions, d)
	return d
}

func (g *GitLab) createDiscussion(c *glCall) {
	var in struct {
		Body      *string     `json:"body"`
		CommitID  *string     `json:"commit_id"`
		CreatedAt *string     `json:"created_at"`
		Position  *positionIn `json:"position"`
	}
	if !g.decode(c, &in) {
		return
	}
	if in.Body == nil || *in.Body == "" {
		c.answer(400, obj{"error": "body is missing"})
		return
	}
	pos, errBody := g.checkPosition(c.mr, in.Position)
	if errBody != nil {
		c.answer(400, errBody)
		return
	}
	d := g.newDiscussionLocked(c.mr, c.user, *in.Body, pos)
	c.answer(201, g.discussionJSON(c.mr, d))
}

func (g *GitLab) findDiscussion(mr *glMR, id string) *glDiscussion {
	for _, d := range mr.discussions {
		if d.id == id {
			return d
		}
	}
	return nil
}

func (g *GitLab) replyToDiscussion(c *glCall, id string) {
	var in struct {
		Body      *string `json:"body"`
		CreatedAt *string `json:"created_at"`
	}
	if !g.decode(c, &in) {
		return
	}
	d := g.findDiscussion(c.mr, id)
	if d == nil {
		c.answer(404, obj{"message": "404 Discussion Not Found"})
		return
	}
	if in.Body == nil || *in.Body == "" {
		c.answer(400, obj{"error": "body is missing"})
		return
	}
	n := &glNote{id: g.newID(), author: c.user, body: *in.Body, position: d.notes[0].position, created: g.opts.Now()}
	d.notes = append(d.notes, n)
	c.answer(201, g.noteJSON(c.mr, n))
}

func (g *GitLab) createNote(c *glCall) {
	var in struct {
		Body                    *string `json:"body"`
		CreatedAt               *string `json:"created_at"`
		MergeRequestDiffHeadSHA *string `json:"merge_request_diff_head_sha"`
		Internal                *bool   `json:"internal"`
	}
	if !g.decode(c, &in) {
		return
	}
	if in.Body == nil || *in.Body == "" {
		c.answer(400, obj{"error": "body is missing"})
		return
	}
	d := g.newDiscussionLocked(c.mr, c.user, *in.Body, nil)
	if c.user == GitLabReviewer {
		c.mr.verdicts = append(c.mr.verdicts, Verdict{Event: forge.EventComment, Body: *in.Body})
	}
	c.answer(201, g.noteJSON(c.mr, d.notes[0]))
}

func (g *GitLab) approvalsJSON(mr *glMR, user string) obj {
	var by []obj
	for _, u := range mr.approvedBy {
		by = append(by, obj{"user": glUserJSON(u)})
	}
	return obj{"id": int64(mr.iid) + 7000, "iid": mr.iid, "project_id": 42, "title": mr.title, "state": mr.state,
		"approved": len(by) > 0, "approvals_required": 0, "approvals_left": 0, "approved_by": nonNil(by),
		"user_has_approved": slices.Contains(mr.approvedBy, user), "user_can_approve": !slices.Contains(mr.approvedBy, user)}
}

func (g *GitLab) approve(c *glCall) {
	var in struct {
		SHA              *string `json:"sha"`
		ApprovalPassword *string `json:"approval_password"`
	}
	if len(c.body) > 0 && !g.decode(c, &in) {
		return
	}
	if in.SHA != nil && *in.SHA != c.mr.versions[0].head {
		c.answer(409, obj{"message": "SHA does not match HEAD of source branch: " + c.mr.versions[0].head})
		return
	}
	if slices.Contains(c.mr.approvedBy, c.user) {
		c.answer(401, obj{"message": "401 Unauthorized"})
		return
	}
	c.mr.approvedBy = append(c.mr.approvedBy, c.user)
	if c.user == GitLabReviewer {
		c.mr.verdicts = append(c.mr.verdicts, Verdict{Event: forge.EventApprove})
	}
	c.answer(201, g.approvalsJSON(c.mr, c.user))
}

func (g *GitLab) unapprove(c *glCall) {
	i := slices.Index(c.mr.approvedBy, c.user)
	if i < 0 {
		c.answer(404, obj{"message": "404 Not Found"})
		return
	}
	c.mr.approvedBy = slices.Delete(c.mr.approvedBy, i, i+1)
	c.answer(201, g.approvalsJSON(c.mr, c.user))
}
