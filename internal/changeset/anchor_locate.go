package changeset

import "strings"

// LocateAnchor re-finds an anchor in the files a reader is shown now and says
// how well it managed: RungExact (the anchored lines are still at
// remembered), RungMoved (found, unambiguously, elsewhere: another line or a
// renamed file), or RungOrphaned with the zero Location.
//
// The anchored lines must be present verbatim, visible on the anchor's side
// and contiguous. Where they appear more than once, the surrounding context
// decides; a tie is broken only by remembered (the line the remark was
// written on). A placement that nothing but the anchored text supports must
// rest on distinctive text. Otherwise the anchor is orphaned: a remark on the
// wrong line is worse than a remark that asks to be placed again.
func LocateAnchor(a Anchor, files []File, remembered int) (Location, Rung) {
	return NewLocator(files).Locate(a, remembered)
}

// Locator locates many anchors in one set of files, computing each file's
// visible lines once. It is not safe for concurrent use.
type Locator struct {
	files []File
	vis   map[visKey][]sideLine
}

type visKey struct {
	file *File
	side Side
}

// NewLocator returns a Locator over files, which it does not modify.
func NewLocator(files []File) *Locator {
	return &Locator{files: files, vis: map[visKey][]sideLine{}}
}

func (l *Locator) visible(f *File, side Side) []sideLine {
	k := visKey{f, side}
	v, ok := l.vis[k]
	if !ok {
		v = visibleLines(f, side)
		l.vis[k] = v
	}
	return v
}

// Locate is LocateAnchor over the Locator's files.
func (l *Locator) Locate(a Anchor, remembered int) (Location, Rung) {
	if a.IsZero() || len(a.Lines) == 0 {
		return Location{}, RungOrphaned
	}
	f := targetFile(a, l.files)
	if f == nil {
		return l.locateRenamed(a)
	}
	vis := l.visible(f, a.Side)
	cands := findRuns(vis, a.Lines)
	if len(cands) == 0 {
		return Location{}, RungOrphaned
	}
	i, ok := choose(a, vis, cands, remembered)
	if !ok {
		return Location{}, RungOrphaned
	}
	loc := Location{Path: f.Path, Side: a.Side, Start: vis[i].line, End: vis[i].line + len(a.Lines) - 1}
	if loc.Start == remembered && f.Path == a.Path {
		return loc, RungExact
	}
	return loc, RungMoved
}

// targetFile picks the file an anchor belongs to in files, following a
// rename in either changeset. It never jumps to an unrelated file: code that
// moved between files is orphaned rather than chased.
func targetFile(a Anchor, files []File) *File {
	name := a.Path
	if a.Side == SideOld && a.OldPath != "" {
		name = a.OldPath
	}
	match := func(pred func(f *File) bool) *File {
		for i := range files {
			if pred(&files[i]) {
				return &files[i]
			}
		}
		return nil
	}
	if a.Side == SideOld {
		if f := match(func(f *File) bool { return f.OldPath == name && f.Status != StatusCopied }); f != nil {
			return f
		}
		return match(func(f *File) bool { return f.Path == name })
	}
	if f := match(func(f *File) bool { return f.Path == name && f.Status != StatusDeleted }); f != nil {
		return f
	}
	// Renamed in the new changeset: the anchor's path is the new file's old name.
	if f := match(func(f *File) bool { return f.OldPath == name && f.Status == StatusRenamed }); f != nil {
		return f
	}
	if a.OldPath != "" && a.OldPath != a.Path {
		// Renamed in the old changeset and not any more.
		if f := match(func(f *File) bool { return f.Path == a.OldPath && f.Status != StatusDeleted }); f != nil {
			return f
		}
		// Renamed in both, to different names.
		return match(func(f *File) bool { return f.OldPath == a.OldPath && f.Status == StatusRenamed })
	}
	return nil
}

// renamedEvidence is how many distinctive context lines must agree before
// an anchor is followed into a file of another name.
const renamedEvidence = 3

// locateRenamed looks for an anchor whose file is not in the changeset under
// any of its names, which is what a file renamed between two pushes of a
// branch that adds it looks like. The anchored lines and strong context must
// agree in exactly one place of one file; anything less is an orphan.
func (l *Locator) locateRenamed(a Anchor) (Location, Rung) {
	var found *File
	at, best, tied := 0, 0, false
	var foundVis []sideLine
	for fi := range l.files {
		f := &l.files[fi]
		if a.Side == SideNew && f.Status == StatusDeleted {
			continue
		}
		vis := l.visible(f, a.Side)
		for _, c := range findRuns(vis, a.Lines) {
			s := contextScore(a, vis, c)
			switch {
			case s > best:
				found, foundVis, at, best, tied = f, vis, c, s, false
			case s == best && s > 0:
				tied = true
			}
		}
	}
	if found == nil || tied || best < renamedEvidence*evidenceScale {
		return Location{}, RungOrphaned
	}
	line := foundVis[at].line
	return Location{Path: found.Path, Side: a.Side, Start: line, End: line + len(a.Lines) - 1}, RungMoved
}

// findRuns returns every index i where vis[i:] starts with lines, the lines
// contiguous in the file.
func findRuns(vis []sideLine, lines []string) []int {
	var out []int
	n := len(lines)
	for i := 0; i+n <= len(vis); i++ {
		if vis[i].text != lines[0] {
			continue
		}
		ok := true
		for k := 1; k < n; k++ {
			if vis[i+k].text != lines[k] || vis[i+k].line != vis[i].line+k {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// contextScore measures how much remembered context agrees at candidate i,
// walking outward from the anchored lines and stopping at the first
// disagreement on each side. Each distinctive agreeing line is worth
// evidenceScale; blank lines and lone punctuation agree almost everywhere,
// so they are worth 1: enough to break a tie, never enough to place alone.
func contextScore(a Anchor, vis []sideLine, i int) int {
	score := 0
	prev := i
	for k := len(a.Before) - 1; k >= 0; k-- {
		j := prev - 1
		if j < 0 || vis[j].line != vis[prev].line-1 || vis[j].text != a.Before[k] {
			break
		}
		score += 1 + evidenceScale*weight(a.Before[k])
		prev = j
	}
	last := i + len(a.Lines) - 1
	for _, want := range a.After {
		j := last + 1
		if j >= len(vis) || vis[j].line != vis[last].line+1 || vis[j].text != want {
			break
		}
		score += 1 + evidenceScale*weight(want)
		last = j
	}
	return score
}

// evidenceScale makes one distinctive agreeing line outweigh any number of
// agreeing blank lines, which only break ties between equal evidence.
const evidenceScale = 100

// weight is what one agreeing context line is worth as evidence.
func weight(line string) int {
	n := 0
	for _, r := range line {
		if r != ' ' && r != '\t' && r != '\r' && r != '{' && r != '}' && r != '(' && r != ')' && r != ';' && r != ',' {
			n++
			if n >= 3 {
				return 1
			}
		}
	}
	return 0
}

// choose picks among candidate runs, or reports that nothing may be chosen.
func choose(a Anchor, vis []sideLine, cands []int, remembered int) (int, bool) {
	best, bestScore, tied := -1, -1, 0
	for _, c := range cands {
		s := contextScore(a, vis, c)
		switch {
		case s > bestScore:
			best, bestScore, tied = c, s, 1
		case s == bestScore:
			tied++
		}
	}
	if tied > 1 {
		// Equal evidence: only the remembered line may break the tie.
		for _, c := range cands {
			if vis[c].line == remembered && contextScore(a, vis, c) == bestScore {
				return c, true
			}
		}
		return 0, false
	}
	if vis[best].line == remembered {
		return best, true
	}
	if bestScore < evidenceScale && (len(cands) > 1 || !distinctive(a.Lines)) {
		// Nothing around it agrees, and the text alone could be anywhere.
		return 0, false
	}
	return best, true
}

// distinctive reports whether anchored text is specific enough to be found
// elsewhere on its own: not blank, not a lone brace or keyword.
func distinctive(lines []string) bool {
	n := 0
	for _, l := range lines {
		n += len(strings.Join(strings.Fields(l), ""))
	}
	return n >= 12
}
