package forgetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/forge"
)

// GitLab is a stateful fake of GitLab's REST API (v4) for merge request
// reviews, following the documented behaviour in shared/forge/README.md:
// diff_refs and versions, paged diffs, positioned discussions with full
// position validation and GitLab's real 400 body, line codes, replies,
// approvals (a second approval answers 401, unapproving when not approved
// 404), notes, and draft notes with bulk publish. Requests must match an
// endpoint exactly and their JSON bodies decode strictly; anything else is
// recorded and fails the test at cleanup. Safe for concurrent use.
type GitLab struct {
	t      testing.TB
	srv    *httptest.Server
	opts   GitLabOptions
	faults faultPlan

	mu     sync.Mutex
	mrs    map[string]*glMR // "path!iid"
	nextID int64
	log    []string

	// vmu guards violations on their own, so they can be recorded while an
	// endpoint holds mu.
	vmu        sync.Mutex
	violations []string
}

// GitLabOptions tunes the fake; the zero value is GitLab's behaviour.
type GitLabOptions struct {
	// Now is the fake's clock; nil means time.Now.
	Now func() time.Time
	// NoDraftNotes makes the draft notes endpoints answer 404, as on a
	// GitLab too old to have them.
	NoDraftNotes bool
}

type glMR struct {
	project string
	iid     int
	title   string
	author  string
	state   string
	// versions are newest first, as GET .../versions lists them.
	versions    []glVersion
	files       []patchFile
	discussions []*glDiscussion
	drafts      []*glDraft
	approvedBy  []string
	// verdicts logs the reviewer's approvals and summary notes, in order.
	verdicts []Verdict
	created  time.Time
}

type glVersion struct {
	id                int64
	base, start, head string
	files             []patchFile
	created           time.Time
}

type glDiscussion struct {
	id         string
	individual bool
	notes      []*glNote
}

type glNote struct {
	id       int64
	author   string
	body     string
	system   bool
	resolved bool
	// resolvedBy and resolvedAt say who resolved the note's discussion.
	resolvedBy string
	resolvedAt time.Time
	position   *glPosition
	created    time.Time
}

type glDraft struct {
	id       int64
	author   string
	note     string
	replyTo  string
	position *glPosition
	created  time.Time
}

// Users of every fake GitLab, as on the fake GitHub.
const (
	GitLabReviewer = "reviewer"
	GitLabAuthor   = "author"
	glReviewerTok  = "glpat-fakeReviewerToken000"
	glAuthorTok    = "glpat-fakeAuthorToken00000"
)

var glUserIDs = map[string]int64{GitLabReviewer: 11, GitLabAuthor: 12}

// NewGitLab starts a fake GitLab that lives until the test ends.
func NewGitLab(t testing.TB, opts GitLabOptions) *GitLab {
	t.Helper()
	if opts.Now == nil {
		opts.Now = time.Now
	}
	g := &GitLab{t: t, opts: opts, nextID: 5000, mrs: map[string]*glMR{}}
	g.srv = httptest.NewServer(g)
	t.Cleanup(g.srv.Close)
	t.Cleanup(func() {
		t.Helper()
		for _, v := range g.Violations() {
			t.Errorf("fake GitLab: %s", v)
		}
	})
	return g
}

// Kind is forge.KindGitLab.
func (g *GitLab) Kind() forge.Kind { return forge.KindGitLab }

// URL is the API base URL to give a client: the server's /api/v4.
func (g *GitLab) URL() string { return g.srv.URL + "/api/v4" }

// Token is the reviewer's token.
func (g *GitLab) Token() string { return glReviewerTok }

// AuthorToken is the token of the author of seeded changes and threads.
func (g *GitLab) AuthorToken() string { return glAuthorTok }

// Client is an HTTP client for the fake.
func (g *GitLab) Client() *http.Client { return g.srv.Client() }

// Inject plans faults; see Fault.
func (g *GitLab) Inject(fs ...Fault) { g.faults.add(fs...) }

// Fired lists the faults that have happened.
func (g *GitLab) Fired() []Fault { return g.faults.firedFaults() }

// Requests lists "METHOD /path?query" of every request received.
func (g *GitLab) Requests() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.log...)
}

// Violations lists what the fake refused as malformed so far.
func (g *GitLab) Violations() []string {
	g.vmu.Lock()
	defer g.vmu.Unlock()
	return append([]string(nil), g.violations...)
}

// TakeViolations returns the violations so far and forgets them.
func (g *GitLab) TakeViolations() []string {
	g.vmu.Lock()
	defer g.vmu.Unlock()
	v := g.violations
	g.violations = nil
	return v
}

func (g *GitLab) violation(format string, args ...any) {
	g.vmu.Lock()
	defer g.vmu.Unlock()
	g.violations = append(g.violations, fmt.Sprintf(format, args...))
}

// glCall is one request on its way through an endpoint.
type glCall struct {
	r      *http.Request
	user   string
	parts  []string // unescaped path segments after the MR: "discussions", "<id>", "notes"
	mr     *glMR
	body   []byte
	status int
	out    any
	header http.Header
}

func (c *glCall) answer(status int, body any) { c.status, c.out = status, body }

func glMsg(status int) obj {
	return obj{"message": fmt.Sprintf("%d %s", status, http.StatusText(status))}
}

// ServeHTTP authenticates, plays any planned fault, routes and answers.
func (g *GitLab) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.log = append(g.log, r.Method+" "+r.URL.RequestURI())
	g.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { g.serve(w, r, body) })
	f, ok := g.faults.next(r)
	var err error
	switch {
	case !ok:
		serve(w, r)
	case f.Kind == FaultDropBeforeCommit:
		err = dropConnection(w)
	case f.Kind.commits():
		err = commitThenFail(w, r, serve, f, func(w http.ResponseWriter) { g.faultAnswer(w, f) })
	default:
		g.faultAnswer(w, f)
	}
	if err != nil {
		g.violation("fault %s: %v", f, err)
	}
}

func (g *GitLab) faultAnswer(w http.ResponseWriter, f Fault) {
	h := http.Header{}
	secs := strconv.Itoa(int(f.RetryAfter.Round(time.Second) / time.Second))
	switch f.Kind {
	case FaultRateLimit, FaultSecondaryLimit403:
		h.Set("Retry-After", secs)
		writeJSON(w, http.StatusTooManyRequests, h, obj{"message": "Retry later"})
	case FaultPrimaryLimit:
		h.Set("RateLimit-Limit", "600")
		h.Set("RateLimit-Remaining", "0")
		h.Set("RateLimit-Reset", strconv.FormatInt(g.opts.Now().Add(f.RetryAfter).Unix(), 10))
		writeJSON(w, http.StatusTooManyRequests, h, obj{"message": "Retry later"})
	default:
		writeJSON(w, http.StatusInternalServerError, nil, glMsg(500))
	}
}

func (g *GitLab) serve(w http.ResponseWriter, r *http.Request, body []byte) {
	user, ok := g.authenticate(r)
	if !ok {
		writeJSON(w, http.StatusUnauthorized, nil, glMsg(401))
		return
	}
	segs, err := pathSegments(r.URL.EscapedPath())
	if err != nil || len(segs) < 2 || segs[0] != "api" || segs[1] != "v4" {
		g.violation("%s %s is not a GitLab API v4 path", r.Method, r.URL.Path)
		writeJSON(w, http.StatusNotFound, nil, glMsg(404))
		return
	}
	segs = segs[2:]
	c := &glCall{r: r, user: user, body: body, header: http.Header{}}
	g.route(c, segs)
	if c.status == 0 {
		g.violation("%s %s matches no endpoint the fake knows", r.Method, r.URL.Path)
		c.answer(http.StatusNotFound, obj{"error": "404 Not Found"})
	}
	if c.status == http.StatusNoContent {
		for k, v := range c.header {
			w.Header()[k] = v
		}
		w.WriteHeader(c.status)
		return
	}
	writeJSON(w, c.status, c.header, c.out)
}

// pathSegments splits an escaped path and unescapes each segment, so a
// project path sent as "group%2Fsub%2Fproject" stays one segment.
func pathSegments(escaped string) ([]string, error) {
	raw := strings.Split(strings.Trim(escaped, "/"), "/")
	out := make([]string, len(raw))
	for i, s := range raw {
		u, err := url.PathUnescape(s)
		if err != nil {
			return nil, err
		}
		out[i] = u
	}
	return out, nil
}

func (g *GitLab) authenticate(r *http.Request) (string, bool) {
	switch tok := r.Header.Get("PRIVATE-TOKEN"); tok {
	case glReviewerTok:
		return GitLabReviewer, true
	case glAuthorTok:
		return GitLabAuthor, true
	}
	return "", false
}

// decode reads a JSON body strictly into v; a field the endpoint does not
// take is a violation, as GitLab's API would ignore it silently and the
// client would believe it had been used.
func (g *GitLab) decode(c *glCall, v any) bool {
	if ct := c.r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		g.violation("%s %s sends Content-Type %q, want application/json", c.r.Method, c.r.URL.Path, ct)
		c.answer(http.StatusBadRequest, obj{"error": "body is not JSON"})
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(c.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		g.violation("%s %s body %s: %v", c.r.Method, c.r.URL.Path, c.body, err)
		c.answer(http.StatusBadRequest, obj{"error": err.Error()})
		return false
	}
	return true
}

// glPaginate cuts items to the page asked for and sets GitLab's paging
// headers (X-Next-Page empty on the last page).
func glPaginate[T any](c *glCall, items []T) []T {
	q := c.r.URL.Query()
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 {
		per = 20
	}
	per = min(per, 100)
	page := max(atoiOr(q.Get("page"), 1), 1)
	total := max((len(items)+per-1)/per, 1)
	next, prev := "", ""
	if page < total {
		next = strconv.Itoa(page + 1)
	}
	if page > 1 {
		prev = strconv.Itoa(page - 1)
	}
	for k, v := range map[string]string{"X-Page": strconv.Itoa(page), "X-Per-Page": strconv.Itoa(per), "X-Next-Page": next,
		"X-Prev-Page": prev, "X-Total": strconv.Itoa(len(items)), "X-Total-Pages": strconv.Itoa(total)} {
		c.header.Set(k, v)
	}
	lo := min((page-1)*per, len(items))
	return items[lo:min(lo+per, len(items))]
}

func atoiOr(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

func mrKey(project string, iid int) string { return project + "!" + strconv.Itoa(iid) }

func (g *GitLab) newID() int64 {
	g.nextID++
	return g.nextID
}
