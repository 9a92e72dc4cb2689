package daemon

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/leanreview/leanreview/internal/httpapi"
)

// loginCodeLife is how long a login URL works: long enough to click, short
// enough that one found later in a scrollback or a shell history is dead.
const loginCodeLife = 5 * time.Minute

// loginCodes are one-time codes a browser exchanges for a session cookie.
// A login URL carries a code rather than the token, so the token never
// appears in a terminal, a browser or its history.
type loginCodes struct {
	now func() time.Time

	mu    sync.Mutex
	codes map[string]time.Time // code -> expiry
}

func (l *loginCodes) mint() string {
	c := newSecret()
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	for k, exp := range l.codes {
		if now.After(exp) {
			delete(l.codes, k)
		}
	}
	l.codes[c] = now.Add(loginCodeLife)
	return c
}

// redeem consumes code, reporting whether it was live.
func (l *loginCodes) redeem(code string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	exp, ok := l.codes[code]
	delete(l.codes, code)
	return ok && !l.now().After(exp)
}

// LoginRequest is the body of POST /api/v1/login.
type LoginRequest struct {
	Code string `json:"code"`
}

// LoginURL is the answer of POST /api/v1/login-url.
type LoginURL struct {
	URL string `json:"url"`
}

// loginURL mints a code and returns the URL that logs a browser in with it.
// The code travels in the fragment, which a browser never sends to a
// server, so it reaches no log; the page posts it and erases it from
// history.
func (d *Daemon) loginURL() string {
	return fmt.Sprintf("http://%s/login#code=%s", d.addr, d.codes.mint())
}

func (d *Daemon) handleLoginURL(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, LoginURL{URL: d.loginURL()})
}

// handleLogin exchanges a login code for an HttpOnly, SameSite=Strict
// session cookie.
func (d *Daemon) handleLogin(w http.ResponseWriter, r *http.Request) {
	if msg := checkBrowser(r, false); msg != "" {
		httpapi.WriteError(w, httpapi.ErrorBody{Code: httpapi.CodeBadOrigin, Message: msg})
		return
	}
	var req LoginRequest
	if err := decodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, httpapi.ErrorBody{Code: httpapi.CodeInvalid, Message: err.Error()})
		return
	}
	if !d.codes.redeem(req.Code) {
		httpapi.WriteError(w, httpapi.ErrorBody{Code: httpapi.CodeUnauthorized,
			Message: "this login link has expired or was already used; run `leanreview serve --open` for a new one"})
		return
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: d.guard.issueCookie(), Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode})
	w.WriteHeader(http.StatusNoContent)
}

// loginPage reads the code from the fragment, removes it from the address
// bar and history, exchanges it, and goes to the review page.
const loginPage = `<!doctype html>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>leanreview: logging in</title>
<p id="status">Logging in…</p>
<script src="/login.js"></script>
`

const loginScript = `(function () {
  var m = /(?:^#|&)code=([^&]+)/.exec(location.hash);
  history.replaceState(null, "", "/login");
  var status = document.getElementById("status");
  if (!m) { status.textContent = "This page needs the link leanreview printed."; return; }
  fetch("/api/v1/login", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({code: decodeURIComponent(m[1])}), credentials: "same-origin"})
    .then(function (r) {
      if (r.ok) { location.replace("/"); return; }
      return r.json().then(function (e) { status.textContent = e.message; });
    })
    .catch(function (e) { status.textContent = "Cannot reach leanreview: " + e; });
})();
`

func serveLoginPage(w http.ResponseWriter, r *http.Request) {
	pageHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = fmt.Fprint(w, loginPage)
}

func serveLoginScript(w http.ResponseWriter, r *http.Request) {
	pageHeaders(w)
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	_, _ = fmt.Fprint(w, loginScript)
}

// pageHeaders keep the login page from being framed, cached, leaking a
// referrer or running script from anywhere else.
func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
}

// placeholder serves "/" until the browser page (internal/web) is wired in.
func placeholder(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	pageHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = fmt.Fprint(w, `<!doctype html><meta charset="utf-8"><title>leanreview</title><p>The leanreview daemon is running. The review page is not part of this build.`)
}
