package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
)

// Changeset is the body of GET /sessions/{id}/changeset: the core's JSON
// (digest and files, with changeset.File's own field names) and the
// source's kind and key.
type Changeset struct {
	Digest string           `json:"digest"`
	Source SourceRef        `json:"source"`
	Files  []changeset.File `json:"files"`
}

// SourceRef names a source without describing it.
type SourceRef struct {
	Kind string `json:"kind"`
	Key  string `json:"key"`
}

// encodedChangeset is a changeset's response body, kept because a large
// change is megabytes of JSON and does not change between reloads.
type encodedChangeset struct {
	digest string
	body   []byte
}

// getChangeset serves the changeset with its digest as ETag; a client that
// sends it back in If-None-Match gets 304.
func (s *Server) getChangeset(w http.ResponseWriter, r *http.Request, id string, svc app.Service) {
	snap, err := svc.Snapshot(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	etag := fmt.Sprintf("%q", snap.AsOf)
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body, err := s.encodeChangeset(id, snap)
	if err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(body)
}

func (s *Server) encodeChangeset(id string, snap *app.Snapshot) ([]byte, error) {
	s.mu.Lock()
	c, ok := s.cache[id]
	s.mu.Unlock()
	if ok && c.digest == snap.AsOf {
		return c.body, nil
	}
	var buf bytes.Buffer
	cs := Changeset{Digest: snap.Changeset.Digest, Source: SourceRef{Kind: snap.Source.Kind, Key: snap.Source.Key}, Files: snap.Changeset.Files}
	if cs.Files == nil {
		cs.Files = []changeset.File{}
	}
	if err := json.NewEncoder(&buf).Encode(cs); err != nil {
		return nil, fmt.Errorf("encode changeset %s: %w", id, err)
	}
	s.mu.Lock()
	s.cache[id] = encodedChangeset{digest: snap.AsOf, body: buf.Bytes()}
	s.mu.Unlock()
	return buf.Bytes(), nil
}
