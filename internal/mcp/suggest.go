package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/session"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const suggestDescription = `Ask the human to look at a hunk of the change (optionally a line in it), and say why.

This does not move their view. It queues a request they see in their review and answer: accepting moves their cursor there, declining dismisses it. Use it for what they should see now, such as a problem in code they have not reached yet, or the hunk a comment of yours is about. Keep the reason short and specific.

Learn the answer later with get_human_focus or read_review (projection "conversation"): pending (not answered yet), accepted or declined. Do not repeat a declined suggestion. Returns the suggestion with its id and state "pending".`

// suggestInput is suggest_focus's arguments.
type suggestInput struct {
	Path   string `json:"path" jsonschema:"the file, as read_review names it"`
	Hunk   int    `json:"hunk" jsonschema:"the hunk within the file, numbered from 0"`
	Line   int    `json:"line,omitempty" jsonschema:"a line within that hunk, on side; omit to point at the whole hunk"`
	Side   string `json:"side,omitempty" jsonschema:"with line: new (default) or old"`
	Reason string `json:"reason" jsonschema:"why the human should look there, in a sentence"`
	AsOf   string `json:"as_of,omitempty" jsonschema:"as_of from your last read; the suggestion is refused if the change has moved since"`
}

func suggestSchema() *jsonschema.Schema {
	return inputSchema[suggestInput](func(p map[string]*jsonschema.Schema) {
		p["side"].Enum = []any{"new", "old"}
		p["hunk"].Minimum = ptr(0.0)
		p["line"].Minimum = ptr(1.0)
		p["reason"].MinLength = ptr(1)
		p["path"].MinLength = ptr(1)
	})
}

func (s *server) suggest(ctx context.Context, _ *sdk.CallToolRequest, in suggestInput) (*sdk.CallToolResult, SuggestionView, error) {
	const op = "suggest_focus"
	if strings.TrimSpace(in.Reason) == "" {
		return nil, SuggestionView{}, translate(op, fmt.Errorf("give a reason: the human decides from it: %w", app.ErrInvalid))
	}
	side, err := parseSide(in.Side)
	if err != nil {
		return nil, SuggestionView{}, translate(op, err)
	}
	snap, err := s.svc.Snapshot(ctx)
	if err != nil {
		return nil, SuggestionView{}, translate(op, err)
	}
	if err := checkAsOf(in.AsOf, snap.AsOf); err != nil {
		return nil, SuggestionView{}, translate(op, err)
	}
	f, err := lookupFile(snap.Changeset, in.Path, side)
	if err != nil {
		return nil, SuggestionView{}, translate(op, err)
	}
	h, err := lookupHunk(f, in.Hunk)
	if err != nil {
		return nil, SuggestionView{}, translate(op, err)
	}
	req := app.SuggestionRequest{Path: f.Path, Hunk: in.Hunk, Reason: in.Reason}
	if in.Line != 0 {
		if !hunkShows(h, side, in.Line) {
			return nil, SuggestionView{}, translate(op, fmt.Errorf("hunk %d of %s does not show line %d on the %s side; it shows lines %s there: %w",
				in.Hunk, f.Path, in.Line, side, hunkSpan(h, side), app.ErrNotInChange))
		}
		req.Side, req.Line = side, in.Line
	}
	sug, err := app.At(s.svc, in.AsOf).Suggest(ctx, session.ActorAgent, req)
	if err != nil {
		return nil, SuggestionView{}, translate(op, err)
	}
	return nil, suggestionView(sug), nil
}
