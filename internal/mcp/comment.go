package mcp

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/session"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const commentDescription = `Leave a review comment on a line, or a range of lines, of the change. It appears in the human's review beside that code, marked as written by the agent, and they can resolve it.

Comment only on lines the diff shows: read_review with projection "full" gives every row's numbers. side "new" (the default) counts lines in the file after the change and covers added and unchanged lines; side "old" counts lines before the change and is how you comment on a deleted line. For a range, line is the first line and end_line the last, both on the same side.

Your comments belong to this review session: they are not saved for later and never published on your behalf. You cannot edit or delete the human's comments. Returns the comment with its id (for resolve_comment) and where it sits.`

// commentInput is add_comment's arguments. There is no author: the agent
// surface stamps it.
type commentInput struct {
	Path    string `json:"path" jsonschema:"the file, as read_review names it"`
	Side    string `json:"side,omitempty" jsonschema:"new (default): line numbers after the change; old: before it (for deleted lines)"`
	Line    int    `json:"line" jsonschema:"the (first) line, 1-based, on side"`
	EndLine int    `json:"end_line,omitempty" jsonschema:"the last line of a range, on the same side; omit for one line"`
	Body    string `json:"body" jsonschema:"the comment, in Markdown"`
	AsOf    string `json:"as_of,omitempty" jsonschema:"as_of from your last read; the comment is refused if the change has moved since"`
}

func commentSchema() *jsonschema.Schema {
	return inputSchema[commentInput](func(p map[string]*jsonschema.Schema) {
		p["side"].Enum = []any{"new", "old"}
		p["side"].Default = []byte(`"new"`)
		p["line"].Minimum = ptr(1.0)
		p["end_line"].Minimum = ptr(1.0)
		p["body"].MinLength = ptr(1)
		p["path"].MinLength = ptr(1)
	})
}

func (s *server) comment(ctx context.Context, _ *sdk.CallToolRequest, in commentInput) (*sdk.CallToolResult, CommentView, error) {
	const op = "add_comment"
	side, err := parseSide(in.Side)
	if err != nil {
		return nil, CommentView{}, translate(op, err)
	}
	snap, err := s.svc.Snapshot(ctx)
	if err != nil {
		return nil, CommentView{}, translate(op, err)
	}
	if err := checkAsOf(in.AsOf, snap.AsOf); err != nil {
		return nil, CommentView{}, translate(op, err)
	}
	f, err := lookupFile(snap.Changeset, in.Path, side)
	if err != nil {
		return nil, CommentView{}, translate(op, err)
	}
	if in.EndLine != 0 && in.EndLine < in.Line {
		return nil, CommentView{}, translate(op, fmt.Errorf("end_line %d is before line %d: a range runs from its first line to a later one: %w", in.EndLine, in.Line, app.ErrInvalid))
	}
	ref := app.LineRef{Path: in.Path, Side: side, Start: in.Line, End: in.EndLine}
	placed, err := app.At(s.svc, in.AsOf).Comment(ctx, session.ActorAgent, app.CommentRequest{Ref: ref, Body: in.Body})
	if errors.Is(err, app.ErrNotInChange) {
		// Say which lines there are, rather than only which are not.
		err = fmt.Errorf("the diff does not show %s on the %s side of %s; the lines it shows there are %s: %w",
			lineSpan(in.Line, in.EndLine), side, f.Path, shownLines(f, side), app.ErrNotInChange)
	}
	if err != nil {
		return nil, CommentView{}, translate(op, err)
	}
	return nil, commentView(placed, snap.Changeset), nil
}

func lineSpan(start, end int) string {
	if end == 0 || end == start {
		return fmt.Sprintf("line %d", start)
	}
	return fmt.Sprintf("lines %d-%d", start, end)
}
