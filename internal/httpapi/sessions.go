package httpapi

import (
	"net/http"

	"github.com/leanreview/leanreview/internal/app"
)

// Source is a review source on the wire.
type Source struct {
	Kind  string `json:"kind"`
	Key   string `json:"key"`
	Label string `json:"label,omitempty"`
}

func sourceOf(i app.SourceInfo) Source { return Source{Kind: i.Kind, Key: i.Key, Label: i.Label} }

func (s Source) info() app.SourceInfo {
	return app.SourceInfo{Kind: s.Kind, Key: s.Key, Label: s.Label}
}

// OpenRequest is the body of POST /sessions: a source named as on the
// command line, resolved from Dir (absolute).
type OpenRequest struct {
	Args   []string `json:"args"`
	Dir    string   `json:"dir"`
	Staged bool     `json:"staged,omitempty"`
	Base   string   `json:"base,omitempty"`
}

// SessionInfo is an open session: its id (the source's identity key, stable
// for the source, so opening it again joins it), its source, and the digest
// of its changeset now.
type SessionInfo struct {
	ID     string `json:"id"`
	Source Source `json:"source"`
	AsOf   string `json:"as_of"`
}

// SessionList is the body of GET /sessions.
type SessionList struct {
	Sessions []SessionInfo `json:"sessions"`
}

func (s *Server) openSession(w http.ResponseWriter, r *http.Request) {
	var req OpenRequest
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	info, svc, err := s.sessions.Open(r.Context(), app.OpenRequest{Args: req.Args, Dir: req.Dir, Staged: req.Staged, Base: req.Base})
	if err != nil {
		fail(w, err)
		return
	}
	snap, err := svc.Snapshot(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, SessionInfo{ID: info.Key, Source: sourceOf(info), AsOf: snap.AsOf})
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	out := SessionList{Sessions: []SessionInfo{}}
	for _, info := range s.sessions.List() {
		if svc, ok := s.sessions.Get(info.Key); ok {
			if snap, err := svc.Snapshot(r.Context()); err == nil {
				out.Sessions = append(out.Sessions, SessionInfo{ID: info.Key, Source: sourceOf(info), AsOf: snap.AsOf})
			}
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request, id string, svc app.Service) {
	snap, err := svc.Snapshot(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, SessionInfo{ID: id, Source: sourceOf(snap.Source), AsOf: snap.AsOf})
}

// AsOf is the answer of POST /sessions/{id}/reload: the digest now.
type AsOf struct {
	AsOf string `json:"as_of"`
}

func (s *Server) reload(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	if err := svc.Reload(r.Context()); err != nil {
		fail(w, err)
		return
	}
	snap, err := svc.Snapshot(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, AsOf{AsOf: snap.AsOf})
}
