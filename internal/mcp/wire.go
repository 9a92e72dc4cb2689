package mcp

import (
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// The types in this file are what the tools return: the agent's wire
// format, separate from the domain types so a rename inside leanreview
// does not change what a model was told. Enums are their wire names
// ("new", "agent", "pending"); a line number of 0 means "none" and is
// omitted. The jsonschema tags become the output schema's descriptions.

// SourceView names what is under review.
type SourceView struct {
	Kind  string `json:"kind" jsonschema:"what is reviewed: file, stdin, worktree, staged, base, range or commit"`
	Label string `json:"label,omitempty" jsonschema:"a human description of the source, such as 'working tree' or 'main...HEAD'"`
}

// FileView is one changed file; Hunks is filled by the full projection
// only.
type FileView struct {
	Path       string     `json:"path" jsonschema:"the file's path as the change names it now; use it as 'path' in every other tool"`
	OldPath    string     `json:"old_path,omitempty" jsonschema:"the path before a rename or copy"`
	Status     string     `json:"status" jsonschema:"added, deleted, modified, renamed or copied"`
	Binary     bool       `json:"binary,omitempty" jsonschema:"a binary file: it has no hunks and no lines to comment on"`
	ModeChange string     `json:"mode_change,omitempty" jsonschema:"a file mode change, such as '100644 to 100755'"`
	Additions  int        `json:"additions"`
	Deletions  int        `json:"deletions"`
	HunkCount  int        `json:"hunk_count" jsonschema:"how many hunks the file has; they are numbered 0 to hunk_count-1"`
	HunksRead  int        `json:"hunks_read" jsonschema:"how many of its hunks the human has marked as read"`
	Comments   int        `json:"comments" jsonschema:"unresolved comments on this file, by either party"`
	Hunks      []HunkView `json:"hunks,omitempty"`
}

// HunkView is one hunk with its rows (the full projection).
type HunkView struct {
	Index       int       `json:"index" jsonschema:"the hunk's number within its file, from 0"`
	Header      string    `json:"header" jsonschema:"the @@ line"`
	Declaration string    `json:"declaration,omitempty" jsonschema:"the enclosing function or type git named in the header"`
	OldStart    int       `json:"old_start"`
	OldCount    int       `json:"old_count"`
	NewStart    int       `json:"new_start"`
	NewCount    int       `json:"new_count"`
	Read        bool      `json:"read" jsonschema:"the human has marked this hunk as read"`
	Rows        []RowView `json:"rows"`
}

// RowView is one line of a hunk. Old and New are its line numbers in the
// old and new file, 0 (omitted) where it does not exist on that side.
type RowView struct {
	Kind string `json:"kind" jsonschema:"add (only in the new file), del (only in the old file), context (in both) or meta (a marker such as 'No newline at end of file', in neither)"`
	Old  int    `json:"old,omitempty" jsonschema:"line number in the old file; absent for an added line"`
	New  int    `json:"new,omitempty" jsonschema:"line number in the new file; absent for a deleted line"`
	Text string `json:"text" jsonschema:"the line without its +/-/space marker; invisible and bidirectional-control characters are shown escaped"`
}

// CommentView is one comment (a draft: written, not yet published) and
// where it sits in the change as it is now.
type CommentView struct {
	ID       string   `json:"id" jsonschema:"the comment's id, for resolve_comment"`
	Author   string   `json:"author" jsonschema:"human or agent (you)"`
	Status   string   `json:"status" jsonschema:"exact (on the line it was written on), moved (the code moved and the comment followed it) or orphaned (the code it was about is gone; path and lines are absent)"`
	Path     string   `json:"path,omitempty"`
	Side     string   `json:"side,omitempty" jsonschema:"old or new: which file the line numbers count in"`
	Line     int      `json:"line,omitempty"`
	EndLine  int      `json:"end_line,omitempty"`
	Hunk     int      `json:"hunk" jsonschema:"the hunk the comment's first line is in, -1 when none"`
	Quote    []string `json:"quote,omitempty" jsonschema:"the lines the comment was written against, as they were then"`
	Body     string   `json:"body"`
	Resolved bool     `json:"resolved"`
	ReplyTo  string   `json:"reply_to,omitempty" jsonschema:"the code host's thread this comment answers"`
	Created  string   `json:"created" jsonschema:"RFC 3339 time"`
}

// SuggestionView is a request for the human's attention and their answer.
type SuggestionView struct {
	ID      string `json:"id"`
	Path    string `json:"path"`
	Hunk    int    `json:"hunk"`
	Side    string `json:"side,omitempty"`
	Line    int    `json:"line,omitempty"`
	Reason  string `json:"reason"`
	State   string `json:"state" jsonschema:"pending (not answered yet), accepted (the human went there) or declined"`
	Created string `json:"created" jsonschema:"RFC 3339 time"`
}

// CursorView is where the human is looking.
type CursorView struct {
	Path        string `json:"path,omitempty" jsonschema:"the file; absent before the human has opened any"`
	Side        string `json:"side,omitempty"`
	Line        int    `json:"line,omitempty"`
	Hunk        int    `json:"hunk" jsonschema:"the hunk within the file, -1 when on the file's heading or outside every hunk"`
	Declaration string `json:"declaration,omitempty" jsonschema:"the function or type that hunk is in, when git named one"`
}

func sourceView(s app.SourceInfo) SourceView {
	return SourceView{Kind: s.Kind, Label: s.Label}
}

func sideName(s changeset.Side) string {
	if s == changeset.SideOld || s == changeset.SideNew {
		return s.String()
	}
	return ""
}

func stateName(s app.SuggestionState) string {
	switch s {
	case app.SuggestionPending:
		return "pending"
	case app.SuggestionAccepted:
		return "accepted"
	case app.SuggestionDeclined:
		return "declined"
	}
	return "unknown"
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func suggestionView(s app.Suggestion) SuggestionView {
	return SuggestionView{
		ID: s.ID, Path: s.Path, Hunk: s.Hunk, Side: sideName(s.Side), Line: s.Line,
		Reason: s.Reason, State: stateName(s.State), Created: stamp(s.Created),
	}
}

func suggestionViews(list []app.Suggestion) []SuggestionView {
	out := make([]SuggestionView, 0, len(list))
	for _, s := range list {
		out = append(out, suggestionView(s))
	}
	return out
}

// commentView renders p against cs, the changeset p was placed in.
func commentView(p session.Placed, cs *changeset.Changeset) CommentView {
	v := CommentView{
		ID: p.ID, Author: p.Author.String(), Status: p.Rung.String(), Hunk: -1,
		Body: p.Body, Resolved: p.Resolved, ReplyTo: p.ReplyTo, Created: stamp(p.Created),
	}
	for _, l := range p.Anchor.Lines {
		q, _ := changeset.SanitizeBidi(l)
		v.Quote = append(v.Quote, q)
	}
	if p.Orphaned() || p.Location.Path == "" {
		return v
	}
	loc := p.Location
	v.Path, v.Side, v.Line = loc.Path, sideName(loc.Side), loc.Start
	if loc.End != loc.Start {
		v.EndLine = loc.End
	}
	if f := app.File(cs, loc.Path, loc.Side); f != nil {
		v.Hunk = hunkOfLine(f, loc.Side, loc.Start)
	}
	return v
}
