package forgetest

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/leanreview/leanreview/internal/forge"
)

// The fake's GraphQL endpoint: POST /graphql beside the REST root, or
// /api/graphql on an Enterprise-shaped fake whose REST root is /api/v3/.
// Every request is parsed and validated against the schema subset in
// testdata/github-review-threads.graphql (not against the OpenAPI
// description, which does not cover GraphQL), then run over the fake's
// review threads. A request the schema refuses is answered the way GitHub
// answers it, HTTP 200 with an errors array, and recorded as a violation
// unless it names a field GitHubOptions.GraphQLMissingFields removed.

const ghDocsGraphQL = "https://docs.github.com/graphql"

func (g *GitHub) graphQLPath() string {
	if g.opts.Enterprise {
		return "/api/graphql"
	}
	return "/graphql"
}

// serveGraphQL plays any planned fault, then answers one GraphQL request. A
// GraphQL request is a POST and counts as one for Fault.Method.
func (g *GitHub) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		g.violation("read graphql request: %v", err)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { g.answerGraphQL(w, r, body) })
	f, ok := g.faults.next(r)
	switch {
	case !ok:
		serve(w, r)
	case f.Kind == FaultDropBeforeCommit:
		err = dropConnection(w)
	case f.Kind.commits():
		err = commitThenFail(w, r, serve, f, func(w http.ResponseWriter) {
			status, h, body := g.faultResponse(f)
			writeJSON(w, status, h, body)
		})
	default:
		status, h, body := g.faultResponse(f)
		writeJSON(w, status, h, body)
	}
	if err != nil {
		g.violation("fault %s: %v", f, err)
	}
}

func (g *GitHub) answerGraphQL(w http.ResponseWriter, r *http.Request, body []byte) {
	h := g.rateHeaders()
	h.Set("X-Ratelimit-Resource", "graphql")
	if r.Method != http.MethodPost {
		g.violation("%s %s: GitHub's GraphQL API takes POST only", r.Method, r.URL.Path)
		writeJSON(w, http.StatusNotFound, h, ghErr(404, "Not Found", ghDocsGraphQL))
		return
	}
	if s := g.opts.GraphQLStatus; s != 0 {
		writeJSON(w, s, h, ghErr(s, http.StatusText(s), ghDocsGraphQL))
		return
	}
	if _, ok := g.authenticate(r); !ok {
		writeJSON(w, http.StatusUnauthorized, h, ghErr(401, "Bad credentials", ghDocsGraphQL))
		return
	}
	req, bad := decodeGraphQL(body)
	if bad != nil {
		g.violation("graphql request %q: %s", body, bad.Message)
		writeJSON(w, http.StatusBadRequest, h, obj{"errors": []gqlError{*bad}})
		return
	}
	q, errs, removed := parseGraphQL(g.gqlSchema, req, g.opts.GraphQLMissingFields)
	if errs != nil {
		if !removed {
			g.violation("graphql request %s: %s", strings.Join(strings.Fields(string(body)), " "), errs[0].Message)
		}
		writeJSON(w, http.StatusOK, h, obj{"errors": errs})
		return
	}
	g.mu.Lock()
	x := &gqlExec{g: g, schema: g.gqlSchema, vars: q.vars}
	data := x.run(q.op)
	g.mu.Unlock()
	for _, v := range x.violations {
		g.violation("graphql request %s: %s", strings.Join(strings.Fields(string(body)), " "), v)
	}
	ans := obj{"data": data}
	if len(x.errs) > 0 {
		ans["errors"] = x.errs
	}
	writeJSON(w, http.StatusOK, h, ans)
}

// Resolve implements Host: the thread whose root comment id is thread is
// marked resolved, as someone would in GitHub's web page. REST does not
// show it; GraphQL's isResolved and isCollapsed do.
func (g *GitHub) Resolve(ref forge.Ref, thread string) {
	g.t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	p := g.pulls[pullKey(ref.Repo, ref.Number)]
	if p == nil {
		g.t.Fatalf("fake GitHub: resolve a thread on %s, which it does not hold", ref)
	}
	for _, c := range p.comments {
		if c.inReplyTo == 0 && strconv.FormatInt(c.id, 10) == thread {
			c.resolved = true
			return
		}
	}
	g.t.Fatalf("fake GitHub: resolve thread %s, which %s does not hold", thread, ref)
}

// gqlThreads lists a pull's review threads as GraphQL does: oldest first,
// each root with its replies, comments of pending reviews left out. The
// caller holds g.mu.
func (g *GitHub) gqlThreads(p *ghPull) []gqlNode {
	var out []gqlNode
	at := map[int64]*gqlThread{}
	for _, c := range p.comments {
		if g.pendingReview(p, c.reviewID) {
			continue
		}
		if c.inReplyTo == 0 {
			t := &gqlThread{root: c, comments: []gqlNode{c}}
			at[c.id] = t
			out = append(out, t)
		} else if t := at[c.inReplyTo]; t != nil {
			t.comments = append(t.comments, c)
		}
	}
	return out
}
