package httpapi

import (
	"net/http"

	"github.com/leanreview/leanreview/internal/app"
)

// CursorRequest is the body of PUT /sessions/{id}/cursor.
type CursorRequest struct {
	AsOf string `json:"as_of"`
	Cursor
}

func (s *Server) setCursor(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	var req CursorRequest
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	if err := human(svc, req.AsOf).SetCursor(r.Context(), transportActor, req.Cursor.app()); err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
