package httpapi

import (
	"net/http"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// Lines names lines of the current changeset: a file, a side and an
// inclusive 1-based range (EndLine 0 means StartLine alone).
type Lines struct {
	Path      string         `json:"path"`
	Side      changeset.Side `json:"side"`
	StartLine int            `json:"start_line"`
	EndLine   int            `json:"end_line,omitempty"`
}

func (l Lines) ref() app.LineRef {
	return app.LineRef{Path: l.Path, Side: l.Side, Start: l.StartLine, End: l.EndLine}
}

// CommentRequest is the body of POST /sessions/{id}/comments. A staged
// reply to a forge thread names ReplyTo and may leave the lines empty.
type CommentRequest struct {
	AsOf string `json:"as_of"`
	Lines
	Body    string `json:"body"`
	ReplyTo string `json:"reply_to,omitempty"`
}

// EditRequest is the body of PATCH /sessions/{id}/comments/{cid}.
type EditRequest struct {
	AsOf string `json:"as_of"`
	Body string `json:"body"`
}

// MoveRequest is the body of POST /sessions/{id}/comments/{cid}/move.
type MoveRequest struct {
	AsOf string `json:"as_of"`
	Lines
}

// ResolveRequest is the body of POST /sessions/{id}/comments/{cid}/resolve.
type ResolveRequest struct {
	AsOf     string `json:"as_of"`
	Resolved bool   `json:"resolved"`
}

// RestoreRequest is the body of POST /sessions/{id}/comments/restore: a
// draft as DELETE returned it, put back (undo). It has no author: the
// restored draft is the human's.
type RestoreRequest struct {
	AsOf  string        `json:"as_of"`
	Draft RestoredDraft `json:"draft"`
}

// RestoredDraft is a deleted draft sent back; see RestoreRequest.
type RestoredDraft struct {
	ID       string           `json:"id"`
	Anchor   changeset.Anchor `json:"anchor"`
	Digest   string           `json:"digest"`
	Body     string           `json:"body"`
	ReplyTo  string           `json:"reply_to,omitempty"`
	Resolved bool             `json:"resolved,omitempty"`
	Created  time.Time        `json:"created"`
	Updated  time.Time        `json:"updated"`
}

func (s *Server) addComment(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	var req CommentRequest
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	p, err := human(svc, req.AsOf).Comment(r.Context(), transportActor, app.CommentRequest{Ref: req.ref(), Body: req.Body, ReplyTo: req.ReplyTo})
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, draftOf(p))
}

func (s *Server) editComment(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	var req EditRequest
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	if err := human(svc, req.AsOf).EditComment(r.Context(), transportActor, r.PathValue("cid"), req.Body); err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// deleteComment takes as_of from the query: a DELETE has no body.
func (s *Server) deleteComment(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	d, err := human(svc, r.URL.Query().Get("as_of")).DeleteComment(r.Context(), transportActor, r.PathValue("cid"))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, draftOf(session.Placed{Draft: d, Rung: changeset.RungOrphaned}))
}

func (s *Server) restoreComment(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	var req RestoreRequest
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	in := req.Draft
	d := session.Draft{ID: in.ID, Anchor: in.Anchor, Digest: in.Digest, Body: in.Body, Author: transportActor,
		ReplyTo: in.ReplyTo, Resolved: in.Resolved, Created: in.Created, Updated: in.Updated}
	if err := human(svc, req.AsOf).RestoreComment(r.Context(), transportActor, d); err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) moveComment(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	var req MoveRequest
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	if err := human(svc, req.AsOf).MoveComment(r.Context(), transportActor, r.PathValue("cid"), req.ref()); err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) resolveComment(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	var req ResolveRequest
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	if err := human(svc, req.AsOf).ResolveComment(r.Context(), transportActor, r.PathValue("cid"), req.Resolved); err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
