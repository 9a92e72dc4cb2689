package app

import (
	"context"
	"fmt"

	"github.com/leanreview/leanreview/internal/session"
)

// ActingAs returns svc as seen through a transport that speaks for actor: every
// write naming another actor is refused with session.ErrForbidden before it
// reaches svc. A surface is handed such a view, so a bug or a forged claim
// on the agent's transport cannot write as the human (and the reverse).
// Reads, Reload and Subscribe pass through. The view is Conditional when
// svc is.
func ActingAs(svc Service, actor session.Actor) Service {
	return actingAs{Service: svc, actor: actor}
}

type actingAs struct {
	Service
	actor session.Actor
}

// At implements Conditional.
func (a actingAs) At(asOf string) Service {
	return actingAs{Service: At(a.Service, asOf), actor: a.actor}
}

func (a actingAs) claim(who session.Actor) error {
	if who != a.actor {
		return fmt.Errorf("a write claiming to be the %s arrived on the %s's transport: %w", who, a.actor, session.ErrForbidden)
	}
	return nil
}

func (a actingAs) Comment(ctx context.Context, who session.Actor, req CommentRequest) (session.Placed, error) {
	if err := a.claim(who); err != nil {
		return session.Placed{}, err
	}
	return a.Service.Comment(ctx, who, req)
}

func (a actingAs) EditComment(ctx context.Context, who session.Actor, id, body string) error {
	if err := a.claim(who); err != nil {
		return err
	}
	return a.Service.EditComment(ctx, who, id, body)
}

func (a actingAs) DeleteComment(ctx context.Context, who session.Actor, id string) (session.Draft, error) {
	if err := a.claim(who); err != nil {
		return session.Draft{}, err
	}
	return a.Service.DeleteComment(ctx, who, id)
}

func (a actingAs) RestoreComment(ctx context.Context, who session.Actor, d session.Draft) error {
	if err := a.claim(who); err != nil {
		return err
	}
	return a.Service.RestoreComment(ctx, who, d)
}

func (a actingAs) MoveComment(ctx context.Context, who session.Actor, id string, ref LineRef) error {
	if err := a.claim(who); err != nil {
		return err
	}
	return a.Service.MoveComment(ctx, who, id, ref)
}

func (a actingAs) ResolveComment(ctx context.Context, who session.Actor, id string, resolved bool) error {
	if err := a.claim(who); err != nil {
		return err
	}
	return a.Service.ResolveComment(ctx, who, id, resolved)
}

func (a actingAs) MarkViewed(ctx context.Context, who session.Actor, digest string, viewed bool) (string, error) {
	if err := a.claim(who); err != nil {
		return "", err
	}
	return a.Service.MarkViewed(ctx, who, digest, viewed)
}

func (a actingAs) SetCursor(ctx context.Context, who session.Actor, c Cursor) error {
	if err := a.claim(who); err != nil {
		return err
	}
	return a.Service.SetCursor(ctx, who, c)
}

func (a actingAs) Suggest(ctx context.Context, who session.Actor, s SuggestionRequest) (Suggestion, error) {
	if err := a.claim(who); err != nil {
		return Suggestion{}, err
	}
	return a.Service.Suggest(ctx, who, s)
}

func (a actingAs) AnswerSuggestion(ctx context.Context, who session.Actor, id string, accept bool) error {
	if err := a.claim(who); err != nil {
		return err
	}
	return a.Service.AnswerSuggestion(ctx, who, id, accept)
}
