package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed assets
var assets embed.FS

// ContentSecurityPolicy is sent with every response of Handler: nothing but
// this origin's own scripts, styles and API; no inline script or style
// attribute, no plugin, no <base>, no framing, no form posts.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

// AssetPrefix is where the page's files are served.
const AssetPrefix = "/assets/"

// asset is one embedded file ready to serve.
type asset struct {
	body        []byte
	contentType string
	etag        string
}

// Handler serves the page: "/" is the review page, AssetPrefix its files;
// anything else is 404. It reads only GET and HEAD. Responses are
// revalidated every time (ETag), so a new binary's page is never mixed
// with an old one's scripts. It is safe for concurrent use.
type Handler struct {
	files map[string]asset // by URL path
}

var _ http.Handler = (*Handler)(nil)

// NewHandler returns the page's handler over the embedded files.
func NewHandler() *Handler {
	h, err := newHandler(assets)
	if err != nil {
		// The files are compiled in; failing to read them is a build defect.
		panic(err)
	}
	return h
}

func newHandler(fsys fs.FS) (*Handler, error) {
	h := &Handler{files: map[string]asset{}}
	err := fs.WalkDir(fsys, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(fsys, p)
		if err != nil {
			return fmt.Errorf("read page asset %s: %w", p, err)
		}
		sum := sha256.Sum256(body)
		a := asset{body: body, contentType: contentType(p), etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		url := AssetPrefix + strings.TrimPrefix(p, "assets/")
		if p == "assets/index.html" {
			url = "/"
		}
		h.files[url] = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, ok := h.files["/"]; !ok {
		return nil, fmt.Errorf("page assets: no index.html")
	}
	return h, nil
}

// contentType names the types the page uses; a module script must be
// served as JavaScript or the browser refuses it.
func contentType(p string) string {
	switch path.Ext(p) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	}
	return "application/octet-stream"
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	securityHeaders(w.Header())
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	a, ok := h.files[r.URL.Path]
	if !ok {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", a.contentType)
	w.Header().Set("ETag", a.etag)
	w.Header().Set("Cache-Control", "no-cache")
	if r.Header.Get("If-None-Match") == a.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
}

// securityHeaders are sent on every answer, errors included.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
}
