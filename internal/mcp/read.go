package mcp

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/leanreview/leanreview/internal/app"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const readDescription = `Read the change under review and its review conversation.

Start with projection "summary": every changed file with its status, +/- line counts, number of hunks, how many of them the human has marked read, and unresolved comments. Then read what you need:
- "full": each hunk of the files with every row numbered in two gutters, its line in the old file and in the new one: the numbers add_comment takes.
- "patch": the same hunks as plain unified diff text, without per-row numbers.
- "conversation": every comment (the human's and yours) with its status (exact, moved or orphaned), its author and whether it is resolved, and your suggestions with the human's answer (pending, accepted or declined).
Give path (a file or a directory, and for one file hunks) to read part of a large change: a summary lists at most 300 files (then "directories" shows where the rest are), and full and patch stop after about 2000 lines; "omitted" says what was left out. Every answer carries as_of: pass it to the writing tools so they refuse to act on a change that has moved since you read it.`

// readInput is read_review's arguments.
type readInput struct {
	Projection string `json:"projection,omitempty" jsonschema:"what to read: summary (default), full, patch or conversation"`
	Path       string `json:"path,omitempty" jsonschema:"read only this file (its path as the summary lists it), or every changed file under a directory such as 'server/'"`
	Hunks      []int  `json:"hunks,omitempty" jsonschema:"with the path of one file, for full and patch: read only these hunks, numbered from 0"`
}

// ReviewView is read_review's answer; which fields are filled depends on
// the projection.
type ReviewView struct {
	AsOf       string      `json:"as_of" jsonschema:"the identity of the change you read; pass it back on writes"`
	Source     SourceView  `json:"source"`
	Projection string      `json:"projection"`
	Totals     *TotalsView `json:"totals,omitempty" jsonschema:"the whole change (summary)"`
	Files      []FileView  `json:"files,omitempty" jsonschema:"the files (summary and full)"`
	Patch      string      `json:"patch,omitempty" jsonschema:"unified diff text (patch)"`
	// Comments and Suggestions are the conversation projection.
	Comments    []CommentView    `json:"comments,omitempty"`
	Suggestions []SuggestionView `json:"suggestions,omitempty" jsonschema:"your requests for the human's attention and their answers"`
	Omitted     []string         `json:"omitted,omitempty" jsonschema:"what the answer left out to stay short: read it with path (a file or a directory) and hunks"`
	Directories []DirView        `json:"directories,omitempty" jsonschema:"when a summary lists only some files: the changed directories, to read one at a time with path"`
}

// DirView sums the changed files under one directory.
type DirView struct {
	Path      string `json:"path" jsonschema:"the directory, ending in '/', to pass as path; empty for files at the top"`
	Files     int    `json:"files"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	HunksRead int    `json:"hunks_read"`
	Hunks     int    `json:"hunks"`
}

// TotalsView sums a change.
type TotalsView struct {
	Files     int `json:"files"`
	Additions int `json:"additions"`
	Deletions int `json:"deletions"`
	Hunks     int `json:"hunks"`
	HunksRead int `json:"hunks_read" jsonschema:"hunks the human has marked as read"`
	Comments  int `json:"comments" jsonschema:"unresolved comments"`
}

// projection is a read_review projection. The zero value is invalid.
type projection uint8

const (
	projSummary projection = iota + 1
	projFull
	projPatch
	projConversation
)

var projectionNames = [...]string{projSummary: "summary", projFull: "full", projPatch: "patch", projConversation: "conversation"}

func (p projection) String() string { return projectionNames[p] }

func readSchema() *jsonschema.Schema {
	return inputSchema[readInput](func(p map[string]*jsonschema.Schema) {
		p["projection"].Enum = []any{"summary", "full", "patch", "conversation"}
		p["projection"].Default = []byte(`"summary"`)
		p["hunks"].Items.Minimum = ptr(0.0)
	})
}

func (s *server) read(ctx context.Context, _ *sdk.CallToolRequest, in readInput) (*sdk.CallToolResult, ReviewView, error) {
	proj, err := parseProjection(in.Projection)
	if err != nil {
		return nil, ReviewView{}, translate("read_review", err)
	}
	snap, err := s.svc.Snapshot(ctx)
	if err != nil {
		return nil, ReviewView{}, translate("read_review", err)
	}
	sel, err := selectFiles(snap.Changeset, in)
	if err != nil {
		return nil, ReviewView{}, translate("read_review", err)
	}
	out := ReviewView{AsOf: snap.AsOf, Source: sourceView(snap.Source), Projection: proj.String()}
	var text string
	switch proj {
	case projSummary:
		out.Totals, out.Files, out.Omitted, out.Directories = summarize(snap, sel)
		text = summaryText(out)
	case projFull:
		out.Files, out.Omitted = fullFiles(snap, sel)
		text = fullText(out)
	case projPatch:
		out.Patch, out.Omitted = patchText(sel)
		text = textHeader(out) + out.Patch
	case projConversation:
		out.Comments, out.Suggestions = conversation(snap, sel)
		return nil, out, nil // small: its JSON is the text
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, out, nil
}

func parseProjection(name string) (projection, error) {
	if name == "" {
		return projSummary, nil
	}
	for p, n := range projectionNames {
		if n != "" && n == name {
			return projection(p), nil
		}
	}
	return 0, fmt.Errorf("unknown projection %q: use summary, full, patch or conversation: %w", name, app.ErrInvalid)
}
