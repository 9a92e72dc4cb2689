package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/leanreview/leanreview/internal/session"
)

// ErrStale is returned for a write made against a changeset that is no
// longer the current one: the source moved (a rebase, an edit in the work
// tree) after the writer took its Snapshot. errors.As with *StaleError
// gives the current digest.
var ErrStale = errors.New("the change has moved since it was read")

// StaleError is a write refused because it named AsOf while the changeset
// is Current. It matches ErrStale.
type StaleError struct {
	AsOf    string
	Current string
}

func (e *StaleError) Error() string {
	return fmt.Sprintf("written against %s but the change is now %s; reload and try again", short(e.AsOf), short(e.Current))
}

// Is makes errors.Is(err, ErrStale) true.
func (e *StaleError) Is(target error) bool { return target == ErrStale }

func short(digest string) string {
	if len(digest) > 12 {
		return digest[:12]
	}
	return digest
}

// Conditional is implemented by a Service whose writes can be made
// conditional on the changeset the writer was shown. Both of leanreview's
// Services implement it: *Local checks under the review's lock, so the check
// and the write are one step, and the HTTP client sends as_of with each
// write for the daemon's Local to check.
type Conditional interface {
	// At returns a view of the same review whose every write is refused
	// with a *StaleError unless the changeset's digest is asOf. An empty
	// asOf makes writes unconditional. Reads are unaffected.
	At(asOf string) Service
}

// At returns svc's writes made conditional on asOf (see Conditional). A
// Service that is not Conditional gets a check made just before each write,
// which cannot see a reload that lands between the check and the write.
func At(svc Service, asOf string) Service {
	if c, ok := svc.(Conditional); ok {
		return c.At(asOf)
	}
	if asOf == "" {
		return svc
	}
	return precheck{Service: svc, asOf: asOf}
}

// At implements Conditional.
func (l *Local) At(asOf string) Service {
	return &Local{localReview: l.localReview, asOf: asOf}
}

// checkLocked refuses a write of a view whose asOf is not the current
// changeset; l.mu is held.
func (l *Local) checkLocked() error {
	if cur := l.review.Changeset.Digest; l.asOf != "" && l.asOf != cur {
		return &StaleError{AsOf: l.asOf, Current: cur}
	}
	return nil
}

// precheck is At for a Service that is not Conditional.
type precheck struct {
	Service
	asOf string
}

func (p precheck) check(ctx context.Context) error {
	snap, err := p.Service.Snapshot(ctx)
	if err != nil {
		return err
	}
	if snap.AsOf != p.asOf {
		return &StaleError{AsOf: p.asOf, Current: snap.AsOf}
	}
	return nil
}

func (p precheck) Comment(ctx context.Context, a session.Actor, req CommentRequest) (session.Placed, error) {
	if err := p.check(ctx); err != nil {
		return session.Placed{}, err
	}
	return p.Service.Comment(ctx, a, req)
}

func (p precheck) EditComment(ctx context.Context, a session.Actor, id, body string) error {
	if err := p.check(ctx); err != nil {
		return err
	}
	return p.Service.EditComment(ctx, a, id, body)
}

func (p precheck) DeleteComment(ctx context.Context, a session.Actor, id string) (session.Draft, error) {
	if err := p.check(ctx); err != nil {
		return session.Draft{}, err
	}
	return p.Service.DeleteComment(ctx, a, id)
}

func (p precheck) RestoreComment(ctx context.Context, a session.Actor, d session.Draft) error {
	if err := p.check(ctx); err != nil {
		return err
	}
	return p.Service.RestoreComment(ctx, a, d)
}

func (p precheck) MoveComment(ctx context.Context, a session.Actor, id string, ref LineRef) error {
	if err := p.check(ctx); err != nil {
		return err
	}
	return p.Service.MoveComment(ctx, a, id, ref)
}

func (p precheck) ResolveComment(ctx context.Context, a session.Actor, id string, resolved bool) error {
	if err := p.check(ctx); err != nil {
		return err
	}
	return p.Service.ResolveComment(ctx, a, id, resolved)
}

func (p precheck) MarkViewed(ctx context.Context, a session.Actor, digest string, viewed bool) (string, error) {
	if err := p.check(ctx); err != nil {
		return "", err
	}
	return p.Service.MarkViewed(ctx, a, digest, viewed)
}

func (p precheck) SetCursor(ctx context.Context, a session.Actor, c Cursor) error {
	if err := p.check(ctx); err != nil {
		return err
	}
	return p.Service.SetCursor(ctx, a, c)
}

func (p precheck) Suggest(ctx context.Context, a session.Actor, s SuggestionRequest) (Suggestion, error) {
	if err := p.check(ctx); err != nil {
		return Suggestion{}, err
	}
	return p.Service.Suggest(ctx, a, s)
}

func (p precheck) AnswerSuggestion(ctx context.Context, a session.Actor, id string, accept bool) error {
	if err := p.check(ctx); err != nil {
		return err
	}
	return p.Service.AnswerSuggestion(ctx, a, id, accept)
}
