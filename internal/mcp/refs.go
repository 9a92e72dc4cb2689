package mcp

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
)

// This file checks the coordinates an agent sends against the changeset and
// words the refusals so the agent can correct itself: a path that is not in
// the change lists the closest ones, a hunk out of range gives the valid
// range, a line the diff does not show lists the lines it does.
//
// Coordinates: a file is named by its Path (or, for side old, its OldPath);
// a hunk by its 0-based index within the file; a line by its 1-based number
// in the file the side names.

// maxCloseMatches bounds how many paths a refusal suggests.
const maxCloseMatches = 3

// lookupFile returns the file of cs that p names, or an error listing the
// closest paths when none does.
func lookupFile(cs *changeset.Changeset, p string, side changeset.Side) (*changeset.File, error) {
	if side == 0 {
		side = changeset.SideOld // match Path, then OldPath
	}
	if f := app.File(cs, p, side); f != nil {
		return f, nil
	}
	msg := fmt.Sprintf("%q is not a file of this change", p)
	if close := closePaths(cs, p); len(close) > 0 {
		msg += "; did you mean " + quoteList(close) + "?"
	}
	return nil, fmt.Errorf("%s (the change has %d files; read_review with projection summary lists them): %w", msg, len(cs.Files), app.ErrNotFound)
}

// lookupHunk returns hunk index of f, or an error giving the valid range.
func lookupHunk(f *changeset.File, index int) (*changeset.Hunk, error) {
	if index >= 0 && index < len(f.Hunks) {
		return &f.Hunks[index], nil
	}
	switch {
	case f.Binary:
		return nil, fmt.Errorf("%s is a binary file: it has no hunks: %w", f.Path, app.ErrNotFound)
	case len(f.Hunks) == 0:
		return nil, fmt.Errorf("%s has no hunks (only its name or mode changed): %w", f.Path, app.ErrNotFound)
	}
	return nil, fmt.Errorf("%s has %d hunks, numbered 0 to %d; there is no hunk %d: %w", f.Path, len(f.Hunks), len(f.Hunks)-1, index, app.ErrNotFound)
}

// hunkOfLine returns the index of the hunk of f showing line on side, or -1.
func hunkOfLine(f *changeset.File, side changeset.Side, line int) int {
	for i := range f.Hunks {
		if hunkShows(&f.Hunks[i], side, line) {
			return i
		}
	}
	return -1
}

// hunkShows reports whether h has a row numbered line on side.
func hunkShows(h *changeset.Hunk, side changeset.Side, line int) bool {
	for _, r := range h.Rows {
		if n := rowLine(r, side); n != nil && *n == line {
			return true
		}
	}
	return false
}

func rowLine(r changeset.Row, side changeset.Side) *int {
	if side == changeset.SideOld {
		return r.OldLine
	}
	return r.NewLine
}

// shownLines describes the lines f's hunks show on side, hunk by hunk:
// "2-9 (hunk 0), 15-40 (hunk 1)".
func shownLines(f *changeset.File, side changeset.Side) string {
	var parts []string
	for i := range f.Hunks {
		parts = append(parts, fmt.Sprintf("%s (hunk %d)", hunkSpan(&f.Hunks[i], side), i))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// hunkSpan is the range of lines h shows on side, "first-last", or "none"
// (a hunk that only adds shows no old lines).
func hunkSpan(h *changeset.Hunk, side changeset.Side) string {
	first, last := 0, 0
	for _, r := range h.Rows {
		if n := rowLine(r, side); n != nil {
			if first == 0 {
				first = *n
			}
			last = *n
		}
	}
	if first == 0 {
		return "none"
	}
	return fmt.Sprintf("%d-%d", first, last)
}

// closePaths returns up to maxCloseMatches paths of cs that p was probably
// meant to be: the same base name, a path ending or containing p, or a
// small edit distance, nearest first.
func closePaths(cs *changeset.Changeset, p string) []string {
	type cand struct {
		path string
		dist int
	}
	var cands []cand
	base := path.Base(p)
	limit := max(3, len(p)/3)
	for _, f := range cs.Files {
		names := []string{f.Path}
		if f.OldPath != "" && f.OldPath != f.Path {
			names = append(names, f.OldPath)
		}
		for _, name := range names {
			d := editDistance(p, name)
			switch {
			case path.Base(name) == base, strings.HasSuffix(name, "/"+p), p != "" && strings.Contains(name, p):
				d = min(d, 1)
			case d > limit:
				continue
			}
			cands = append(cands, cand{f.Path, d})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].dist < cands[j].dist })
	var out []string
	seen := map[string]bool{}
	for _, c := range cands {
		if !seen[c.path] && len(out) < maxCloseMatches {
			seen[c.path] = true
			out = append(out, c.path)
		}
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, " or ")
}

// parseSide reads an agent's side, "" meaning new.
func parseSide(s string) (changeset.Side, error) {
	if s == "" {
		return changeset.SideNew, nil
	}
	side, err := changeset.ParseSide(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", err, app.ErrInvalid)
	}
	return side, nil
}
