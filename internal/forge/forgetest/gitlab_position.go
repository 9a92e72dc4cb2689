package forgetest

import (
	"crypto/sha1"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
)

// glLineCodeError is GitLab's answer to a position that is not on a diff
// line (shared/forge/README.md).
const glLineCodeError = `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"]}`

type positionIn struct {
	BaseSHA      *string      `json:"base_sha"`
	HeadSHA      *string      `json:"head_sha"`
	StartSHA     *string      `json:"start_sha"`
	NewPath      *string      `json:"new_path"`
	OldPath      *string      `json:"old_path"`
	PositionType *string      `json:"position_type"`
	NewLine      *int         `json:"new_line"`
	OldLine      *int         `json:"old_line"`
	LineRange    *lineRangeIn `json:"line_range"`
	Width        *int         `json:"width"`
	Height       *int         `json:"height"`
	X            *float64     `json:"x"`
	Y            *float64     `json:"y"`
}

type lineRangeIn struct {
	Start *linePosIn `json:"start"`
	End   *linePosIn `json:"end"`
}

type linePosIn struct {
	LineCode *string `json:"line_code"`
	Type     *string `json:"type"`
	OldLine  *int    `json:"old_line"`
	NewLine  *int    `json:"new_line"`
}

// glPosition is a validated text position.
type glPosition struct {
	base, start, head string
	oldPath, newPath  string
	oldLine, newLine  int // 0 when absent
	rng               *glRange
}

type glRange struct{ start, end glRow }

func (p *glPosition) json() obj {
	o := obj{"base_sha": p.base, "start_sha": p.start, "head_sha": p.head, "position_type": "text",
		"old_path": p.oldPath, "new_path": p.newPath, "old_line": nilIfZero(p.oldLine), "new_line": nilIfZero(p.newLine)}
	if p.rng != nil {
		o["line_range"] = obj{"start": p.rng.start.json(p.newPath), "end": p.rng.end.json(p.newPath)}
	}
	return o
}

func nilIfZero(n int) any {
	if n == 0 {
		return nil
	}
	return n
}

// glRow is one diff row with GitLab's two running counters.
type glRow struct {
	kind     byte // ' ', '+', '-'
	old, new int
	index    int // 0-based among the file's rows, across hunks
}

func (r glRow) typ() string {
	switch r.kind {
	case '+':
		return "new"
	case '-':
		return "old"
	}
	return ""
}

func (r glRow) json(path string) obj {
	o := obj{"line_code": lineCode(path, r.old, r.new), "type": nil, "old_line": nil, "new_line": nil}
	if t := r.typ(); t != "" {
		o["type"] = t
	}
	if r.kind != '+' {
		o["old_line"] = r.old
	}
	if r.kind != '-' {
		o["new_line"] = r.new
	}
	return o
}

// lineCode is GitLab's line code: sha1 of the path, then the old and new
// counters of the row.
func lineCode(path string, old, new int) string {
	sum := sha1.Sum([]byte(path))
	return hex.EncodeToString(sum[:]) + "_" + strconv.Itoa(old) + "_" + strconv.Itoa(new)
}

// glRows numbers a file's rows the way GitLab's diff parser does: an added
// row keeps the old counter it sits at, a removed row the new one.
func glRows(f patchFile) []glRow {
	var rows []glRow
	for _, h := range f.Hunks {
		o, n := h.OldStart, h.NewStart
		for _, l := range h.Lines {
			if l == "" {
				l = " "
			}
			switch l[0] {
			case ' ':
				rows = append(rows, glRow{kind: ' ', old: o, new: n, index: len(rows)})
				o++
				n++
			case '+':
				rows = append(rows, glRow{kind: '+', old: o, new: n, index: len(rows)})
				n++
			case '-':
				rows = append(rows, glRow{kind: '-', old: o, new: n, index: len(rows)})
				o++
			}
		}
	}
	return rows
}

// checkPosition validates a text position the way GitLab does, returning
// the position or the error body to answer 400 with.
func (g *GitLab) checkPosition(mr *glMR, in *positionIn) (*glPosition, obj) {
	if in == nil {
		return nil, nil
	}
	var missing []string
	for name, v := range map[string]*string{"base_sha": in.BaseSHA, "start_sha": in.StartSHA, "head_sha": in.HeadSHA, "position_type": in.PositionType} {
		if v == nil || *v == "" {
			missing = append(missing, "position["+name+"]")
		}
	}
	if len(missing) == 0 && *in.PositionType == "text" {
		for name, v := range map[string]*string{"old_path": in.OldPath, "new_path": in.NewPath} {
			if v == nil || *v == "" {
				missing = append(missing, "position["+name+"]")
			}
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, obj{"error": fakeWording(strings.Join(missing, ", ") + " is missing")}
	}
	if *in.PositionType != "text" {
		return nil, obj{"error": fakeWording("position[position_type] only text is modelled by the fake")}
	}
	lineErr := obj{"message": glLineCodeError}
	var files []patchFile
	for _, v := range mr.versions {
		if v.base == *in.BaseSHA && v.start == *in.StartSHA && v.head == *in.HeadSHA {
			files = v.files
		}
	}
	f := fileNamed(files, *in.NewPath)
	if f == nil || f.OldPath != *in.OldPath {
		return nil, lineErr
	}
	rows := glRows(*f)
	end, ok := rowFor(rows, in.OldLine, in.NewLine)
	if !ok {
		return nil, lineErr
	}
	p := &glPosition{base: *in.BaseSHA, start: *in.StartSHA, head: *in.HeadSHA, oldPath: *in.OldPath, newPath: *in.NewPath}
	if end.kind != '+' {
		p.oldLine = end.old
	}
	if end.kind != '-' {
		p.newLine = end.new
	}
	if in.LineRange != nil {
		rng, ok := checkRange(rows, f.Path, in.LineRange)
		if !ok || rng.end != end || rng.start.index > rng.end.index {
			return nil, lineErr
		}
		p.rng = rng
	}
	return p, nil
}

// rowFor finds the row a position's lines name: new_line alone an added
// row, old_line alone a removed row, both a context row.
func rowFor(rows []glRow, old, new *int) (glRow, bool) {
	for _, r := range rows {
		switch {
		case old == nil && new != nil && r.kind == '+' && r.new == *new,
			new == nil && old != nil && r.kind == '-' && r.old == *old,
			old != nil && new != nil && r.kind == ' ' && r.old == *old && r.new == *new:
			return r, true
		}
	}
	return glRow{}, false
}

func checkRange(rows []glRow, path string, in *lineRangeIn) (*glRange, bool) {
	if in.Start == nil || in.End == nil {
		return nil, false
	}
	find := func(lp *linePosIn) (glRow, bool) {
		if lp.LineCode == nil {
			return glRow{}, false
		}
		for _, r := range rows {
			if lineCode(path, r.old, r.new) != *lp.LineCode {
				continue
			}
			typ := ""
			if lp.Type != nil {
				typ = *lp.Type
			}
			if r.kind != ' ' && typ != r.typ() {
				return glRow{}, false
			}
			return r, true
		}
		return glRow{}, false
	}
	s, ok1 := find(in.Start)
	e, ok2 := find(in.End)
	return &glRange{start: s, end: e}, ok1 && ok2
}
