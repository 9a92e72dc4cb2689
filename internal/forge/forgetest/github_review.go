package forgetest

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/leanreview/leanreview/internal/changeset"
)

// GitHub's review rules that the schema does not express. The texts quoted
// from shared/forge/README.md are GitHub's own.
const (
	ghNotPartOfDiff = "Pull request review thread line must be part of the diff, Pull request review thread start line must be part of the same hunk as the line., and Pull request review thread diff hunk can't be blank"
	ghLineUnknown   = "Line could not be resolved"
	ghStartAfterEnd = "Pull request review thread start line must precede the end line."
	ghStartHunk     = "Pull request review thread start line must be part of the same hunk as the line."
)

type reviewIn struct {
	CommitID *string           `json:"commit_id"`
	Body     *string           `json:"body"`
	Event    *string           `json:"event"`
	Comments []reviewCommentIn `json:"comments"`
}

type reviewCommentIn struct {
	Path      string  `json:"path"`
	Position  *int    `json:"position"`
	Body      string  `json:"body"`
	Line      *int    `json:"line"`
	Side      *string `json:"side"`
	StartLine *int    `json:"start_line"`
	StartSide *string `json:"start_side"`
}

func reviewState(event string) string {
	switch event {
	case "APPROVE":
		return "APPROVED"
	case "REQUEST_CHANGES":
		return "CHANGES_REQUESTED"
	case "COMMENT":
		return "COMMENTED"
	}
	return "PENDING"
}

// eventRule checks an event against its body and the author; "" when it
// holds.
func eventRule(event, body, user, author string) string {
	switch {
	case (event == "COMMENT" || event == "REQUEST_CHANGES") && strings.TrimSpace(body) == "":
		return fakeWording("Body is required for COMMENT and REQUEST_CHANGES reviews")
	case event == "APPROVE" && user == author:
		return "Review Can not approve your own pull request"
	case event == "REQUEST_CHANGES" && user == author:
		return "Review Can not request changes on your own pull request"
	}
	return ""
}

// createReview is POST .../reviews: all or nothing, like GitHub.
func (g *GitHub) createReview(c *ghCall, p *ghPull) ghAnswer {
	var in reviewIn
	if err := json.Unmarshal(c.body, &in); err != nil {
		return ok(400, ghErr(400, "Problems parsing JSON", ghDocsReviews))
	}
	event, body := deref(in.Event), deref(in.Body)
	g.mu.Lock()
	defer g.mu.Unlock()
	if slices.ContainsFunc(p.reviews, func(r *ghReview) bool { return r.user == c.user && r.state == "PENDING" }) {
		return ok(422, ghValidation(ghDocsReviews, fakeWording("User can only have one pending review per pull request")))
	}
	commit := p.head
	if in.CommitID != nil {
		commit = *in.CommitID
		if !slices.Contains(p.heads, commit) {
			return ok(422, ghValidation(ghDocsReviews, fakeWording("Commit ID is not part of the pull request")))
		}
	}
	if msg := eventRule(event, body, c.user, p.author); msg != "" {
		return ok(422, ghValidation(ghDocsReviews, msg))
	}
	var errs []string
	comments := make([]*ghComment, 0, len(in.Comments))
	for _, ci := range in.Comments {
		cm, msg := g.reviewComment(p, ci)
		if msg != "" {
			if !slices.Contains(errs, msg) {
				errs = append(errs, msg)
			}
			continue
		}
		comments = append(comments, cm)
	}
	if len(errs) > 0 {
		return ok(422, ghValidation(ghDocsReviews, errs...))
	}
	r := &ghReview{id: g.newID(), user: c.user, state: reviewState(event), body: body, commitID: commit, submitted: g.opts.Now()}
	p.reviews = append(p.reviews, r)
	for _, cm := range comments {
		cm.id, cm.reviewID, cm.user, cm.commitID, cm.originalCommitID, cm.created = g.newID(), r.id, c.user, commit, commit, g.opts.Now()
		p.comments = append(p.comments, cm)
	}
	return ok(200, g.reviewJSON(p, r))
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// reviewComment checks one draft comment against the current diff and
// builds it, or says which rule it breaks. The caller holds g.mu.
func (g *GitHub) reviewComment(p *ghPull, ci reviewCommentIn) (*ghComment, string) {
	if ci.Position != nil {
		g.violations = append(g.violations, "review comment uses the legacy diff position; leanreview sends line and side")
		return nil, fakeWording("fake GitHub models line/side comments only")
	}
	side, startSide := "RIGHT", ""
	if ci.Side != nil {
		side = *ci.Side
	}
	if ci.StartSide != nil {
		startSide = *ci.StartSide
	}
	if side != "LEFT" && side != "RIGHT" || startSide != "" && startSide != "LEFT" && startSide != "RIGHT" {
		return nil, fakeWording(`side and start_side must be "LEFT" or "RIGHT"`)
	}
	if ci.Line == nil || *ci.Line <= 0 {
		return nil, ghLineUnknown
	}
	f := fileNamed(p.files, ci.Path)
	if f == nil {
		return nil, ghLineUnknown
	}
	hunk, row, _, found := f.rowAt(sideOf(side), *ci.Line)
	if !found {
		return nil, ghNotPartOfDiff
	}
	cm := &ghComment{path: ci.Path, body: ci.Body, side: side, line: *ci.Line, position: diffPosition(f, hunk, row),
		diffHunk: diffHunk(f, hunk, row)}
	if ci.StartLine != nil {
		if startSide == "" {
			startSide = side
		}
		if startSide == side && *ci.StartLine >= *ci.Line {
			return nil, ghStartAfterEnd
		}
		sh, sr, _, sfound := f.rowAt(sideOf(startSide), *ci.StartLine)
		if !sfound || sh != hunk {
			return nil, ghStartHunk
		}
		if sr >= row {
			return nil, ghStartAfterEnd
		}
		cm.startLine, cm.startSide = *ci.StartLine, startSide
	} else if ci.StartSide != nil {
		return nil, fakeWording("start_side requires start_line")
	}
	return cm, ""
}

func sideOf(s string) changeset.Side {
	if s == "LEFT" {
		return changeset.SideOld
	}
	return changeset.SideNew
}

// diffPosition is GitHub's legacy position: lines below the file's first
// @@ header, later headers counted.
func diffPosition(f *patchFile, hunk, row int) int {
	pos := 0
	for i := 0; i < hunk; i++ {
		pos += len(f.Hunks[i].Lines) + 1
	}
	return pos + row + 1
}

// diffHunk is the hunk text up to the commented row, as GitHub shows it.
func diffHunk(f *patchFile, hunk, row int) string {
	h := f.Hunks[hunk]
	return strings.Join(append([]string{h.Header}, h.Lines[:row+1]...), "\n")
}
