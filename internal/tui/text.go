package tui

import (
	"strings"

	"github.com/rivo/uniseg"
)

// span is a byte range [start, end) of a line drawn with attrs a.
type span struct {
	start, end int
	a          attrs
}

// ellipsis marks a line cut at the edge when wrapping is off.
const ellipsis = "…"

// nextCluster returns the length in bytes and the width in cells of the
// grapheme cluster at the start of s; col is the cell column it starts
// at, for tabs.
func nextCluster(s string, col, tab int) (size, width int) {
	c := s[0]
	if c == '\t' {
		return 1, tab - col%tab
	}
	if c < 0x80 && (len(s) == 1 || s[1] < 0x80) {
		return 1, 1
	}
	cluster, _, w, _ := uniseg.FirstGraphemeClusterInString(s, -1)
	return len(cluster), w
}

// textCells is the width of s in cells, tabs expanded.
func textCells(s string, tab int) int {
	col := 0
	for i := 0; i < len(s); {
		n, w := nextCluster(s[i:], col, tab)
		i += n
		col += w
	}
	return col
}

// wrappedLines is how many lines of width cells s takes when wrapped.
func wrappedLines(s string, width, tab int) int {
	if width < 1 {
		return 1
	}
	lines, col, lineCol := 1, 0, 0
	for i := 0; i < len(s); {
		n, w := nextCluster(s[i:], col, tab)
		if lineCol+w > width && lineCol > 0 {
			lines++
			lineCol = 0
		}
		i += n
		col += w
		lineCol += w
	}
	return lines
}

// painter writes cells of one line, switching attributes only when they
// change.
type painter struct {
	t    *theme
	b    strings.Builder
	cur  attrs
	open bool
}

func (p *painter) write(a attrs, s string) {
	if !p.open || a != p.cur {
		if p.open && p.cur != (attrs{}) {
			p.b.WriteString(sgrReset)
		}
		p.b.WriteString(p.t.seq(a))
		p.cur, p.open = a, true
	}
	p.b.WriteString(s)
}

func (p *painter) pad(a attrs, n int) {
	if n > 0 {
		p.write(a, strings.Repeat(" ", n))
	}
}

func (p *painter) String() string {
	if p.open && p.cur != (attrs{}) {
		p.b.WriteString(sgrReset)
	}
	p.open = false
	s := p.b.String()
	p.b.Reset()
	return s
}

// layerCursor walks one sorted, non-overlapping span list alongside the
// text.
type layerCursor struct {
	spans []span
	i     int
}

func (c *layerCursor) at(off int) (attrs, bool) {
	for c.i < len(c.spans) && c.spans[c.i].end <= off {
		c.i++
	}
	if c.i < len(c.spans) && c.spans[c.i].start <= off {
		return c.spans[c.i].a, true
	}
	return attrs{}, false
}

// drawText lays s out in lines of exactly width cells: wrapped when wrap
// is set, otherwise one line cut with an ellipsis. base draws the whole
// line, padding included; each layer (a sorted, non-overlapping span list
// in byte offsets of s) is laid on top in order. Tabs expand to stops
// every tab cells counted from the start of s.
func (t *theme) drawText(s string, base attrs, layers [][]span, width int, wrap bool, tab int) []string {
	if width < 1 {
		return []string{""}
	}
	curs := make([]layerCursor, len(layers))
	for i, l := range layers {
		curs[i] = layerCursor{spans: l}
	}
	p := &painter{t: t}
	var out []string
	col, lineCol := 0, 0
	for i := 0; i < len(s); {
		n, w := nextCluster(s[i:], col, tab)
		if lineCol+w > width && lineCol > 0 {
			if !wrap {
				return append(out, cutLine(p, s[i:], base, width, lineCol))
			}
			p.pad(base, width-lineCol)
			out = append(out, p.String())
			lineCol = 0
		}
		if !wrap && i+n < len(s) && lineCol+w == width {
			// The last cell is needed for the ellipsis.
			return append(out, cutLine(p, s[i:], base, width, lineCol))
		}
		a := base
		for k := range curs {
			if la, ok := curs[k].at(i); ok {
				a = a.over(la)
			}
		}
		cluster := s[i : i+n]
		if cluster == "\t" {
			cluster = strings.Repeat(" ", w)
		}
		p.write(a, cluster)
		i += n
		col += w
		lineCol += w
	}
	p.pad(base, width-lineCol)
	return append(out, p.String())
}

// cutLine ends a line that does not fit: pad to the last cell and put the
// ellipsis there.
func cutLine(p *painter, _ string, base attrs, width, lineCol int) string {
	p.pad(base, width-1-lineCol)
	p.write(base, ellipsis)
	return p.String()
}

// fit returns s (plain text, no tabs) cut or padded to exactly width
// cells, drawn with a.
func (t *theme) fit(s string, a attrs, width int) string {
	return t.drawText(s, a, nil, width, false, 8)[0]
}

// fitLeft is fit but cuts from the left, keeping the end of s (a path's
// file name).
func (t *theme) fitLeft(s string, a attrs, width int) string {
	if textCells(s, 8) <= width || width < 2 {
		return t.fit(s, a, width)
	}
	for i := 0; i < len(s); {
		n, _ := nextCluster(s[i:], 0, 8)
		i += n
		if textCells(s[i:], 8) <= width-1 {
			return t.fit(ellipsis+s[i:], a, width)
		}
	}
	return t.fit(ellipsis, a, width)
}
