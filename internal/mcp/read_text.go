package mcp

import (
	"fmt"
	"strconv"
	"strings"
)

// The text a model reads for the summary, full and patch projections is
// rendered here, compact and in the shape of a diff; the structured JSON
// of the same answer travels beside it for programs. A diff with its line
// numbers in a gutter is what lets a model name the line it comments on
// without counting from an @@ header.

// textHeader is the first lines of every text answer: what a writing tool
// needs back, and what was left out.
func textHeader(v ReviewView) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "as_of: %s\n", v.AsOf)
	if len(v.Omitted) > 0 {
		fmt.Fprintf(&sb, "omitted (read with path, a file or a directory): %s\n", strings.Join(v.Omitted, "; "))
	}
	sb.WriteByte('\n')
	return sb.String()
}

// summaryText lists one file a line: status, path, counts and progress.
func summaryText(v ReviewView) string {
	var sb strings.Builder
	sb.WriteString(textHeader(v))
	if t := v.Totals; t != nil {
		fmt.Fprintf(&sb, "%s: %s, +%d -%d, %s (%d read), %s\n\n",
			v.Source.Label, count(t.Files, "file"), t.Additions, t.Deletions, count(t.Hunks, "hunk"), t.HunksRead, count(t.Comments, "unresolved comment"))
	}
	for _, f := range v.Files {
		sb.WriteString(fileLine(f))
	}
	if len(v.Directories) > 0 {
		sb.WriteString("\ndirectories:\n")
		for _, d := range v.Directories {
			fmt.Fprintf(&sb, "  %s  %s, +%d -%d, %s (%d read)\n", orTop(d.Path), count(d.Files, "file"), d.Additions, d.Deletions, count(d.Hunks, "hunk"), d.HunksRead)
		}
	}
	return sb.String()
}

// fileLine is "modified server/handler.go  +17 -4  2 hunks (1 read)  1 unresolved comment".
func fileLine(f FileView) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-8s %s", f.Status, f.Path)
	if f.OldPath != "" {
		fmt.Fprintf(&sb, " (from %s)", f.OldPath)
	}
	switch {
	case f.Binary:
		sb.WriteString("  binary")
	case f.HunkCount == 0:
		sb.WriteString("  no hunks")
	default:
		fmt.Fprintf(&sb, "  +%d -%d  %s (%d read)", f.Additions, f.Deletions, count(f.HunkCount, "hunk"), f.HunksRead)
	}
	if f.ModeChange != "" {
		fmt.Fprintf(&sb, "  mode %s", f.ModeChange)
	}
	if f.Comments > 0 {
		fmt.Fprintf(&sb, "  %s", count(f.Comments, "unresolved comment"))
	}
	sb.WriteByte('\n')
	return sb.String()
}

// fullText renders each hunk with its rows numbered in two gutters, old
// then new, so "old 16" and "new 18" can be read off the line itself.
func fullText(v ReviewView) string {
	var sb strings.Builder
	sb.WriteString(textHeader(v))
	sb.WriteString("old   new     (line numbers; add_comment takes new for + and context lines, old for - lines)\n")
	for _, f := range v.Files {
		sb.WriteString("\n")
		sb.WriteString(fileLine(f))
		for _, h := range f.Hunks {
			read := "unread"
			if h.Read {
				read = "read"
			}
			fmt.Fprintf(&sb, "%s   [hunk %d, %s]\n", h.Header, h.Index, read)
			for _, r := range h.Rows {
				fmt.Fprintf(&sb, "%5s %5s %s%s\n", num(r.Old), num(r.New), marker(r.Kind), r.Text)
			}
		}
	}
	return sb.String()
}

func num(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func marker(kind string) string {
	switch kind {
	case "add":
		return "+ "
	case "del":
		return "- "
	case "meta":
		return "\\ "
	}
	return "  "
}

func orTop(dir string) string {
	if dir == "" {
		return "(top level)"
	}
	return dir
}

// count is "1 hunk", "2 hunks".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
