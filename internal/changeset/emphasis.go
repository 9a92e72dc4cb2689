package changeset

import "unicode/utf8"

// Word-level emphasis marks, for a deleted line paired with the added line
// that rewrote it, the part of each that changed: the span between their
// longest common prefix and suffix, both cut back to token boundaries
// (a token is a run of word characters, a run of blanks, or one punctuation
// character). One span per row, because Row.Emph holds one.
//
// Coordinates, and how they convert:
//   - emphasize works in bytes of Row.Text (what Go slices);
//   - Row.Emph is UTF-16 code units of Row.Text (what a browser indexes):
//     utf16Span converts bytes to it and byteSpan converts back. An astral
//     character (emoji) is two units, any other character one, and a byte
//     that is not valid UTF-8 one (encoding/json ships it as U+FFFD);
//   - RawLineEmphasis is bytes of the raw line Hunk.Lines[i], so the +/-
//     marker shifts every offset by one.

// minSimilarity is the share of the longer line (indentation aside) that the
// common prefix and suffix must cover, in fifths, for a pair to be treated as
// a rewrite rather than as two unrelated lines.
const minSimilarity = 2

// minContained is the length, indentation aside, from which a line found
// whole inside its counterpart counts as rewritten however short it is.
const minContained = 4

// maxAlign bounds the runs paired by similarity rather than by position.
const maxAlign = 12

type tokenClass uint8

const (
	classPunct tokenClass = iota
	classWord
	classBlank
)

func classOf(c byte) tokenClass {
	switch {
	case c == ' ' || c == '\t':
		return classBlank
	case c >= 0x80, c == '_', c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		return classWord
	}
	return classPunct
}

// emphasize returns the changed byte span of a and of b, or a zero Span on a
// side where nothing changed; both are zero when the lines are identical or
// too different to be a rewrite of each other. It never returns a non-zero
// empty span.
func emphasize(a, b string) (sa, sb Span) {
	pre, suf, ok := commonEnds(a, b)
	if !ok {
		return Span{}, Span{}
	}
	if pre < len(a)-suf {
		sa = Span{Start: pre, End: len(a) - suf}
	}
	if pre < len(b)-suf {
		sb = Span{Start: pre, End: len(b) - suf}
	}
	return sa, sb
}

// commonEnds measures the token-aligned common prefix and suffix of a and b
// in bytes and whether they make the two lines similar.
func commonEnds(a, b string) (pre, suf int, similar bool) {
	n := min(len(a), len(b))
	for pre < n && a[pre] == b[pre] {
		pre++
	}
	if pre == len(a) && pre == len(b) {
		return 0, 0, false
	}
	for pre > 0 {
		c := classOf(a[pre-1])
		if c == classPunct || !((pre < len(a) && classOf(a[pre]) == c) || (pre < len(b) && classOf(b[pre]) == c)) {
			break
		}
		pre--
	}
	for suf < n-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	for suf > 0 {
		ia, ib := len(a)-suf, len(b)-suf
		c := classOf(a[ia])
		if c == classPunct || !((ia > pre && classOf(a[ia-1]) == c) || (ib > pre && classOf(b[ib-1]) == c)) {
			break
		}
		suf--
	}
	indent := 0
	for indent < pre && classOf(a[indent]) == classBlank {
		indent++
	}
	common := pre + suf - indent
	longest := max(len(a), len(b)) - indent
	shortest := min(len(a), len(b)) - indent
	// One line wholly inside the other (text appended, inserted or cut) is
	// a rewrite however much was added.
	contained := common == shortest && shortest >= minContained
	return pre, suf, common > 0 && (contained || common*5 >= longest*minSimilarity)
}

// emphasizeHunk sets Row.Emph on the rows of each deleted run followed by an
// added run, pairing lines by similarity when the runs are short and by
// position otherwise. spans backs the Emph pointers.
func emphasizeHunk(h *Hunk, spans *pool[Span]) {
	rows := h.Rows
	for i := 0; i < len(rows); {
		if rows[i].Kind != KindDel {
			i++
			continue
		}
		ds := i
		for i < len(rows) && (rows[i].Kind == KindDel || rows[i].Kind == KindMeta) {
			i++
		}
		as := i
		for i < len(rows) && (rows[i].Kind == KindAdd || rows[i].Kind == KindMeta) {
			i++
		}
		if as < i {
			pairRuns(rows, ds, as, i, spans)
		}
	}
}

// pairRuns emphasizes the pairs of rows[ds:as] (deleted) and rows[as:ae]
// (added), meta rows skipped.
func pairRuns(rows []Row, ds, as, ae int, spans *pool[Span]) {
	var delBuf, addBuf [maxAlign + 1]int
	dels, adds := delBuf[:0], addBuf[:0]
	for k := ds; k < as && len(dels) <= maxAlign; k++ {
		if rows[k].Kind == KindDel {
			dels = append(dels, k)
		}
	}
	for k := as; k < ae && len(adds) <= maxAlign; k++ {
		if rows[k].Kind == KindAdd {
			adds = append(adds, k)
		}
	}
	if len(dels) <= maxAlign && len(adds) <= maxAlign && len(dels) != len(adds) {
		alignPairs(rows, dels, adds, spans)
		return
	}
	// By position: the k-th deleted line with the k-th added line.
	d, a := ds, as
	for {
		for d < as && rows[d].Kind != KindDel {
			d++
		}
		for a < ae && rows[a].Kind != KindAdd {
			a++
		}
		if d >= as || a >= ae {
			return
		}
		markPair(&rows[d], &rows[a], spans)
		d++
		a++
	}
}

// alignPairs pairs short runs of unequal length monotonically so that the
// number of similar pairs is largest, preferring earlier pairings on ties.
func alignPairs(rows []Row, dels, adds []int, spans *pool[Span]) {
	n, m := len(dels), len(adds)
	var sim [maxAlign][maxAlign]bool
	var best [maxAlign + 1][maxAlign + 1]uint8
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			_, _, sim[i][j] = commonEnds(rows[dels[i]].Text, rows[adds[j]].Text)
			v := max(best[i+1][j], best[i][j+1])
			if sim[i][j] {
				v = max(v, best[i+1][j+1]+1)
			}
			best[i][j] = v
		}
	}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case sim[i][j] && best[i][j] == best[i+1][j+1]+1:
			markPair(&rows[dels[i]], &rows[adds[j]], spans)
			i++
			j++
		case best[i+1][j] >= best[i][j+1]:
			i++
		default:
			j++
		}
	}
}

// markPair sets the Emph of a deleted row and its added counterpart.
func markPair(del, add *Row, spans *pool[Span]) {
	sd, sa := emphasize(del.Text, add.Text)
	if !sd.Empty() {
		del.Emph = spans.new(utf16Span(del.Text, sd))
	}
	if !sa.Empty() {
		add.Emph = spans.new(utf16Span(add.Text, sa))
	}
}

// RawLineEmphasis returns h's intra-line emphasis in the coordinates a
// terminal renderer slices: byte offsets into the raw line h.Lines[i], +/-
// marker included. It is indexed like h.Rows (which the parser keeps
// parallel to h.Lines); a zero Span means nothing to mark on that row.
func RawLineEmphasis(h Hunk) []Span {
	out := make([]Span, len(h.Rows))
	for i, r := range h.Rows {
		if r.Emph == nil || r.Emph.Empty() {
			continue
		}
		s := byteSpan(r.Text, *r.Emph)
		marker := 0
		if i < len(h.Lines) && len(h.Lines[i]) > len(r.Text) {
			marker = 1
		}
		out[i] = Span{Start: s.Start + marker, End: s.End + marker}
	}
	return out
}

// utf16Span converts a byte span of text into UTF-16 code units.
func utf16Span(text string, s Span) Span {
	start := utf16Len(text[:s.Start])
	return Span{Start: start, End: start + utf16Len(text[s.Start:s.End])}
}

// byteSpan converts a UTF-16 span of text back into bytes. An offset inside
// a surrogate pair moves to the end of its character; one past the end of
// text is clamped to len(text).
func byteSpan(text string, s Span) Span {
	start := byteOffset(text, 0, 0, s.Start)
	return Span{Start: start, End: byteOffset(text, start, s.Start, s.End)}
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n++
		if r >= 0x10000 {
			n++
		}
		i += size
	}
	return n
}

// byteOffset walks text from byte i, which is UTF-16 offset u, to UTF-16
// offset want and returns its byte offset.
func byteOffset(text string, i, u, want int) int {
	for i < len(text) && u < want {
		if text[i] < utf8.RuneSelf {
			i++
			u++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		u++
		if r >= 0x10000 {
			u++
		}
		i += size
	}
	return i
}
