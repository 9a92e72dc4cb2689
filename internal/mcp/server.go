// Package mcp is leanreview's agent surface: a Model Context Protocol server
// whose tools let an AI agent read a live review, see where the human is
// looking, comment, suggest a place to look and resolve comments.
//
// Every write is made as session.ActorAgent. The transport is the agent,
// whatever a request says: no tool takes an author, and input schemas
// refuse properties they do not declare. There is deliberately no tool that
// moves the human's cursor or edits or deletes a draft; the session's
// policy refuses those to the agent on every surface anyway.
//
// The tools are thin (decode, call app.Service, encode the wire types of
// wire.go), one file each. The same server runs over stdio (Serve, for
// `leanreview mcp --in-process`) and over streamable HTTP (Handler, which
// the daemon mounts at MountPattern); Relay joins a stdio agent host to
// the daemon's endpoint, which is what `leanreview mcp` does by default.
package mcp

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/session"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool names. An agent host shows them to the model, so they say what the
// tool does.
const (
	ToolRead    = "read_review"
	ToolFocus   = "get_human_focus"
	ToolComment = "add_comment"
	ToolSuggest = "suggest_focus"
	ToolResolve = "resolve_comment"
)

// instructions is what an agent host tells the model about this server
// before any tool is called.
const instructions = `leanreview is a code-review tool. A person (the human) is reviewing a change, a diff of one or more files, in leanreview's terminal or browser view right now, and you are pairing with them on that same review.

Coordinates every tool uses:
- path: a file's path exactly as read_review lists it (the new name of a renamed file).
- hunk: one @@ section of a file's diff, numbered from 0 within its file.
- side and line: side "new" counts 1-based line numbers in the file after the change, side "old" before it. Added lines exist only on new, deleted lines only on old, unchanged context lines on both.
- as_of: the identity of the change you read. If the human's code changes, as_of changes and line numbers you hold may point elsewhere; pass as_of on writes to have them refused instead.

Start with read_review (projection "summary"), then read the files you need. get_human_focus tells you where the human is and what they have read. add_comment leaves a comment marked as yours; suggest_focus asks the human to look somewhere, and they accept or decline; resolve_comment closes a comment. You cannot move the human's view or change their comments.`

// Options configures a server.
type Options struct {
	// Version is reported to clients as the server's version.
	Version string
	// Logger receives the SDK's diagnostics; nil discards them. It must
	// never write to the stdio transport's output.
	Logger *slog.Logger
}

// server holds what the tool handlers share: the review they act on.
type server struct {
	svc app.Service
}

// NewServer returns an MCP server whose tools act on svc as the agent.
// Calls are served concurrently; svc must be safe for concurrent use, as
// every app.Service is.
func NewServer(svc app.Service, opts Options) *sdk.Server {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	srv := sdk.NewServer(
		&sdk.Implementation{Name: "leanreview", Title: "leanreview code review", Version: opts.Version},
		&sdk.ServerOptions{Instructions: instructions, Logger: logger},
	)
	// The view refuses any write not made as the agent, so a handler that
	// named another actor by mistake fails instead of posing as the human.
	s := &server{svc: app.ActingAs(svc, session.ActorAgent)}
	readOnly := &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	additive := &sdk.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}
	sdk.AddTool(srv, &sdk.Tool{Name: ToolRead, Title: "Read the review", Description: readDescription,
		InputSchema: readSchema(), Annotations: readOnly}, s.read)
	sdk.AddTool(srv, &sdk.Tool{Name: ToolFocus, Title: "Where the human is looking", Description: focusDescription,
		InputSchema: focusSchema(), Annotations: readOnly}, s.focus)
	sdk.AddTool(srv, &sdk.Tool{Name: ToolComment, Title: "Comment on lines", Description: commentDescription,
		InputSchema: commentSchema(), Annotations: additive}, s.comment)
	sdk.AddTool(srv, &sdk.Tool{Name: ToolSuggest, Title: "Suggest a place to look", Description: suggestDescription,
		InputSchema: suggestSchema(), Annotations: additive}, s.suggest)
	sdk.AddTool(srv, &sdk.Tool{Name: ToolResolve, Title: "Resolve a comment", Description: resolveDescription,
		InputSchema: resolveSchema(), Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)}}, s.resolve)
	return srv
}

// Serve runs an MCP server for svc over in and out (newline-delimited
// JSON-RPC, the stdio transport) until the client closes in or ctx ends.
// Nothing else may write to out meanwhile.
func Serve(ctx context.Context, svc app.Service, in io.Reader, out io.Writer, opts Options) error {
	t := &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}}
	err := NewServer(svc, opts).Run(ctx, t)
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("serve mcp: %w", err)
	}
	return nil
}

// nopWriteCloser leaves closing out to its owner.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// inputSchema infers T's schema (descriptions from jsonschema tags, no
// undeclared properties) and lets tweak add what tags cannot say: enums,
// defaults, minimums. It panics on a type that has no schema, which is a
// programming error caught by every test.
func inputSchema[T any](tweak func(props map[string]*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("input schema: %v", err))
	}
	if s.Properties == nil {
		s.Properties = map[string]*jsonschema.Schema{}
	}
	if tweak != nil {
		tweak(s.Properties)
	}
	return s
}

func ptr[T any](v T) *T { return &v }
