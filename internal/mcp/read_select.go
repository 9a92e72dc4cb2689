package mcp

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
)

// Budgets keep an answer within what a model can take in: roughly 2000
// diff lines, 300 files in a summary, 40 entries in an omitted list.
const (
	lineBudget        = 2000
	summaryFileBudget = 300
	omittedListBudget = 40
)

// selection is the part of a change a read asked for: files in patch
// order, and for each the hunk indexes (all of them unless narrowed).
type selection struct {
	all   bool   // no path given: the whole change
	dir   string // a directory was given: its path with a trailing "/"
	files []*changeset.File
	hunks map[*changeset.File][]int
	paths map[string]bool
}

// selectFiles resolves in.Path as a file (by its path or old path), then
// as a directory holding changed files; hunks need a single file.
func selectFiles(cs *changeset.Changeset, in readInput) (selection, error) {
	sel := selection{hunks: map[*changeset.File][]int{}, paths: map[string]bool{}}
	switch {
	case in.Path == "" && len(in.Hunks) > 0:
		return sel, fmt.Errorf("hunks are numbered within a file: give its path too: %w", app.ErrInvalid)
	case in.Path == "":
		sel.all = true
		for i := range cs.Files {
			sel.add(&cs.Files[i], nil)
		}
		return sel, nil
	}
	if f := app.File(cs, in.Path, changeset.SideOld); f != nil {
		for _, h := range in.Hunks {
			if _, err := lookupHunk(f, h); err != nil {
				return sel, err
			}
		}
		sel.add(f, in.Hunks)
		return sel, nil
	}
	dir := strings.TrimSuffix(in.Path, "/") + "/"
	for i := range cs.Files {
		if strings.HasPrefix(cs.Files[i].Path, dir) {
			sel.add(&cs.Files[i], nil)
		}
	}
	if len(sel.files) == 0 {
		_, err := lookupFile(cs, in.Path, 0)
		return sel, err
	}
	if len(in.Hunks) > 0 {
		return sel, fmt.Errorf("%s is a directory of %d changed files; hunks are numbered within one file: %w", dir, len(sel.files), app.ErrInvalid)
	}
	sel.dir = dir
	return sel, nil
}

// add selects f, narrowed to hunks when that is not empty.
func (sel *selection) add(f *changeset.File, hunks []int) {
	if len(hunks) == 0 {
		hunks = make([]int, len(f.Hunks))
		for i := range hunks {
			hunks[i] = i
		}
	}
	sel.files = append(sel.files, f)
	sel.hunks[f] = hunks
	sel.paths[f.Path] = true
}

// budget counts diff lines against lineBudget. Once a hunk does not fit,
// every later one is refused too, so what is omitted is the tail of the
// selection and one read with path and hunks picks it up.
type budget struct {
	used  int
	spent bool
	// took says whether the file being walked contributed a hunk.
	took    bool
	omitted []string
	// pending are the refused hunk indexes of the file being walked.
	pending []int
}

// take reports whether hunk index (n lines) fits; the first hunk always
// does, so a read returns something however big the hunk is.
func (b *budget) take(index, n int) bool {
	if b.spent || (b.used > 0 && b.used+n > lineBudget) {
		b.spent = true
		b.pending = append(b.pending, index)
		return false
	}
	b.used += n
	b.took = true
	return true
}

// endFile records the hunks of f that take refused, and reports whether f
// belongs in the answer: it contributed a hunk, or it has none and came
// before the budget ran out.
func (b *budget) endFile(f *changeset.File) bool {
	shown := b.took || (len(f.Hunks) == 0 && !b.spent)
	switch {
	case len(b.pending) == 0:
	case len(b.pending) == len(f.Hunks):
		b.omitted = append(b.omitted, f.Path+" (whole file)")
	default:
		b.omitted = append(b.omitted, fmt.Sprintf("%s (hunks %s)", f.Path, indexList(b.pending)))
	}
	if len(f.Hunks) == 0 && b.spent {
		b.omitted = append(b.omitted, f.Path+" (no hunks)")
	}
	b.pending, b.took = b.pending[:0], false
	return shown
}

// list is the omitted list, cut to omittedListBudget entries.
func (b *budget) list() []string {
	return cutList(b.omitted, "files")
}

// cutList keeps the first omittedListBudget entries of list and says how
// many more there were.
func cutList(list []string, what string) []string {
	if len(list) <= omittedListBudget {
		return list
	}
	rest := len(list) - omittedListBudget
	return append(list[:omittedListBudget:omittedListBudget],
		fmt.Sprintf("and %d more %s: read them with path, a file or a directory", rest, what))
}

// indexList writes ascending indexes compactly: "3-5, 9".
func indexList(idx []int) string {
	var out []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if j == i {
			out = append(out, strconv.Itoa(idx[i]))
		} else {
			out = append(out, fmt.Sprintf("%d-%d", idx[i], idx[j]))
		}
		i = j + 1
	}
	return strings.Join(out, ", ")
}

// maxDirectories bounds the directories a summary rolls files up into.
const maxDirectories = 60

// directories rolls files (all under prefix, "" or ending in "/") up into
// directories: the deepest level below prefix, up to four, that still has
// at most maxDirectories of them, so a change inside one deep directory
// is not summed into a single useless line.
func directories(files []*changeset.File, prefix string, viewed map[string]bool) []DirView {
	var best []DirView
	for depth := 1; depth <= 4; depth++ {
		dirs := rollUp(files, prefix, depth, viewed)
		if len(dirs) > maxDirectories && best != nil {
			break
		}
		best = dirs
		if len(dirs) > maxDirectories {
			break
		}
	}
	if len(best) > maxDirectories {
		best = best[:maxDirectories]
	}
	return best
}

func rollUp(files []*changeset.File, prefix string, depth int, viewed map[string]bool) []DirView {
	byDir := map[string]*DirView{}
	for _, f := range files {
		rel := strings.Split(strings.TrimPrefix(f.Path, prefix), "/")
		dir := prefix
		if n := min(depth, len(rel)-1); n > 0 {
			dir = prefix + strings.Join(rel[:n], "/") + "/"
		}
		d := byDir[dir]
		if d == nil {
			d = &DirView{Path: dir}
			byDir[dir] = d
		}
		d.Files++
		d.Additions += f.Additions
		d.Deletions += f.Deletions
		d.Hunks += len(f.Hunks)
		d.HunksRead += hunksRead(f, viewed)
	}
	out := make([]DirView, 0, len(byDir))
	for _, d := range byDir {
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
