package mcp

import (
	"fmt"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
)

// summarize is the summary projection: one line per selected file up to
// summaryFileBudget, then the directories the selection spans; and totals
// over the whole change.
func summarize(snap *app.Snapshot, sel selection) (*TotalsView, []FileView, []string, []DirView) {
	open := openComments(snap)
	t := &TotalsView{Files: len(snap.Changeset.Files)}
	for i := range snap.Changeset.Files {
		f := &snap.Changeset.Files[i]
		t.Additions += f.Additions
		t.Deletions += f.Deletions
		t.Hunks += len(f.Hunks)
		t.HunksRead += hunksRead(f, snap.Viewed)
	}
	for _, d := range snap.Drafts {
		if !d.Resolved {
			t.Comments++
		}
	}
	shown := sel.files[:min(len(sel.files), summaryFileBudget)]
	files := make([]FileView, 0, len(shown))
	for _, f := range shown {
		files = append(files, fileView(f, snap.Viewed, open))
	}
	if len(shown) == len(sel.files) {
		return t, files, nil, nil
	}
	omitted := []string{fmt.Sprintf("%d more files: see directories, and read one with path", len(sel.files)-len(shown))}
	return t, files, omitted, directories(sel.files, sel.dir, snap.Viewed)
}

// fullFiles is the full projection: the selected hunks with their rows,
// within lineBudget.
func fullFiles(snap *app.Snapshot, sel selection) ([]FileView, []string) {
	open := openComments(snap)
	var b budget
	files := make([]FileView, 0, len(sel.files))
	for _, f := range sel.files {
		v := fileView(f, snap.Viewed, open)
		for _, i := range sel.hunks[f] {
			h := &f.Hunks[i]
			if !b.take(i, len(h.Rows)) {
				continue
			}
			v.Hunks = append(v.Hunks, hunkView(h, snap.Viewed[h.Digest]))
		}
		if b.endFile(f) {
			files = append(files, v)
		}
	}
	return files, b.list()
}

func fileView(f *changeset.File, viewed map[string]bool, open map[string]int) FileView {
	v := FileView{
		Path: f.Path, Status: f.Status.String(), Binary: f.Binary,
		Additions: f.Additions, Deletions: f.Deletions,
		HunkCount: len(f.Hunks), HunksRead: hunksRead(f, viewed), Comments: open[f.Path],
	}
	if f.OldPath != f.Path {
		v.OldPath = f.OldPath
	}
	if f.OldMode != "" && f.NewMode != "" && f.OldMode != f.NewMode {
		v.ModeChange = f.OldMode + " to " + f.NewMode
	}
	return v
}

func hunkView(h *changeset.Hunk, read bool) HunkView {
	v := HunkView{
		Index: h.Index, Header: h.Header, Declaration: h.Declaration,
		OldStart: h.OldStart, OldCount: h.OldCount, NewStart: h.NewStart, NewCount: h.NewCount,
		Read: read, Rows: make([]RowView, 0, len(h.Rows)),
	}
	for _, r := range h.Rows {
		text, _ := changeset.SanitizeBidi(r.Text)
		rv := RowView{Kind: r.Kind.String(), Text: text}
		if r.OldLine != nil {
			rv.Old = *r.OldLine
		}
		if r.NewLine != nil {
			rv.New = *r.NewLine
		}
		v.Rows = append(v.Rows, rv)
	}
	return v
}

func hunksRead(f *changeset.File, viewed map[string]bool) int {
	n := 0
	for _, h := range f.Hunks {
		if viewed[h.Digest] {
			n++
		}
	}
	return n
}

// openComments counts the unresolved, placed comments of each file.
func openComments(snap *app.Snapshot) map[string]int {
	open := map[string]int{}
	for _, p := range snap.Drafts {
		if !p.Resolved && !p.Orphaned() && p.Location.Path != "" {
			open[p.Location.Path]++
		}
	}
	return open
}
