package tui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// previewLines is how many lines of a comment's body a preview shows.
const previewLines = 4

// escapeRE finds the visible escapes changeset.SanitizeBidi writes.
var escapeRE = regexp.MustCompile(`<U\+[0-9A-F]{4,6}>|<0x[0-9A-F]{2}>`)

// safe returns s as it may be shown: control, bidi and invisible
// characters escaped.
func safe(s string) string {
	out, _ := changeset.SanitizeBidi(s)
	return out
}

// rowText returns the text of row i of h as drawn, and whether it carries
// escapes: always from Hunk.Display when the parser made one, so nothing
// from the patch reaches the terminal unescaped.
func rowText(h *changeset.Hunk, i int) (string, bool) {
	if h.Display == nil || i >= len(h.Display) {
		return h.Rows[i].Text, false
	}
	d := h.Display[i]
	if d != "" {
		d = d[1:]
	}
	if h.Rows[i].Kind == changeset.KindMeta {
		d = strings.TrimPrefix(d, " ")
	}
	return d, true
}

// numWidth is the width of the line-number columns of file f.
func (v *diffView) numWidth(f int) int {
	hs := v.lay.cs.Files[f].Hunks
	n := 0
	if len(hs) > 0 {
		h := hs[len(hs)-1]
		n = max(h.OldStart+h.OldCount, h.NewStart+h.NewCount)
	}
	return max(len(strconv.Itoa(n)), 2)
}

// unifiedGutter is the width of a unified row's gutter: cursor mark, two
// line numbers, comment mark, sign, space.
func unifiedGutter(w int) int { return 2*w + 6 }

// halves returns the widths of the split view's two sides.
func (v *diffView) halves() (int, int) {
	l := (v.width - 2) / 2
	return l, v.width - 2 - l
}

func (v *diffView) heightOf(s slot) int { return v.itemHeight(v.lay.at(s)) }

func (v *diffView) itemHeight(it item) int {
	switch it.kind {
	case itemRow:
		if !v.wrap {
			return 1
		}
		h := v.lay.hunk(it.g)
		w := v.numWidth(it.file)
		if !v.lay.split {
			text, _ := rowText(h, it.row)
			return wrappedLines(text, v.width-unifiedGutter(w), v.tab)
		}
		pr := v.lay.pairing(it.g).pairs[it.row]
		lw, rw := v.halves()
		n := 1
		if pr.l >= 0 {
			text, _ := rowText(h, int(pr.l))
			n = max(n, wrappedLines(text, lw-(w+4), v.tab))
		}
		if pr.r >= 0 && pr.r != pr.l {
			text, _ := rowText(h, int(pr.r))
			n = max(n, wrappedLines(text, rw-(w+4), v.tab))
		}
		return n
	case itemPreview:
		return 1 + min(len(bodyLines(v.drafts[it.draft].Body)), previewLines+1)
	case itemThread:
		return len(threadLines(v.threads[it.thread]))
	}
	return 1
}

func bodyLines(body string) []string {
	return strings.Split(strings.TrimRight(body, "\n"), "\n")
}

// render draws the pane: exactly height lines of width cells.
func (v *diffView) render() []string {
	out := make([]string, 0, v.height)
	skip := v.skip
	for s := v.top; s < v.lay.total && len(out) < v.height; s++ {
		lines := v.drawItem(v.lay.at(s))
		if skip > 0 {
			lines = lines[min(skip, len(lines)):]
			skip = 0
		}
		out = append(out, lines[:min(len(lines), v.height-len(out))]...)
	}
	blank := strings.Repeat(" ", v.width)
	for len(out) < v.height {
		out = append(out, blank)
	}
	return out
}

func (v *diffView) drawItem(it item) []string {
	switch it.kind {
	case itemFileHeader:
		return []string{v.drawFileHeader(it.file)}
	case itemFileNote:
		return []string{v.th.fit("    "+fileNote(&v.lay.cs.Files[it.file]), v.th.fileNote, v.width)}
	case itemHunkHeader:
		return []string{v.drawHunkHeader(it)}
	case itemPreview:
		return v.drawPreview(it)
	case itemThread:
		return v.drawThread(it)
	}
	if v.lay.split {
		return v.drawPair(it)
	}
	return v.drawRow(it)
}

// curMark is the first column: the cursor, a selected row, or blank.
func (v *diffView) curMark(p Pos) (string, bool) {
	if p == v.cursor {
		return ">", true
	}
	if v.selected(p) {
		return "*", false
	}
	return " ", false
}

// selected reports whether p is a row inside the line selection.
func (v *diffView) selected(p Pos) bool {
	if v.sel == nil || p.Row < 0 || p.File != v.sel.File || p.Hunk != v.sel.Hunk || p.Hunk != v.cursor.Hunk || p.File != v.cursor.File {
		return false
	}
	lo, hi := min(v.sel.Row, v.cursor.Row), max(v.sel.Row, v.cursor.Row)
	return p.Row >= lo && p.Row <= hi
}

func (v *diffView) drawFileHeader(f int) string {
	file := &v.lay.cs.Files[f]
	p := Pos{File: f, Hunk: -1, Row: -1}
	mark, _ := v.curMark(p)
	a := v.th.fileHeader
	if p == v.cursor {
		a = a.over(v.th.cursor)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", mark, fileTitle(file))
	if !file.Binary {
		fmt.Fprintf(&b, "  +%d -%d", file.Additions, file.Deletions)
	}
	if n := len(file.Hunks); n > 0 {
		fmt.Fprintf(&b, "  %d/%d viewed", v.viewedIn(f), n)
	}
	if n := v.draftsIn(file.Path); n > 0 {
		fmt.Fprintf(&b, "  %s", plural(n, "draft"))
	}
	if n := v.threadsIn(file.Path); n > 0 {
		fmt.Fprintf(&b, "  %s", plural(n, "thread"))
	}
	return v.th.fit(b.String(), a, v.width)
}

// fileTitle says what happened to a file, with its sanitized path(s).
func fileTitle(f *changeset.File) string {
	var s string
	switch f.Status {
	case changeset.StatusRenamed, changeset.StatusCopied:
		s = fmt.Sprintf("%s %s -> %s", f.Status, safe(f.OldPath), safe(f.Path))
	default:
		s = fmt.Sprintf("%s %s", f.Status, safe(f.Path))
	}
	if f.Binary {
		s += " (binary)"
	}
	if modeChanged(f) {
		s += fmt.Sprintf(" (mode %s -> %s)", f.OldMode, f.NewMode)
	}
	return s
}

func modeChanged(f *changeset.File) bool {
	return f.OldMode != "" && f.NewMode != "" && f.OldMode != f.NewMode
}

// fileNote explains a file that has no hunks, which would otherwise read
// as "nothing changed".
func fileNote(f *changeset.File) string {
	switch {
	case f.Binary:
		return "Binary file: contents not shown"
	case modeChanged(f):
		return fmt.Sprintf("Mode changed from %s to %s; contents unchanged", f.OldMode, f.NewMode)
	case f.Status == changeset.StatusRenamed:
		return "Renamed; contents unchanged"
	case f.Status == changeset.StatusCopied:
		return "Copied; contents unchanged"
	case f.Status == changeset.StatusAdded || f.Status == changeset.StatusDeleted:
		return "Empty file"
	}
	return "No changes to show"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func (v *diffView) drawHunkHeader(it item) string {
	h := v.lay.hunk(it.g)
	m := v.lay.hunks[it.g]
	p := Pos{File: it.file, Hunk: int(m.index), Row: -1}
	mark, _ := v.curMark(p)
	a := v.th.hunkHeader
	if p == v.cursor {
		a = a.over(v.th.cursor)
	}
	title := safe(h.Declaration)
	if title == "" {
		title = fmt.Sprintf("lines %d-%d", h.NewStart, h.NewStart+max(h.NewCount-1, 0))
	}
	info := fmt.Sprintf("hunk %d/%d", m.index+1, len(v.lay.cs.Files[it.file].Hunks))
	if m.folded {
		info += " · folded, " + plural(len(h.Rows), "line")
	}
	if v.viewed[h.Digest] {
		info += " · viewed ✓"
	}
	lead := "── "
	if v.suggested.hunks[it.g] > 0 {
		lead = "◆─ " // a pending suggestion of the agent's points here
	}
	left := mark + lead + title + " "
	right := " " + info + " ──"
	fill := v.width - textCells(left, 8) - textCells(right, 8)
	if fill < 1 {
		return v.th.fit(left+right, a, v.width)
	}
	return v.th.fit(left+strings.Repeat("─", fill)+right, a, v.width)
}

// drawPreview draws a draft under the row it is anchored to.
func (v *diffView) drawPreview(it item) []string {
	d := v.drafts[it.draft]
	indent := unifiedGutter(v.numWidth(it.file)) - 2
	if v.lay.split && d.Location.Side == changeset.SideNew {
		lw, _ := v.halves()
		indent = 1 + lw + 1 + v.numWidth(it.file) + 2
	}
	indent = min(indent, v.width/2)
	pad := strings.Repeat(" ", indent)
	head := "┃ " + draftTitle(d)
	out := []string{v.th.fit(pad+head, v.th.commentHead, v.width)}
	lines := bodyLines(d.Body)
	for k, l := range lines {
		if k == previewLines {
			out = append(out, v.th.fit(pad+"┃ …", v.th.comment, v.width))
			break
		}
		out = append(out, v.th.fit(pad+"┃ "+strings.ReplaceAll(safe(l), "\t", " "), v.th.comment, v.width))
	}
	return out
}

// draftTitle is a draft's heading line: who, where, and whether it moved.
func draftTitle(d session.Placed) string {
	who := "your draft"
	switch {
	case d.Author == session.ActorAgent:
		who = "agent's draft"
	case d.ReplyTo != "":
		who = "your reply"
	}
	s := fmt.Sprintf("%s on %s", who, lineSpan(d.Location.Side, d.Location.Start, d.Location.End))
	if d.Rung == changeset.RungMoved {
		s += fmt.Sprintf(" (moved from %s)", lineSpan(d.Anchor.Side, d.Anchor.Start, d.Anchor.End))
	}
	if d.Resolved {
		s += " · resolved"
	}
	return s
}

func lineSpan(side changeset.Side, start, end int) string {
	if end <= start {
		return fmt.Sprintf("%s line %d", side, start)
	}
	return fmt.Sprintf("%s lines %d-%d", side, start, end)
}

// viewedIn counts the viewed hunks of file f.
func (v *diffView) viewedIn(f int) int {
	n := 0
	for _, h := range v.lay.cs.Files[f].Hunks {
		if v.viewed[h.Digest] {
			n++
		}
	}
	return n
}

// threadsIn counts the host's threads on file path.
func (v *diffView) threadsIn(path string) int {
	n := 0
	for _, t := range v.threads {
		if t.Path == path {
			n++
		}
	}
	return n
}

// draftsIn counts the placed drafts on file path.
func (v *diffView) draftsIn(path string) int {
	n := 0
	for _, d := range v.drafts {
		if !d.Orphaned() && d.Location.Path == path {
			n++
		}
	}
	return n
}
