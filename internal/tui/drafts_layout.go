package tui

import (
	"sort"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// setDrafts places drafts on rows: each placed draft gets a preview under
// the row of its last line and a gutter mark on every row of its range.
// Orphans are placed nowhere; the drafts list shows them. Cost is
// O(drafts * (log hunks + hunk rows)), independent of the diff's size.
func (l *layout) setDrafts(drafts []session.Placed) {
	l.anchored = map[int]rowRef{}
	l.rowDrafts = map[rowRef][]int{}
	for i, d := range drafts {
		if d.Orphaned() || d.Location.Path == "" {
			continue
		}
		f := l.fileIndex(d.Location.Path)
		if f < 0 {
			continue
		}
		last, ok := l.findRow(f, d.Location.Side, d.Location.End)
		if !ok {
			continue
		}
		l.anchored[i] = last
		for line := d.Location.Start; line <= d.Location.End; line++ {
			if ref, ok := l.findRow(f, d.Location.Side, line); ok {
				l.rowDrafts[ref] = append(l.rowDrafts[ref], i)
			}
		}
	}
	l.placePreviews()
	l.resum()
}

// placePreviews orders each hunk's previews by the row (unified) or pair
// (split) they sit under; under one row the threads come first, in the
// host's order, then the drafts (a staged reply under its thread).
func (l *layout) placePreviews() {
	l.hunkPreviews = map[int][]preview{}
	add := func(ref rowRef, p preview) {
		p.after = ref.row
		if l.split {
			p.after = int(l.pairing(ref.g).rowPair[ref.row])
		}
		l.hunkPreviews[ref.g] = append(l.hunkPreviews[ref.g], p)
	}
	for t, ref := range l.threadAt {
		add(ref, preview{index: t, thread: true})
	}
	for d, ref := range l.anchored {
		add(ref, preview{index: d})
	}
	for _, ps := range l.hunkPreviews {
		sort.Slice(ps, func(i, j int) bool {
			if ps[i].after != ps[j].after {
				return ps[i].after < ps[j].after
			}
			if ps[i].thread != ps[j].thread {
				return ps[i].thread
			}
			return ps[i].index < ps[j].index
		})
	}
}

// fileIndex returns the index of the file called path now, or -1.
func (l *layout) fileIndex(path string) int {
	for i := range l.cs.Files {
		if l.cs.Files[i].Path == path {
			return i
		}
	}
	return -1
}

// findRow returns the row of file f that shows line on side.
func (l *layout) findRow(f int, side changeset.Side, line int) (rowRef, bool) {
	hunks := l.cs.Files[f].Hunks
	start := func(h *changeset.Hunk) int {
		if side == changeset.SideOld {
			return h.OldStart
		}
		return h.NewStart
	}
	// The last hunk starting at or before line is the only candidate.
	i := sort.Search(len(hunks), func(i int) bool { return start(&hunks[i]) > line }) - 1
	if i < 0 {
		return rowRef{}, false
	}
	for r, row := range hunks[i].Rows {
		if row.Kind != changeset.KindMeta && sideLine(row, side) == line {
			return rowRef{g: l.global(f, i), row: r}, true
		}
	}
	return rowRef{}, false
}

// sideLine returns row's line number on side, or 0 where it has none.
func sideLine(row changeset.Row, side changeset.Side) int {
	p := row.NewLine
	if side == changeset.SideOld {
		p = row.OldLine
	}
	if p == nil {
		return 0
	}
	return *p
}
