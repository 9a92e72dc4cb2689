package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/leanreview/leanreview/internal/app"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const focusDescription = `See where the human is in the review right now: the file, hunk, side and line their cursor is on, which hunks of each file they have marked as read, which files they finished reading during this session, and your suggestions with their answers (pending, accepted or declined).

Use it before commenting or suggesting, so what you say is about what they are reading, and to learn whether they accepted a suggestion. It only reads: nothing can move the human's cursor but the human. To draw their attention somewhere, use suggest_focus.`

// focusInput is get_human_focus's arguments: none.
type focusInput struct{}

// FocusView is get_human_focus's answer.
type FocusView struct {
	AsOf        string           `json:"as_of"`
	Cursor      CursorView       `json:"cursor"`
	Progress    []ProgressView   `json:"progress" jsonschema:"per file with hunks, which the human has marked read"`
	Finished    []FinishedView   `json:"finished" jsonschema:"files the human finished reading during this session (their last hunk marked read now, not in an earlier session), in the order finished"`
	Suggestions []SuggestionView `json:"suggestions" jsonschema:"your suggestions, oldest first, with the human's answers"`
}

// FinishedView is a file the human finished reading in this session.
type FinishedView struct {
	Path string `json:"path"`
	At   string `json:"at" jsonschema:"RFC 3339 time"`
}

// ProgressView is how far the human has read one file.
type ProgressView struct {
	Path      string `json:"path"`
	HunkCount int    `json:"hunk_count"`
	Read      []int  `json:"read" jsonschema:"the hunks marked read, by index"`
	Complete  bool   `json:"complete" jsonschema:"every hunk of the file is marked read"`
}

func focusSchema() *jsonschema.Schema {
	return inputSchema[focusInput](nil)
}

func (s *server) focus(ctx context.Context, _ *sdk.CallToolRequest, _ focusInput) (*sdk.CallToolResult, FocusView, error) {
	snap, err := s.svc.Snapshot(ctx)
	if err != nil {
		return nil, FocusView{}, translate("get_human_focus", err)
	}
	out := FocusView{AsOf: snap.AsOf, Cursor: cursorView(snap), Suggestions: suggestionViews(snap.Suggestions)}
	out.Finished = make([]FinishedView, 0, len(snap.Receipts))
	for _, r := range snap.Receipts {
		out.Finished = append(out.Finished, FinishedView{Path: r.Path, At: stamp(r.At)})
	}
	out.Progress = make([]ProgressView, 0, len(snap.Changeset.Files))
	for i := range snap.Changeset.Files {
		f := &snap.Changeset.Files[i]
		if len(f.Hunks) == 0 {
			continue
		}
		p := ProgressView{Path: f.Path, HunkCount: len(f.Hunks), Read: []int{}}
		for _, h := range f.Hunks {
			if snap.Viewed[h.Digest] {
				p.Read = append(p.Read, h.Index)
			}
		}
		p.Complete = len(p.Read) == len(f.Hunks)
		out.Progress = append(out.Progress, p)
	}
	return nil, out, nil
}

func cursorView(snap *app.Snapshot) CursorView {
	c := snap.Cursor
	v := CursorView{Path: c.Path, Side: sideName(c.Side), Line: c.Line, Hunk: c.Hunk}
	if f := app.File(snap.Changeset, c.Path, c.Side); f != nil && c.Hunk >= 0 && c.Hunk < len(f.Hunks) {
		v.Declaration = f.Hunks[c.Hunk].Declaration
	}
	return v
}
