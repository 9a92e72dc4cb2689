package changeset

import (
	"fmt"
	"strconv"
	"strings"
)

// A GNU context diff hunk lists the old lines ("  " context, "- " removed,
// "! " changed) and then the new ones ("  ", "+ " added, "! "), either list
// omitted when it would hold only context. It is converted here into the
// unified model: one merged body, Lines in unified form (marker + text,
// which is what Digest hashes), a synthesised "@@ -a,b +c,d @@" Header, and
// Rows numbered as for any unified hunk.

// contextFile parses a context diff file: "*** old", "--- new", then hunks
// each opened by a row of stars.
func (p *parser) contextFile() error {
	oldH, next := p.lineAt(p.pos)
	newH, after := p.lineAt(next)
	f, err := p.namedFile(oldH[4:], newH[4:], p.line)
	if err != nil {
		return err
	}
	p.advance(next)
	p.advance(after)
	var bodies []body
	for {
		line, next := p.lineAt(p.pos)
		if !strings.HasPrefix(line, "***************") {
			break
		}
		decl := strings.TrimSpace(strings.TrimLeft(line, "*"))
		p.advance(next)
		if err := p.contextHunk(&f, decl); err != nil {
			return err
		}
		bodies = append(bodies, body{synthetic: true})
	}
	inferCreation(&f)
	p.addFile(f, bodies)
	return nil
}

// ctxLine is one line of a context hunk section: its marker byte, its text
// and whether a "\ No newline" marker followed it.
type ctxLine struct {
	mark  byte
	text  string
	noEOL string // the marker line itself, "" when absent
}

func (p *parser) contextHunk(f *File, decl string) error {
	oldStart, oldWant, ok := p.contextRange("*** ", " ****")
	if !ok {
		return &ParseError{Line: p.line, Msg: `expected a context hunk range "*** START[,END] ****"`}
	}
	oldLines := p.contextSection(oldWant, "- !")
	newStart, newWant, ok := p.contextRange("--- ", " ----")
	if !ok {
		return &ParseError{Line: p.line, Msg: `expected a context hunk range "--- START[,END] ----"`}
	}
	newLines := p.contextSection(newWant, "+ !")

	b := bodyBuilder{p: p, oldNo: max(oldStart, 1), newNo: max(newStart, 1)}
	emit := func(kind Kind, l ctxLine) {
		marker := " "
		switch kind {
		case KindAdd:
			marker = "+"
		case KindDel:
			marker = "-"
		}
		b.push(kind, marker+l.text, 0)
		if l.noEOL != "" {
			b.push(KindMeta, l.noEOL, 0)
		}
	}
	switch {
	case len(oldLines) == 0:
		for _, l := range newLines {
			emit(sideKind(l.mark, KindAdd), l)
		}
	case len(newLines) == 0:
		for _, l := range oldLines {
			emit(sideKind(l.mark, KindDel), l)
		}
	default:
		mergeContext(oldLines, newLines, emit)
	}
	if b.adds == 0 && b.dels == 0 {
		return &ParseError{Line: p.line, Msg: "context hunk changes no line; expected \"-\", \"+\" or \"!\" lines before this"}
	}
	header := fmt.Sprintf("@@ -%d,%d +%d,%d @@", oldStart, b.old, newStart, b.new)
	if decl != "" {
		header += " " + decl
	}
	h := Hunk{
		Index: len(f.Hunks), Header: header, Declaration: decl,
		OldStart: oldStart, OldCount: b.old, NewStart: newStart, NewCount: b.new,
		Rows: p.rows.take(), Lines: p.lines.take(),
	}
	if !rangeAdmits(oldWant, b.old) || !rangeAdmits(newWant, b.new) {
		h.Warnings = []string{fmt.Sprintf("context hunk ranges promise %d old and %d new lines but the body holds %d and %d; counts taken from the body",
			oldWant, newWant, b.old, b.new)}
	}
	f.Additions += b.adds
	f.Deletions += b.dels
	f.Hunks = append(f.Hunks, h)
	return nil
}

// sideKind is the row kind of a line of a one-sided context hunk: context
// for a space marker, changed otherwise.
func sideKind(mark byte, changed Kind) Kind {
	if mark == ' ' {
		return KindContext
	}
	return changed
}

// rangeAdmits reports whether a section that should span want lines (-1 for
// "one line, or none") holds got.
func rangeAdmits(want, got int) bool {
	if want < 0 {
		return got <= 1
	}
	return got == want
}

// mergeContext walks the two sections of a context hunk in step, emitting
// removals before additions and each changed ("!") run of the old side
// before the matching run of the new side.
func mergeContext(old, new []ctxLine, emit func(Kind, ctxLine)) {
	i, j := 0, 0
	for i < len(old) || j < len(new) {
		switch {
		case i < len(old) && old[i].mark == '-':
			emit(KindDel, old[i])
			i++
		case j < len(new) && new[j].mark == '+':
			emit(KindAdd, new[j])
			j++
		case i < len(old) && old[i].mark == '!':
			for ; i < len(old) && old[i].mark == '!'; i++ {
				emit(KindDel, old[i])
			}
			for ; j < len(new) && new[j].mark == '!'; j++ {
				emit(KindAdd, new[j])
			}
		case j < len(new) && new[j].mark == '!':
			for ; j < len(new) && new[j].mark == '!'; j++ {
				emit(KindAdd, new[j])
			}
		case i < len(old) && j < len(new):
			emit(KindContext, new[j])
			i++
			j++
		case i < len(old):
			emit(KindDel, old[i])
			i++
		default:
			emit(KindAdd, new[j])
			j++
		}
	}
}

// contextRange reads "*** A,B ****" (or "--- A,B ----") at the current line
// and returns its start and its line count: B-A+1, or -1 for a single
// number, which means one line or (after an empty side) none.
func (p *parser) contextRange(prefix, suffix string) (start, want int, ok bool) {
	line, next := p.lineAt(p.pos)
	line = strings.TrimSuffix(line, "\r")
	if !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, suffix) || len(line) < len(prefix)+len(suffix) {
		return 0, 0, false
	}
	v := line[len(prefix) : len(line)-len(suffix)]
	a, b, comma := strings.Cut(v, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 || start > maxLineNumber {
		return 0, 0, false
	}
	want = -1
	if comma {
		end, err := strconv.Atoi(b)
		if err != nil || end < start-1 || end > maxLineNumber {
			return 0, 0, false
		}
		want = end - start + 1
	}
	p.advance(next)
	return start, want, true
}

// contextSection reads the lines of one side of a context hunk: want lines
// (or one, when want is -1) whose marker is a space or one of marks, each
// followed by an optional "\ No newline" marker. A section omitted because it
// holds only context reads as no lines.
func (p *parser) contextSection(want int, marks string) []ctxLine {
	if want < 0 {
		want = 1
	}
	var out []ctxLine
	for len(out) < want && p.pos < len(p.s) {
		line, next := p.lineAt(p.pos)
		if len(line) < 2 || line[1] != ' ' || (line[0] != ' ' && strings.IndexByte(marks, line[0]) < 0) {
			break
		}
		out = append(out, ctxLine{mark: line[0], text: line[2:]})
		p.advance(next)
		if l2, n2 := p.lineAt(p.pos); strings.HasPrefix(l2, "\\") {
			out[len(out)-1].noEOL = l2
			p.advance(n2)
		}
	}
	return out
}
