package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgehttp"
)

// GitHub's REST API does not say whether a review thread is resolved; only
// GraphQL does. Threads reads that from the query below, one page of 100
// threads at a time, and matches each thread to its REST thread by the id
// of its first comment.
//
// Ids: fullDatabaseId (a BigInt, sent as a string) is asked first, since
// databaseId is a 32-bit Int that GitHub has deprecated for ids past its
// range. A host whose schema lacks fullDatabaseId (an older GitHub
// Enterprise) is asked for databaseId instead.
//
// A host without GraphQL (its endpoint answers 404 or 410), or whose schema
// lacks the fields asked for, degrades: every thread reads as unresolved,
// Threads reports no error, and the Client stops asking. Any other failure
// (token, rate limit, outage after the retries, an error GitHub names) is
// an error of Threads, like a failure of its REST reads.

// threadStatesQuery reads one page of up to 100 review threads: resolved
// and outdated state, and the id of the first comment by the field that
// replaces %s (see idField).
const threadStatesQuery = `query LeanreviewReviewThreads($owner: String!, $name: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $cursor) {
        pageInfo { hasNextPage endCursor }
        nodes { isResolved isOutdated comments(first: 1) { nodes { %s } } }
      }
    }
  }
}`

// idField is the comment id field threadStatesQuery selects.
type idField uint8

const (
	idFull   idField = iota // fullDatabaseId
	idLegacy                // databaseId
	// idNone: the host cannot say whether a thread is resolved.
	idNone
)

func (f idField) String() string {
	switch f {
	case idFull:
		return "fullDatabaseId"
	case idLegacy:
		return "databaseId"
	}
	return "none"
}

// threadState is what GraphQL says of one review thread. outdated is nil
// when the answer left isOutdated out.
type threadState struct {
	resolved bool
	outdated *bool
}

// errNoGraphQL says the host answered 404 or 410 at its GraphQL endpoint.
var errNoGraphQL = errors.New("no graphql api")

// undefinedFieldError is GitHub's refusal of a field its schema lacks.
type undefinedFieldError struct{ typeName, field string }

func (e *undefinedFieldError) Error() string {
	return fmt.Sprintf("GitHub's GraphQL schema has no %s.%s", e.typeName, e.field)
}

// threadStates reads the resolved state of every review thread of ref,
// keyed by the id of the thread's first comment. It returns nil, nil when
// the host cannot tell (see the comment at the top of this file).
func (c *Client) threadStates(ctx context.Context, ref forge.Ref) (map[string]threadState, error) {
	for {
		c.mu.Lock()
		field := c.idField
		c.mu.Unlock()
		if field == idNone {
			return nil, nil
		}
		states, err := c.readThreadStates(ctx, ref, field)
		var uf *undefinedFieldError
		switch {
		case err == nil:
			return states, nil
		case errors.As(err, &uf) && field == idFull && uf.field == idFull.String():
			c.setIDField(idLegacy)
		case errors.As(err, &uf), errors.Is(err, errNoGraphQL):
			c.setIDField(idNone)
			return nil, nil
		default:
			return nil, err
		}
	}
}

func (c *Client) setIDField(f idField) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.idField = f
}

// threadPage is the data of one answer to threadStatesQuery.
type threadPage struct {
	Repository *struct {
		PullRequest *struct {
			ReviewThreads struct {
				PageInfo struct {
					HasNextPage bool    `json:"hasNextPage"`
					EndCursor   *string `json:"endCursor"`
				} `json:"pageInfo"`
				Nodes []*struct {
					IsResolved bool  `json:"isResolved"`
					IsOutdated *bool `json:"isOutdated"`
					Comments   struct {
						Nodes []*struct {
							FullDatabaseID *string `json:"fullDatabaseId"`
							DatabaseID     *int64  `json:"databaseId"`
						} `json:"nodes"`
					} `json:"comments"`
				} `json:"nodes"`
			} `json:"reviewThreads"`
		} `json:"pullRequest"`
	} `json:"repository"`
}

// readThreadStates reads every page of threadStatesQuery with the comment
// id asked by field.
func (c *Client) readThreadStates(ctx context.Context, ref forge.Ref, field idField) (map[string]threadState, error) {
	states := map[string]threadState{}
	vars := map[string]any{"owner": ref.Owner(), "name": ref.Name(), "number": ref.Number, "cursor": nil}
	query := fmt.Sprintf(threadStatesQuery, field)
	for page := 1; ; page++ {
		op := fmt.Sprintf("read the resolved state of the review threads of %s (page %d)", subject(ref), page)
		var data threadPage
		if err := c.graphQL(ctx, op, query, vars, &data); err != nil {
			return nil, err
		}
		if data.Repository == nil || data.Repository.PullRequest == nil {
			return nil, &forge.HostError{Kind: forge.KindGitHub, Op: op, Status: http.StatusOK, Class: forge.ErrNotFound,
				Reason: "GitHub's GraphQL API returned no pull request"}
		}
		threads := data.Repository.PullRequest.ReviewThreads
		for _, n := range threads.Nodes {
			if n == nil || len(n.Comments.Nodes) == 0 || n.Comments.Nodes[0] == nil {
				continue
			}
			first := n.Comments.Nodes[0]
			id := first.FullDatabaseID
			if first.DatabaseID != nil {
				id = new(strconv.FormatInt(*first.DatabaseID, 10))
			}
			if id != nil {
				states[*id] = threadState{resolved: n.IsResolved, outdated: n.IsOutdated}
			}
		}
		end := threads.PageInfo.EndCursor
		if !threads.PageInfo.HasNextPage {
			return states, nil
		}
		if end == nil || *end == "" || *end == vars["cursor"] {
			return nil, &forge.HostError{Kind: forge.KindGitHub, Op: op, Status: http.StatusOK, Class: forge.ErrUnavailable,
				Reason: "GitHub said more pages follow but named no cursor past this one"}
		}
		vars["cursor"] = *end
	}
}

// gqlAnswer is a GraphQL answer: data, and errors when anything failed.
type gqlAnswer struct {
	Data   json.RawMessage `json:"data"`
	Errors []gqlError      `json:"errors"`
}

// gqlError is one entry of an answer's errors: GitHub's type (NOT_FOUND,
// FORBIDDEN...) for a query that failed while running, graphql-ruby's
// extensions for one that did not validate.
type gqlError struct {
	Type       string `json:"type"`
	Message    string `json:"message"`
	Extensions struct {
		Code      string `json:"code"`
		TypeName  string `json:"typeName"`
		FieldName string `json:"fieldName"`
	} `json:"extensions"`
}

// graphQL posts one query to the host's GraphQL endpoint through go-github
// (same transport, token and user agent as the REST calls) and forgehttp's
// retries, and decodes the answer's data into out. It returns errNoGraphQL
// or an *undefinedFieldError when the host cannot answer the query at all,
// else nil or a *forge.HostError.
func (c *Client) graphQL(ctx context.Context, op, query string, vars map[string]any, out any) error {
	var absent error
	err := c.caller.Call(ctx, op, func(ctx context.Context) forgehttp.Try {
		absent = nil
		req, err := c.gh.NewRequest(ctx, http.MethodPost, c.graphqlURL, map[string]any{"query": query, "variables": vars})
		if err != nil {
			return forgehttp.Try{Err: err}
		}
		// go-github authorizes only its own origins; a GraphQLURL elsewhere
		// was chosen by the caller and gets the token too.
		req.Header.Set("Authorization", "Bearer "+c.token)
		var ans gqlAnswer
		resp, err := c.gh.Do(req, &ans)
		if resp != nil && (resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone) {
			absent = errNoGraphQL
			return forgehttp.Try{}
		}
		if err != nil {
			return try(resp, err)
		}
		if len(ans.Errors) > 0 {
			if uf := undefined(ans.Errors); uf != nil {
				absent = uf
				return forgehttp.Try{}
			}
			return graphQLFailure(resp.Response, ans.Errors)
		}
		if err := json.Unmarshal(ans.Data, out); err != nil {
			return forgehttp.Try{Err: fmt.Errorf("decode the graphql answer: %w", err)}
		}
		return forgehttp.Try{}
	}, nil)
	if err != nil {
		return err
	}
	return absent
}

var fieldMissing = regexp.MustCompile(`^Field '(\w+)' doesn't exist on type '(\w+)'`)

// undefined finds GitHub's refusal of an unknown field among errs.
func undefined(errs []gqlError) *undefinedFieldError {
	for _, e := range errs {
		if e.Extensions.Code == "undefinedField" {
			return &undefinedFieldError{typeName: e.Extensions.TypeName, field: e.Extensions.FieldName}
		}
		if m := fieldMissing.FindStringSubmatch(e.Message); m != nil {
			return &undefinedFieldError{typeName: m[2], field: m[1]}
		}
	}
	return nil
}

// graphQLFailure explains an answer whose errors array says the query
// failed. GitHub answers those with HTTP 200, and forgehttp classifies by
// status, so the try carries the status GitHub's REST API gives the same
// failure: NOT_FOUND 404, FORBIDDEN and INSUFFICIENT_SCOPES 403, a spent
// quota (RATE_LIMITED) 429 so it is waited out and retried, "Something went
// wrong" 502 so it is retried, anything else 422.
func graphQLFailure(resp *http.Response, errs []gqlError) forgehttp.Try {
	msgs := make([]string, 0, len(errs))
	for _, e := range errs {
		msgs = append(msgs, e.Message)
	}
	status := http.StatusUnprocessableEntity
	switch t := errs[0].Type; {
	case t == "NOT_FOUND":
		status = http.StatusNotFound
	case t == "FORBIDDEN" || t == "INSUFFICIENT_SCOPES":
		status = http.StatusForbidden
	case t == "RATE_LIMITED":
		status = http.StatusTooManyRequests
	case strings.HasPrefix(errs[0].Message, "Something went wrong"):
		status = http.StatusBadGateway
	}
	as := &http.Response{StatusCode: status, Header: resp.Header, Request: resp.Request}
	reason := strings.Join(msgs, "; ")
	return forgehttp.Try{Resp: as, Reason: reason, Err: errors.New(reason)}
}

// graphQLURL is the GraphQL endpoint beside the REST root base: GitHub
// Enterprise Server serves REST under /api/v3/ and GraphQL at /api/graphql;
// api.github.com, and any other root, serves it at /graphql below the root.
// An empty base is api.github.com.
func graphQLURL(base string) (string, error) {
	if base == "" {
		return "https://api.github.com/graphql", nil
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("parse the api url %q: %w", base, err)
	}
	if u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("api url %q is not absolute", base)
	}
	path := strings.TrimSuffix(u.Path, "/")
	if strings.HasSuffix(path, "/api/v3") {
		path = strings.TrimSuffix(path, "/v3")
	}
	u.Path, u.RawPath, u.RawQuery, u.Fragment = path+"/graphql", "", "", ""
	return u.String(), nil
}

// resolvedAndOutdated sets each line thread's Resolved, and its Outdated
// where GraphQL said, from states keyed by first comment id.
func resolvedAndOutdated(threads []forge.Thread, states map[string]threadState) {
	for i := range threads {
		t := &threads[i]
		if t.ReplyTo == "" || len(t.Comments) == 0 {
			continue
		}
		st, ok := states[t.Comments[0].ID]
		if !ok {
			continue
		}
		t.Resolved = st.resolved
		if st.outdated != nil {
			t.Outdated = *st.outdated
		}
	}
}
