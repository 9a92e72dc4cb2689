package forgetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

const (
	ghDocsPulls   = "https://docs.github.com/rest/pulls/pulls#get-a-pull-request"
	ghDocsReviews = "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request"
	ghDocsSubmit  = "https://docs.github.com/rest/pulls/reviews#submit-a-review-for-a-pull-request"
	ghDocsReplies = "https://docs.github.com/rest/pulls/comments#create-a-reply-for-a-review-comment"
)

// fakeWording marks an error text the fake made up because the reference
// material quotes no real one.
func fakeWording(s string) string { return s }

func notFound() ghAnswer {
	return ghAnswer{status: http.StatusNotFound, body: ghErr(404, "Not Found", "https://docs.github.com/rest")}
}

func ok(status int, body any) ghAnswer { return ghAnswer{status: status, body: body} }

// operate runs one operation of the spec by its operationId.
func (g *GitHub) operate(op string, c *ghCall) ghAnswer {
	if op == "users/get-authenticated" {
		g.umu.Lock()
		id := g.users[c.user]
		g.umu.Unlock()
		return ok(200, ghPrivateUserJSON(c.user, id, g.opts.Now()))
	}
	n, _ := strconv.Atoi(c.params["pull_number"] + c.params["issue_number"])
	g.mu.Lock()
	p := g.pulls[pullKey(c.params["owner"]+"/"+c.params["repo"], n)]
	g.mu.Unlock()
	if p == nil {
		return notFound()
	}
	switch op {
	case "pulls/get":
		return g.getPull(c, p)
	case "pulls/list-files":
		return g.listFiles(c, p)
	case "pulls/list-review-comments":
		return g.listComments(c, p, func(cm *ghComment) bool { return !g.pendingReview(p, cm.reviewID) })
	case "pulls/create-reply-for-review-comment":
		return g.createReply(c, p)
	case "pulls/list-reviews":
		return g.listReviews(c, p)
	case "pulls/create-review":
		return g.createReview(c, p)
	case "pulls/get-review", "pulls/delete-pending-review", "pulls/submit-review", "pulls/list-comments-for-review":
		return g.reviewOp(op, c, p)
	case "issues/list-comments":
		return g.listIssueComments(c, p)
	case "issues/create-comment":
		return g.createIssueComment(c, p)
	}
	g.violation("fake GitHub does not implement %s", op)
	return ghAnswer{status: http.StatusInternalServerError, body: ghErr(500, "fake GitHub: operation not implemented: "+op, "")}
}

func (g *GitHub) getPull(c *ghCall, p *ghPull) ghAnswer {
	accept := c.r.Header.Get("Accept")
	if !strings.Contains(accept, "diff") && !strings.Contains(accept, "patch") {
		g.mu.Lock()
		defer g.mu.Unlock()
		return ok(200, g.pullJSON(p))
	}
	g.mu.Lock()
	files, patch := p.files, p.patch
	g.mu.Unlock()
	lines := 0
	for _, f := range files {
		a, d := f.Counts()
		lines += a + d
	}
	if len(files) > g.opts.MaxDiffFiles || lines > g.opts.MaxDiffLines {
		msg := fmt.Sprintf("Sorry, the diff exceeded the maximum number of files (%d). Consider using 'List pull requests files' API or locally cloning the repository instead.", g.opts.MaxDiffFiles)
		if len(files) <= g.opts.MaxDiffFiles {
			msg = fmt.Sprintf("Sorry, the diff exceeded the maximum number of lines (%d). Consider using 'List pull requests files' API or locally cloning the repository instead.", g.opts.MaxDiffLines)
		}
		body := ghErr(406, msg, "https://docs.github.com/rest/pulls/pulls#list-pull-requests-files")
		body["errors"] = []obj{{"resource": "PullRequest", "field": "diff", "code": "too_large"}}
		return ok(http.StatusNotAcceptable, body)
	}
	h := http.Header{}
	h.Set("Content-Type", "application/vnd.github.diff; charset=utf-8")
	return ghAnswer{status: 200, body: []byte(patch), header: h, raw: true}
}

func (g *GitHub) listFiles(c *ghCall, p *ghPull) ghAnswer {
	g.mu.Lock()
	files := p.files
	repo, head := p.repo, p.head
	g.mu.Unlock()
	// The files endpoint lists at most 3000 files.
	files = files[:min(len(files), 3000)]
	h := http.Header{}
	var out []obj
	for _, f := range paginate(c.r, files, h) {
		out = append(out, diffEntryJSON(repo, head, f, g.opts.MaxFilePatch))
	}
	return ghAnswer{status: 200, body: nonNil(out), header: h}
}

func nonNil(list []obj) []obj {
	if list == nil {
		return []obj{}
	}
	return list
}

func (g *GitHub) listComments(c *ghCall, p *ghPull, keep func(*ghComment) bool) ghAnswer {
	g.mu.Lock()
	var all []*ghComment
	for _, cm := range p.comments {
		if keep(cm) {
			all = append(all, cm)
		}
	}
	h := http.Header{}
	var out []obj
	for _, cm := range paginate(c.r, all, h) {
		out = append(out, g.commentJSON(p, cm))
	}
	g.mu.Unlock()
	return ghAnswer{status: 200, body: nonNil(out), header: h}
}

func (g *GitHub) pendingReview(p *ghPull, id int64) bool {
	for _, r := range p.reviews {
		if r.id == id {
			return r.state == "PENDING"
		}
	}
	return false
}

func (g *GitHub) createReply(c *ghCall, p *ghPull) ghAnswer {
	var in struct {
		Body string `json:"body"`
	}
	if err := json.Unmarshal(c.body, &in); err != nil {
		return ok(400, ghErr(400, "Problems parsing JSON", ghDocsReplies))
	}
	id, _ := strconv.ParseInt(c.params["comment_id"], 10, 64)
	g.mu.Lock()
	var parent *ghComment
	for _, cm := range p.comments {
		if cm.id == id && !g.pendingReview(p, cm.reviewID) {
			parent = cm
		}
	}
	if parent == nil {
		g.mu.Unlock()
		return notFound()
	}
	root := parent.id
	if parent.inReplyTo != 0 {
		root = parent.inReplyTo
	}
	reply := *parent
	reply.id, reply.inReplyTo, reply.user, reply.body, reply.created = g.newID(), root, c.user, in.Body, g.opts.Now()
	reply.reviewID = g.submitReviewLocked(p, c.user, "COMMENTED", "", p.head)
	p.comments = append(p.comments, &reply)
	g.mu.Unlock()
	return ok(201, g.commentJSON(p, &reply))
}

// submitReviewLocked records a submitted review and returns its id; the
// caller holds g.mu. A reply outside a review gets one of its own, as on
// GitHub.
func (g *GitHub) submitReviewLocked(p *ghPull, user, state, body, commit string) int64 {
	r := &ghReview{id: g.newID(), user: user, state: state, body: body, commitID: commit, submitted: g.opts.Now()}
	p.reviews = append(p.reviews, r)
	return r.id
}

func (g *GitHub) listReviews(c *ghCall, p *ghPull) ghAnswer {
	g.mu.Lock()
	var visible []*ghReview
	for _, r := range p.reviews {
		// A pending review is visible to its author only.
		if r.state != "PENDING" || r.user == c.user {
			visible = append(visible, r)
		}
	}
	g.mu.Unlock()
	h := http.Header{}
	var out []obj
	for _, r := range paginate(c.r, visible, h) {
		out = append(out, g.reviewJSON(p, r))
	}
	return ghAnswer{status: 200, body: nonNil(out), header: h}
}

func (g *GitHub) reviewOp(op string, c *ghCall, p *ghPull) ghAnswer {
	id, _ := strconv.ParseInt(c.params["review_id"], 10, 64)
	g.mu.Lock()
	i := slices.IndexFunc(p.reviews, func(r *ghReview) bool { return r.id == id && (r.state != "PENDING" || r.user == c.user) })
	if i < 0 {
		g.mu.Unlock()
		return notFound()
	}
	r := p.reviews[i]
	switch op {
	case "pulls/delete-pending-review":
		if r.state != "PENDING" {
			g.mu.Unlock()
			return ok(422, ghValidation(ghDocsReviews, fakeWording("Can not delete a non-pending pull request review")))
		}
		p.reviews = slices.Delete(p.reviews, i, i+1)
		p.comments = slices.DeleteFunc(p.comments, func(cm *ghComment) bool { return cm.reviewID == id })
	case "pulls/submit-review":
		var in struct{ Body, Event string }
		_ = json.Unmarshal(c.body, &in)
		if r.state != "PENDING" {
			g.mu.Unlock()
			return ok(422, ghValidation(ghDocsSubmit, fakeWording("Can not submit a non-pending pull request review")))
		}
		if msg := eventRule(in.Event, in.Body, c.user, p.author); msg != "" {
			g.mu.Unlock()
			return ok(422, ghValidation(ghDocsSubmit, msg))
		}
		r.state, r.submitted = reviewState(in.Event), g.opts.Now()
		if in.Body != "" {
			r.body = in.Body
		}
	case "pulls/list-comments-for-review":
		g.mu.Unlock()
		return g.listComments(c, p, func(cm *ghComment) bool { return cm.reviewID == id })
	}
	g.mu.Unlock()
	return ok(200, g.reviewJSON(p, r))
}

func (g *GitHub) listIssueComments(c *ghCall, p *ghPull) ghAnswer {
	g.mu.Lock()
	all := append([]*ghIssueComment(nil), p.issueComments...)
	g.mu.Unlock()
	h := http.Header{}
	var out []obj
	for _, ic := range paginate(c.r, all, h) {
		out = append(out, g.issueCommentJSON(p, ic))
	}
	return ghAnswer{status: 200, body: nonNil(out), header: h}
}

func (g *GitHub) createIssueComment(c *ghCall, p *ghPull) ghAnswer {
	var in struct {
		Body string `json:"body"`
	}
	_ = json.Unmarshal(c.body, &in)
	g.mu.Lock()
	ic := &ghIssueComment{id: g.newID(), user: c.user, body: in.Body, created: g.opts.Now()}
	p.issueComments = append(p.issueComments, ic)
	g.mu.Unlock()
	return ok(201, g.issueCommentJSON(p, ic))
}
