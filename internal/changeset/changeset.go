// Package changeset holds a change under review: a unified patch parsed into
// files, hunks and rows, with the digests, anchors, display sanitising and
// word-level emphasis every surface shares.
//
// It is pure: bytes in, values out. It imports nothing of leanreview's, does
// no I/O beyond reading the io.Reader it is handed, and never panics on input.
//
// Coordinates used in this package:
//   - line numbers are 1-based absolute numbers in the old or the new file;
//   - Hunk.Index is 0-based within its file;
//   - Row.Emph is in UTF-16 code units of Row.Text (what a browser indexes);
//   - RawLineEmphasis is in bytes of the raw line, +/- marker included
//     (what a terminal renderer slices). Conversions live in emphasis.go.
package changeset

// Changeset is one parsed patch: its identity and its files in patch order.
type Changeset struct {
	// Digest is PatchDigest of the patch bytes the changeset was parsed from.
	Digest string `json:"digest"`
	Files  []File `json:"files"`
}

// File is one changed file, fully described.
type File struct {
	// Path is what the file is called now: the new path for a rename, the old
	// path for a deletion. Never "/dev/null".
	Path string `json:"path"`
	// OldPath differs from Path only for a rename or a copy.
	OldPath   string `json:"old_path"`
	Status    Status `json:"status"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	// Binary files carry no hunks; surfaces say so rather than showing an
	// empty diff, which would read as "nothing changed".
	Binary  bool   `json:"binary"`
	OldMode string `json:"old_mode,omitempty"`
	NewMode string `json:"new_mode,omitempty"`
	Hunks   []Hunk `json:"hunks"`
}

// Hunk is one @@ section: the header line, its body, and the content digest
// the viewed set is keyed by.
type Hunk struct {
	// Index is the 0-based position within the file, carried explicitly so a
	// caller that filters hunks cannot silently renumber them.
	Index  int    `json:"index"`
	Header string `json:"header"`
	// Declaration is DeclarationOf(Header).
	Declaration string `json:"declaration,omitempty"`
	// Display is Lines with invisible, bidi and control characters escaped
	// (SanitizeBidi), or nil when no line carried one.
	Display []string `json:"display,omitempty"`
	// Lines is the body exactly as it arrived, markers and CRs included:
	// what Digest hashes. Rows is the same body parsed for rendering. A GNU
	// context diff hunk arrives as two sections; its Lines and Header are
	// the unified rendition the parser converted it into.
	Lines    []string `json:"lines"`
	Digest   string   `json:"digest"`
	OldStart int      `json:"old_start"`
	OldCount int      `json:"old_count"`
	NewStart int      `json:"new_start"`
	NewCount int      `json:"new_count"`
	Rows     []Row    `json:"rows"`
	// Warnings says what the parser had to repair, such as a header whose
	// counts disagreed with the body; nil for a well-formed hunk.
	Warnings []string `json:"warnings,omitempty"`
}

// Row is one rendered line of a hunk, parallel to Hunk.Lines.
//
// OldLine and NewLine are absolute line numbers in the two files, nil where
// the line does not exist on that side; computed here because a virtualized
// view draws rows out of order. Rows of a parsed changeset share the ints
// they point to (every row numbered k points at one k): read them, never
// write through them.
type Row struct {
	Kind Kind `json:"kind"`
	// Text is the content without the leading +/-/space marker and without
	// the CR of a CRLF line ending (Lines keeps both).
	Text    string `json:"text"`
	OldLine *int   `json:"old_line"`
	NewLine *int   `json:"new_line"`
	// Emph is the part of this line that changed, for a row paired with its
	// counterpart across a rewrite, in UTF-16 code units of Text. Nil where
	// there is nothing to mark.
	Emph *Span `json:"emph,omitempty"`
}

// Span is a half-open [Start, End) range of a line. Its unit depends on where
// it came from: Row.Emph is UTF-16 code units, RawLineEmphasis is bytes. The
// zero Span marks nothing.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Empty reports whether s marks nothing.
func (s Span) Empty() bool { return s.End <= s.Start }
