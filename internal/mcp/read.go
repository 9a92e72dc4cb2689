package mcp

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const readDescription = `Read the change under review and its review conversation.

Start with projection "summary": every changed file with its status, +/- line counts, number of hunks, how many of them the human has marked read, and unresolved comments. Then read what you need:
- "full": each hunk of the files with its rows; every row carries its old and new line numbers, which are the numbers add_comment takes.
- "patch": the same hunks as unified diff text, more compact, without per-row numbers.
- "conversation": every comment (the human's and yours) with its status (exact, moved or orphaned), its author and whether it is resolved, and your suggestions with the human's answer (pending, accepted or declined).
Give path (and for full and patch, hunks) to read part of a large change; full and patch stop after about 2000 lines and list in "omitted" what they left out. Every answer carries as_of: pass it to the writing tools so they refuse to act on a change that has moved since you read it.`

// readInput is read_review's arguments.
type readInput struct {
	Projection string `json:"projection,omitempty" jsonschema:"what to read: summary (default), full, patch or conversation"`
	Path       string `json:"path,omitempty" jsonschema:"read only this file (its path as the summary lists it)"`
	Hunks      []int  `json:"hunks,omitempty" jsonschema:"with path, for full and patch: read only these hunks, numbered from 0"`
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
	Omitted     []string         `json:"omitted,omitempty" jsonschema:"what full or patch left out to stay short: read it with path and hunks"`
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

// lineBudget is roughly how many diff lines full and patch return before
// they stop and list the rest in Omitted: enough for a file or two of a
// big change, small enough for a model's context.
const lineBudget = 2000

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
	switch proj {
	case projSummary:
		out.Totals, out.Files = summarize(snap, sel)
	case projFull:
		out.Files, out.Omitted = fullFiles(snap, sel)
	case projPatch:
		out.Patch, out.Omitted = patchText(sel)
		// The text block carries the patch as a person would read it
		// rather than as an escaped JSON string.
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: patchSummaryLine(out) + out.Patch}}}, out, nil
	case projConversation:
		out.Comments, out.Suggestions = conversation(snap, sel)
	}
	return nil, out, nil
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

// selection is the part of a change a read asked for: files in patch
// order, and for each the hunk indexes (all of them unless narrowed).
type selection struct {
	all   bool // no path given: the whole change
	files []*changeset.File
	hunks map[*changeset.File][]int
}

func selectFiles(cs *changeset.Changeset, in readInput) (selection, error) {
	sel := selection{hunks: map[*changeset.File][]int{}}
	if in.Path == "" {
		if len(in.Hunks) > 0 {
			return sel, fmt.Errorf("hunks are numbered within a file: give path too: %w", app.ErrInvalid)
		}
		sel.all = true
		for i := range cs.Files {
			sel.add(&cs.Files[i], nil)
		}
		return sel, nil
	}
	f, err := lookupFile(cs, in.Path, 0)
	if err != nil {
		return sel, err
	}
	for _, h := range in.Hunks {
		if _, err := lookupHunk(f, h); err != nil {
			return sel, err
		}
	}
	sel.add(f, in.Hunks)
	return sel, nil
}

// add selects f, narrowed to hunks when that is not empty.
func (sel *selection) add(f *changeset.File, hunks []int) {
	if len(hunks) == 0 {
		hunks = make([]int, len(f.Hunks))
		for i := range hunks {
			hunks[i] = i
		}
	}
	sel.files = append(sel.files, f)
	sel.hunks[f] = hunks
}

// budget counts diff lines against lineBudget. Once a hunk does not fit,
// every later one is refused too, so what is omitted is the tail of the
// selection and one read with path and hunks picks it up.
type budget struct {
	used    int
	spent   bool
	omitted []string
	// pending are the refused hunk indexes of the file being walked.
	pending []int
}

// take reports whether hunk index (n lines) fits; the first hunk always
// does, so a read returns something however big the hunk is.
func (b *budget) take(index, n int) bool {
	if b.spent || (b.used > 0 && b.used+n > lineBudget) {
		b.spent = true
		b.pending = append(b.pending, index)
		return false
	}
	b.used += n
	return true
}

// endFile records the hunks of f that take refused.
func (b *budget) endFile(f *changeset.File) {
	switch {
	case len(b.pending) == 0:
	case len(b.pending) == len(f.Hunks):
		b.omitted = append(b.omitted, f.Path+" (whole file)")
	default:
		b.omitted = append(b.omitted, fmt.Sprintf("%s (hunks %s)", f.Path, indexList(b.pending)))
	}
	b.pending = b.pending[:0]
}

// indexList writes ascending indexes compactly: "3-5, 9".
func indexList(idx []int) string {
	var out []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if j == i {
			out = append(out, strconv.Itoa(idx[i]))
		} else {
			out = append(out, fmt.Sprintf("%d-%d", idx[i], idx[j]))
		}
		i = j + 1
	}
	return strings.Join(out, ", ")
}
