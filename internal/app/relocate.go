package app

import (
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// RelocateRequest names lines of an old changeset, as `leanreview relocate`
// reads them.
type RelocateRequest struct {
	ID      string         `json:"id"`
	Path    string         `json:"path"`
	Side    changeset.Side `json:"side"`
	Line    int            `json:"line"`
	EndLine int            `json:"end_line,omitempty"`
}

// RelocateResult is where a request's lines are in the new changeset.
// Path, Line and EndLine are zero for an orphan.
type RelocateResult struct {
	ID      string         `json:"id"`
	Status  changeset.Rung `json:"status"`
	Path    string         `json:"path,omitempty"`
	Side    changeset.Side `json:"side"`
	Line    int            `json:"line,omitempty"`
	EndLine int            `json:"end_line,omitempty"`
}

// Relocate captures req's anchor from from exactly as a new draft would and
// places it in to exactly as loading drafts does (session.Place), so the
// command measures the code path reviewers rely on. Lines that from does not
// show cannot be anchored and come back orphaned.
func Relocate(from, to *changeset.Changeset, req RelocateRequest) RelocateResult {
	res := RelocateResult{ID: req.ID, Side: req.Side, Status: changeset.RungOrphaned}
	a, err := Capture(from, LineRef{Path: req.Path, Side: req.Side, Start: req.Line, End: req.EndLine})
	if err != nil {
		return res
	}
	placed := session.Place([]session.Draft{{ID: req.ID, Anchor: a, Digest: from.Digest}}, to)[0]
	res.Status = placed.Rung
	if !placed.Orphaned() {
		res.Path, res.Line, res.EndLine = placed.Location.Path, placed.Location.Start, placed.Location.End
	}
	return res
}
