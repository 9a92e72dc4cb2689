package daemon

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/leanreview/leanreview/internal/httpapi"
)

// CookieName is the browser session cookie.
const CookieName = "leanreview_session"

// DefaultMaxBody is the request body cap: far above any comment, far below
// what could exhaust the daemon.
const DefaultMaxBody = 1 << 20

// guard holds what the request checks need: the daemon's port, its token,
// the cookies it has issued and the body cap. Safe for concurrent use.
type guard struct {
	port    string
	token   string
	maxBody int64

	mu      sync.Mutex
	cookies map[string]bool
}

// hostAllowed reports whether host (a Host header) names this daemon by a
// loopback name and its port. Anything else is a DNS-rebinding attempt or a
// misdirected request.
func (g *guard) hostAllowed(host string) bool {
	h, p, err := net.SplitHostPort(host)
	if err != nil || p != g.port {
		return false
	}
	switch strings.ToLower(h) {
	case "127.0.0.1", "localhost", "::1":
		return true
	}
	return false
}

// checkHost refuses a request whose Host is not this daemon's.
func (g *guard) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.hostAllowed(r.Host) {
			httpapi.WriteError(w, httpapi.ErrorBody{Code: httpapi.CodeBadHost,
				Message: fmt.Sprintf("host %q is not this daemon; use 127.0.0.1:%s", r.Host, g.port)})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// capBody refuses a body declared over the cap and stops reading one that
// turns out to be (413 either way).
func (g *guard) capBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > g.maxBody {
			httpapi.WriteError(w, httpapi.ErrorBody{Code: httpapi.CodeTooLarge,
				Message: fmt.Sprintf("the request body is %d bytes, over the %d-byte limit", r.ContentLength, g.maxBody)})
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, g.maxBody)
		next.ServeHTTP(w, r)
	})
}

// authenticate admits a request carrying the bearer token or an issued
// session cookie, and applies the browser checks (checkBrowser).
func (g *guard) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		byToken := false
		if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			if !secretEqual(v, g.token) {
				g.unauthorized(w, "the bearer token is wrong")
				return
			}
			byToken = true
		}
		if !byToken {
			c, err := r.Cookie(CookieName)
			if err != nil || !g.cookieValid(c.Value) {
				g.unauthorized(w, "no token: send Authorization: Bearer TOKEN from the discovery file, or log in with the URL `leanreview serve --open` prints")
				return
			}
		}
		if msg := checkBrowser(r, byToken); msg != "" {
			httpapi.WriteError(w, httpapi.ErrorBody{Code: httpapi.CodeBadOrigin, Message: msg})
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (g *guard) unauthorized(w http.ResponseWriter, msg string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="leanreview"`)
	httpapi.WriteError(w, httpapi.ErrorBody{Code: httpapi.CodeUnauthorized, Message: msg})
}

// checkBrowser returns why a request must be refused as cross-origin, or "".
// A write naming an Origin must name this daemon's own (Host has been
// checked). A request on the cookie must come from this origin: the cookie
// is sent to every port of 127.0.0.1 (cookies ignore ports, and SameSite
// counts other ports as the same site), so a page on another local port
// would otherwise ride on it. Browsers send Origin on every write and
// Sec-Fetch-Site on every request; a cookie write with neither is refused.
func checkBrowser(r *http.Request, byToken bool) string {
	write := r.Method != http.MethodGet && r.Method != http.MethodHead
	origin := r.Header.Get("Origin")
	if write && origin != "" && origin != "http://"+r.Host {
		return fmt.Sprintf("a write from %s is refused: only pages this daemon serves may write", origin)
	}
	if byToken {
		return ""
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return fmt.Sprintf("a %s request on the session cookie is refused", site)
	}
	if write && origin == "" && r.Header.Get("Sec-Fetch-Site") == "" {
		return "a write on the session cookie must say where it comes from (Origin)"
	}
	return ""
}

func (g *guard) issueCookie() string {
	v := newSecret()
	g.mu.Lock()
	g.cookies[v] = true
	g.mu.Unlock()
	return v
}

func (g *guard) cookieValid(v string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cookies[v]
}
