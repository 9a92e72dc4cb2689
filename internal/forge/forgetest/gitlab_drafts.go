package forgetest

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/leanreview/leanreview/internal/forge"
)

// routeDrafts serves .../draft_notes: list, create, delete, publish one,
// bulk publish. g.mu is held.
func (g *GitLab) routeDrafts(c *glCall, rest []string) {
	if g.opts.NoDraftNotes {
		c.answer(404, obj{"message": "404 Not Found"})
		return
	}
	m := c.r.Method
	switch {
	case len(rest) == 0 && m == http.MethodGet:
		var out []obj
		for _, d := range glPaginate(c, g.draftsOf(c.mr, c.user)) {
			out = append(out, g.draftJSON(c.mr, d))
		}
		c.answer(200, nonNil(out))
	case len(rest) == 0 && m == http.MethodPost:
		g.createDraft(c)
	case match(rest, "bulk_publish") && m == http.MethodPost:
		for _, d := range g.draftsOf(c.mr, c.user) {
			g.publishLocked(c.mr, d)
		}
		c.answer(http.StatusNoContent, nil)
	case len(rest) == 2 && rest[1] == "publish" && m == http.MethodPut:
		if d := g.draftByID(c, rest[0]); d != nil {
			g.publishLocked(c.mr, d)
			c.answer(http.StatusNoContent, nil)
		}
	case len(rest) == 1 && m == http.MethodDelete:
		if d := g.draftByID(c, rest[0]); d != nil {
			c.mr.drafts = slices.DeleteFunc(c.mr.drafts, func(x *glDraft) bool { return x == d })
			c.answer(http.StatusNoContent, nil)
		}
	}
}

func (g *GitLab) draftsOf(mr *glMR, user string) []*glDraft {
	var out []*glDraft
	for _, d := range mr.drafts {
		if d.author == user {
			out = append(out, d)
		}
	}
	return out
}

func (g *GitLab) draftByID(c *glCall, s string) *glDraft {
	id, _ := strconv.ParseInt(s, 10, 64)
	for _, d := range c.mr.drafts {
		if d.id == id && d.author == c.user {
			return d
		}
	}
	c.answer(404, obj{"message": "404 Not Found"})
	return nil
}

func (g *GitLab) draftJSON(mr *glMR, d *glDraft) obj {
	o := obj{"id": d.id, "author_id": glUserIDs[d.author], "merge_request_id": int64(mr.iid) + 7000,
		"resolve_discussion": false, "discussion_id": nil, "note": d.note, "commit_id": nil, "line_code": nil, "position": nil}
	if d.replyTo != "" {
		o["discussion_id"] = d.replyTo
	}
	if d.position != nil {
		o["position"] = d.position.json()
		o["line_code"] = lineCode(d.position.newPath, d.position.oldLine, d.position.newLine)
	}
	return o
}

func (g *GitLab) createDraft(c *glCall) {
	var in struct {
		Note                  *string     `json:"note"`
		CommitID              *string     `json:"commit_id"`
		InReplyToDiscussionID *string     `json:"in_reply_to_discussion_id"`
		ResolveDiscussion     *bool       `json:"resolve_discussion"`
		Position              *positionIn `json:"position"`
	}
	if !g.decode(c, &in) {
		return
	}
	if in.Note == nil || *in.Note == "" {
		c.answer(400, obj{"error": "note is missing"})
		return
	}
	d := &glDraft{id: g.newID(), author: c.user, note: *in.Note, created: g.opts.Now()}
	if in.InReplyToDiscussionID != nil {
		if g.findDiscussion(c.mr, *in.InReplyToDiscussionID) == nil {
			c.answer(404, obj{"message": "404 Discussion Not Found"})
			return
		}
		d.replyTo = *in.InReplyToDiscussionID
	}
	pos, errBody := g.checkPosition(c.mr, in.Position)
	if errBody != nil {
		c.answer(400, errBody)
		return
	}
	d.position = pos
	c.mr.drafts = append(c.mr.drafts, d)
	c.answer(201, g.draftJSON(c.mr, d))
}

// publishLocked turns a draft into a reply, a diff discussion or a plain
// note, and removes it; g.mu is held.
func (g *GitLab) publishLocked(mr *glMR, d *glDraft) {
	mr.drafts = slices.DeleteFunc(mr.drafts, func(x *glDraft) bool { return x == d })
	if d.replyTo != "" {
		disc := g.findDiscussion(mr, d.replyTo)
		disc.notes = append(disc.notes, &glNote{id: g.newID(), author: d.author, body: d.note, position: disc.notes[0].position, created: g.opts.Now()})
		return
	}
	g.newDiscussionLocked(mr, d.author, d.note, d.position)
	if d.position == nil && d.author == GitLabReviewer {
		mr.verdicts = append(mr.verdicts, Verdict{Event: forge.EventComment, Body: d.note})
	}
}
