package tui

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// picker is the fuzzy file finder: a query and the files that match it,
// best first.
type picker struct {
	query   prompt
	matches []int // file indexes, best first
	sel     int
	top     int
}

func newPicker(paths []string) *picker {
	p := &picker{query: prompt{label: "file: "}}
	p.refilter(paths)
	return p
}

// fuzzyScore scores path against query: every query character must appear
// in order (case-insensitively); consecutive runs, matches at word starts
// and in the file name score higher. ok is false for no match.
func fuzzyScore(path, query string) (score int, ok bool) {
	if query == "" {
		return 0, true
	}
	base := strings.LastIndexByte(path, '/') + 1
	qi := 0
	q := []rune(strings.ToLower(query))
	prevMatch := -2
	prev := rune('/')
	for i, r := range path {
		if qi == len(q) {
			break
		}
		if unicode.ToLower(r) == q[qi] {
			score++
			if prevMatch == i-utf8.RuneLen(prev) {
				score += 3
			}
			if !unicode.IsLetter(prev) && !unicode.IsDigit(prev) {
				score += 2
			}
			if i >= base {
				score++
			}
			prevMatch = i
			qi++
		}
		prev = r
	}
	if qi < len(q) {
		return 0, false
	}
	return score*100 - len(path), true
}

func (p *picker) refilter(paths []string) {
	type hit struct{ file, score int }
	var hits []hit
	for i, path := range paths {
		if s, ok := fuzzyScore(path, p.query.value()); ok {
			hits = append(hits, hit{i, s})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	p.matches = p.matches[:0]
	for _, h := range hits {
		p.matches = append(p.matches, h.file)
	}
	p.sel, p.top = 0, 0
}

func (p *picker) move(n int) {
	p.sel = max(min(p.sel+n, len(p.matches)-1), 0)
}

func (p *picker) render(m *Model, width, height int) []string {
	th := m.th
	out := []string{p.query.view(th, th.fileHeader, width)}
	rows := height - 1
	if p.sel < p.top {
		p.top = p.sel
	}
	if p.sel >= p.top+rows {
		p.top = p.sel - rows + 1
	}
	files := m.diff.lay.cs.Files
	for i := p.top; i < len(p.matches) && len(out) < height; i++ {
		f := &files[p.matches[i]]
		a, mark := attrs{}, "  "
		if i == p.sel {
			a, mark = th.cursor, "> "
		}
		out = append(out, th.fit(mark+statusLetter(f)+" ", a, min(4, width))+th.fitLeft(safe(f.Path), a, width-4))
	}
	if len(p.matches) == 0 {
		out = append(out, th.fit("  no file matches", th.dim, width))
	}
	for len(out) < height {
		out = append(out, th.fit("", attrs{}, width))
	}
	return out
}
