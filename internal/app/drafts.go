package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"time"

	"github.com/leanreview/leanreview/internal/session"
)

// Documents is the persistence port for drafts: named JSON documents, each
// updated under an exclusive lock with the current content read first, so
// concurrent writers merge instead of overwriting. *store.Dir implements it.
type Documents interface {
	Read(ctx context.Context, name string, v any) error
	Update(ctx context.Context, name string, v any, mutate func(exists bool) error) error
	Remove(ctx context.Context, name string) error
}

// draftsSchema is the version of draftsDoc written to disk.
const draftsSchema = 1

// draftsDoc is one source's drafts file.
type draftsDoc struct {
	Schema int             `json:"schema"`
	Source SourceInfo      `json:"source"`
	Drafts []session.Draft `json:"drafts"`
}

// Validate rejects a file whose drafts have no id or share one: merging by
// id would silently drop one of them.
func (d *draftsDoc) Validate() error {
	seen := make(map[string]bool, len(d.Drafts))
	for i, dr := range d.Drafts {
		if dr.ID == "" {
			return fmt.Errorf("draft %d has no id", i)
		}
		if seen[dr.ID] {
			return fmt.Errorf("draft id %q appears twice", dr.ID)
		}
		seen[dr.ID] = true
	}
	return nil
}

// ErrNotSaved wraps a write failure after which the draft is held in memory
// only; the caller must tell the user and offer to export it.
var ErrNotSaved = errors.New("drafts not saved")

// DraftBook is the human's drafts of one source, persisted in one document
// named by the source's identity key. Every change is applied to the file's
// current content under its lock (merge by draft id), so two processes
// reviewing the same source both keep their drafts. When the file cannot be
// written, changes are kept in memory and reported with ErrNotSaved.
//
// Agent drafts never reach the book: they belong to a live pairing session.
// A DraftBook is not safe for concurrent use by several goroutines.
type DraftBook struct {
	docs   Documents
	source SourceInfo
	now    func() time.Time

	drafts []session.Draft
	// unsaved says the file is behind drafts: the last write failed.
	unsaved bool
}

// Notice is something the user must be told that is not an error: a drafts
// file set aside as damaged, say.
type Notice string

// LoadDraftBook reads the drafts of source from docs. A damaged file is set
// aside by docs and reported as a Notice; the book then starts clean. A
// missing file is an empty book.
func LoadDraftBook(ctx context.Context, docs Documents, source SourceInfo, now func() time.Time) (*DraftBook, []Notice, error) {
	b := &DraftBook{docs: docs, source: source, now: now}
	var doc draftsDoc
	err := docs.Read(ctx, source.Key, &doc)
	switch {
	case err == nil:
		b.drafts = doc.Drafts
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		// No file can exist there; a write will say what is wrong.
	case isCorrupt(err):
		return b, []Notice{Notice(fmt.Sprintf("your drafts file could not be read: %v", err))}, nil
	default:
		return nil, nil, fmt.Errorf("load drafts %s: %w", source.Key, err)
	}
	return b, nil, nil
}

// Drafts returns a copy of the drafts, in the order they were written.
func (b *DraftBook) Drafts() []session.Draft {
	return append([]session.Draft(nil), b.drafts...)
}

// Unsaved reports whether the drafts on disk are behind these.
func (b *DraftBook) Unsaved() bool { return b.unsaved }

// Find returns the draft with id.
func (b *DraftBook) Find(id string) (session.Draft, bool) {
	for _, d := range b.drafts {
		if d.ID == id {
			return d, true
		}
	}
	return session.Draft{}, false
}

// Put adds d, or replaces the draft with d's id.
func (b *DraftBook) Put(ctx context.Context, d session.Draft) error {
	return b.apply(ctx, func(list []session.Draft) []session.Draft { return putDraft(list, d) })
}

// Delete removes the draft with id and returns it (for undo).
func (b *DraftBook) Delete(ctx context.Context, id string) (session.Draft, error) {
	d, ok := b.Find(id)
	if !ok {
		return session.Draft{}, fmt.Errorf("delete draft %s: %w", id, ErrNotFound)
	}
	return d, b.apply(ctx, func(list []session.Draft) []session.Draft { return removeDraft(list, id) })
}

// DeleteAll removes the whole drafts file and reports how many drafts it
// held.
func (b *DraftBook) DeleteAll(ctx context.Context) (int, error) {
	n := len(b.drafts)
	err := b.docs.Remove(ctx, b.source.Key)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("discard drafts %s: %w", b.source.Key, err)
	}
	b.drafts, b.unsaved = nil, false
	return n, nil
}

// Flush retries saving drafts held in memory after a failed write.
func (b *DraftBook) Flush(ctx context.Context) error {
	if !b.unsaved {
		return nil
	}
	mine := b.Drafts()
	return b.apply(ctx, func(list []session.Draft) []session.Draft {
		for _, d := range mine {
			list = putDraft(list, d)
		}
		return list
	})
}

// apply changes the in-memory drafts with change and then the file, where
// change is applied again to the file's current content under its lock so
// another process's drafts are kept.
func (b *DraftBook) apply(ctx context.Context, change func([]session.Draft) []session.Draft) error {
	behind := b.unsaved
	b.drafts = change(b.drafts)
	mine := b.Drafts()
	var doc draftsDoc
	err := b.docs.Update(ctx, b.source.Key, &doc, func(bool) error {
		doc.Schema = draftsSchema
		doc.Source = b.source
		doc.Drafts = change(doc.Drafts)
		if behind {
			// Earlier changes never reached the file: write them too, or
			// taking the file's content below would drop them.
			for _, d := range mine {
				doc.Drafts = putDraft(doc.Drafts, d)
			}
		}
		return nil
	})
	if err != nil {
		if isCorrupt(err) {
			// The damaged file was set aside; write ours afresh.
			err = b.docs.Update(ctx, b.source.Key, &doc, func(bool) error {
				doc = draftsDoc{Schema: draftsSchema, Source: b.source, Drafts: mine}
				return nil
			})
		}
		if err != nil {
			b.unsaved = true
			return fmt.Errorf("%w: %w", ErrNotSaved, err)
		}
	}
	b.unsaved = false
	b.drafts = doc.Drafts
	return nil
}

func putDraft(list []session.Draft, d session.Draft) []session.Draft {
	for i := range list {
		if list[i].ID == d.ID {
			list[i] = d
			return list
		}
	}
	return append(list, d)
}

func removeDraft(list []session.Draft, id string) []session.Draft {
	out := list[:0]
	for _, d := range list {
		if d.ID != id {
			out = append(out, d)
		}
	}
	return out
}

// corruptDocument is implemented by the error a Documents store returns for
// a damaged file it has set aside (store.CorruptError): the caller starts
// clean and tells the user where the old file went.
type corruptDocument interface{ Corrupt() bool }

func isCorrupt(err error) bool {
	var c corruptDocument
	return errors.As(err, &c) && c.Corrupt()
}
