package changeset

import (
	"fmt"
	"strings"
)

// gitHeader is what a "diff --git" section's extended headers said.
type gitHeader struct {
	lineA, lineB     string // names on the diff --git line, prefixes intact
	lineOK, noPrefix bool
	minusName        string // from "--- ", stripped; "" when absent
	plusName         string // from "+++ ", stripped
	from, to         string // rename or copy source and destination
	renamed, copied  bool
	created, deleted bool
}

// gitFile parses one "diff --git" section: its extended headers, then its
// hunks. first is the diff --git line, next the offset after it.
func (p *parser) gitFile(first string, next int) error {
	startLine := p.line
	var h gitHeader
	h.lineA, h.lineB, h.noPrefix, h.lineOK = gitHeaderNames(first[len("diff --git "):])
	p.advance(next)
	var f File
	for p.pos < len(p.s) {
		raw, next := p.lineAt(p.pos)
		line := strings.TrimSuffix(raw, "\r")
		switch {
		case strings.HasPrefix(line, "old mode "):
			f.OldMode = line[len("old mode "):]
		case strings.HasPrefix(line, "new mode "):
			f.NewMode = line[len("new mode "):]
		case strings.HasPrefix(line, "deleted file mode "):
			f.OldMode, h.deleted = line[len("deleted file mode "):], true
		case strings.HasPrefix(line, "new file mode "):
			f.NewMode, h.created = line[len("new file mode "):], true
		case strings.HasPrefix(line, "rename from "), strings.HasPrefix(line, "rename old "):
			h.from, h.renamed = gitName(line[len("rename from "):]), true
		case strings.HasPrefix(line, "rename to "):
			h.to, h.renamed = gitName(line[len("rename to "):]), true
		case strings.HasPrefix(line, "rename new "):
			h.to, h.renamed = gitName(line[len("rename new "):]), true
		case strings.HasPrefix(line, "copy from "):
			h.from, h.copied = gitName(line[len("copy from "):]), true
		case strings.HasPrefix(line, "copy to "):
			h.to, h.copied = gitName(line[len("copy to "):]), true
		case strings.HasPrefix(line, "similarity index "), strings.HasPrefix(line, "dissimilarity index "),
			strings.HasPrefix(line, "index "):
		case strings.HasPrefix(line, "Binary files ") && strings.HasSuffix(line, " differ"):
			f.Binary = true
		case line == "GIT binary patch":
			f.Binary = true
			p.advance(next)
			p.skipBinary()
			continue
		case strings.HasPrefix(line, "--- "):
			plus, after := p.lineAt(next)
			if !strings.HasPrefix(plus, "+++ ") {
				return &ParseError{Line: p.line + 1, Msg: fmt.Sprintf("expected \"+++ \" after %q", clip(line))}
			}
			h.minusName = p.gitSideName(line[4:], h.noPrefix)
			h.plusName = p.gitSideName(plus[4:], h.noPrefix)
			p.advance(next)
			next = after
		default:
			return p.finishGitFile(f, &h, startLine)
		}
		p.advance(next)
	}
	return p.finishGitFile(f, &h, startLine)
}

func (p *parser) gitSideName(v string, noPrefix bool) string {
	name := headerName(v)
	if noPrefix {
		return name
	}
	return stripComponents(name, 1)
}

// gitName reads a rename/copy header's name: quoted, or the rest of the line.
func gitName(v string) string {
	if name, _, ok := unquote(v); ok {
		return name
	}
	return v
}

func (p *parser) finishGitFile(f File, h *gitHeader, startLine int) error {
	oldName, newName := "", ""
	if h.lineOK {
		oldName, newName = h.lineA, h.lineB
		if !h.noPrefix {
			oldName, newName = stripComponents(oldName, 1), stripComponents(newName, 1)
		}
	}
	if h.minusName != "" {
		oldName = h.minusName
	}
	if h.plusName != "" {
		newName = h.plusName
	}
	if h.from != "" {
		oldName = h.from
	}
	if h.to != "" {
		newName = h.to
	}
	created := h.created || (oldName == devNull && newName != devNull)
	deleted := h.deleted || (newName == devNull && oldName != devNull)
	switch {
	case deleted || newName == "" || newName == devNull:
		f.Path = oldName
	default:
		f.Path = newName
	}
	if f.Path == "" || f.Path == devNull {
		return &ParseError{Line: startLine, Msg: "diff --git line names no file and no ---/+++ or rename header follows; expected \"diff --git a/PATH b/PATH\""}
	}
	f.OldPath = f.Path
	switch {
	case h.renamed || h.copied:
		if oldName != "" && oldName != devNull {
			f.OldPath = oldName
		}
		f.Status = StatusRenamed
		if h.copied {
			f.Status = StatusCopied
		}
	case created:
		f.Status = StatusAdded
	case deleted:
		f.Status = StatusDeleted
	default:
		f.Status = StatusModified
	}
	var bodies []body
	if !f.Binary {
		var err error
		if bodies, err = p.hunks(&f); err != nil {
			return err
		}
	}
	if len(f.Hunks) == 0 && !f.Binary && f.Status == StatusModified && f.OldMode == "" && f.NewMode == "" {
		// "diff --git" and nothing else: git prints it for a file whose
		// stat changed but whose content did not, and applies nothing.
		p.noops++
		return nil
	}
	p.addFile(f, bodies)
	return nil
}

// skipBinary skips the base85 blocks after "GIT binary patch": one or two
// "literal N" / "delta N" headers, each followed by data lines and a blank.
// A "diff --git" line ends a block missing its blank line (base85 has no
// space, so it cannot be data), which also keeps chunks.go's split exact.
func (p *parser) skipBinary() {
	for p.pos < len(p.s) {
		line, next := p.lineAt(p.pos)
		if !strings.HasPrefix(line, "literal ") && !strings.HasPrefix(line, "delta ") {
			return
		}
		p.advance(next)
		for p.pos < len(p.s) {
			line, next := p.lineAt(p.pos)
			if strings.HasPrefix(line, "diff --git ") {
				return
			}
			p.advance(next)
			if line == "" || line == "\r" {
				break
			}
		}
	}
}

// traditionalFile parses a "--- "/"+++ " file outside a git section (diff -u,
// svn, quilt, hg) and its hunks. Names lose one leading component, as with
// patch -p1; the epoch timestamp of diff -N marks a missing side.
func (p *parser) traditionalFile() error {
	minus, next := p.lineAt(p.pos)
	plus, after := p.lineAt(next)
	f, err := p.namedFile(minus[4:], plus[4:], p.line)
	if err != nil {
		return err
	}
	p.advance(next)
	p.advance(after)
	bodies, err := p.hunks(&f)
	if err != nil {
		return err
	}
	inferCreation(&f)
	p.addFile(f, bodies)
	return nil
}

// namedFile is a file of a traditional or context diff, named from the values
// of its two header lines (old side first); line is the first header line's
// number, for the error when neither side names a file.
func (p *parser) namedFile(oldV, newV string, line int) (File, error) {
	oldName := stripComponents(headerName(oldV), 1)
	newName := stripComponents(headerName(newV), 1)
	// A side without a name is the same file as the other side.
	if oldName == "" {
		oldName = newName
	}
	if newName == "" {
		newName = oldName
	}
	oldOK, newOK := oldName != "" && oldName != devNull, newName != "" && newName != devNull
	var f File
	switch {
	case !oldOK && !newOK:
		return f, &ParseError{Line: line, Msg: "neither file header line names a file; expected a path after \"---\" or \"+++\""}
	case !oldOK || (hasEpochTimestamp(oldV) && !hasEpochTimestamp(newV)):
		f.Path, f.Status = newName, StatusAdded
	case !newOK || hasEpochTimestamp(newV):
		f.Path, f.Status = oldName, StatusDeleted
	case len(oldName) < len(newName) && strings.HasPrefix(newName, oldName):
		// git prefers the shorter name when the other merely extends it
		// ("file" and "file.orig").
		f.Path, f.Status = oldName, StatusModified
	default:
		f.Path, f.Status = newName, StatusModified
	}
	f.OldPath = f.Path
	return f, nil
}

// binaryFile records the file of a "Binary files OLD and NEW differ" line
// outside a git section, as diff -r prints it: a binary change is a change
// the reader must be told about even though there are no lines to show.
// Names are stripped like a traditional diff's; a line whose names cannot
// be told apart (both hold " and ") is left alone, as git and GNU patch
// leave every such line.
func (p *parser) binaryFile(line string) {
	v, _ := strings.CutPrefix(strings.TrimSuffix(strings.TrimSuffix(line, "\r"), " differ"), "Binary files ")
	oldV, newV, ok := strings.Cut(v, " and ")
	if !ok || strings.Contains(newV, " and ") {
		return
	}
	f, err := p.namedFile(oldV, newV, p.line)
	if err != nil {
		return
	}
	f.Binary = true
	p.addFile(f, nil)
}

// inferCreation marks a traditional diff's file added or deleted when its one
// hunk has an empty side, as svn's "(nonexistent)" and GNU patch read it.
func inferCreation(f *File) {
	if f.Status != StatusModified || len(f.Hunks) != 1 {
		return
	}
	h := &f.Hunks[0]
	switch {
	case h.OldStart == 0 && h.OldCount == 0 && h.NewCount > 0:
		f.Status = StatusAdded
	case h.NewStart == 0 && h.NewCount == 0 && h.OldCount > 0:
		f.Status = StatusDeleted
	}
}

// clip shortens a line quoted in an error message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
