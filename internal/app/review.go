package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// SourceInfo identifies a review source on the wire and on disk.
type SourceInfo struct {
	// Kind is the source kind's wire name ("file", "worktree", ...).
	Kind string `json:"kind"`
	// Key is the stable identity key; it names the drafts file.
	Key string `json:"key"`
	// Label describes the source to a person ("main...HEAD in ~/src/x").
	Label string `json:"label,omitempty"`
}

// PatchSource yields a source's patch as it is now. *source.Source
// implements it.
type PatchSource interface {
	Patch(ctx context.Context) ([]byte, error)
}

// Deps are what a Review needs from outside. Now and NewID are injected so
// the core stays deterministic in tests.
type Deps struct {
	Documents Documents
	Now       func() time.Time
	NewID     func() string
}

// Review is one source opened for review in this process: the changeset
// read from it and the human's drafts, placed against that changeset.
type Review struct {
	Info      SourceInfo
	Changeset *changeset.Changeset
	Drafts    *DraftBook
	deps      Deps
}

// OpenReview reads src, parses it, and loads the drafts saved for it.
// Notices report recoverable trouble the user must hear about (a damaged
// drafts file set aside).
func OpenReview(ctx context.Context, info SourceInfo, src PatchSource, deps Deps) (*Review, []Notice, error) {
	patch, err := src.Patch(ctx)
	if err != nil {
		return nil, nil, err
	}
	cs, err := changeset.ParseBytes(patch)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", info.Label, err)
	}
	book, notices, err := LoadDraftBook(ctx, deps.Documents, info, deps.Now)
	if err != nil {
		return nil, nil, err
	}
	return &Review{Info: info, Changeset: cs, Drafts: book, deps: deps}, notices, nil
}

// Placed returns every draft with where it sits in the current changeset.
func (r *Review) Placed() []session.Placed {
	return session.Place(r.Drafts.Drafts(), r.Changeset)
}

// LineRef names lines of the changeset: a file (by its path or, for the old
// side, its old path), a side, and an inclusive 1-based range.
type LineRef struct {
	Path  string
	Side  changeset.Side
	Start int
	End   int
}

// File returns the file of cs a reference names, matching Path first and
// then, for the old side, OldPath.
func File(cs *changeset.Changeset, path string, side changeset.Side) *changeset.File {
	for i := range cs.Files {
		if cs.Files[i].Path == path {
			return &cs.Files[i]
		}
	}
	if side == changeset.SideOld {
		for i := range cs.Files {
			if cs.Files[i].OldPath == path {
				return &cs.Files[i]
			}
		}
	}
	return nil
}

// Capture takes the anchor for ref from cs, or explains why there is
// nothing to anchor to.
func Capture(cs *changeset.Changeset, ref LineRef) (changeset.Anchor, error) {
	if ref.End == 0 {
		ref.End = ref.Start
	}
	f := File(cs, ref.Path, ref.Side)
	if f == nil {
		return changeset.Anchor{}, fmt.Errorf("%s is not a file of this change: %w", ref.Path, ErrNotInChange)
	}
	if ref.Start < 1 || ref.End < ref.Start {
		return changeset.Anchor{}, fmt.Errorf("lines %d-%d of %s: a range runs from a first line to a later one: %w", ref.Start, ref.End, ref.Path, ErrNotInChange)
	}
	a := changeset.CaptureAnchor(f, ref.Side, ref.Start, ref.End)
	if a.IsZero() {
		return a, fmt.Errorf("%s: the diff does not show %s on the %s side; comment on lines the diff shows: %w",
			f.Path, lineRange(ref.Start, ref.End), ref.Side, ErrNotInChange)
	}
	return a, nil
}

func lineRange(start, end int) string {
	if start == end {
		return fmt.Sprintf("line %d", start)
	}
	return fmt.Sprintf("lines %d-%d", start, end)
}

// Comment adds the human's draft on ref with body. An empty body is
// refused: there is nothing to send.
func (r *Review) Comment(ctx context.Context, ref LineRef, body string) (session.Draft, error) {
	if strings.TrimSpace(body) == "" {
		return session.Draft{}, fmt.Errorf("the comment is empty; nothing was saved")
	}
	a, err := Capture(r.Changeset, ref)
	if err != nil {
		return session.Draft{}, err
	}
	now := r.deps.Now()
	d := session.Draft{
		ID:      r.deps.NewID(),
		Anchor:  a,
		Digest:  r.Changeset.Digest,
		Body:    body,
		Author:  session.ActorHuman,
		Created: now,
		Updated: now,
	}
	return d, r.Drafts.Put(ctx, d)
}
