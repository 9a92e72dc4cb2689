package tui

import (
	"sort"

	"github.com/leanreview/leanreview/internal/changeset"
)

// Pos is a semantic position in a changeset; see the package comment.
type Pos struct {
	File int
	Hunk int // index into File.Hunks; -1 for the file heading
	Row  int // index into Hunk.Rows; -1 for the hunk heading
}

// slot indexes the flat list of items of the current projection.
type slot int

// itemKind is what an item of the flat list shows. The zero value is
// invalid.
type itemKind uint8

const (
	itemFileHeader itemKind = iota + 1
	itemFileNote            // "binary file", "mode changed": a file without hunks
	itemHunkHeader
	itemRow     // unified: one Row; split: one pair
	itemPreview // a comment preview under the row it is attached to
	itemThread  // a forge review thread under the row of its line
)

// item is one entry of the flat list. row is a Row index in unified view
// and a pair index in split view; draft indexes the drafts placed by
// setDrafts, thread the threads placed by setThreads.
type item struct {
	kind   itemKind
	file   int
	g      int // global hunk index, -1 for file items
	row    int
	draft  int
	thread int
}

type hunkMeta struct {
	file   int32
	index  int32 // within its file
	rows   int32 // items in unified view
	pairs  int32 // items in split view
	folded bool
}

// preview is a draft or a thread shown under layout row after of its
// hunk: a draft when thread is false, and index is then the draft's index,
// else the thread's.
type preview struct {
	after  int
	index  int
	thread bool
}

// layout is the flat index of one changeset under one projection. It is
// built once per changeset (O(rows), for the split counts) and re-summed
// in O(hunks) when a fold or the view changes.
type layout struct {
	cs       *changeset.Changeset
	split    bool
	previews bool

	fileHunk0 []int // global index of each file's first hunk; len(files)+1 entries
	hunks     []hunkMeta
	// hunkPreviews holds, per global hunk with drafts or threads, the
	// previews in the current view's row order.
	hunkPreviews map[int][]preview
	// anchored lists, per draft index, the Row under which it is
	// previewed; rowDrafts counts drafts covering each row (gutter marks).
	anchored  map[int]rowRef
	rowDrafts map[rowRef][]int
	// threadAt lists, per thread index, the Row it is shown under;
	// rowThreads the threads under each row, in the host's order.
	threadAt   map[int]rowRef
	rowThreads map[rowRef][]int

	fileStart []slot
	hunkStart []slot
	total     slot

	pairings map[int]*pairing
}

// rowRef names a Row by global hunk and row index.
type rowRef struct{ g, row int }

func newLayout(cs *changeset.Changeset) *layout {
	l := &layout{cs: cs, previews: true, pairings: map[int]*pairing{}}
	l.fileHunk0 = make([]int, len(cs.Files)+1)
	n := 0
	for i := range cs.Files {
		l.fileHunk0[i] = n
		n += len(cs.Files[i].Hunks)
	}
	l.fileHunk0[len(cs.Files)] = n
	l.hunks = make([]hunkMeta, 0, n)
	for fi := range cs.Files {
		for hi := range cs.Files[fi].Hunks {
			h := &cs.Files[fi].Hunks[hi]
			l.hunks = append(l.hunks, hunkMeta{file: int32(fi), index: int32(hi), rows: int32(len(h.Rows)), pairs: int32(countPairs(h.Rows))})
		}
	}
	l.fileStart = make([]slot, len(cs.Files))
	l.hunkStart = make([]slot, n)
	l.resum()
	return l
}

// hunk returns the changeset hunk with global index g.
func (l *layout) hunk(g int) *changeset.Hunk {
	m := l.hunks[g]
	return &l.cs.Files[m.file].Hunks[m.index]
}

// global returns the global index of hunk h of file f.
func (l *layout) global(f, h int) int { return l.fileHunk0[f] + h }

func (l *layout) fileHasHunks(f int) bool { return l.fileHunk0[f+1] > l.fileHunk0[f] }

// bodyItems is how many rows or pairs hunk g shows unfolded.
func (l *layout) bodyItems(g int) int {
	if l.split {
		return int(l.hunks[g].pairs)
	}
	return int(l.hunks[g].rows)
}

func (l *layout) hunkItems(g int) int {
	if l.hunks[g].folded {
		return 1
	}
	n := 1 + l.bodyItems(g)
	if l.previews {
		n += len(l.hunkPreviews[g])
	}
	return n
}

// resum recomputes the prefix sums: O(files + hunks).
func (l *layout) resum() {
	var s slot
	for f := range l.cs.Files {
		l.fileStart[f] = s
		s++
		if !l.fileHasHunks(f) {
			s++ // the file note
			continue
		}
		for g := l.fileHunk0[f]; g < l.fileHunk0[f+1]; g++ {
			l.hunkStart[g] = s
			s += slot(l.hunkItems(g))
		}
	}
	l.total = s
}

// setSplit switches the projection and re-sums.
func (l *layout) setSplit(split bool) {
	l.split = split
	l.placePreviews()
	l.resum()
}

// at returns the item in slot s, which must be in [0, total).
func (l *layout) at(s slot) item {
	f := sort.Search(len(l.fileStart), func(i int) bool { return l.fileStart[i] > s }) - 1
	if s == l.fileStart[f] {
		return item{kind: itemFileHeader, file: f, g: -1, row: -1}
	}
	g0, g1 := l.fileHunk0[f], l.fileHunk0[f+1]
	if g0 == g1 {
		return item{kind: itemFileNote, file: f, g: -1, row: -1}
	}
	g := g0 + sort.Search(g1-g0, func(i int) bool { return l.hunkStart[g0+i] > s }) - 1
	k := int(s - l.hunkStart[g])
	if k == 0 {
		return item{kind: itemHunkHeader, file: f, g: g, row: -1}
	}
	k-- // k indexes the body: rows with previews interleaved
	skipped := 0
	if l.previews {
		for j, p := range l.hunkPreviews[g] {
			at := p.after + 1 + j
			if k == at && p.thread {
				return item{kind: itemThread, file: f, g: g, row: p.after, thread: p.index}
			}
			if k == at {
				return item{kind: itemPreview, file: f, g: g, row: p.after, draft: p.index}
			}
			if k < at {
				break
			}
			skipped++
		}
	}
	return item{kind: itemRow, file: f, g: g, row: k - skipped}
}

// slotOf returns the slot showing p: the file heading, the hunk heading
// (also for any row of a folded hunk) or the row's item.
func (l *layout) slotOf(p Pos) slot {
	if p.Hunk < 0 || !l.fileHasHunks(p.File) {
		return l.fileStart[p.File]
	}
	g := l.global(p.File, p.Hunk)
	if p.Row < 0 || l.hunks[g].folded {
		return l.hunkStart[g]
	}
	r := p.Row
	if l.split {
		r = int(l.pairing(g).rowPair[p.Row])
	}
	return l.hunkStart[g] + 1 + slot(r+l.previewsBefore(g, r))
}

// previewsBefore counts the previews of hunk g placed above layout row r.
func (l *layout) previewsBefore(g, r int) int {
	if !l.previews {
		return 0
	}
	n := 0
	for _, p := range l.hunkPreviews[g] {
		if p.after >= r {
			break
		}
		n++
	}
	return n
}

// posOf returns the semantic position an item shows; for a split pair it
// prefers the side asked for when the pair has a row there.
func (l *layout) posOf(it item, side changeset.Side) Pos {
	switch it.kind {
	case itemFileHeader, itemFileNote:
		return Pos{File: it.file, Hunk: -1, Row: -1}
	case itemHunkHeader:
		return Pos{File: it.file, Hunk: int(l.hunks[it.g].index), Row: -1}
	}
	row := it.row
	if l.split {
		pr := l.pairing(it.g).pairs[it.row]
		row = pr.pick(side)
	} else if it.kind == itemPreview || it.kind == itemThread {
		row = it.row
	}
	return Pos{File: it.file, Hunk: int(l.hunks[it.g].index), Row: row}
}

// focusable reports whether the cursor may rest on an item: previews,
// threads and file notes are read, not visited.
func focusable(k itemKind) bool { return k != itemPreview && k != itemThread && k != itemFileNote }
