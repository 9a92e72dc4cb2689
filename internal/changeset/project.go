package changeset

import "strings"

// DeclarationOf is the enclosing declaration git named in a hunk header:
// the text after the second "@@", trimmed. Empty where there is none (the
// top of a file, a language without a funcname pattern).
func DeclarationOf(header string) string {
	if !strings.HasPrefix(header, "@@") {
		return ""
	}
	i := strings.Index(header[2:], "@@")
	if i < 0 {
		return ""
	}
	return strings.TrimSpace(header[2+i+2:])
}

// FileHunks is one changed file's hunks, in patch order: the identity view
// of a changeset that the session store and the agent surface consume.
type FileHunks struct {
	// Path and OldPath are File.Path and File.OldPath.
	Path    string
	OldPath string
	Status  Status
	Binary  bool
	Hunks   []Hunk
}

// Projections returns the FileHunks view of c's files, sharing their hunks.
func (c *Changeset) Projections() []FileHunks {
	out := make([]FileHunks, len(c.Files))
	for i, f := range c.Files {
		out[i] = FileHunks{Path: f.Path, OldPath: f.OldPath, Status: f.Status, Binary: f.Binary, Hunks: f.Hunks}
	}
	return out
}

// ParseHunks parses patch and returns its files' hunks: a projection of
// Parse, never a reader of its own, so the two cannot disagree about which
// files a patch contains.
func ParseHunks(patch string) ([]FileHunks, error) {
	c, err := parseString(patch)
	if err != nil {
		return nil, err
	}
	return c.Projections(), nil
}

// HunkCounts reports how many hunks each path of patch has; nil when the
// patch does not parse. A path appearing in several file sections of one
// patch sums them.
func HunkCounts(patch string) map[string]int {
	fh, err := ParseHunks(patch)
	if err != nil {
		return nil
	}
	out := make(map[string]int, len(fh))
	for _, f := range fh {
		out[f.Path] += len(f.Hunks)
	}
	return out
}
