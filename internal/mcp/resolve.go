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

const resolveDescription = `Mark a comment resolved, or open it again with resolved set to false.

Either party may resolve any comment: resolve yours once its point is settled, or one of the human's once you have addressed it. Resolving keeps the comment and its text; nothing is deleted. Comment ids come from add_comment and from read_review with projection "conversation". Returns the comment as it is now.`

// resolveInput is resolve_comment's arguments.
type resolveInput struct {
	ID       string `json:"id" jsonschema:"the comment's id"`
	Resolved bool   `json:"resolved,omitempty" jsonschema:"true (default) to resolve, false to open again"`
}

func resolveSchema() *jsonschema.Schema {
	return inputSchema[resolveInput](func(p map[string]*jsonschema.Schema) {
		p["id"].MinLength = ptr(1)
		p["resolved"].Default = []byte(`true`)
	})
}

func (s *server) resolve(ctx context.Context, _ *sdk.CallToolRequest, in resolveInput) (*sdk.CallToolResult, CommentView, error) {
	const op = "resolve_comment"
	err := s.svc.ResolveComment(ctx, session.ActorAgent, in.ID, in.Resolved)
	if errors.Is(err, app.ErrNotFound) {
		err = fmt.Errorf("no comment has id %q; read_review with projection conversation lists the comments and their ids: %w", in.ID, app.ErrNotFound)
	}
	if err != nil {
		return nil, CommentView{}, translate(op, err)
	}
	snap, err := s.svc.Snapshot(ctx)
	if err != nil {
		return nil, CommentView{}, translate(op, err)
	}
	for _, p := range snap.Drafts {
		if p.ID == in.ID {
			return nil, commentView(p, snap.Changeset), nil
		}
	}
	// Resolved, then gone before it could be read back: the human
	// deleted their own comment in between.
	return nil, CommentView{}, translate(op, fmt.Errorf("comment %s was resolved and then deleted by its author: %w", in.ID, app.ErrNotFound))
}
