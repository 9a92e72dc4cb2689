package tui

import (
	"strconv"
	"strings"

	"github.com/leanreview/leanreview/internal/changeset"
)

// rowBase is the look of a row of kind k.
func (v *diffView) rowBase(k changeset.Kind) attrs {
	switch k {
	case changeset.KindAdd:
		return v.th.add
	case changeset.KindDel:
		return v.th.del
	case changeset.KindMeta:
		return v.th.dim
	}
	return v.th.context
}

func sign(k changeset.Kind) string {
	switch k {
	case changeset.KindAdd:
		return "+"
	case changeset.KindDel:
		return "-"
	case changeset.KindMeta:
		return "\\"
	}
	return " "
}

func num(p *int, w int) string {
	if p == nil {
		return strings.Repeat(" ", w)
	}
	s := strconv.Itoa(*p)
	if len(s) >= w {
		return s
	}
	return strings.Repeat(" ", w-len(s)) + s
}

// rowLayers returns the span layers of row i of hunk g over its drawn
// text: syntax colours, word emphasis, escapes, search hits.
func (v *diffView) rowLayers(it item, g, i int, text string, escaped bool) [][]span {
	h := v.lay.hunk(g)
	row := &h.Rows[i]
	var layers [][]span
	if row.Kind != changeset.KindMeta && !escaped {
		if s := v.hl.spans(v.lay.cs.Files[it.file].Path, rowRef{g, i}, text); s != nil {
			layers = append(layers, s)
		}
	}
	if row.Emph != nil && !escaped {
		if sp := v.emphOf(g)[i]; !sp.Empty() {
			marker := 0
			if len(h.Lines[i]) > len(row.Text) {
				marker = 1
			}
			a := v.th.addWord
			if row.Kind == changeset.KindDel {
				a = v.th.delWord
			}
			layers = append(layers, []span{{sp.Start - marker, sp.End - marker, a}})
		}
	}
	if escaped {
		var es []span
		for _, m := range escapeRE.FindAllStringIndex(text, -1) {
			es = append(es, span{m[0], m[1], v.th.escaped})
		}
		layers = append(layers, es)
	}
	if v.search != nil {
		var ms []span
		for _, m := range v.search.FindAllStringIndex(text, 64) {
			if m[1] > m[0] {
				ms = append(ms, span{m[0], m[1], v.th.match})
			}
		}
		layers = append(layers, ms)
	}
	return layers
}

func (v *diffView) emphOf(g int) []changeset.Span {
	if e, ok := v.emph.get(g); ok {
		return e
	}
	e := changeset.RawLineEmphasis(*v.lay.hunk(g))
	v.emph.put(g, e)
	return e
}

func (v *diffView) drawRow(it item) []string {
	h := v.lay.hunk(it.g)
	row := &h.Rows[it.row]
	w := v.numWidth(it.file)
	p := Pos{File: it.file, Hunk: int(v.lay.hunks[it.g].index), Row: it.row}
	text, escaped := rowText(h, it.row)
	base := v.rowBase(row.Kind)
	body := v.th.drawText(text, base, v.rowLayers(it, it.g, it.row, text, escaped), v.width-unifiedGutter(w), v.wrap, v.tab)
	gut := v.gutterAttrs(p, base)
	pt := &painter{t: v.th}
	mark, _ := v.curMark(p)
	for k := range body {
		if k == 0 {
			pt.write(gut, mark+num(row.OldLine, w)+" "+num(row.NewLine, w)+" ")
			v.writeDraftMark(pt, it.g, it.row, gut)
			pt.write(gut, sign(row.Kind)+" ")
		} else {
			pt.write(gut, strings.Repeat(" ", unifiedGutter(w)))
		}
		body[k] = pt.String() + body[k]
	}
	return body
}

// gutterAttrs is the look of the gutter of row p drawn over base.
func (v *diffView) gutterAttrs(p Pos, base attrs) attrs {
	a := base.over(v.th.lineNo)
	switch {
	case p == v.cursor:
		a = a.over(v.th.cursor)
	case v.selected(p):
		a = a.over(v.th.selection)
	}
	return a
}

// writeDraftMark fills the gutter's mark column: ● for a row with drafts,
// ◆ for a row a pending suggestion of the agent's points at, else blank.
func (v *diffView) writeDraftMark(pt *painter, g, row int, gut attrs) {
	switch {
	case len(v.lay.rowDrafts[rowRef{g, row}]) > 0:
		pt.write(gut.over(v.th.comment), "●")
	case v.suggested.rows[rowRef{g, row}]:
		pt.write(gut.over(v.th.comment), "◆")
	default:
		pt.write(gut, " ")
	}
}

// drawPair draws one split-view line: the old row on the left, the new
// row on the right.
func (v *diffView) drawPair(it item) []string {
	h := v.lay.hunk(it.g)
	pr := v.lay.pairing(it.g).pairs[it.row]
	w := v.numWidth(it.file)
	hi := int(v.lay.hunks[it.g].index)
	lw, rw := v.halves()
	left := v.drawHalf(it, h, int(pr.l), changeset.SideOld, lw, w)
	right := v.drawHalf(it, h, int(pr.r), changeset.SideNew, rw, w)
	n := max(len(left), len(right))
	mark := " "
	onPair := v.cursor.File == it.file && v.cursor.Hunk == hi && (v.cursor.Row == int(pr.l) || v.cursor.Row == int(pr.r)) && v.cursor.Row >= 0
	if onPair {
		mark = ">"
	} else if v.selected(Pos{File: it.file, Hunk: hi, Row: pr.pick(v.side)}) {
		mark = "*"
	}
	out := make([]string, n)
	for k := 0; k < n; k++ {
		pt := &painter{t: v.th}
		m := " "
		a := v.th.lineNo
		if k == 0 {
			m = mark
			if onPair {
				a = a.over(v.th.cursor)
			}
		}
		pt.write(a, m)
		l := v.th.fit("", attrs{}, lw)
		if k < len(left) {
			l = left[k]
		}
		r := v.th.fit("", attrs{}, rw)
		if k < len(right) {
			r = right[k]
		}
		out[k] = pt.String() + l + v.th.seq(v.th.dim) + "│" + endSGR(v.th.dim) + r
	}
	return out
}

func endSGR(a attrs) string {
	if a == (attrs{}) {
		return ""
	}
	return sgrReset
}

// drawHalf draws row i of h (or a blank side when i < 0) in width cells.
func (v *diffView) drawHalf(it item, h *changeset.Hunk, i int, side changeset.Side, width, w int) []string {
	if i < 0 {
		return []string{v.th.fit("", v.th.dim, width)}
	}
	row := &h.Rows[i]
	p := Pos{File: it.file, Hunk: int(v.lay.hunks[it.g].index), Row: i}
	text, escaped := rowText(h, i)
	base := v.rowBase(row.Kind)
	body := v.th.drawText(text, base, v.rowLayers(it, it.g, i, text, escaped), width-(w+4), v.wrap, v.tab)
	gut := base.over(v.th.lineNo)
	if p == v.cursor && (row.Kind != changeset.KindContext || side == v.side) {
		gut = gut.over(v.th.cursor)
	} else if v.selected(p) {
		gut = gut.over(v.th.selection)
	}
	n := row.NewLine
	if side == changeset.SideOld {
		n = row.OldLine
	}
	pt := &painter{t: v.th}
	for k := range body {
		if k == 0 {
			pt.write(gut, num(n, w)+" ")
			v.writeDraftMark(pt, it.g, i, gut)
			pt.write(gut, sign(row.Kind)+" ")
		} else {
			pt.write(gut, strings.Repeat(" ", w+4))
		}
		body[k] = pt.String() + body[k]
	}
	return body
}
