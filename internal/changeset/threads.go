package changeset

// ThreadPosition is where a code host anchors a review thread, reduced to
// what placing it on a changeset needs. The host's own thread type lives
// with the host adapters; this package only does the arithmetic, once, so
// every surface lands a thread on the same hunk.
type ThreadPosition struct {
	// Path is the file the host names: its new path, or its old path for a
	// thread on the old side of a deleted or renamed file.
	Path string `json:"path"`
	// Side is the side Line counts in; the zero Side means SideNew, which is
	// where a host anchors an ordinary inline comment.
	Side Side `json:"side,omitempty"`
	// Line is 1-based in the file of Side; 0 when the host no longer places
	// the thread on the diff (an outdated thread).
	Line int `json:"line"`
	// Hunk is set by PlaceThreads: the index of the hunk of Path's file
	// whose range on Side contains Line, or -1 when no hunk does.
	Hunk int `json:"hunk"`
}

// PlaceThreads resolves each thread's line onto the hunk of its file that
// contains it, setting Hunk to that index or to -1 when nothing in files
// does. A thread is matched on the NEW side unless the host anchored it to
// the old side (a comment on a removed line), where its line number counts
// in the old file; matching the new side there would land a remark about
// removed code on whatever now has that number.
//
// The result is a new slice in the order given, so a caller that renders it
// keeps the conversation's order; threads is not modified.
func PlaceThreads(files []File, threads []ThreadPosition) []ThreadPosition {
	out := make([]ThreadPosition, len(threads))
	for i, t := range threads {
		t.Hunk = -1
		if f := threadFile(files, t); f != nil && t.Line > 0 {
			t.Hunk = hunkContaining(f, t.Side, t.Line)
		}
		out[i] = t
	}
	return out
}

// threadFile finds the file a thread names: by its current path, or by its
// old path for an old-side thread.
func threadFile(files []File, t ThreadPosition) *File {
	for i := range files {
		if files[i].Path == t.Path {
			return &files[i]
		}
	}
	if t.Side == SideOld {
		for i := range files {
			if files[i].OldPath == t.Path {
				return &files[i]
			}
		}
	}
	return nil
}

// hunkContaining returns the index of f's hunk whose range on side holds
// line, or -1. A hunk's range on one side is contiguous: every line from
// its start to start+count-1 is one of its rows.
func hunkContaining(f *File, side Side, line int) int {
	for _, h := range f.Hunks {
		start, count := h.NewStart, h.NewCount
		if side == SideOld {
			start, count = h.OldStart, h.OldCount
		}
		if count > 0 && line >= start && line < start+count {
			return h.Index
		}
	}
	return -1
}
