package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
)

// forgeWorld is a sandbox whose leanreview talks to a fake code host on
// loopback, through LEANREVIEW_GITHUB_API or LEANREVIEW_GITLAB_API and a
// token in the environment, as a user's would talk to the real one.
type forgeWorld struct {
	*sandbox
	host forgetest.Host
	ref  forge.Ref
	// url is the change as a user pastes it.
	url string
}

// hostKinds are the fake hosts the end-to-end tests run against.
var hostKinds = []struct {
	name string
	new  func(t *testing.T) forgetest.Host
}{
	{"github", func(t *testing.T) forgetest.Host { return forgetest.NewGitHub(t, forgetest.GitHubOptions{}) }},
	{"gitlab", func(t *testing.T) forgetest.Host { return forgetest.NewGitLab(t, forgetest.GitLabOptions{}) }},
}

// newForgeWorld starts host and seeds a change of patch at head.
func newForgeWorld(t *testing.T, host forgetest.Host, patch []byte, head string) *forgeWorld {
	t.Helper()
	w := &forgeWorld{sandbox: newSandbox(t), host: host}
	repo := "acme/greeter"
	if host.Kind() == forge.KindGitLab {
		repo = forgetest.FixtureRepo
	}
	w.ref = host.Seed(forgetest.ChangeSeed{Repo: repo, Number: 7, Title: "Greet the world", Base: forgetest.FixtureBase,
		Head: head, Patch: patch})
	if host.Kind() == forge.KindGitHub {
		w.url = "https://github.com/" + w.ref.Repo + "/pull/7"
		w.env = append(w.env, "LEANREVIEW_GITHUB_API="+host.URL(), "GITHUB_TOKEN="+host.Token())
	} else {
		w.url = "https://gitlab.com/" + w.ref.Repo + "/-/merge_requests/7"
		w.env = append(w.env, "LEANREVIEW_GITLAB_API="+host.URL(), "GITLAB_TOKEN="+host.Token())
	}
	return w
}

// must runs leanreview and fails the test unless it exits with code.
func (w *forgeWorld) must(code int, args ...string) (stdout, stderr string) {
	w.t.Helper()
	out, errOut, got := w.run("", args...)
	if got != code {
		w.t.Fatalf("leanreview %v: exit %d, want %d\nstdout: %s\nstderr: %s", args, got, code, out, errOut)
	}
	return out, errOut
}

// draftIDs lists the drafts the sandbox holds for the change.
func (w *forgeWorld) draftIDs() []string {
	w.t.Helper()
	var drafts []struct {
		ID string `json:"id"`
	}
	out := w.ok("drafts", w.url, "--json")
	if err := json.Unmarshal([]byte(out), &drafts); err != nil {
		w.t.Fatalf("drafts --json: %v\n%s", err, out)
	}
	var ids []string
	for _, d := range drafts {
		ids = append(ids, d.ID)
	}
	return ids
}

// markers counts the host's published comments by the marker they carry.
func (w *forgeWorld) markers() map[string]int {
	n := map[string]int{}
	for _, c := range w.host.Posted(w.ref) {
		if m := forge.MarkerOf(c.Body); m != "" && !c.Pending {
			n[m]++
		}
	}
	return n
}

// savedID returns the draft id a comment or reply command printed.
func savedID(t *testing.T, out string) string {
	t.Helper()
	f := strings.Fields(out)
	if len(f) < 2 || (f[0] != "draft" && f[0] != "reply") {
		t.Fatalf("no draft id in %q", out)
	}
	if f[0] == "reply" {
		return f[2]
	}
	return f[1]
}

// shifted moves each fault's Nth past the requests host has already had
// of its method, so a schedule drawn for a fresh host hits the requests
// still to come.

// writeFile writes a file the test needs, failing it on error.
func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// head2 is the commit a force-push moves a change to.
const head2 = "9d1c0b7e3f5a2468ace013579bdf02468ace1357"

// outage is a proxy in front of a fake host that can make the host go
// dark right after it acted on a write: the POST numbered at (counted by
// the proxy, 1-based) is forwarded, its answer is thrown away with the
// connection, and every request after it answers 503 until restore. That
// is the worst lost answer: the host committed, and the adapter cannot even
// look to see.
type outage struct {
	srv  *httptest.Server
	rp   *httputil.ReverseProxy
	base string // the host's API URL rewritten onto the proxy

	mu    sync.Mutex
	at    int
	posts int
	dark  bool
	fired int
}

// newOutage starts a proxy for host; at 0 never goes dark.
func newOutage(t *testing.T, host forgetest.Host, at int) *outage {
	t.Helper()
	api, err := url.Parse(host.URL())
	if err != nil {
		t.Fatal(err)
	}
	o := &outage{at: at, rp: httputil.NewSingleHostReverseProxy(&url.URL{Scheme: api.Scheme, Host: api.Host})}
	// A connection the host dropped is dropped on the client too, rather
	// than turned into the proxy's 502.
	o.rp.ErrorHandler = func(w http.ResponseWriter, _ *http.Request, _ error) { o.drop(w) }
	o.srv = httptest.NewServer(o)
	t.Cleanup(o.srv.Close)
	o.base = o.srv.URL + api.Path
	return o
}

func (o *outage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	dark := o.dark
	lose := false
	if !dark && r.Method == http.MethodPost {
		o.posts++
		if o.posts == o.at {
			lose, o.dark = true, true
			o.fired++
		}
	}
	o.mu.Unlock()
	switch {
	case dark:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"message":"503 Service Unavailable"}`))
	case lose:
		o.rp.ServeHTTP(httptest.NewRecorder(), r)
		o.drop(w)
	default:
		o.rp.ServeHTTP(w, r)
	}
}

// drop closes the client's connection without an answer. An answer that
// goes nowhere anyway (the recorder of a lost write) needs nothing.
func (o *outage) drop(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
		}
	}
}

// restore ends the outage.
func (o *outage) restore() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.dark = false
}

// through points w's leanreview at the proxy instead of the host.
func (w *forgeWorld) through(o *outage) {
	for i, kv := range w.env {
		if strings.HasPrefix(kv, "LEANREVIEW_GITHUB_API=") || strings.HasPrefix(kv, "LEANREVIEW_GITLAB_API=") {
			name, _, _ := strings.Cut(kv, "=")
			w.env[i] = name + "=" + o.base
		}
	}
}
