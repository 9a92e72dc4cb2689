package forgetest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/leanreview/leanreview/internal/changeset"
)

// The fakes read the patches they serve with this small parser of their
// own. It plays the host's part (GitHub and GitLab compute diffs from git,
// not from leanreview's parser), which also keeps the contract suite an
// independent check on what the adapters send.

// patchFile is one file of a git patch as a host sees it.
type patchFile struct {
	Path    string // new path; old path for a deletion
	OldPath string // old path; equal to Path unless renamed
	Status  changeset.Status
	Binary  bool
	// Header is everything from "diff --git" up to the first hunk.
	Header string
	Hunks  []patchHunk
}

// patchHunk is one @@ section.
type patchHunk struct {
	Header             string // the @@ line
	OldStart, OldCount int
	NewStart, NewCount int
	Lines              []string // body lines with their markers
}

// Body is the file's hunks as GitHub's files endpoint gives them in "patch"
// and GitLab's diffs endpoint in "diff": headers and bodies, no file header.
func (f patchFile) Body() string {
	var b strings.Builder
	for i, h := range f.Hunks {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(h.Header)
		for _, l := range h.Lines {
			b.WriteByte('\n')
			b.WriteString(l)
		}
	}
	return b.String()
}

// Counts returns the added and removed line counts.
func (f patchFile) Counts() (add, del int) {
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			switch {
			case strings.HasPrefix(l, "+"):
				add++
			case strings.HasPrefix(l, "-"):
				del++
			}
		}
	}
	return add, del
}

// rowAt finds the row showing line on side, returning its hunk index, row
// index and text; ok is false when no hunk shows it.
func (f patchFile) rowAt(side changeset.Side, line int) (hunk, row int, text string, ok bool) {
	for hi, h := range f.Hunks {
		o, n := h.OldStart, h.NewStart
		for ri, l := range h.Lines {
			if l == "" {
				l = " "
			}
			switch l[0] {
			case ' ':
				if (side == changeset.SideOld && o == line) || (side == changeset.SideNew && n == line) {
					return hi, ri, l[1:], true
				}
				o++
				n++
			case '+':
				if side == changeset.SideNew && n == line {
					return hi, ri, l[1:], true
				}
				n++
			case '-':
				if side == changeset.SideOld && o == line {
					return hi, ri, l[1:], true
				}
				o++
			}
		}
	}
	return 0, 0, "", false
}

// parsePatch splits a git patch into files. It understands what git diff
// writes (extended headers, renames, binary markers, "\ No newline") and
// fails on anything else, since a fake must not guess.
func parsePatch(patch string) ([]patchFile, error) {
	var files []patchFile
	lines := strings.SplitAfter(patch, "\n")
	var cur *patchFile
	var hunk *patchHunk
	for i := 0; i < len(lines); i++ {
		raw := lines[i]
		l := strings.TrimSuffix(raw, "\n")
		switch {
		case strings.HasPrefix(l, "diff --git "):
			files = append(files, patchFile{Status: changeset.StatusModified})
			cur, hunk = &files[len(files)-1], nil
			a, b, err := gitPaths(l)
			if err != nil {
				return nil, err
			}
			cur.OldPath, cur.Path = a, b
			cur.Header = raw
		case cur == nil:
			if strings.TrimSpace(l) != "" {
				return nil, fmt.Errorf("patch line %d: %q before any diff --git", i+1, l)
			}
		case strings.HasPrefix(l, "@@ "):
			h, err := hunkHeader(l)
			if err != nil {
				return nil, fmt.Errorf("patch line %d: %w", i+1, err)
			}
			cur.Hunks = append(cur.Hunks, h)
			hunk = &cur.Hunks[len(cur.Hunks)-1]
		case hunk != nil && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-") || strings.HasPrefix(l, `\`) || l == ""):
			if l == "" && i == len(lines)-1 {
				continue
			}
			hunk.Lines = append(hunk.Lines, l)
		default:
			if err := cur.extendedHeader(l); err != nil {
				return nil, fmt.Errorf("patch line %d: %w", i+1, err)
			}
			cur.Header += raw
		}
	}
	for i := range files {
		f := &files[i]
		if f.Status == changeset.StatusDeleted {
			f.Path = f.OldPath
		}
	}
	return files, nil
}

func (f *patchFile) extendedHeader(l string) error {
	switch {
	case strings.HasPrefix(l, "new file mode"):
		f.Status = changeset.StatusAdded
	case strings.HasPrefix(l, "deleted file mode"):
		f.Status = changeset.StatusDeleted
	case strings.HasPrefix(l, "rename from "):
		f.Status, f.OldPath = changeset.StatusRenamed, strings.TrimPrefix(l, "rename from ")
	case strings.HasPrefix(l, "rename to "):
		f.Status, f.Path = changeset.StatusRenamed, strings.TrimPrefix(l, "rename to ")
	case strings.HasPrefix(l, "Binary files "), strings.HasPrefix(l, "GIT binary patch"):
		f.Binary = true
	case strings.HasPrefix(l, "index "), strings.HasPrefix(l, "similarity index"), strings.HasPrefix(l, "dissimilarity index"),
		strings.HasPrefix(l, "old mode"), strings.HasPrefix(l, "new mode"), strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "+++ "):
	default:
		return fmt.Errorf("unexpected line %q in a file header", l)
	}
	return nil
}

// gitPaths reads "diff --git a/X b/Y" for paths without spaces or quotes,
// which is all the fixtures use.
func gitPaths(l string) (string, string, error) {
	parts := strings.Fields(strings.TrimPrefix(l, "diff --git "))
	if len(parts) != 2 || !strings.HasPrefix(parts[0], "a/") || !strings.HasPrefix(parts[1], "b/") {
		return "", "", fmt.Errorf("cannot read paths from %q", l)
	}
	return parts[0][2:], parts[1][2:], nil
}

func hunkHeader(l string) (patchHunk, error) {
	h := patchHunk{Header: l}
	f := strings.Fields(l)
	if len(f) < 4 || f[3] != "@@" {
		return h, fmt.Errorf("bad hunk header %q", l)
	}
	var err1, err2 error
	h.OldStart, h.OldCount, err1 = rangeOf(f[1], "-")
	h.NewStart, h.NewCount, err2 = rangeOf(f[2], "+")
	if err1 != nil || err2 != nil {
		return h, fmt.Errorf("bad hunk header %q", l)
	}
	return h, nil
}

func rangeOf(s, sign string) (start, count int, err error) {
	if !strings.HasPrefix(s, sign) {
		return 0, 0, fmt.Errorf("want %s", sign)
	}
	a, b, found := strings.Cut(s[1:], ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	count = 1
	if found {
		if count, err = strconv.Atoi(b); err != nil {
			return 0, 0, err
		}
	}
	return start, count, nil
}

// ParseFiles parses a patch into changeset files with numbered rows: the
// Review.Diff a test hands to Submit. It stands in for the changeset
// parser in tests, so the contract suite depends on nothing but the port.
func ParseFiles(patch []byte) ([]changeset.File, error) {
	pfs, err := parsePatch(string(patch))
	if err != nil {
		return nil, err
	}
	files := make([]changeset.File, 0, len(pfs))
	for _, pf := range pfs {
		f := changeset.File{Path: pf.Path, Status: pf.Status, Binary: pf.Binary}
		if pf.OldPath != pf.Path {
			f.OldPath = pf.OldPath
		}
		f.Additions, f.Deletions = pf.Counts()
		for i, ph := range pf.Hunks {
			f.Hunks = append(f.Hunks, changesetHunk(i, ph))
		}
		files = append(files, f)
	}
	return files, nil
}

func changesetHunk(index int, ph patchHunk) changeset.Hunk {
	h := changeset.Hunk{Index: index, Header: ph.Header, Lines: ph.Lines,
		OldStart: ph.OldStart, OldCount: ph.OldCount, NewStart: ph.NewStart, NewCount: ph.NewCount}
	o, n := ph.OldStart, ph.NewStart
	for _, l := range ph.Lines {
		if l == "" {
			l = " "
		}
		r := changeset.Row{Text: l[1:]}
		switch l[0] {
		case '+':
			r.Kind, r.NewLine = changeset.KindAdd, intp(n)
			n++
		case '-':
			r.Kind, r.OldLine = changeset.KindDel, intp(o)
			o++
		case '\\':
			r.Kind = changeset.KindMeta
		default:
			r.Kind, r.OldLine, r.NewLine = changeset.KindContext, intp(o), intp(n)
			o++
			n++
		}
		h.Rows = append(h.Rows, r)
	}
	return h
}

func intp(i int) *int { return &i }
