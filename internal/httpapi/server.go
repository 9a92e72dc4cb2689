package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/session"
)

// Prefix is where the API is mounted.
const Prefix = "/api/v1"

// transportActor is who every write on this API is made as: the terminal
// and the browser are the human.
const transportActor = session.ActorHuman

// Sessions is the live-session registry the API serves; *app.Registry
// implements it.
type Sessions interface {
	// Open opens or joins the review req names.
	Open(ctx context.Context, req app.OpenRequest) (app.SourceInfo, app.Service, error)
	// Get returns the open session with id (its source key).
	Get(id string) (app.Service, bool)
	// List returns the open sessions' sources.
	List() []app.SourceInfo
}

var _ Sessions = (*app.Registry)(nil)

// Server serves the API for a registry of sessions. Its zero value is not
// usable; build one with NewServer. It is safe for concurrent use.
type Server struct {
	sessions Sessions
	mux      *http.ServeMux

	mu    sync.Mutex
	cache map[string]encodedChangeset // by session id: the last changeset served
}

// NewServer returns the API over sessions. Its ServeHTTP expects requests
// the daemon has already authenticated and checked.
func NewServer(sessions Sessions) *Server {
	s := &Server{sessions: sessions, mux: http.NewServeMux(), cache: map[string]encodedChangeset{}}
	for _, r := range []struct {
		pattern string
		h       http.HandlerFunc
	}{
		{"POST /sessions", s.openSession},
		{"GET /sessions", s.listSessions},
		{"GET /sessions/{id}", s.withSession(s.getSession)},
		{"POST /sessions/{id}/reload", s.withSession(s.reload)},
		{"GET /sessions/{id}/changeset", s.withSession(s.getChangeset)},
		{"GET /sessions/{id}/state", s.withSession(s.getState)},
		{"GET /sessions/{id}/events", s.withSession(s.events)},
		{"PUT /sessions/{id}/cursor", s.withSession(s.setCursor)},
		{"POST /sessions/{id}/viewed", s.withSession(s.markViewed)},
		{"POST /sessions/{id}/comments", s.withSession(s.addComment)},
		{"POST /sessions/{id}/comments/restore", s.withSession(s.restoreComment)},
		{"PATCH /sessions/{id}/comments/{cid}", s.withSession(s.editComment)},
		{"DELETE /sessions/{id}/comments/{cid}", s.withSession(s.deleteComment)},
		{"POST /sessions/{id}/comments/{cid}/move", s.withSession(s.moveComment)},
		{"POST /sessions/{id}/comments/{cid}/resolve", s.withSession(s.resolveComment)},
		{"POST /sessions/{id}/suggestions", s.withSession(s.suggest)},
		{"POST /sessions/{id}/suggestions/{sid}/answer", s.withSession(s.answer)},
	} {
		method, path, _ := strings.Cut(r.pattern, " ")
		s.mux.HandleFunc(method+" "+Prefix+path, r.h)
	}
	// Also catches a known path with another method, so every answer of
	// the API has the error shape.
	s.mux.HandleFunc(Prefix+"/", func(w http.ResponseWriter, r *http.Request) {
		WriteError(w, ErrorBody{Code: CodeNotFound, Message: fmt.Sprintf("no endpoint %s %s", r.Method, r.URL.Path)})
	})
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// sessionHandler is a handler of one session's resource.
type sessionHandler func(w http.ResponseWriter, r *http.Request, id string, svc app.Service)

func (s *Server) withSession(h sessionHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		svc, ok := s.sessions.Get(id)
		if !ok {
			WriteError(w, ErrorBody{Code: CodeNoSession, Message: fmt.Sprintf("no open session %q; open it with POST %s/sessions", id, Prefix)})
			return
		}
		h(w, r, id, svc)
	}
}

// decode reads r's JSON body into v. Unknown fields are refused, so a body
// claiming an author (or misspelling a field) is an error rather than
// silently ignored.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		if strings.Contains(err.Error(), `unknown field "author"`) {
			return badRequest{fmt.Errorf("a request cannot name its author: the HTTP API writes as the human, and the agent writes through MCP")}
		}
		return badRequest{fmt.Errorf("read the request body: %w", err)}
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequest{fmt.Errorf("read the request body: more than one JSON value")}
	}
	return nil
}

// fail writes err as an error response.
func fail(w http.ResponseWriter, err error) { WriteError(w, errorBody(err)) }

// human is svc as this transport writes to it: as the human, and only
// while the changeset is asOf ("" for any).
func human(svc app.Service, asOf string) app.Service {
	return app.ActingAs(app.At(svc, asOf), transportActor)
}
