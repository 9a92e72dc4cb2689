package httpapi

import (
	"net/http"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
)

// SuggestRequest is the body of POST /sessions/{id}/suggestions. Over this
// API it is the human queuing a place to look; the agent suggests through
// MCP.
type SuggestRequest struct {
	AsOf   string         `json:"as_of"`
	Path   string         `json:"path"`
	Side   changeset.Side `json:"side,omitempty"`
	Line   int            `json:"line,omitempty"`
	Hunk   int            `json:"hunk"`
	Reason string         `json:"reason"`
}

// AnswerRequest is the body of POST /sessions/{id}/suggestions/{sid}/answer:
// accept (the cursor moves to the suggestion) or decline (recorded, so the
// agent can tell it was seen).
type AnswerRequest struct {
	AsOf   string `json:"as_of"`
	Accept bool   `json:"accept"`
}

func (s *Server) suggest(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	var req SuggestRequest
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	sg, err := human(svc, req.AsOf).Suggest(r.Context(), transportActor,
		app.SuggestionRequest{Path: req.Path, Side: req.Side, Line: req.Line, Hunk: req.Hunk, Reason: req.Reason})
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, suggestionOf(sg))
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	var req AnswerRequest
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	if err := human(svc, req.AsOf).AnswerSuggestion(r.Context(), transportActor, r.PathValue("sid"), req.Accept); err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
