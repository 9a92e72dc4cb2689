package forgetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/leanreview/leanreview/internal/forge"
)

// GitHub is a stateful fake of GitHub's REST API for pull request reviews.
// Every request it receives and every answer it gives is checked against
// GitHub's official OpenAPI description (testdata/pulls-review-subset.json);
// a violation answers 400 (request) or 500 (answer) and fails the test at
// cleanup. On top of the schema it enforces the rules the schema does not
// express, answering with GitHub's real error bodies where they are known
// (see testdata/README.md). It also serves the GraphQL query that reads
// review threads' resolved state (see github_graphql.go). Safe for
// concurrent use.
type GitHub struct {
	t         testing.TB
	spec      *specRouter
	gqlSchema *ast.Schema
	srv       *httptest.Server
	opts      GitHubOptions
	faults    faultPlan

	// umu guards users, so JSON builders can run under mu.
	umu   sync.Mutex
	users map[string]int64 // login -> id

	mu         sync.Mutex
	tokens     map[string]string // token -> login
	pulls      map[string]*ghPull
	nextID     int64
	remaining  int
	violations []string
	log        []string
}

// GitHubOptions tunes the fake; the zero value is GitHub's behaviour.
type GitHubOptions struct {
	// Now is the fake's clock (timestamps, rate-limit resets); nil means
	// time.Now.
	Now func() time.Time
	// MaxDiffFiles and MaxDiffLines are where the .diff media type answers
	// 406 too_large; 0 means GitHub's 300 files and 20,000 lines.
	MaxDiffFiles int
	MaxDiffLines int
	// MaxFilePatch is the size in bytes past which the files endpoint
	// leaves a file's patch out; 0 means never.
	MaxFilePatch int
	// Enterprise shapes the fake as GitHub Enterprise Server: the REST root
	// is /api/v3/ and GraphQL is served at /api/graphql instead of /graphql.
	Enterprise bool
	// GraphQLStatus, when not 0, is the HTTP status every GraphQL request
	// answers with a basic-error body: 404 or 410 stand for a host without
	// the GraphQL API.
	GraphQLStatus int
	// GraphQLMissingFields lists "Type.field" entries left out of the
	// GraphQL schema, as on an older GitHub Enterprise: a query selecting
	// one is refused with GitHub's undefinedField error, which is then no
	// violation.
	GraphQLMissingFields []string
}

type ghPull struct {
	repo          string
	number        int
	title, author string
	closed        bool
	merged, draft bool
	base, head    string
	heads         []string
	patch         string
	files         []patchFile
	comments      []*ghComment
	reviews       []*ghReview
	issueComments []*ghIssueComment
	created       time.Time
}

type ghComment struct {
	id, reviewID, inReplyTo int64
	user, path, body        string
	side, startSide         string
	line, startLine         int
	position                int
	commitID                string
	originalCommitID        string
	diffHunk                string
	outdated                bool
	// resolved is the thread's state, kept on its root comment.
	resolved bool
	created  time.Time
}

type ghReview struct {
	id                          int64
	user, state, body, commitID string
	submitted                   time.Time
}

type ghIssueComment struct {
	id         int64
	user, body string
	created    time.Time
}

// Users of every fake GitHub: the reviewer whose token Token returns, and
// the author of seeded pull requests and threads.
const (
	GitHubReviewer = "reviewer"
	GitHubAuthor   = "author"
	ghReviewerTok  = "ghp_fakeReviewerToken0000000000000000"
	ghAuthorTok    = "ghp_fakeAuthorToken00000000000000000000"
)

// NewGitHub starts a fake GitHub that lives until the test ends, and fails
// the test at cleanup if any request or answer violated the spec.
func NewGitHub(t testing.TB, opts GitHubOptions) *GitHub {
	t.Helper()
	spec, err := loadGitHubSpec()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := graphQLSchema(opts.GraphQLMissingFields)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxDiffFiles == 0 {
		opts.MaxDiffFiles = 300
	}
	if opts.MaxDiffLines == 0 {
		opts.MaxDiffLines = 20000
	}
	g := &GitHub{t: t, spec: spec, gqlSchema: schema, opts: opts, nextID: 1000, remaining: 5000,
		users:  map[string]int64{GitHubReviewer: 101, GitHubAuthor: 102},
		tokens: map[string]string{ghReviewerTok: GitHubReviewer, ghAuthorTok: GitHubAuthor},
		pulls:  map[string]*ghPull{}}
	g.srv = httptest.NewServer(g)
	t.Cleanup(g.srv.Close)
	t.Cleanup(g.checkViolations)
	return g
}

// Kind is forge.KindGitHub.
func (g *GitHub) Kind() forge.Kind { return forge.KindGitHub }

// URL is the API base URL to give a client, with its trailing slash:
// the server's root, or its /api/v3/ when Enterprise.
func (g *GitHub) URL() string { return g.srv.URL + g.restRoot() }

func (g *GitHub) restRoot() string {
	if g.opts.Enterprise {
		return "/api/v3/"
	}
	return "/"
}

// Token is the reviewer's token.
func (g *GitHub) Token() string { return ghReviewerTok }

// Client is an HTTP client for the fake.
func (g *GitHub) Client() *http.Client { return g.srv.Client() }

// Inject plans faults; see Fault.
func (g *GitHub) Inject(fs ...Fault) { g.faults.add(fs...) }

// Fired lists the faults that have happened, in order.
func (g *GitHub) Fired() []Fault { return g.faults.firedFaults() }

// Requests lists "METHOD /path?query" of every request received, in order.
func (g *GitHub) Requests() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.log...)
}

// Violations lists the spec violations seen so far.
func (g *GitHub) Violations() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.violations...)
}

// TakeViolations returns the violations seen so far and forgets them, for
// a test that provokes one on purpose.
func (g *GitHub) TakeViolations() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	v := g.violations
	g.violations = nil
	return v
}

func (g *GitHub) checkViolations() {
	g.t.Helper()
	for _, v := range g.Violations() {
		g.t.Errorf("fake GitHub: %s", v)
	}
}

func (g *GitHub) violation(format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.violations = append(g.violations, fmt.Sprintf(format, args...))
}

// ServeHTTP checks the request, plays any planned fault, serves the
// operation and checks the answer before sending it. GraphQL requests go
// to serveGraphQL.
func (g *GitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.log = append(g.log, r.Method+" "+r.URL.RequestURI())
	g.mu.Unlock()
	if r.URL.Path == g.graphQLPath() {
		g.serveGraphQL(w, r)
		return
	}
	checked, err := g.validateREST(r)
	if err != nil {
		g.violation("%s", shortErr(err))
		writeJSON(w, http.StatusBadRequest, nil, ghErr(400, "fake GitHub: request violates the OpenAPI description", ""))
		return
	}
	serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { g.serveChecked(w, r, checked) })
	f, ok := g.faults.next(r)
	switch {
	case !ok:
		serve(w, r)
	case f.Kind == FaultDropBeforeCommit:
		_ = dropConnection(w)
	case f.Kind.commits():
		err = commitThenFail(w, r, serve, f, func(w http.ResponseWriter) { g.faultAnswer(w, checked, f) })
	default:
		g.faultAnswer(w, checked, f)
	}
	if err != nil {
		g.violation("fault %s: %v", f, err)
	}
}

// validateREST checks r against the OpenAPI description, with the path
// taken relative to the REST root; r itself keeps its path, so the Link
// headers built from it stay true.
func (g *GitHub) validateREST(r *http.Request) (*checkedRequest, error) {
	root := g.restRoot()
	if root == "/" {
		return g.spec.validateRequest(r)
	}
	if !strings.HasPrefix(r.URL.Path, root) {
		return nil, fmt.Errorf("%s %s is outside the REST root %s", r.Method, r.URL.Path, root)
	}
	rel := r.Clone(r.Context())
	rel.URL.Path = "/" + strings.TrimPrefix(r.URL.Path, root)
	rel.URL.RawPath = ""
	checked, err := g.spec.validateRequest(rel)
	r.Body = rel.Body
	return checked, err
}

// answer validates and writes one answer; an answer that violates the
// spec is recorded and replaced by a 500.
func (g *GitHub) answer(w http.ResponseWriter, checked *checkedRequest, status int, h http.Header, body any, raw bool) {
	var data []byte
	if raw {
		data = body.([]byte)
	} else {
		var err error
		if data, err = json.Marshal(body); err != nil {
			panic(fmt.Sprintf("fake GitHub: encode answer: %v", err))
		}
		h.Set("Content-Type", "application/json; charset=utf-8")
	}
	if err := g.spec.validateResponse(checked, status, h, data, raw); err != nil {
		g.violation("%s", shortErr(err))
		writeJSON(w, http.StatusInternalServerError, nil, ghErr(500, "fake GitHub: answer violates the OpenAPI description", ""))
		return
	}
	for k, v := range h {
		w.Header()[k] = v
	}
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

func writeJSON(w http.ResponseWriter, status int, h http.Header, body any) {
	for k, v := range h {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// ghCall is one checked request on its way through an operation.
type ghCall struct {
	r      *http.Request
	user   string
	params map[string]string
	body   []byte
}

// ghAnswer is what an operation answers.
type ghAnswer struct {
	status int
	body   any
	header http.Header
	raw    bool
}

func (g *GitHub) serveChecked(w http.ResponseWriter, r *http.Request, checked *checkedRequest) {
	h := g.rateHeaders()
	user, ok := g.authenticate(r)
	if !ok {
		g.answer(w, checked, http.StatusUnauthorized, h, ghErr(401, "Bad credentials", "https://docs.github.com/rest"), false)
		return
	}
	c := &ghCall{r: r, user: user, params: checked.input.PathParams, body: checked.body}
	a := g.operate(checked.input.Route.Operation.OperationID, c)
	for k, v := range a.header {
		h[k] = v
	}
	g.answer(w, checked, a.status, h, a.body, a.raw)
}

func (g *GitHub) authenticate(r *http.Request) (string, bool) {
	auth := r.Header.Get("Authorization")
	tok := strings.TrimPrefix(strings.TrimPrefix(auth, "Bearer "), "token ")
	g.mu.Lock()
	defer g.mu.Unlock()
	login, ok := g.tokens[tok]
	return login, ok && auth != ""
}

func (g *GitHub) userJSON(login string) obj {
	g.umu.Lock()
	defer g.umu.Unlock()
	id, ok := g.users[login]
	if !ok {
		id = int64(200 + len(g.users))
		g.users[login] = id
	}
	return ghUserJSON(login, id)
}

// newID hands out ids; the caller holds g.mu.
func (g *GitHub) newID() int64 {
	g.nextID++
	return g.nextID
}

// paginate cuts items to the page asked for and sets GitHub's Link header.
func paginate[T any](r *http.Request, items []T, h http.Header) []T {
	q := r.URL.Query()
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 {
		per = 30
	}
	per = min(per, 100)
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	last := max((len(items)+per-1)/per, 1)
	link := func(p int, rel string) string {
		q.Set("page", strconv.Itoa(p))
		q.Set("per_page", strconv.Itoa(per))
		return fmt.Sprintf(`<http://%s%s?%s>; rel="%s"`, r.Host, r.URL.Path, q.Encode(), rel)
	}
	var links []string
	if page < last {
		links = append(links, link(page+1, "next"), link(last, "last"))
	}
	if page > 1 {
		links = append(links, link(1, "first"), link(page-1, "prev"))
	}
	if len(links) > 0 {
		h.Set("Link", strings.Join(links, ", "))
	}
	lo := min((page-1)*per, len(items))
	hi := min(lo+per, len(items))
	return items[lo:hi]
}
