package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"

	"github.com/leanreview/leanreview/internal/changeset"
)

// viewedSchema is the version of viewedDoc written to disk.
const viewedSchema = 1

// viewedDoc is one source's read marks: hunk digests, which include the
// file path and body but not the @@ header, so a mark survives a rebase that
// did not touch the hunk.
type viewedDoc struct {
	Schema  int        `json:"schema"`
	Source  SourceInfo `json:"source"`
	Digests []string   `json:"digests"`
}

// loadViewed reads the read marks of source; a damaged file is set aside
// and reported, as for drafts.
func loadViewed(ctx context.Context, docs Documents, source SourceInfo) (map[string]bool, []Notice, error) {
	set := map[string]bool{}
	if docs == nil {
		return set, nil, nil
	}
	var doc viewedDoc
	err := docs.Read(ctx, source.Key, &doc)
	switch {
	case err == nil:
		for _, d := range doc.Digests {
			set[d] = true
		}
	case errors.Is(err, fs.ErrNotExist):
	case isCorrupt(err):
		return set, []Notice{Notice(fmt.Sprintf("your viewed marks could not be read: %v", err))}, nil
	default:
		return nil, nil, fmt.Errorf("load viewed marks %s: %w", source.Key, err)
	}
	return set, nil, nil
}

// saveViewedMark adds or removes one digest in the file under its lock, so
// marks made by another process at the same time are kept.
func saveViewedMark(ctx context.Context, docs Documents, source SourceInfo, digest string, viewed bool) error {
	if docs == nil {
		return nil
	}
	var doc viewedDoc
	return docs.Update(ctx, source.Key, &doc, func(bool) error {
		doc.Schema, doc.Source = viewedSchema, source
		set := make(map[string]bool, len(doc.Digests)+1)
		for _, d := range doc.Digests {
			set[d] = true
		}
		if viewed {
			set[digest] = true
		} else {
			delete(set, digest)
		}
		doc.Digests = doc.Digests[:0]
		for d := range set {
			doc.Digests = append(doc.Digests, d)
		}
		sort.Strings(doc.Digests)
		return nil
	})
}

// fileOfHunk returns the file of cs holding the hunk with digest, nil when
// none does.
func fileOfHunk(cs *changeset.Changeset, digest string) *changeset.File {
	for i := range cs.Files {
		for _, h := range cs.Files[i].Hunks {
			if h.Digest == digest {
				return &cs.Files[i]
			}
		}
	}
	return nil
}

// fileComplete reports whether every hunk of f is in viewed; a file with
// no hunks (binary) is never complete.
func fileComplete(f *changeset.File, viewed map[string]bool) bool {
	for _, h := range f.Hunks {
		if !viewed[h.Digest] {
			return false
		}
	}
	return len(f.Hunks) > 0
}
