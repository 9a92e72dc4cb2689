package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// Session is one open session of a daemon as an app.Service. It speaks for
// the human: a write naming another actor is refused with
// session.ErrForbidden before anything is sent. It is safe for concurrent
// use; views made by At share its changeset cache.
type Session struct {
	c      *Client
	id     string
	asOf   string
	shared *sessionCache
}

// sessionCache holds the last changeset fetched: it changes only on a
// reload, and a large one is megabytes.
type sessionCache struct {
	mu sync.Mutex
	cs *changeset.Changeset
}

var (
	_ app.Service     = (*Session)(nil)
	_ app.Conditional = (*Session)(nil)
)

// ID is the session's id, its source's identity key.
func (s *Session) ID() string { return s.id }

// At implements app.Conditional: every write of the view sends asOf, and
// the daemon refuses it (409, *app.StaleError here) once the change moved.
func (s *Session) At(asOf string) app.Service {
	v := *s
	v.asOf = asOf
	return &v
}

func (s *Session) path(parts ...string) string {
	p := "/sessions/" + url.PathEscape(s.id)
	for _, part := range parts {
		p += "/" + url.PathEscape(part)
	}
	return p
}

// write sends a write as the human, translating a stale answer into the
// *app.StaleError app.Local returns.
func (s *Session) write(ctx context.Context, actor session.Actor, method, path string, in, out any) error {
	if actor != transportActor {
		return fmt.Errorf("the HTTP API speaks for the human, not the %s; the agent writes through MCP: %w", actor, session.ErrForbidden)
	}
	err := s.c.call(ctx, method, path, in, out)
	var e *Error
	if errors.As(err, &e) && e.Code == CodeStale {
		return &app.StaleError{AsOf: s.asOf, Current: e.AsOf}
	}
	return err
}

// Snapshot implements app.Service: the state, and the changeset it is as
// of (fetched again only when the digest moved).
func (s *Session) Snapshot(ctx context.Context) (*app.Snapshot, error) {
	for range 3 {
		var st State
		if err := s.c.call(ctx, http.MethodGet, s.path("state"), nil, &st); err != nil {
			return nil, err
		}
		cs, err := s.changeset(ctx, st.AsOf)
		if err != nil {
			return nil, err
		}
		if cs.Digest == st.AsOf {
			return st.snapshot(cs)
		}
		// A reload landed between the two requests; read both again.
	}
	return nil, fmt.Errorf("session %s: the change kept moving while it was read", s.id)
}

// changeset returns the session's changeset, from the cache when it is
// still want.
func (s *Session) changeset(ctx context.Context, want string) (*changeset.Changeset, error) {
	s.shared.mu.Lock()
	cached := s.shared.cs
	s.shared.mu.Unlock()
	if cached != nil && cached.Digest == want {
		return cached, nil
	}
	header := http.Header{}
	if cached != nil {
		header.Set("If-None-Match", fmt.Sprintf("%q", cached.Digest))
	}
	resp, err := s.c.send(ctx, http.MethodGet, s.path("changeset"), nil, header)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified {
		return cached, nil
	}
	var wire Changeset
	if err := json.NewDecoder(resp.Body).Decode(&wire); err != nil {
		return nil, fmt.Errorf("read changeset of %s: %w", s.id, err)
	}
	cs := &changeset.Changeset{Digest: wire.Digest, Files: wire.Files}
	s.shared.mu.Lock()
	s.shared.cs = cs
	s.shared.mu.Unlock()
	return cs, nil
}

// Reload implements app.Service.
func (s *Session) Reload(ctx context.Context) error {
	return s.c.call(ctx, http.MethodPost, s.path("reload"), struct{}{}, nil)
}

// Comment implements app.Service.
func (s *Session) Comment(ctx context.Context, actor session.Actor, req app.CommentRequest) (session.Placed, error) {
	in := CommentRequest{AsOf: s.asOf, Body: req.Body, ReplyTo: req.ReplyTo,
		Lines: Lines{Path: req.Ref.Path, Side: req.Ref.Side, StartLine: req.Ref.Start, EndLine: req.Ref.End}}
	var out Draft
	if err := s.write(ctx, actor, http.MethodPost, s.path("comments"), in, &out); err != nil {
		return session.Placed{}, err
	}
	return out.placed(), nil
}

// EditComment implements app.Service.
func (s *Session) EditComment(ctx context.Context, actor session.Actor, id, body string) error {
	return s.write(ctx, actor, http.MethodPatch, s.path("comments", id), EditRequest{AsOf: s.asOf, Body: body}, nil)
}

// DeleteComment implements app.Service.
func (s *Session) DeleteComment(ctx context.Context, actor session.Actor, id string) (session.Draft, error) {
	path := s.path("comments", id) + "?" + url.Values{"as_of": {s.asOf}}.Encode()
	var out Draft
	if err := s.write(ctx, actor, http.MethodDelete, path, nil, &out); err != nil {
		return session.Draft{}, err
	}
	return out.placed().Draft, nil
}

// RestoreComment implements app.Service. Only the human's drafts can be
// restored through this transport; d.Author must say so.
func (s *Session) RestoreComment(ctx context.Context, actor session.Actor, d session.Draft) error {
	if d.Author != transportActor {
		return fmt.Errorf("restore draft %s by the %s: %w", d.ID, d.Author, session.ErrForbidden)
	}
	in := RestoreRequest{AsOf: s.asOf, Draft: RestoredDraft{ID: d.ID, Anchor: d.Anchor, Digest: d.Digest, Body: d.Body,
		ReplyTo: d.ReplyTo, Resolved: d.Resolved, Created: d.Created, Updated: d.Updated}}
	return s.write(ctx, actor, http.MethodPost, s.path("comments", "restore"), in, nil)
}

// MoveComment implements app.Service.
func (s *Session) MoveComment(ctx context.Context, actor session.Actor, id string, ref app.LineRef) error {
	in := MoveRequest{AsOf: s.asOf, Lines: Lines{Path: ref.Path, Side: ref.Side, StartLine: ref.Start, EndLine: ref.End}}
	return s.write(ctx, actor, http.MethodPost, s.path("comments", id, "move"), in, nil)
}

// ResolveComment implements app.Service.
func (s *Session) ResolveComment(ctx context.Context, actor session.Actor, id string, resolved bool) error {
	return s.write(ctx, actor, http.MethodPost, s.path("comments", id, "resolve"), ResolveRequest{AsOf: s.asOf, Resolved: resolved}, nil)
}

// MarkViewed implements app.Service.
func (s *Session) MarkViewed(ctx context.Context, actor session.Actor, digest string, viewed bool) (string, error) {
	var out ViewedResult
	err := s.write(ctx, actor, http.MethodPost, s.path("viewed"), ViewedRequest{AsOf: s.asOf, Digest: digest, Viewed: viewed}, &out)
	return out.Finished, err
}

// SetCursor implements app.Service.
func (s *Session) SetCursor(ctx context.Context, actor session.Actor, c app.Cursor) error {
	return s.write(ctx, actor, http.MethodPut, s.path("cursor"), CursorRequest{AsOf: s.asOf, Cursor: cursorOf(c)}, nil)
}

// Suggest implements app.Service.
func (s *Session) Suggest(ctx context.Context, actor session.Actor, req app.SuggestionRequest) (app.Suggestion, error) {
	in := SuggestRequest{AsOf: s.asOf, Path: req.Path, Side: req.Side, Line: req.Line, Hunk: req.Hunk, Reason: req.Reason}
	var out Suggestion
	if err := s.write(ctx, actor, http.MethodPost, s.path("suggestions"), in, &out); err != nil {
		return app.Suggestion{}, err
	}
	return out.app()
}

// AnswerSuggestion implements app.Service.
func (s *Session) AnswerSuggestion(ctx context.Context, actor session.Actor, id string, accept bool) error {
	return s.write(ctx, actor, http.MethodPost, s.path("suggestions", id, "answer"), AnswerRequest{AsOf: s.asOf, Accept: accept}, nil)
}
