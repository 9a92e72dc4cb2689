package tui

import (
	"regexp"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// diffView is the diff pane: the layout of the current snapshot, the
// semantic cursor, and the viewport onto the flat list. Every method
// costs O(visible rows + log n); see the package comment.
type diffView struct {
	lay  *layout
	th   *theme
	hl   *highlighter
	emph *lru[int, []changeset.Span] // word emphasis per global hunk

	width, height int
	wrap          bool
	tab           int

	cursor Pos
	side   changeset.Side // the split view's side for rows that have both
	top    slot           // first item on screen
	skip   int            // screen rows of top scrolled off above

	// sel is the other end of a line selection; nil when none.
	sel *Pos
	// search highlights matches on screen; nil when no search is active.
	search *regexp.Regexp

	drafts []session.Placed
	viewed map[string]bool
	me     session.Actor
	// suggested marks the hunks and rows pending suggestions point at.
	suggested agentQueue
	// threads are the host's review threads the layout places.
	threads []app.PlacedThread
}

func newDiffView(lay *layout, th *theme, hl *highlighter, wrap bool, tab int) *diffView {
	return &diffView{
		lay: lay, th: th, hl: hl, emph: newLRU[int, []changeset.Span](64),
		wrap: wrap, tab: tab, side: changeset.SideNew, viewed: map[string]bool{},
		cursor: Pos{File: 0, Hunk: -1, Row: -1},
	}
}

func (v *diffView) empty() bool { return v.lay.total == 0 }

// cursorSlot is the slot showing the cursor; 0 for an empty change.
func (v *diffView) cursorSlot() slot {
	if v.empty() {
		return 0
	}
	return v.lay.slotOf(v.cursor)
}

// setSize changes the pane's size, keeping the cursor on the same screen
// row where it fits.
func (v *diffView) setSize(w, h int) {
	row := v.cursorRow()
	v.width, v.height = max(w, 1), max(h, 1)
	v.placeAt(v.cursorSlot(), row)
}

// reproject runs change (a fold, a view or wrap toggle, new drafts) and
// puts the cursor back on the screen row it was on.
func (v *diffView) reproject(change func()) {
	row := v.cursorRow()
	change()
	v.placeAt(v.cursorSlot(), row)
}

// cursorRow is the screen row of the cursor's first line, clamped to the
// pane; it walks at most a screenful of items.
func (v *diffView) cursorRow() int {
	if v.empty() || v.height == 0 {
		return 0
	}
	c := v.cursorSlot()
	if c < v.top {
		return 0
	}
	row := -v.skip
	for s := v.top; s < c; s++ {
		row += v.heightOf(s)
		if row >= v.height {
			return v.height - 1
		}
	}
	return max(row, 0)
}

// placeAt scrolls so that slot c starts on screen row row (or as close as
// the ends of the list allow).
func (v *diffView) placeAt(c slot, row int) {
	if v.empty() {
		return
	}
	row = min(max(row, 0), max(v.height-v.heightOf(c), 0))
	v.top, v.skip = c, 0
	for row > 0 && v.top > 0 {
		v.top--
		h := v.heightOf(v.top)
		if h > row {
			v.skip = h - row
			break
		}
		row -= h
	}
	v.clampBottom()
}

// clampBottom keeps the viewport from scrolling past the end of the list
// when the list is longer than the pane.
func (v *diffView) clampBottom() {
	rows := -v.skip
	for s := v.top; s < v.lay.total; s++ {
		rows += v.heightOf(s)
		if rows >= v.height {
			return
		}
	}
	// Fewer rows than the pane below top: show the last screenful.
	last := v.lay.total - 1
	v.top, v.skip = last, 0
	need := v.height - v.heightOf(last)
	for need > 0 && v.top > 0 {
		v.top--
		h := v.heightOf(v.top)
		if h > need {
			v.skip = h - need
			return
		}
		need -= h
	}
}

// ensureVisible scrolls the least needed to show the whole cursor item.
func (v *diffView) ensureVisible() {
	c := v.cursorSlot()
	if c < v.top || (c == v.top && v.skip > 0) {
		v.top, v.skip = c, 0
		return
	}
	row := -v.skip
	for s := v.top; s < c; s++ {
		row += v.heightOf(s)
		if row >= v.height {
			break
		}
	}
	if row+v.heightOf(c) <= v.height {
		return
	}
	v.placeAt(c, v.height-v.heightOf(c))
}

// focusFrom returns the first focusable slot from s in direction dir
// (+1 or -1), or -1 when there is none.
func (v *diffView) focusFrom(s slot, dir int) slot {
	for ; s >= 0 && s < v.lay.total; s += slot(dir) {
		if focusable(v.lay.at(s).kind) {
			return s
		}
	}
	return -1
}

// moveToSlot puts the cursor on the item in slot s.
func (v *diffView) moveToSlot(s slot) {
	v.cursor = v.lay.posOf(v.lay.at(s), v.side)
}

// step moves the cursor n focusable items down (n < 0: up).
func (v *diffView) step(n int) {
	if v.empty() {
		return
	}
	dir := 1
	if n < 0 {
		dir, n = -1, -n
	}
	s := v.cursorSlot()
	for ; n > 0; n-- {
		next := v.focusFrom(s+slot(dir), dir)
		if next < 0 {
			break
		}
		s = next
	}
	v.moveToSlot(s)
	v.ensureVisible()
}

// page moves the cursor by about frac of a screen and scrolls by the same,
// so the cursor keeps its screen row.
func (v *diffView) page(frac float64) {
	if v.empty() {
		return
	}
	row := v.cursorRow()
	rows := max(int(float64(v.height)*abs(frac)), 1)
	s := v.cursorSlot()
	dir := slot(1)
	if frac < 0 {
		dir = -1
	}
	for moved := 0; moved < rows; {
		next := s + dir
		if next < 0 || next >= v.lay.total {
			break
		}
		moved += v.heightOf(min(s, next))
		s = next
	}
	if f := v.focusFrom(s, int(dir)); f >= 0 {
		s = f
	} else {
		s = v.focusFrom(s, -int(dir))
	}
	v.moveToSlot(s)
	v.placeAt(s, row)
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// scroll moves the viewport by n screen rows (mouse wheel) and keeps the
// cursor inside it.
func (v *diffView) scroll(n int) {
	if v.empty() {
		return
	}
	for ; n > 0; n-- {
		if v.skip+1 < v.heightOf(v.top) {
			v.skip++
		} else if v.top+1 < v.lay.total {
			v.top, v.skip = v.top+1, 0
		}
	}
	for ; n < 0; n++ {
		if v.skip > 0 {
			v.skip--
		} else if v.top > 0 {
			v.top--
			v.skip = v.heightOf(v.top) - 1
		}
	}
	v.clampBottom()
	c := v.cursorSlot()
	first := v.top
	if v.skip > 0 {
		first++
	}
	if c < first {
		if f := v.focusFrom(first, 1); f >= 0 {
			v.moveToSlot(f)
		}
		return
	}
	last := v.lastVisible()
	if c > last {
		if f := v.focusFrom(last, -1); f >= 0 {
			v.moveToSlot(f)
		}
	}
}

// lastVisible is the last slot shown whole.
func (v *diffView) lastVisible() slot {
	row := -v.skip
	s := v.top
	for ; s < v.lay.total; s++ {
		row += v.heightOf(s)
		if row > v.height {
			return max(s-1, v.top)
		}
	}
	return v.lay.total - 1
}

// jump puts the cursor on p and scrolls it into view; a far jump centres
// it a third of the way down.
func (v *diffView) jump(p Pos) {
	if v.empty() {
		return
	}
	v.cursor = p
	c := v.cursorSlot()
	if c >= v.top && c <= v.lastVisible() {
		return
	}
	v.placeAt(c, v.height/3)
}

// jumpTop puts the cursor on p and scrolls it to the top of the pane.
func (v *diffView) jumpTop(p Pos) {
	if v.empty() {
		return
	}
	v.cursor = p
	v.placeAt(v.cursorSlot(), 0)
}

// first and last go to the ends of the whole list.
func (v *diffView) first() {
	if v.empty() {
		return
	}
	v.moveToSlot(v.focusFrom(0, 1))
	v.top, v.skip = 0, 0
}

func (v *diffView) last() {
	if v.empty() {
		return
	}
	v.moveToSlot(v.focusFrom(v.lay.total-1, -1))
	c := v.cursorSlot()
	v.placeAt(c, v.height-v.heightOf(c))
}
