package mcp

import (
	"fmt"
	"strings"

	"github.com/leanreview/leanreview/internal/changeset"
)

// patchText is the patch projection: the selected hunks as unified diff
// text, within lineBudget. Lines are shown with invisible and bidirectional
// characters escaped (Hunk.Display), as every surface shows them.
func patchText(sel selection) (string, []string) {
	var b budget
	var sb strings.Builder
	for _, f := range sel.files {
		var fb strings.Builder
		fileHeader(&fb, f)
		for _, i := range sel.hunks[f] {
			h := &f.Hunks[i]
			if !b.take(i, len(h.Lines)) {
				continue
			}
			fmt.Fprintf(&fb, "%s\n", h.Header)
			lines := h.Lines
			if h.Display != nil {
				lines = h.Display
			}
			for _, l := range lines {
				fb.WriteString(strings.TrimSuffix(l, "\r"))
				fb.WriteByte('\n')
			}
		}
		if b.endFile(f) {
			sb.WriteString(fb.String())
		}
	}
	return sb.String(), b.list()
}

// fileHeader writes the ---/+++ lines of f, and what a file without hunks
// changed, so that a binary or mode-only change does not read as nothing.
func fileHeader(sb *strings.Builder, f *changeset.File) {
	old := f.OldPath
	if old == "" {
		old = f.Path
	}
	oldName, newName := "a/"+old, "b/"+f.Path
	switch f.Status {
	case changeset.StatusAdded:
		oldName = "/dev/null"
	case changeset.StatusDeleted:
		newName = "/dev/null"
	}
	fmt.Fprintf(sb, "--- %s\n+++ %s\n", oldName, newName)
	if f.OldPath != f.Path && f.Status == changeset.StatusRenamed {
		fmt.Fprintf(sb, "# renamed from %s\n", f.OldPath)
	}
	if f.OldMode != "" && f.NewMode != "" && f.OldMode != f.NewMode {
		fmt.Fprintf(sb, "# mode %s -> %s\n", f.OldMode, f.NewMode)
	}
	if f.Binary {
		sb.WriteString("# binary file changed: no text to show\n")
	}
}
