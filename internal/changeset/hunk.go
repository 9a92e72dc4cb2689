package changeset

import (
	"fmt"
	"strings"
)

// hunks parses the unified hunks following a file header into f, counting
// its additions and deletions, and returns where each hunk's body lies.
// Blank lines between two hunks are skipped.
func (p *parser) hunks(f *File) ([]body, error) {
	var bodies []body
	for p.pos < len(p.s) {
		line, next := p.lineAt(p.pos)
		if !strings.HasPrefix(line, "@@ -") {
			if !p.blankRunBeforeHunk() {
				break
			}
			continue
		}
		b, err := p.hunk(f, line, next)
		if err != nil {
			return nil, err
		}
		bodies = append(bodies, b)
	}
	return bodies, nil
}

// blankRunBeforeHunk skips blank lines when another hunk header follows them
// and reports whether it did.
func (p *parser) blankRunBeforeHunk() bool {
	pos, n := p.pos, 0
	for pos < len(p.s) {
		line, next := p.lineAt(pos)
		if line != "" && line != "\r" {
			if n > 0 && strings.HasPrefix(line, "@@ -") {
				p.pos, p.line = pos, p.line+n
				return true
			}
			return false
		}
		pos, n = next, n+1
	}
	return false
}

// hunk parses one unified hunk. The header's counts decide where the body
// ends, as git and GNU patch read it; when they disagree with the body the
// counts are recomputed and the hunk carries a warning:
//   - a body shorter than its counts ends at the first line that cannot be a
//     body line when that is another hunk or file header or the end of
//     input (trailing blank lines excluded); anything else is an error;
//   - body-like lines after a body whose counts are used up are taken in
//     only when they run into another hunk header, where git would refuse
//     the patch; otherwise they are left out, as git leaves them out, with a
//     warning. A mail signature ("-- ") is never taken for a removed line.
func (p *parser) hunk(f *File, header string, next int) (body, error) {
	oldStart, oldCount, newStart, newCount, ok := parseUnifiedRange(header)
	if !ok {
		return body{}, &ParseError{Line: p.line, Msg: fmt.Sprintf("malformed hunk header %q; expected \"@@ -START[,COUNT] +START[,COUNT] @@\"", clip(header))}
	}
	headerLine := p.line
	p.advance(next)
	start := p.pos
	b := bodyBuilder{p: p, lastEnd: start, oldNo: max(oldStart, 1), newNo: max(newStart, 1)}
	// Rows are at most the lines the counts promise (a context line counts
	// on both sides), and at most the lines left in the input.
	expect := min(oldCount+newCount+2, len(p.s)-p.pos+1)
	p.rows.reserve(expect)
	p.lines.reserve(expect)
	var warnings []string
	if remOld, remNew := p.countedBody(&b, oldCount, newCount); remOld > 0 || remNew > 0 {
		if err := p.endShortBody(&b, headerLine); err != nil {
			return body{}, err
		}
	} else if w := p.extend(&b); w != "" {
		warnings = append(warnings, w)
	}
	if b.adds == 0 && b.dels == 0 {
		return body{}, &ParseError{Line: headerLine, Msg: fmt.Sprintf("hunk %q changes no line; expected \"+\" or \"-\" lines after it", clip(header))}
	}
	if b.old != oldCount || b.new != newCount {
		warnings = append([]string{fmt.Sprintf("header says -%d,%d +%d,%d but the body holds -%d,%d +%d,%d; counts recomputed from the body",
			oldStart, oldCount, newStart, newCount, oldStart, b.old, newStart, b.new)}, warnings...)
	}
	f.Hunks = append(f.Hunks, Hunk{
		Index:       len(f.Hunks),
		Header:      header,
		Declaration: DeclarationOf(header),
		OldStart:    oldStart,
		OldCount:    b.old,
		NewStart:    newStart,
		NewCount:    b.new,
		Rows:        p.rows.take(),
		Lines:       p.lines.take(),
		Warnings:    warnings,
	})
	f.Additions += b.adds
	f.Deletions += b.dels
	return body{start: start, end: b.lastEnd}, nil
}

// countedBody reads body lines until the header's counts are used up or a
// line that cannot be a body line, then any "\ No newline" marker, and
// returns the counts left (negative where the body overshot one side).
func (p *parser) countedBody(b *bodyBuilder, remOld, remNew int) (int, int) {
	s, pos := p.s, p.pos
	for (remOld > 0 || remNew > 0) && pos < len(s) {
		var line string
		nxt := len(s)
		if i := strings.IndexByte(s[pos:], '\n'); i >= 0 {
			line, nxt = s[pos:pos+i], pos+i+1
		} else {
			line = s[pos:]
		}
		kind := KindContext
		if line != "" {
			switch line[0] {
			case ' ':
			case '+':
				kind = KindAdd
			case '-':
				if strings.HasPrefix(line, "--- ") && p.fileHeaderAt(nxt) {
					p.pos = pos
					return remOld, remNew
				}
				kind = KindDel
			case '\\':
				kind = KindMeta
			default:
				p.pos = pos
				return remOld, remNew
			}
		}
		switch kind {
		case KindContext:
			remOld--
			remNew--
		case KindDel:
			remOld--
		case KindAdd:
			remNew--
		}
		b.push(kind, line, nxt)
		pos = nxt
		p.line++
	}
	for pos < len(s) && s[pos] == '\\' {
		line, nxt := p.lineAt(pos)
		b.push(KindMeta, line, nxt)
		pos = nxt
		p.line++
	}
	p.pos = pos
	return remOld, remNew
}

// endShortBody decides what a body cut short of its header's counts is.
// Cut by the end of input, another hunk or file header, or blank lines before
// one, it is a miscounted hunk, kept with its trailing blank lines dropped.
// Cut by a mail signature ("-- " then the version) it is the same, the
// signature excluded. Cut by anything else, the patch is corrupt.
func (p *parser) endShortBody(b *bodyBuilder, headerLine int) error {
	if p.boundaryAt(p.pos) {
		b.trimTrailingBlank()
		return nil
	}
	if n := p.rows.len(); n > 0 {
		if last := *p.lines.at(n - 1); last == "-- " || last == "-- \r" {
			b.dropLast()
			p.pos -= len(last) + 1
			p.line--
			return nil
		}
	}
	line, _ := p.lineAt(p.pos)
	// The header's distance, not its line number: chunk parsers number lines
	// from their chunk's start, and only ParseError.Line is made absolute.
	return &ParseError{Line: p.line, Msg: fmt.Sprintf("expected a hunk body line (starting with \" \", \"+\", \"-\" or \"\\\\\"), got %q: the hunk header %d lines above counts more lines than its body holds", clip(line), p.line-headerLine)}
}

// boundaryAt reports whether the line at pos, after any blank lines, ends a
// hunk legitimately: the end of input, a hunk header, or a file header of
// any dialect.
func (p *parser) boundaryAt(pos int) bool {
	for {
		line, next := p.lineAt(pos)
		switch {
		case next < 0:
			return true
		case line == "" || line == "\r":
			pos = next
			continue
		}
		return strings.HasPrefix(line, "@@ -") || strings.HasPrefix(line, "diff ") || strings.HasPrefix(line, "Index: ") ||
			strings.HasPrefix(line, "====") || strings.HasPrefix(line, "Only in ") || strings.HasPrefix(line, "Binary files ") ||
			(strings.HasPrefix(line, "--- ") && p.unifiedHeaderAt(next)) || (strings.HasPrefix(line, "*** ") && p.contextHeaderAt(next))
	}
}

// extend looks at the body-like lines following a hunk whose counts are
// used up. When they run up to another hunk header, where git would refuse
// the patch, they are taken into the hunk. Otherwise they are left out, as
// git apply and GNU patch leave them out, and the returned warning says so;
// a mail signature ("-- ") or plain text after the hunk ends it silently.
func (p *parser) extend(b *bodyBuilder) string {
	pos, n := p.pos, 0
	keep, keepN := -1, 0
	for {
		line, next := p.lineAt(pos)
		if next < 0 || strings.HasPrefix(line, "@@ -") || strings.HasPrefix(line, "diff ") ||
			strings.HasPrefix(line, "Index: ") || (strings.HasPrefix(line, "--- ") && p.fileHeaderAt(next)) {
			if keep < 0 {
				return ""
			}
			if !strings.HasPrefix(line, "@@ -") {
				return fmt.Sprintf("%d line(s) after the hunk look like body lines but lie outside its header's counts; left out, as git apply leaves them out", keepN)
			}
			break
		}
		if line != "" && line != "\r" {
			switch line[0] {
			case '+', ' ', '\\':
			case '-':
				if line == "-- " || line == "-- \r" {
					return ""
				}
			default:
				return ""
			}
			keep, keepN = next, n+1
		}
		pos, n = next, n+1
	}
	for pos := p.pos; pos < keep; {
		line, next := p.lineAt(pos)
		kind := KindContext
		if line != "" {
			switch line[0] {
			case '+':
				kind = KindAdd
			case '-':
				kind = KindDel
			case '\\':
				kind = KindMeta
			}
		}
		b.push(kind, line, next)
		pos = next
	}
	p.pos, p.line = keep, p.line+keepN
	return ""
}

// fileHeaderAt reports whether a "--- " line ending just before pos is a
// file header rather than a removed line starting "-- ": "+++ " follows, then
// a hunk header.
func (p *parser) fileHeaderAt(pos int) bool { return p.unifiedHeaderAt(pos) }

// bodyBuilder appends one hunk's rows to the parser's shared runs, numbering
// lines and counting as it goes.
type bodyBuilder struct {
	p            *parser
	oldNo, newNo int // next line number on each side
	old, new     int // lines of each file in the body so far
	adds, dels   int
	lastEnd      int // offset just after the last pushed raw line
}

// push appends one body line of the given kind; next is the offset just
// after it in the patch.
func (b *bodyBuilder) push(kind Kind, line string, next int) {
	p := b.p
	text := line
	if text != "" {
		text = text[1:]
	}
	if kind == KindMeta {
		text = strings.TrimPrefix(text, " ")
	}
	if n := len(text); n > 0 && text[n-1] == '\r' {
		text = text[:n-1]
	}
	r := Row{Kind: kind, Text: text}
	switch kind {
	case KindContext:
		r.OldLine, r.NewLine = p.nums.at(b.oldNo), p.nums.at(b.newNo)
		b.oldNo++
		b.newNo++
		b.old++
		b.new++
	case KindDel:
		r.OldLine = p.nums.at(b.oldNo)
		b.oldNo++
		b.old++
		b.dels++
	case KindAdd:
		r.NewLine = p.nums.at(b.newNo)
		b.newNo++
		b.new++
		b.adds++
	}
	p.rows.push(r)
	p.lines.push(line)
	b.lastEnd = next
}

// dropLast removes the last pushed row, a removed line.
func (b *bodyBuilder) dropLast() {
	p := b.p
	n := p.rows.len() - 1
	b.lastEnd -= len(*p.lines.at(n)) + 1
	b.old--
	b.dels--
	b.oldNo--
	p.rows.truncate(n)
	p.lines.truncate(n)
}

// trimTrailingBlank drops blank context lines ending a body cut short of its
// counts: they are separators before whatever interrupted the hunk.
func (b *bodyBuilder) trimTrailingBlank() {
	p := b.p
	n := p.rows.len()
	for n > 0 && p.rows.at(n-1).Kind == KindContext && (*p.lines.at(n - 1) == "" || *p.lines.at(n - 1) == "\r") {
		b.lastEnd -= len(*p.lines.at(n - 1)) + 1
		n--
		b.old--
		b.new--
		b.oldNo--
		b.newNo--
	}
	if n < p.rows.len() {
		p.rows.truncate(n)
		p.lines.truncate(n)
	}
}

// parseUnifiedRange reads "@@ -A[,B] +C[,D] @@..."; an omitted count is 1.
func parseUnifiedRange(h string) (oldStart, oldCount, newStart, newCount int, ok bool) {
	rest := h[len("@@ -"):]
	if oldStart, oldCount, rest, ok = parseStartCount(rest); !ok || !strings.HasPrefix(rest, " +") {
		return 0, 0, 0, 0, false
	}
	if newStart, newCount, rest, ok = parseStartCount(rest[2:]); !ok || !strings.HasPrefix(rest, " @@") {
		return 0, 0, 0, 0, false
	}
	return oldStart, oldCount, newStart, newCount, true
}

// maxLineNumber bounds the numbers read from headers, keeping arithmetic on
// them far from overflow.
const maxLineNumber = 1 << 40

func parseStartCount(s string) (start, count int, rest string, ok bool) {
	start, s, ok = parseNumber(s)
	if !ok {
		return 0, 0, s, false
	}
	count = 1
	if strings.HasPrefix(s, ",") {
		if count, s, ok = parseNumber(s[1:]); !ok {
			return 0, 0, s, false
		}
	}
	return start, count, s, true
}

func parseNumber(s string) (int, string, bool) {
	n, i := 0, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		n = n*10 + int(s[i]-'0')
		if n > maxLineNumber {
			return 0, s, false
		}
		i++
	}
	return n, s[i:], i > 0
}
