package daemon_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/app/apptest"
	"github.com/leanreview/leanreview/internal/daemon"
	"github.com/leanreview/leanreview/internal/httpapi"
)

// raw is a request made by hand, as a browser or an attacker would.
type raw struct {
	method, path, host, body string
	header                   map[string]string
	// body is sent chunked (no Content-Length) when chunked is set.
	chunked bool
}

// do sends rq to f's daemon and returns the status, the decoded error
// body (zero for a success) and the response.
func (f *fixture) do(t *testing.T, rq raw) (int, httpapi.ErrorBody, *http.Response) {
	t.Helper()
	var body io.Reader
	if rq.body != "" {
		body = strings.NewReader(rq.body)
		if rq.chunked {
			body = io.MultiReader(body) // hides the length from net/http
		}
	}
	req, err := http.NewRequest(rq.method, f.d.disc.BaseURL()+rq.path, body)
	if err != nil {
		t.Fatal(err)
	}
	if rq.host != "" {
		req.Host = rq.host
	}
	for k, v := range rq.header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var eb httpapi.ErrorBody
	if resp.StatusCode >= 400 {
		if err := json.Unmarshal(b, &eb); err != nil {
			t.Fatalf("%s %s: %d with a body that is not an error: %q", rq.method, rq.path, resp.StatusCode, b)
		}
	}
	return resp.StatusCode, eb, resp
}

func (f *fixture) bearer() map[string]string {
	return map[string]string{"Authorization": "Bearer " + f.d.disc.Token}
}

func (f *fixture) port() string {
	_, p, _ := net.SplitHostPort(f.d.disc.Addr)
	return p
}

func withHeader(h map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

func TestAPI_RequestsWithoutTheTokenAre401(t *testing.T) {
	f := newFixture(t, daemon.Options{})
	for name, h := range map[string]map[string]string{
		"no credentials":  nil,
		"a wrong token":   {"Authorization": "Bearer " + strings.Repeat("A", 43)},
		"a token prefix":  {"Authorization": "Bearer " + f.d.disc.Token[:20]},
		"a forged cookie": {"Cookie": daemon.CookieName + "=made-up"},
		"basic auth":      {"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte("x:"+f.d.disc.Token))},
	} {
		t.Run(name, func(t *testing.T) {
			for _, path := range []string{"/api/v1/sessions", "/api/v1/sessions/" + f.human.ID() + "/state", "/api/v1/version"} {
				status, eb, resp := f.do(t, raw{method: "GET", path: path, header: h})
				if status != http.StatusUnauthorized || eb.Code != httpapi.CodeUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
					t.Errorf("GET %s: %d %+v", path, status, eb)
				}
			}
			status, _, _ := f.do(t, raw{method: "POST", path: "/api/v1/shutdown", header: h})
			if status != http.StatusUnauthorized {
				t.Errorf("shutdown without the token: %d", status)
			}
		})
	}
	if status, _, _ := f.do(t, raw{method: "GET", path: "/api/v1/sessions", header: f.bearer()}); status != http.StatusOK {
		t.Errorf("with the token: %d", status)
	}
}

func TestAPI_AHostThatIsNotTheDaemonsIsRefused(t *testing.T) {
	f := newFixture(t, daemon.Options{})
	p := f.port()
	for _, host := range []string{"evil.example:" + p, "evil.example", "127.0.0.1", "127.0.0.1:1", "localhost.evil.example:" + p, "127.0.0.2:" + p, "0.0.0.0:" + p} {
		for _, path := range []string{"/api/v1/sessions", "/", "/login"} {
			status, eb, _ := f.do(t, raw{method: "GET", path: path, host: host, header: f.bearer()})
			if status != http.StatusForbidden || eb.Code != httpapi.CodeBadHost {
				t.Errorf("Host %s, GET %s: %d %+v, want 403 host_not_allowed", host, path, status, eb)
			}
		}
	}
	for _, host := range []string{"127.0.0.1:" + p, "localhost:" + p, "LOCALHOST:" + p, "[::1]:" + p} {
		if status, eb, _ := f.do(t, raw{method: "GET", path: "/api/v1/sessions", host: host, header: f.bearer()}); status != http.StatusOK {
			t.Errorf("Host %s: %d %+v", host, status, eb)
		}
	}
}

func TestAPI_CrossOriginWritesAre403(t *testing.T) {
	f := newFixture(t, daemon.Options{})
	cookie := f.login(t)
	self := "http://" + f.d.disc.Addr
	cursor := `{"path":"dup.txt","hunk":-1}`
	path := "/api/v1/sessions/" + f.human.ID() + "/cursor"
	for _, tc := range []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"token, another site", withHeader(f.bearer(), "Origin", "http://evil.example"), http.StatusForbidden},
		{"token, another local port", withHeader(f.bearer(), "Origin", "http://127.0.0.1:1"), http.StatusForbidden},
		{"token, opaque origin", withHeader(f.bearer(), "Origin", "null"), http.StatusForbidden},
		{"cookie, another site", map[string]string{"Cookie": cookie, "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"cookie, another local port", map[string]string{"Cookie": cookie, "Origin": "http://localhost:1", "Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
		{"cookie, no origin at all", map[string]string{"Cookie": cookie}, http.StatusForbidden},
		{"cookie, same origin", map[string]string{"Cookie": cookie, "Origin": self, "Sec-Fetch-Site": "same-origin"}, http.StatusNoContent},
		{"token, no origin (a program)", f.bearer(), http.StatusNoContent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, eb, _ := f.do(t, raw{method: "PUT", path: path, body: cursor, header: withHeader(tc.header, "Content-Type", "application/json")})
			if status != tc.want || (tc.want == http.StatusForbidden && eb.Code != httpapi.CodeBadOrigin) {
				t.Errorf("%d %+v, want %d", status, eb, tc.want)
			}
		})
	}
	// A page on another local port reading with the cookie is refused too:
	// the browser sends the cookie there, since cookies ignore ports.
	status, eb, _ := f.do(t, raw{method: "GET", path: "/api/v1/sessions/" + f.human.ID() + "/state",
		header: map[string]string{"Cookie": cookie, "Sec-Fetch-Site": "same-site"}})
	if status != http.StatusForbidden || eb.Code != httpapi.CodeBadOrigin {
		t.Errorf("a same-site read on the cookie: %d %+v", status, eb)
	}
}

// login logs a browser in the way the page does and returns its Cookie
// header.
func (f *fixture) login(t *testing.T) string {
	t.Helper()
	lu := f.freshLoginURL(t)
	u, err := url.Parse(lu.URL)
	if err != nil || u.Host != f.d.disc.Addr || u.Path != "/login" || u.RawQuery != "" {
		t.Fatalf("login URL %q", lu.URL)
	}
	code := strings.TrimPrefix(u.Fragment, "code=")
	status, eb, resp := f.do(t, raw{method: "POST", path: "/api/v1/login", body: `{"code":"` + code + `"}`,
		header: map[string]string{"Origin": "http://" + f.d.disc.Addr, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json"}})
	if status != http.StatusNoContent {
		t.Fatalf("login: %d %+v", status, eb)
	}
	for _, c := range resp.Cookies() {
		if c.Name == daemon.CookieName {
			if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" {
				t.Errorf("cookie %+v: want HttpOnly, SameSite=Strict, Path=/", c)
			}
			return c.Name + "=" + c.Value
		}
	}
	t.Fatal("no session cookie")
	return ""
}

func (f *fixture) freshLoginURL(t *testing.T) daemon.LoginURL {
	t.Helper()
	req, _ := http.NewRequest("POST", f.d.disc.BaseURL()+"/api/v1/login-url", nil)
	req.Header.Set("Authorization", "Bearer "+f.d.disc.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var lu daemon.LoginURL
	if err := json.NewDecoder(resp.Body).Decode(&lu); err != nil {
		t.Fatal(err)
	}
	return lu
}

func TestLogin_ACodeBuysOneCookieOnceAndTheTokenIsNeverInTheURL(t *testing.T) {
	f := newFixture(t, daemon.Options{})
	lu := f.freshLoginURL(t)
	if strings.Contains(lu.URL, f.d.disc.Token) {
		t.Fatalf("the login URL %q carries the token", lu.URL)
	}
	code := strings.TrimPrefix(lu.URL[strings.Index(lu.URL, "#")+1:], "code=")
	post := func(code string) int {
		status, _, _ := f.do(t, raw{method: "POST", path: "/api/v1/login", body: `{"code":"` + code + `"}`,
			header: map[string]string{"Origin": "http://" + f.d.disc.Addr, "Content-Type": "application/json"}})
		return status
	}
	if got := post(code); got != http.StatusNoContent {
		t.Fatalf("first use: %d", got)
	}
	if got := post(code); got != http.StatusUnauthorized {
		t.Errorf("second use of the same code: %d, want 401", got)
	}
	if got := post("guessed"); got != http.StatusUnauthorized {
		t.Errorf("a made-up code: %d, want 401", got)
	}
	cookie := f.login(t)
	status, _, _ := f.do(t, raw{method: "GET", path: "/api/v1/sessions/" + f.human.ID() + "/state",
		header: map[string]string{"Cookie": cookie, "Sec-Fetch-Site": "same-origin"}})
	if status != http.StatusOK {
		t.Errorf("reading with the cookie: %d", status)
	}
	status, _, resp := f.do(t, raw{method: "GET", path: "/login"})
	if status != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") || resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("login page: %d %v", status, resp.Header)
	}
}

func TestAPI_ABodyThatNamesItsAuthorIsRefused(t *testing.T) {
	f := newFixture(t, daemon.Options{})
	body := `{"path":"calc.go","side":"new","start_line":20,"body":"I am the human","author":"human"}`
	status, eb, _ := f.do(t, raw{method: "POST", path: "/api/v1/sessions/" + f.human.ID() + "/comments", body: body, header: f.bearer()})
	if status != http.StatusBadRequest || eb.Code != httpapi.CodeInvalid || !strings.Contains(eb.Message, "author") {
		t.Errorf("%d %+v, want 400 invalid naming the author", status, eb)
	}
	snap, err := f.agent.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Drafts) != 0 {
		t.Errorf("the comment was kept: %+v", snap.Drafts)
	}
}

func TestAPI_AStaleWriteIs409WithTheCurrentDigest(t *testing.T) {
	f := newFixture(t, daemon.Options{})
	ctx := context.Background()
	old, _ := f.human.Snapshot(ctx)
	f.src.Set(apptest.V2)
	if err := f.human.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	now, _ := f.agent.Snapshot(ctx)
	body := `{"as_of":"` + old.AsOf + `","path":"calc.go","hunk":-1}`
	status, eb, _ := f.do(t, raw{method: "PUT", path: "/api/v1/sessions/" + f.human.ID() + "/cursor", body: body, header: f.bearer()})
	if status != http.StatusConflict || eb.Code != httpapi.CodeStale || eb.AsOf != now.AsOf {
		t.Errorf("%d %+v, want 409 stale with as_of %s", status, eb, now.AsOf)
	}
	status, eb, _ = f.do(t, raw{method: "GET", path: "/api/v1/sessions/no-such/state", header: f.bearer()})
	if status != http.StatusNotFound || eb.Code != httpapi.CodeNoSession {
		t.Errorf("an unknown session: %d %+v", status, eb)
	}
}

func TestAPI_OversizedBodiesAre413(t *testing.T) {
	f := newFixture(t, daemon.Options{MaxBody: 4096})
	big := `{"path":"calc.go","side":"new","start_line":20,"body":"` + strings.Repeat("x", 8192) + `"}`
	for _, chunked := range []bool{false, true} {
		status, eb, _ := f.do(t, raw{method: "POST", path: "/api/v1/sessions/" + f.human.ID() + "/comments", body: big, chunked: chunked, header: f.bearer()})
		if status != http.StatusRequestEntityTooLarge || eb.Code != httpapi.CodeTooLarge {
			t.Errorf("chunked=%v: %d %+v, want 413", chunked, status, eb)
		}
	}
	if s, _ := f.agent.Snapshot(context.Background()); len(s.Drafts) != 0 {
		t.Errorf("an oversized comment was kept")
	}
}

func TestListen_RefusesEveryAddressButLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.10:0", "example.com:0", "10.0.0.1:8080"} {
		ln, err := daemon.Listen(addr)
		if !errors.Is(err, daemon.ErrNotLoopback) || !strings.Contains(err.Error(), "loopback only") {
			t.Errorf("Listen(%q) = %v, want ErrNotLoopback with a message", addr, err)
		}
		if ln != nil {
			ln.Close()
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "127.1.2.3:0"} {
		ln, err := daemon.Listen(addr)
		if err != nil {
			t.Errorf("Listen(%q): %v", addr, err)
			continue
		}
		ln.Close()
	}
	_, err := daemon.New(daemon.Options{Addr: "0.0.0.0:0", RuntimeDir: t.TempDir(), Sessions: registry(t, t.TempDir(), app.Deps{Now: time.Now, NewID: apptest.IDs("d")}, fixedOpener{})})
	if !errors.Is(err, daemon.ErrNotLoopback) {
		t.Errorf("New on 0.0.0.0: %v", err)
	}
}

func TestDiscovery_FileAndDirectoryArePrivateAndTheTokenIs256Bits(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	f := newFixture(t, daemon.Options{RuntimeDir: dir})
	info, err := os.Stat(filepath.Join(dir, daemon.DiscoveryFile))
	if err != nil {
		t.Fatal(err)
	}
	if m := info.Mode().Perm(); m != 0o600 {
		t.Errorf("discovery file mode %v, want 0600", m)
	}
	dinfo, _ := os.Stat(dir)
	if m := dinfo.Mode().Perm(); m != 0o700 {
		t.Errorf("runtime directory mode %v, want 0700", m)
	}
	d, err := daemon.ReadDiscovery(dir)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.RawURLEncoding.DecodeString(d.Token)
	if err != nil || len(raw) != 32 {
		t.Errorf("token %q: %d bytes, %v; want 32", d.Token, len(raw), err)
	}
	if d.Addr != f.d.disc.Addr || d.Version != "test" || d.PID != os.Getpid() {
		t.Errorf("discovery %+v", d)
	}
	// A discovery file others can read is refused, and a runtime directory
	// others can enter is closed.
	if err := os.Chmod(filepath.Join(dir, daemon.DiscoveryFile), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := daemon.ReadDiscovery(dir); err == nil || !strings.Contains(err.Error(), "readable by other users") {
		t.Errorf("reading a 0644 discovery file: %v", err)
	}
	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := daemon.PrepareRuntimeDir(open); err != nil {
		t.Fatal(err)
	}
	if oinfo, _ := os.Stat(open); oinfo.Mode().Perm() != 0o700 {
		t.Errorf("an open runtime directory was left %v", oinfo.Mode().Perm())
	}
}
