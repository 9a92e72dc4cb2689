package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// LocalDeps are what a Local service is built from.
type LocalDeps struct {
	Deps
	Info   SourceInfo
	Source PatchSource
	// Viewed persists read marks; nil keeps them in memory.
	Viewed Documents
}

// Local is the in-process Service: one review held in this process, with
// the human's drafts and read marks persisted and the agent's drafts, the
// cursor, suggestions and read receipts in memory. See Service for the
// contract.
//
// A Local made by At shares its review with the Local it came from and
// differs only in the precondition its writes carry.
type Local struct {
	*localReview
	// asOf is the PatchDigest every write of this view requires; "" writes
	// whatever the changeset is.
	asOf string
}

// localReview is the state every view of one Local shares.
type localReview struct {
	deps LocalDeps

	// reloadMu orders Reloads, so an older read of the source can never
	// replace a newer one.
	reloadMu sync.Mutex

	mu          sync.Mutex
	review      *Review
	agent       []session.Draft
	viewed      map[string]bool
	cursor      Cursor
	suggestions []Suggestion
	receipts    []Receipt
	notices     []Notice
	subs        map[chan Event]struct{}
}

var (
	_ Service     = (*Local)(nil)
	_ Conditional = (*Local)(nil)
)

// NewLocal opens the review: reads and parses the source, loads its drafts
// and read marks.
func NewLocal(ctx context.Context, deps LocalDeps) (*Local, error) {
	r, notices, err := OpenReview(ctx, deps.Info, deps.Source, deps.Deps)
	if err != nil {
		return nil, err
	}
	viewed, vnotices, err := loadViewed(ctx, deps.Viewed, deps.Info)
	if err != nil {
		return nil, err
	}
	l := &Local{localReview: &localReview{deps: deps, review: r, viewed: viewed, notices: append(notices, vnotices...), subs: map[chan Event]struct{}{}}}
	l.cursor = Cursor{Hunk: -1}
	if len(r.Changeset.Files) > 0 {
		l.cursor.Path = r.Changeset.Files[0].Path
	}
	return l, nil
}

// Snapshot implements Service.
func (l *Local) Snapshot(ctx context.Context) (*Snapshot, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.snapshotLocked(), nil
}

func (l *Local) snapshotLocked() *Snapshot {
	cs := l.review.Changeset
	all := append(l.review.Drafts.Drafts(), l.agent...)
	viewed := make(map[string]bool, len(l.viewed))
	for d := range l.viewed {
		viewed[d] = true
	}
	return &Snapshot{
		AsOf:        cs.Digest,
		Source:      l.review.Info,
		Changeset:   cs,
		Drafts:      session.Place(all, cs),
		Viewed:      viewed,
		Cursor:      l.cursor,
		Suggestions: append([]Suggestion(nil), l.suggestions...),
		Receipts:    append([]Receipt(nil), l.receipts...),
		Notices:     append([]Notice(nil), l.notices...),
		Unsaved:     l.review.Drafts.Unsaved(),
	}
}

// Reload implements Service.
func (l *Local) Reload(ctx context.Context) error {
	l.reloadMu.Lock()
	defer l.reloadMu.Unlock()
	patch, err := l.deps.Source.Patch(ctx)
	if err != nil {
		return err
	}
	cs, err := changeset.ParseBytes(patch)
	if err != nil {
		return fmt.Errorf("read %s: %w", l.deps.Info.Label, err)
	}
	l.mu.Lock()
	changed := cs.Digest != l.review.Changeset.Digest
	l.review.Changeset = cs
	l.mu.Unlock()
	if changed {
		l.publish(EventReloaded)
	}
	return nil
}

// Comment implements Service. The human's drafts are persisted; the
// agent's live only as long as this service.
func (l *Local) Comment(ctx context.Context, actor session.Actor, req CommentRequest) (session.Placed, error) {
	if strings.TrimSpace(req.Body) == "" {
		return session.Placed{}, fmt.Errorf("the comment is empty; nothing was saved: %w", ErrInvalid)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.checkLocked(); err != nil {
		return session.Placed{}, err
	}
	cs := l.review.Changeset
	var a changeset.Anchor
	if req.ReplyTo == "" || req.Ref.Path != "" {
		var err error
		if a, err = Capture(cs, req.Ref); err != nil {
			return session.Placed{}, err
		}
	}
	now := l.deps.Now()
	d := session.Draft{ID: l.deps.NewID(), Anchor: a, Digest: cs.Digest, Body: req.Body, Author: actor, ReplyTo: req.ReplyTo, Created: now, Updated: now}
	err := l.putLocked(ctx, d)
	placed := session.Place([]session.Draft{d}, cs)[0]
	return placed, err
}

// putLocked stores d with its author's lifetime; l.mu is held.
func (l *Local) putLocked(ctx context.Context, d session.Draft) error {
	defer l.publishLocked(EventChanged)
	switch d.Author {
	case session.ActorAgent:
		l.agent = putDraft(l.agent, d)
		return nil
	case session.ActorHuman:
		return l.review.Drafts.Put(ctx, d)
	}
	return fmt.Errorf("draft %s has no author: %w", d.ID, ErrInvalid)
}

// findLocked returns the draft with id, from either author; l.mu is held.
func (l *Local) findLocked(id string) (session.Draft, bool) {
	if d, ok := l.review.Drafts.Find(id); ok {
		return d, true
	}
	for _, d := range l.agent {
		if d.ID == id {
			return d, true
		}
	}
	return session.Draft{}, false
}

// modify applies change to the draft id after checking actor may; l.mu is
// taken.
func (l *Local) modify(ctx context.Context, actor session.Actor, id string, policy func(session.Actor, session.Draft) error, change func(*session.Draft) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.checkLocked(); err != nil {
		return err
	}
	d, ok := l.findLocked(id)
	if !ok {
		return fmt.Errorf("draft %s: %w", id, ErrNotFound)
	}
	if err := policy(actor, d); err != nil {
		return fmt.Errorf("draft %s by the %s: %w", id, d.Author, err)
	}
	if err := change(&d); err != nil {
		return err
	}
	d.Updated = l.deps.Now()
	return l.putLocked(ctx, d)
}

// EditComment implements Service.
func (l *Local) EditComment(ctx context.Context, actor session.Actor, id, body string) error {
	if strings.TrimSpace(body) == "" {
		return fmt.Errorf("an empty body would erase the comment; delete it instead: %w", ErrInvalid)
	}
	return l.modify(ctx, actor, id, session.CanEdit, func(d *session.Draft) error {
		d.Body = body
		return nil
	})
}

// MoveComment implements Service.
func (l *Local) MoveComment(ctx context.Context, actor session.Actor, id string, ref LineRef) error {
	return l.modify(ctx, actor, id, session.CanEdit, func(d *session.Draft) error {
		a, err := Capture(l.review.Changeset, ref)
		if err != nil {
			return err
		}
		d.Anchor, d.Digest = a, l.review.Changeset.Digest
		return nil
	})
}

// ResolveComment implements Service.
func (l *Local) ResolveComment(ctx context.Context, actor session.Actor, id string, resolved bool) error {
	anyone := func(session.Actor, session.Draft) error { return nil }
	return l.modify(ctx, actor, id, anyone, func(d *session.Draft) error {
		d.Resolved = resolved
		return nil
	})
}

// DeleteComment implements Service.
func (l *Local) DeleteComment(ctx context.Context, actor session.Actor, id string) (session.Draft, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.checkLocked(); err != nil {
		return session.Draft{}, err
	}
	d, ok := l.findLocked(id)
	if !ok {
		return session.Draft{}, fmt.Errorf("draft %s: %w", id, ErrNotFound)
	}
	if err := session.CanEdit(actor, d); err != nil {
		return session.Draft{}, fmt.Errorf("delete draft %s by the %s: %w", id, d.Author, err)
	}
	defer l.publishLocked(EventChanged)
	if d.Author == session.ActorAgent {
		l.agent = removeDraft(l.agent, id)
		return d, nil
	}
	return l.review.Drafts.Delete(ctx, id)
}

// RestoreComment implements Service.
func (l *Local) RestoreComment(ctx context.Context, actor session.Actor, d session.Draft) error {
	if err := session.CanEdit(actor, d); err != nil {
		return fmt.Errorf("restore draft %s: %w", d.ID, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.checkLocked(); err != nil {
		return err
	}
	return l.putLocked(ctx, d)
}

// MarkViewed implements Service. Only the human reads.
func (l *Local) MarkViewed(ctx context.Context, actor session.Actor, digest string, viewed bool) (string, error) {
	if actor != session.ActorHuman {
		return "", fmt.Errorf("mark viewed: only the human marks what they have read: %w", session.ErrForbidden)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.checkLocked(); err != nil {
		return "", err
	}
	file := fileOfHunk(l.review.Changeset, digest)
	if file == nil {
		return "", fmt.Errorf("hunk %s is not in this change: %w", digest, ErrNotFound)
	}
	wasDone := fileComplete(file, l.viewed)
	if viewed {
		l.viewed[digest] = true
	} else {
		delete(l.viewed, digest)
	}
	defer l.publishLocked(EventChanged)
	if err := saveViewedMark(ctx, l.deps.Viewed, l.review.Info, digest, viewed); err != nil {
		return "", fmt.Errorf("save viewed mark: %w", err)
	}
	if viewed && !wasDone && fileComplete(file, l.viewed) {
		l.receipts = append(l.receipts, mintReceipt(file, l.deps.Now()))
		return file.Path, nil
	}
	return "", nil
}

// SetCursor implements Service.
func (l *Local) SetCursor(ctx context.Context, actor session.Actor, c Cursor) error {
	if actor != session.ActorHuman {
		return fmt.Errorf("set cursor: only the human moves the cursor; suggest a place instead: %w", session.ErrForbidden)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.checkLocked(); err != nil {
		return err
	}
	if c.Path != "" && File(l.review.Changeset, c.Path, changeset.SideNew) == nil {
		return fmt.Errorf("cursor: %s is not a file of this change: %w", c.Path, ErrNotFound)
	}
	l.cursor = c
	l.publishLocked(EventChanged)
	return nil
}

// Suggest implements Service.
func (l *Local) Suggest(ctx context.Context, actor session.Actor, req SuggestionRequest) (Suggestion, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.checkLocked(); err != nil {
		return Suggestion{}, err
	}
	if File(l.review.Changeset, req.Path, changeset.SideNew) == nil {
		return Suggestion{}, fmt.Errorf("suggest: %s is not a file of this change: %w", req.Path, ErrNotFound)
	}
	s := Suggestion{ID: l.deps.NewID(), SuggestionRequest: req, State: SuggestionPending, Created: l.deps.Now()}
	l.suggestions = append(l.suggestions, s)
	l.publishLocked(EventChanged)
	return s, nil
}

// AnswerSuggestion implements Service.
func (l *Local) AnswerSuggestion(ctx context.Context, actor session.Actor, id string, accept bool) error {
	if actor != session.ActorHuman {
		return fmt.Errorf("answer suggestion: only the human answers: %w", session.ErrForbidden)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.checkLocked(); err != nil {
		return err
	}
	for i := range l.suggestions {
		s := &l.suggestions[i]
		if s.ID != id {
			continue
		}
		if s.State != SuggestionPending {
			return fmt.Errorf("suggestion %s was already answered: %w", id, ErrInvalid)
		}
		s.State = SuggestionDeclined
		if accept {
			s.State = SuggestionAccepted
			l.cursor = Cursor{Path: s.Path, Side: s.Side, Line: s.Line, Hunk: s.Hunk}
		}
		l.publishLocked(EventChanged)
		return nil
	}
	return fmt.Errorf("suggestion %s: %w", id, ErrNotFound)
}

// Subscribe implements Service.
func (l *Local) Subscribe(ctx context.Context) (<-chan Event, error) {
	ch := make(chan Event, 1)
	l.mu.Lock()
	l.subs[ch] = struct{}{}
	l.mu.Unlock()
	go func() {
		<-ctx.Done()
		l.mu.Lock()
		delete(l.subs, ch)
		close(ch)
		l.mu.Unlock()
	}()
	return ch, nil
}

func (l *Local) publish(kind EventKind) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.publishLocked(kind)
}

// publishLocked tells every subscriber; a full channel already holds a cue
// to re-read, so the newest event replaces it rather than blocking.
func (l *Local) publishLocked(kind EventKind) {
	ev := Event{Kind: kind, AsOf: l.review.Changeset.Digest}
	for ch := range l.subs {
		select {
		case ch <- ev:
		default:
			select {
			case <-ch:
			default:
			}
			select {
			case ch <- ev:
			default:
			}
		}
	}
}

// IsForbidden reports whether err is a policy refusal.
func IsForbidden(err error) bool { return errors.Is(err, session.ErrForbidden) }
