package changeset

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unsafe"
)

// Parse reads a whole patch from r and parses it as ParseBytes does.
func Parse(r io.Reader) (*Changeset, error) {
	b, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("read patch: %w", err)
	}
	return ParseBytes(b)
}

// readAll is io.ReadAll presized from a Stat or Len method when r has one, so
// a large patch is read into one buffer instead of a series of doublings.
func readAll(r io.Reader) ([]byte, error) {
	size := 0
	switch v := r.(type) {
	case interface{ Len() int }:
		size = v.Len()
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := v.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < 1<<40 {
			size = int(fi.Size())
		}
	}
	if size == 0 {
		return io.ReadAll(r)
	}
	var buf bytes.Buffer
	buf.Grow(size + bytes.MinRead)
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

// ParseBytes parses a patch in any dialect this package reads (git and
// traditional unified diffs, GNU context diffs, with mail, quilt, hg and svn
// wrappers) into a Changeset whose Digest is PatchDigest(patch).
//
// ParseBytes does not copy patch: the strings of the result share its
// memory, so the caller must not modify patch afterwards.
//
// Errors: a *ParseError for malformed input (wrapping ErrNoDiff for
// non-empty input holding no diff at all) and a *DialectError
// (errors.Is(err, ErrUnsupportedDialect)) for combined diffs, normal diffs
// and ed scripts. Input that is empty or only whitespace is an empty
// Changeset, not an error: it is what a diff of two equal trees prints.
// Git changes with headers only (mode change, pure rename, binary) are
// files without hunks.
//
// Safe for concurrent use; it uses up to GOMAXPROCS goroutines on a large
// patch.
func ParseBytes(patch []byte) (*Changeset, error) {
	return parseString(unsafe.String(unsafe.SliceData(patch), len(patch)))
}

// parallelMin is the patch size from which parsing runs on several
// goroutines (see chunks.go).
const parallelMin = 256 << 10

// parser is one pass over a patch, or over one chunk of it. Every string it
// produces is a substring of s, except the unified rendition of a context
// diff's lines.
type parser struct {
	s    string // the patch up to the end of this parser's chunk
	pos  int    // offset of the next unread line
	line int    // 1-based number of the line at pos

	files  []File
	bodies [][]body // per file, per hunk: where Digest's input lies

	rows  run[Row]
	lines run[string]
	nums  numbers

	other *DialectError // the first combined diff, normal diff or ed script seen
	noops int           // git sections that change nothing, left out
}

// body locates a hunk's lines for hashing: s[start:end] when they are
// contiguous in the patch, or nothing when the lines were synthesised.
type body struct {
	start, end int
	synthetic  bool
}

// lineAt returns the line starting at pos without its "\n" (a CR stays) and
// the offset just after it. At the end of input it returns "", -1.
func (p *parser) lineAt(pos int) (string, int) {
	if pos >= len(p.s) {
		return "", -1
	}
	i := strings.IndexByte(p.s[pos:], '\n')
	if i < 0 {
		return p.s[pos:], len(p.s)
	}
	return p.s[pos : pos+i], pos + i + 1
}

// advance moves to the line starting at next.
func (p *parser) advance(next int) {
	p.pos = next
	p.line++
}

func (p *parser) run() error {
	for p.pos < len(p.s) {
		line, next := p.lineAt(p.pos)
		var err error
		switch {
		case strings.HasPrefix(line, "diff --git "):
			err = p.gitFile(line, next)
		case strings.HasPrefix(line, "diff --cc ") || strings.HasPrefix(line, "diff --combined ") || strings.HasPrefix(line, "@@@ -"):
			// Skipped line by line as git apply skips it; refused only when
			// the patch holds nothing else.
			p.noteDialect(DialectCombined)
			p.advance(next)
		case strings.HasPrefix(line, "--- ") && p.unifiedHeaderAt(next):
			err = p.traditionalFile()
		case strings.HasPrefix(line, "*** ") && p.contextHeaderAt(next):
			err = p.contextFile()
		case strings.HasPrefix(line, "Binary files ") && strings.HasSuffix(strings.TrimSuffix(line, "\r"), " differ"):
			p.binaryFile(line)
			p.advance(next)
		case strings.HasPrefix(line, "@@ -"):
			return &ParseError{Line: p.line, Msg: `hunk header without a file header; expected "diff --git" or a "---"/"+++" pair before it`}
		default:
			p.noteOtherDialect(line, next)
			p.advance(next)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// verdict decides what a parse that found files or not amounts to: nil when
// it found files (or the input is blank), else the error that says why
// nothing was found. other and noops are the parsers' notes, in order.
func verdict(s string, files int, other *DialectError, noops int) error {
	switch {
	case files > 0:
		return nil
	case other != nil:
		return other
	case noops > 0:
		return &ParseError{Msg: `no change found: every "diff --git" section of the patch is empty`, Err: ErrNoDiff}
	case strings.TrimSpace(s) == "":
		return nil
	}
	return &ParseError{Msg: "no diff found: expected unified (---/+++/@@) or context (***/---) diff headers", Err: ErrNoDiff}
}

// unifiedHeaderAt reports whether a "--- " line ending just before pos starts
// a traditional unified file header: "+++ " follows, then a hunk header.
func (p *parser) unifiedHeaderAt(pos int) bool {
	l2, n2 := p.lineAt(pos)
	if !strings.HasPrefix(l2, "+++ ") {
		return false
	}
	l3, _ := p.lineAt(n2)
	return strings.HasPrefix(l3, "@@ -")
}

// contextHeaderAt reports whether a "*** " line ending just before pos starts
// a context diff file header: "--- " follows, then a row of stars.
func (p *parser) contextHeaderAt(pos int) bool {
	l2, n2 := p.lineAt(pos)
	if !strings.HasPrefix(l2, "--- ") {
		return false
	}
	l3, _ := p.lineAt(n2)
	return strings.HasPrefix(l3, "***************")
}

// noteOtherDialect notes a line that starts a normal diff ("5c5" followed by
// "< ") or an ed script ("5c" followed by text), reported only when the patch
// holds nothing this package reads.
func (p *parser) noteOtherDialect(line string, next int) {
	if p.other != nil || line == "" || line[0] < '0' || line[0] > '9' {
		return
	}
	line = strings.TrimSuffix(line, "\r")
	i := skipRange(line)
	if i == 0 || i >= len(line) || (line[i] != 'a' && line[i] != 'c' && line[i] != 'd') {
		return
	}
	rest := line[i+1:]
	l2, _ := p.lineAt(next)
	switch {
	case rest == "" && (line[i] == 'd' || (l2 != "" && !strings.HasPrefix(l2, "diff "))):
		p.noteDialect(DialectEd)
	case skipRange(rest) == len(rest) && (strings.HasPrefix(l2, "< ") || strings.HasPrefix(l2, "> ")):
		p.noteDialect(DialectNormal)
	}
}

// noteDialect remembers the first unsupported dialect seen, at the current
// line.
func (p *parser) noteDialect(d string) {
	if p.other == nil {
		p.other = &DialectError{Dialect: d, Line: p.line}
	}
}

// skipRange returns the length of a leading "N" or "N,M" of s, 0 if none.
func skipRange(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && s[i] == ',' {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j > i+1 {
			i = j
		}
	}
	return i
}

// addFile appends a finished file and the hashing plan of its hunks.
func (p *parser) addFile(f File, bodies []body) {
	if f.Hunks == nil {
		f.Hunks = []Hunk{}
	}
	p.files = append(p.files, f)
	p.bodies = append(p.bodies, bodies)
}
