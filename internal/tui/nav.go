package tui

import "github.com/leanreview/leanreview/internal/changeset"

// less orders positions as the diff shows them: file, then hunk (the file
// heading first), then row (the hunk heading first).
func (p Pos) less(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Hunk != q.Hunk {
		return p.Hunk < q.Hunk
	}
	return p.Row < q.Row
}

// curHunk is the global index of the cursor's hunk, -1 on a file heading.
func (v *diffView) curHunk() int {
	if v.cursor.Hunk < 0 {
		return -1
	}
	return v.lay.global(v.cursor.File, v.cursor.Hunk)
}

func (v *diffView) hunkHeaderPos(g int) Pos {
	m := v.lay.hunks[g]
	return Pos{File: int(m.file), Hunk: int(m.index), Row: -1}
}

// nextHunk moves to the next hunk heading; false when there is none.
func (v *diffView) nextHunk() bool {
	g := v.curHunk() + 1
	if v.cursor.Hunk < 0 {
		g = v.lay.fileHunk0[v.cursor.File]
	}
	if g >= len(v.lay.hunks) {
		return false
	}
	v.jump(v.hunkHeaderPos(g))
	return true
}

// prevHunk moves to the heading of the cursor's hunk, or of the one before
// when already there.
func (v *diffView) prevHunk() bool {
	g := v.curHunk()
	switch {
	case g < 0:
		g = v.lay.fileHunk0[v.cursor.File] - 1
	case v.cursor.Row < 0:
		g--
	}
	if g < 0 {
		return false
	}
	v.jump(v.hunkHeaderPos(g))
	return true
}

func (v *diffView) nextFile() bool {
	if v.cursor.File+1 >= len(v.lay.cs.Files) {
		return false
	}
	v.jump(Pos{File: v.cursor.File + 1, Hunk: -1, Row: -1})
	return true
}

func (v *diffView) prevFile() bool {
	f := v.cursor.File
	if v.cursor.Hunk < 0 {
		f--
	}
	if f < 0 {
		return false
	}
	v.jump(Pos{File: f, Hunk: -1, Row: -1})
	return true
}

func isChange(k changeset.Kind) bool { return k == changeset.KindAdd || k == changeset.KindDel }

// nextChange moves to the first line of the next run of added or deleted
// lines (dir +1) or of the previous one (dir -1). It scans rows from the
// cursor, so its cost is the distance to that run, which the context
// lines between changes bound.
func (v *diffView) nextChange(dir int) bool {
	g, r := v.curHunk(), v.cursor.Row
	if g < 0 {
		if dir < 0 {
			g = v.lay.fileHunk0[v.cursor.File] - 1
			r = 1 << 30
		} else {
			g, r = v.lay.fileHunk0[v.cursor.File], -1
		}
	}
	for ; g >= 0 && g < len(v.lay.hunks); g += dir {
		rows := v.lay.hunk(g).Rows
		if r == 1<<30 {
			r = len(rows)
		}
		for r += dir; r >= 0 && r < len(rows); r += dir {
			if isChange(rows[r].Kind) && (r == 0 || !isChange(rows[r-1].Kind)) {
				p := v.hunkHeaderPos(g)
				if !v.lay.hunks[g].folded {
					p.Row = r
				}
				v.jump(p)
				return true
			}
		}
		if dir > 0 {
			r = -1
		} else {
			r = 1 << 30
		}
	}
	return false
}

// toggleFold folds or unfolds the cursor's hunk; a folded hunk's cursor
// rests on its heading.
func (v *diffView) toggleFold() bool {
	g := v.curHunk()
	if g < 0 {
		return false
	}
	v.reproject(func() {
		v.lay.hunks[g].folded = !v.lay.hunks[g].folded
		if v.lay.hunks[g].folded {
			v.cursor.Row = -1
		}
		v.lay.resum()
	})
	return true
}

// unfold opens hunk g if folded (a jump into it).
func (v *diffView) unfold(g int) {
	if g >= 0 && v.lay.hunks[g].folded {
		v.lay.hunks[g].folded = false
		v.lay.resum()
	}
}

// setSplit switches the view, keeping the cursor's line and screen row.
func (v *diffView) setSplit(split bool) {
	v.reproject(func() { v.lay.setSplit(split) })
}

func (v *diffView) setWrap(wrap bool) {
	v.reproject(func() { v.wrap = wrap })
}

func (v *diffView) setPreviews(on bool) {
	v.reproject(func() {
		v.lay.previews = on
		v.lay.resum()
	})
}

// setSide picks the split view's side; the cursor moves to that side of
// its pair when the pair has a row there.
func (v *diffView) setSide(side changeset.Side) {
	v.side = side
	if v.lay.split && v.cursor.Row >= 0 {
		g := v.curHunk()
		pr := v.lay.pairing(g).pairs[v.lay.pairing(g).rowPair[v.cursor.Row]]
		v.cursor.Row = pr.pick(side)
	}
}
