package editor

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/leanreview/leanreview/internal/changeset"
)

// Context is what the buffer's header shows about the comment being
// written. Every field is optional; the header leaves out what is empty.
type Context struct {
	Path    string
	OldPath string // set when the file was renamed
	Side    changeset.Side
	// StartLine and EndLine are 1-based line numbers on Side, inclusive;
	// EndLine == StartLine (or 0) for one line, StartLine == 0 for none.
	StartLine, EndLine int
	Code               []string // the commented lines' text, StartLine first
	Thread             []Note   // for a reply: the thread replied to, oldest first
}

// Note is one comment of a thread.
type Note struct {
	Author string
	Body   string
}

// headerMarker opens every header; a buffer whose text starts with it
// still carries (part of) the header when it is read back.
const headerMarker = "<!-- leanreview:"

// Instruction is the header's first line, after headerMarker.
const Instruction = "Write your comment below. Lines in this header are removed. An empty comment is discarded."

// renderBuffer returns the file the editor opens: the header, a blank
// line, then body (the comment being edited, or "" for a new one).
func renderBuffer(c Context, body string) string {
	var b strings.Builder
	b.WriteString(headerMarker + " " + Instruction + "\n")
	var facts []string
	if c.Path != "" {
		f := "File:  " + headerText(c.Path)
		if c.OldPath != "" && c.OldPath != c.Path {
			f += " (renamed from " + headerText(c.OldPath) + ")"
		}
		facts = append(facts, f)
	}
	if c.Side != 0 {
		facts = append(facts, "Side:  "+c.Side.String())
	}
	if c.StartLine > 0 {
		l := fmt.Sprintf("Lines: %d", c.StartLine)
		if c.EndLine > c.StartLine {
			l = fmt.Sprintf("Lines: %d-%d", c.StartLine, c.EndLine)
		}
		facts = append(facts, l)
	}
	section(&b, facts)
	section(&b, quoteCode(c))
	section(&b, quoteThread(c.Thread))
	b.WriteString("-->\n\n")
	if body != "" {
		b.WriteString(strings.TrimRight(body, " \t\r\n") + "\n")
	}
	return b.String()
}

// section writes a blank line and then lines, each indented by two spaces.
func section(b *strings.Builder, lines []string) {
	if len(lines) == 0 {
		return
	}
	b.WriteString("\n")
	for _, l := range lines {
		b.WriteString(strings.TrimRight("  "+l, " ") + "\n")
	}
}

func quoteCode(c Context) []string {
	if len(c.Code) == 0 {
		return nil
	}
	first := max(c.StartLine, 1)
	width := len(fmt.Sprint(first + len(c.Code) - 1))
	lines := make([]string, 0, len(c.Code))
	for i, code := range c.Code {
		lines = append(lines, fmt.Sprintf("%*d | %s", width, first+i, headerText(code)))
	}
	return lines
}

func quoteThread(thread []Note) []string {
	if len(thread) == 0 {
		return nil
	}
	lines := []string{"Replying to:"}
	for _, n := range thread {
		author := n.Author
		if author == "" {
			author = "(unknown)"
		}
		lines = append(lines, "  "+headerText(author)+" wrote:")
		for _, l := range strings.Split(strings.TrimRight(n.Body, " \t\r\n"), "\n") {
			lines = append(lines, "    > "+headerText(strings.TrimSuffix(l, "\r")))
		}
	}
	return lines
}

// headerText makes one line of text safe to show inside the header: it
// escapes control characters (tab excepted), bidi controls and invalid
// UTF-8 so that they cannot break the line or disguise it, and it breaks
// up "-->" and "--!>", either of which would end the HTML comment early.
func headerText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			fmt.Fprintf(&b, `\x%02x`, r)
		case isBidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	out := strings.ReplaceAll(b.String(), "-->", "-- >")
	return strings.ReplaceAll(out, "--!>", "--! >")
}

func isBidiControl(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// extractBody returns the comment in a buffer read back from the editor.
// When the text (after a byte-order mark and blank lines) starts with the
// header, everything up to and including the header's first "-->" goes:
// headerText guarantees that is the header's own end. A buffer whose
// header the user deleted is kept whole. Line endings become "\n", blank
// lines before the comment and trailing white space go. "" means the
// comment is empty.
func extractBody(content []byte) string {
	s := strings.ReplaceAll(string(content), "\r\n", "\n")
	s = strings.TrimPrefix(s, "\ufeff")
	if rest := strings.TrimLeft(s, " \t\n"); strings.HasPrefix(rest, headerMarker) {
		if _, after, ok := strings.Cut(rest, "-->"); ok {
			s = after
		}
	}
	s = strings.TrimRight(s, " \t\n")
	// Drop whole blank lines at the start but keep the first line's indent,
	// which can be Markdown (an indented code block).
	for {
		line, rest, ok := strings.Cut(s, "\n")
		if !ok || strings.TrimSpace(line) != "" {
			break
		}
		s = rest
	}
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return s
}
