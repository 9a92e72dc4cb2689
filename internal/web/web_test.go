package web

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func TestHandler_ServesThePageAndItsFilesUnderThePolicy(t *testing.T) {
	h := NewHandler()
	tests := []struct {
		path   string
		status int
		ctype  string
	}{
		{"/", http.StatusOK, "text/html; charset=utf-8"},
		{"/assets/app.css", http.StatusOK, "text/css; charset=utf-8"},
		{"/assets/js/main.js", http.StatusOK, "text/javascript; charset=utf-8"},
		{"/assets/icon.svg", http.StatusOK, "image/svg+xml"},
		{"/assets/index.html", http.StatusNotFound, ""},
		{"/index.html", http.StatusNotFound, ""},
		{"/assets/../web.go", http.StatusNotFound, ""},
		{"/favicon.ico", http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
			if rec.Code != tt.status {
				t.Fatalf("GET %s: status %d, want %d", tt.path, rec.Code, tt.status)
			}
			if got := rec.Header().Get("Content-Security-Policy"); got != ContentSecurityPolicy {
				t.Errorf("GET %s: Content-Security-Policy %q, want %q", tt.path, got, ContentSecurityPolicy)
			}
			for k, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"} {
				if got := rec.Header().Get(k); got != want {
					t.Errorf("GET %s: %s %q, want %q", tt.path, k, got, want)
				}
			}
			if tt.ctype != "" && rec.Header().Get("Content-Type") != tt.ctype {
				t.Errorf("GET %s: Content-Type %q, want %q", tt.path, rec.Header().Get("Content-Type"), tt.ctype)
			}
		})
	}
}

func TestHandler_PolicyAllowsOnlyThisOrigin(t *testing.T) {
	for _, d := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"} {
		if !strings.Contains(ContentSecurityPolicy, d) {
			t.Errorf("the policy lacks %q: %s", d, ContentSecurityPolicy)
		}
	}
	if strings.Contains(ContentSecurityPolicy, "unsafe") || strings.Contains(ContentSecurityPolicy, "http") {
		t.Errorf("the policy allows more than this origin: %s", ContentSecurityPolicy)
	}
}

func TestHandler_RevalidatesWithETagAndRefusesWrites(t *testing.T) {
	h := NewHandler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/assets/js/app.js", nil))
	etag := rec.Header().Get("ETag")
	if etag == "" || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("no ETag (%q) or not revalidated (Cache-Control %q)", etag, rec.Header().Get("Cache-Control"))
	}
	req := httptest.NewRequest(http.MethodGet, "/assets/js/app.js", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("a matching If-None-Match: status %d, want 304", rec.Code)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader("x")))
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Content-Security-Policy") == "" {
		t.Errorf("POST /: status %d, policy %q; want 405 with the policy", rec.Code, rec.Header().Get("Content-Security-Policy"))
	}
}

// htmlSinks are the ways a script can turn a string into markup or code.
// The page builds DOM with createElement and textContent only (dom.js), so
// none may appear in its scripts.
var htmlSinks = regexp.MustCompile(`\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|setTimeout\(\s*['"\x60]|createContextualFragment|DOMParser|srcdoc|javascript:`)

// TestAssets_NeverInterpretTextAsMarkupNorReachOtherOrigins scans every
// embedded file: no HTML sink in scripts, no inline script or style in the
// page (the policy would block them anyway), and no address of another
// origin anywhere, so the page cannot leak its cookie-borne session.
func TestAssets_NeverInterpretTextAsMarkupNorReachOtherOrigins(t *testing.T) {
	external := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	n := 0
	err := fs.WalkDir(assets, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(assets, p)
		if err != nil {
			return err
		}
		src := string(b)
		n++
		if strings.HasSuffix(p, ".js") {
			if m := htmlSinks.FindString(src); m != "" {
				t.Errorf("%s uses %q: build DOM with createElement/textContent instead", p, m)
			}
		}
		if strings.HasSuffix(p, ".html") {
			if regexp.MustCompile(`<script(?:[^>]*)>[^<]+</script>|<style|\sstyle=|\son[a-z]+=`).MatchString(src) {
				t.Errorf("%s has inline script or style", p)
			}
		}
		for _, m := range external.FindAllString(src, -1) {
			if m == "http://www.w3.org" && strings.Contains(src, "xmlns=\"http://www.w3.org/2000/svg\"") {
				continue // the SVG namespace, not a request
			}
			t.Errorf("%s names another origin: %s", p, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Errorf("scanned %d embedded files; the page has more", n)
	}
}
