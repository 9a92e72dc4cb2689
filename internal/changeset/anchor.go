package changeset

import "fmt"

// anchorContext is how many visible lines on each side of a remark are
// remembered to tell equal-looking places apart.
const anchorContext = 8

// Anchor is what a remark remembers about the code it was written against:
// where it was (path, side, line range) and what was there (the anchored
// lines and their surroundings), taken from the patch the reader was shown.
//
// Lines are 1-based numbers in the file named by Side. The zero Anchor means
// "nothing under the remark to remember" (a line no hunk shows).
type Anchor struct {
	Path string `json:"path"`
	// OldPath is the file's old name on the changeset the anchor was taken
	// from; equal to Path unless that file was renamed or copied.
	OldPath string `json:"old_path,omitempty"`
	// Side is zero only in the zero Anchor (a reply to a forge thread).
	Side  Side `json:"side,omitempty"`
	Start int  `json:"start_line"`
	End   int  `json:"end_line"`
	// Lines are the anchored lines' text (Row.Text, raw bytes), Start..End.
	Lines []string `json:"lines"`
	// Before and After are up to anchorContext visible lines of the same
	// side just above and below, nearest last in Before and first in After.
	// Only lines contiguous in the file are kept.
	Before []string `json:"before,omitempty"`
	After  []string `json:"after,omitempty"`
}

// IsZero reports whether a remembers nothing.
func (a Anchor) IsZero() bool { return a.Path == "" && len(a.Lines) == 0 }

// Rung says how well LocateAnchor re-found an anchor; each rung down is a
// weaker claim, and surfaces render which one they got. The zero Rung is
// invalid.
type Rung uint8

const (
	// RungExact: found where it was remembered.
	RungExact Rung = iota + 1
	// RungMoved: found, unambiguously, somewhere else.
	RungMoved
	// RungOrphaned: not found, or found in several places with nothing to
	// choose between them. Never placed by guessing.
	RungOrphaned
)

var rungNames = [...]string{RungExact: "exact", RungMoved: "moved", RungOrphaned: "orphaned"}

func (r Rung) String() string {
	if int(r) < len(rungNames) && rungNames[r] != "" {
		return rungNames[r]
	}
	return fmt.Sprintf("Rung(%d)", uint8(r))
}

// MarshalText writes "exact", "moved" or "orphaned".
func (r Rung) MarshalText() ([]byte, error) {
	if int(r) >= len(rungNames) || rungNames[r] == "" {
		return nil, fmt.Errorf("invalid rung %d", uint8(r))
	}
	return []byte(rungNames[r]), nil
}

// UnmarshalText reads a rung's wire name.
func (r *Rung) UnmarshalText(b []byte) error {
	for i, n := range rungNames {
		if n != "" && n == string(b) {
			*r = Rung(i)
			return nil
		}
	}
	return fmt.Errorf("unknown rung %q", b)
}

// Location is where an anchor sits in a changeset: a file (by its current
// Path), a side, and a 1-based inclusive line range on that side.
type Location struct {
	Path  string `json:"path"`
	Side  Side   `json:"side,omitempty"`
	Start int    `json:"start_line"`
	End   int    `json:"end_line"`
}

// sideLine is one line visible on one side of a file's hunks.
type sideLine struct {
	line int
	text string
}

// visibleLines lists, in order, the lines of side that f's hunks show:
// context and added rows for the new side, context and deleted rows for the
// old side. Meta rows belong to neither file.
func visibleLines(f *File, side Side) []sideLine {
	var out []sideLine
	for hi := range f.Hunks {
		for _, r := range f.Hunks[hi].Rows {
			switch {
			case side == SideNew && r.NewLine != nil && r.Kind != KindMeta:
				out = append(out, sideLine{*r.NewLine, r.Text})
			case side == SideOld && r.OldLine != nil && r.Kind != KindMeta:
				out = append(out, sideLine{*r.OldLine, r.Text})
			}
		}
	}
	return out
}

// CaptureAnchor records what a remark on lines start..end (inclusive, on
// side) of file f should remember. Every line of the range must be visible on
// that side of f's hunks and contiguous in the file; otherwise the result is
// the zero Anchor, because there is no shown text under the remark to keep.
func CaptureAnchor(f *File, side Side, start, end int) Anchor {
	if f == nil || start < 1 || end < start || (side != SideOld && side != SideNew) {
		return Anchor{}
	}
	vis := visibleLines(f, side)
	i := indexOfLine(vis, start)
	if i < 0 || i+(end-start) >= len(vis) {
		return Anchor{}
	}
	lines := make([]string, 0, end-start+1)
	for k := 0; k <= end-start; k++ {
		if vis[i+k].line != start+k {
			return Anchor{}
		}
		lines = append(lines, vis[i+k].text)
	}
	j := i + (end - start)
	return Anchor{
		Path:    f.Path,
		OldPath: f.OldPath,
		Side:    side,
		Start:   start,
		End:     end,
		Lines:   lines,
		Before:  contextBefore(vis, i),
		After:   contextAfter(vis, j),
	}
}

func indexOfLine(vis []sideLine, line int) int {
	lo, hi := 0, len(vis)
	for lo < hi {
		m := (lo + hi) / 2
		if vis[m].line < line {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(vis) && vis[lo].line == line {
		return lo
	}
	return -1
}

// contextBefore returns up to anchorContext lines contiguous in the file
// directly above vis[i], in file order.
func contextBefore(vis []sideLine, i int) []string {
	var out []string
	for k := i - 1; k >= 0 && len(out) < anchorContext; k-- {
		if vis[k].line != vis[k+1].line-1 {
			break
		}
		out = append(out, vis[k].text)
	}
	for l, r := 0, len(out)-1; l < r; l, r = l+1, r-1 {
		out[l], out[r] = out[r], out[l]
	}
	return out
}

// contextAfter returns up to anchorContext lines contiguous in the file
// directly below vis[j].
func contextAfter(vis []sideLine, j int) []string {
	var out []string
	for k := j + 1; k < len(vis) && len(out) < anchorContext; k++ {
		if vis[k].line != vis[k-1].line+1 {
			break
		}
		out = append(out, vis[k].text)
	}
	return out
}
