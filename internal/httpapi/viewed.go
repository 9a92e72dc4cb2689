package httpapi

import (
	"net/http"

	"github.com/leanreview/leanreview/internal/app"
)

// ViewedRequest is the body of POST /sessions/{id}/viewed: mark the hunk
// with Digest read (Viewed true) or unread.
type ViewedRequest struct {
	AsOf   string `json:"as_of"`
	Digest string `json:"digest"`
	Viewed bool   `json:"viewed"`
}

// ViewedResult answers a mark: Finished names the file the mark just
// completed (a read receipt was minted for it), "" when none.
type ViewedResult struct {
	Finished string `json:"finished"`
}

func (s *Server) markViewed(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	var req ViewedRequest
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	finished, err := human(svc, req.AsOf).MarkViewed(r.Context(), transportActor, req.Digest, req.Viewed)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ViewedResult{Finished: finished})
}
