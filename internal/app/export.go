package app

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// ExportedDraft is one draft as `leanreview export --format json` writes it.
type ExportedDraft struct {
	ID      string         `json:"id"`
	Path    string         `json:"path"`
	Side    changeset.Side `json:"side"`
	Line    int            `json:"line"`
	EndLine int            `json:"end_line"`
	Body    string         `json:"body"`
	Status  changeset.Rung `json:"status"`
	Author  session.Actor  `json:"author"`
	// Quote is the code the comment is about, as the author was shown it.
	Quote []string `json:"quote"`
	// ReplyTo is the forge thread a staged reply answers.
	ReplyTo string `json:"reply_to,omitempty"`
}

// Export turns placed drafts into their exported form: where a draft sits
// now (its anchor's own lines for an orphan) and what it quotes.
func Export(placed []session.Placed) []ExportedDraft {
	out := make([]ExportedDraft, 0, len(placed))
	for _, p := range placed {
		e := ExportedDraft{
			ID: p.ID, Body: p.Body, Status: p.Rung, Author: p.Author, ReplyTo: p.ReplyTo,
			Path: p.Anchor.Path, Side: p.Anchor.Side, Line: p.Anchor.Start, EndLine: p.Anchor.End,
			Quote: append([]string{}, p.Anchor.Lines...),
		}
		if !p.Orphaned() && p.Location.Path != "" {
			e.Path, e.Side, e.Line, e.EndLine = p.Location.Path, p.Location.Side, p.Location.Start, p.Location.End
		}
		out = append(out, e)
	}
	return out
}

// WriteMarkdown writes drafts grouped by file, each under the code it is
// about, ready to paste into a message or a prompt. Files come in path
// order, drafts by line; orphans close their file's section, tagged.
func WriteMarkdown(w io.Writer, title string, drafts []ExportedDraft) error {
	byPath := map[string][]ExportedDraft{}
	var paths []string
	for _, d := range drafts {
		if _, ok := byPath[d.Path]; !ok {
			paths = append(paths, d.Path)
		}
		byPath[d.Path] = append(byPath[d.Path], d)
	}
	sort.Strings(paths)
	var b strings.Builder
	fmt.Fprintf(&b, "# Review comments: %s\n", title)
	if len(drafts) == 0 {
		b.WriteString("\nNo draft comments.\n")
	}
	for _, path := range paths {
		list := byPath[path]
		sort.SliceStable(list, func(i, j int) bool {
			if list[i].Orphaned() != list[j].Orphaned() {
				return !list[i].Orphaned()
			}
			return list[i].Line < list[j].Line
		})
		fmt.Fprintf(&b, "\n## %s\n", path)
		for _, d := range list {
			fmt.Fprintf(&b, "\n### %s (%s side)", lineRange(d.Line, d.EndLine), d.Side)
			if d.Orphaned() {
				b.WriteString(" [orphaned: this code is no longer in the change]")
			} else if d.Status == changeset.RungMoved {
				b.WriteString(" [moved]")
			}
			b.WriteString("\n\n")
			writeFence(&b, path, d.Quote)
			b.WriteString("\n")
			b.WriteString(strings.TrimRight(d.Body, "\n"))
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Orphaned reports whether the draft could not be placed in the change.
func (d ExportedDraft) Orphaned() bool { return d.Status == changeset.RungOrphaned }

// writeFence quotes code in a fence longer than any backtick run inside it,
// so quoted code cannot close the fence early.
func writeFence(b *strings.Builder, path string, lines []string) {
	fence := "```"
	for _, l := range lines {
		for strings.Contains(l, fence) {
			fence += "`"
		}
	}
	lang := ""
	if i := strings.LastIndexByte(path, '.'); i >= 0 && !strings.ContainsAny(path[i+1:], "/ `") {
		lang = path[i+1:]
	}
	fmt.Fprintf(b, "%s%s\n", fence, lang)
	for _, l := range lines {
		b.WriteString(strings.TrimSuffix(l, "\r"))
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "%s\n", fence)
}
