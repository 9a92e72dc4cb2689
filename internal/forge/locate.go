package forge

import (
	"fmt"

	"github.com/leanreview/leanreview/internal/changeset"
)

// Mapping a comment onto the diff happens here, once, for both hosts.
//
// A Comment names lines the GitHub way: a side and a line number in that
// side's file. GitLab wants the diff row instead: old_line only for a removed
// row, new_line only for an added one, both for context, and line codes
// built from the row's two running counters (an added row still has an old
// counter: the old line it sits before). Locate turns the first form into
// the second against the parsed diff, and is also what decides that a line is
// not part of the diff before anything is sent.

// Row is one diff row a comment touches, with both running counters.
type Row struct {
	Kind changeset.Kind
	// OldLine and NewLine are the counters at the row: for a context row
	// its two line numbers; for an added row NewLine is its line and OldLine
	// the old line it sits before; for a removed row the reverse.
	OldLine int
	NewLine int
	// Hunk is the 0-based index of the row's hunk within its file; Index the
	// row's 0-based index within the hunk.
	Hunk  int
	Index int
}

// Position is a comment located on the diff.
type Position struct {
	Path    string
	OldPath string
	// Start is End for a single-line comment.
	Start Row
	End   Row
}

// Locate finds c's rows in files, the parsed diff the comment was anchored
// against. It fails with a *LocateError when a line is not part of the
// diff, the file is binary or has no text, or a range crosses hunks or runs
// backwards: the rules GitHub enforces with a 422 and GitLab with a 400.
func Locate(files []changeset.File, c Comment) (Position, error) {
	f, err := findFile(files, c)
	if err != nil {
		return Position{}, err
	}
	oldPath := f.OldPath
	if oldPath == "" {
		oldPath = f.Path
	}
	end, err := findRow(f, c.Side, c.Line)
	if err != nil {
		return Position{}, err
	}
	start := end
	if c.Multiline() {
		if start, err = findRow(f, c.startSide(), c.StartLine); err != nil {
			return Position{}, err
		}
		if start.Hunk != end.Hunk {
			return Position{}, &LocateError{Comment: c, Reason: fmt.Sprintf("lines %d to %d of %s are in different hunks", c.StartLine, c.Line, c.Path)}
		}
		if start.Index >= end.Index {
			return Position{}, &LocateError{Comment: c, Reason: fmt.Sprintf("the range of %s starts at line %d, after its end at line %d", c.Path, c.StartLine, c.Line)}
		}
	}
	return Position{Path: f.Path, OldPath: oldPath, Start: start, End: end}, nil
}

func findFile(files []changeset.File, c Comment) (*changeset.File, error) {
	if c.Side != changeset.SideOld && c.Side != changeset.SideNew {
		return nil, &LocateError{Comment: c, Reason: "the comment names no side"}
	}
	if c.Line <= 0 || c.StartLine < 0 {
		return nil, &LocateError{Comment: c, Reason: fmt.Sprintf("line %d is not a line number", c.Line)}
	}
	for i := range files {
		f := &files[i]
		if f.Path != c.Path {
			continue
		}
		if c.OldPath != "" && c.OldPath != f.Path && c.OldPath != f.OldPath {
			return nil, &LocateError{Comment: c, Reason: fmt.Sprintf("%s was %s before this change, not %s", f.Path, f.OldPath, c.OldPath)}
		}
		if f.Binary || len(f.Hunks) == 0 {
			return nil, &LocateError{Comment: c, Reason: f.Path + " has no diff text to comment on (binary, or too large for the host)"}
		}
		return f, nil
	}
	return nil, &LocateError{Comment: c, Reason: c.Path + " is not part of the diff"}
}

// findRow finds the row showing line on side. A context row serves both
// sides; an added row only the new one, a removed row only the old one.
func findRow(f *changeset.File, side changeset.Side, line int) (Row, error) {
	for hi, h := range f.Hunks {
		oldN, newN := h.OldStart, h.NewStart
		for ri, r := range h.Rows {
			row := Row{Kind: r.Kind, OldLine: oldN, NewLine: newN, Hunk: hi, Index: ri}
			switch r.Kind {
			case changeset.KindContext:
				oldN++
				newN++
				if (side == changeset.SideNew && row.NewLine == line) || (side == changeset.SideOld && row.OldLine == line) {
					return row, nil
				}
			case changeset.KindAdd:
				newN++
				if side == changeset.SideNew && row.NewLine == line {
					return row, nil
				}
			case changeset.KindDel:
				oldN++
				if side == changeset.SideOld && row.OldLine == line {
					return row, nil
				}
			}
		}
	}
	return Row{}, &LocateError{Comment: Comment{Path: f.Path, Side: side, Line: line}, Reason: fmt.Sprintf("line %d (%s side) of %s is not part of the diff", line, side, f.Path)}
}

// LocateError says why a comment cannot be placed on the diff.
type LocateError struct {
	Comment Comment
	Reason  string
}

func (e *LocateError) Error() string { return e.Reason }

// Is makes errors.Is(err, ErrRejected) hold: the host would refuse it.
func (e *LocateError) Is(target error) bool { return target == ErrRejected }

// Check locates every comment and splits them into those that can be sent
// (with their positions, in the given order) and those that cannot.
func Check(files []changeset.File, comments []Comment) (ok []Located, rejected []Rejection) {
	for _, c := range comments {
		if !ValidMarkerID(c.MarkerID) {
			rejected = append(rejected, Rejection{MarkerID: c.MarkerID, Reason: fmt.Sprintf("marker id %q is not 1-64 characters of [A-Za-z0-9._-]", c.MarkerID)})
			continue
		}
		p, err := Locate(files, c)
		if err != nil {
			rejected = append(rejected, Rejection{MarkerID: c.MarkerID, Reason: err.Error()})
			continue
		}
		ok = append(ok, Located{Comment: c, Position: p})
	}
	return ok, rejected
}

// Located is a comment together with where it sits on the diff.
type Located struct {
	Comment
	Position Position
}
