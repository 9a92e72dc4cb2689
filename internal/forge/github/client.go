// Package github is the forge.Forge adapter for GitHub and GitHub
// Enterprise, on go-github. Every call goes through forgehttp's bounded
// retries; go-github's own rate-limit bookkeeping is off, because it sleeps
// on the wall clock and this package waits through the injected sleeper.
package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	gh "github.com/google/go-github/v93/github"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgehttp"
)

// Options configure a Client. Token is required; the rest default.
type Options struct {
	// BaseURL is the REST API root: "" for api.github.com, or a GitHub
	// Enterprise root such as "https://ghe.example.com/api/v3/".
	BaseURL string
	// GraphQLURL is the GraphQL endpoint, which alone says whether a review
	// thread is resolved; "" derives it from BaseURL (see graphQLURL). The
	// token is sent there as to BaseURL.
	GraphQLURL string
	Token      string
	// HTTPClient defaults to a client with a 60 s timeout.
	HTTPClient *http.Client
	// Sleeper waits between retries; nil sleeps for real.
	Sleeper forge.Sleeper
	// Now is the clock rate-limit resets are measured against; nil is
	// time.Now.
	Now   func() time.Time
	Retry forge.RetryPolicy
}

// Client talks to one GitHub host. Safe for concurrent use.
type Client struct {
	gh         *gh.Client
	graphqlURL string
	token      string
	caller     forgehttp.Caller

	mu    sync.Mutex
	login string // the token's user, once known
	// idField is what the thread-state query asks a comment's id by; it
	// becomes idNone once the host proved unable to say (resolved.go).
	idField idField
}

var _ forge.Forge = (*Client)(nil)

// New builds a Client. It sends nothing until a method is called.
func New(opts Options) (*Client, error) {
	if opts.Token == "" {
		return nil, &forge.HostError{Kind: forge.KindGitHub, Op: "connect", Status: 401, Class: forge.ErrUnauthorized,
			Reason: "no token"}
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	ghOpts := []gh.ClientOptionsFunc{gh.WithHTTPClient(hc), gh.WithAuthToken(opts.Token), gh.WithDisableRateLimitCheck(),
		gh.WithUserAgent("leanreview")}
	if opts.BaseURL != "" {
		base := opts.BaseURL
		if !strings.HasSuffix(base, "/") {
			base += "/"
		}
		ghOpts = append(ghOpts, gh.WithURLs(&base, &base))
	}
	c, err := gh.NewClient(ghOpts...)
	if err != nil {
		return nil, fmt.Errorf("github client: %w", err)
	}
	gql := opts.GraphQLURL
	if gql == "" {
		gql, err = graphQLURL(opts.BaseURL)
	} else if u, perr := url.Parse(gql); perr != nil || u.Scheme == "" || u.Host == "" {
		err = fmt.Errorf("graphql url %q is not an absolute url", gql)
	}
	if err != nil {
		return nil, fmt.Errorf("github client: %w", err)
	}
	return &Client{gh: c, graphqlURL: gql, token: opts.Token, caller: forgehttp.Caller{Kind: forge.KindGitHub, Policy: opts.Retry, Sleep: opts.Sleeper, Now: opts.Now}}, nil
}

// try turns a go-github result into a forgehttp.Try, with GitHub's reason
// for a failure: its message and each of its errors.
func try(resp *gh.Response, err error) forgehttp.Try {
	t := forgehttp.Try{Err: err}
	if resp != nil {
		t.Resp = resp.Response
	}
	var er *gh.ErrorResponse
	var rl *gh.RateLimitError
	var ab *gh.AbuseRateLimitError
	switch {
	case errors.As(err, &er):
		t.Reason = reason(er)
	case errors.As(err, &rl):
		t.Reason = rl.Message
	case errors.As(err, &ab):
		t.Reason = ab.Message
	}
	if t.Resp != nil && t.Resp.StatusCode < 300 {
		// A 2xx whose body did not decode is not a host refusal.
		t.Resp = nil
	}
	return t
}

func reason(er *gh.ErrorResponse) string {
	parts := []string{er.Message}
	for _, e := range er.Errors {
		switch {
		case e.Message != "":
			parts = append(parts, e.Message)
		case e.Code != "":
			parts = append(parts, strings.TrimSpace(e.Resource+" "+e.Field+" "+e.Code))
		}
	}
	return strings.Join(parts, ": ")
}

// read runs a replayable call.
func (c *Client) read(ctx context.Context, op string, f func(context.Context) (*gh.Response, error)) error {
	return c.caller.Call(ctx, op, func(ctx context.Context) forgehttp.Try { return try(f(ctx)) }, nil)
}

// write runs a call that posts something; present says whether the host
// already holds it, and is asked after an uncertain failure.
func (c *Client) write(ctx context.Context, op string, f func(context.Context) (*gh.Response, error), present func(context.Context) (bool, error)) error {
	return c.caller.Call(ctx, op, func(ctx context.Context) forgehttp.Try { return try(f(ctx)) }, present)
}

// me returns the token's login, asking GitHub once.
func (c *Client) me(ctx context.Context) (string, error) {
	c.mu.Lock()
	login := c.login
	c.mu.Unlock()
	if login != "" {
		return login, nil
	}
	var u *gh.User
	err := c.read(ctx, "read the token's user", func(ctx context.Context) (resp *gh.Response, err error) {
		u, resp, err = c.gh.Users.Get(ctx, "")
		return resp, err
	})
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	c.login = u.GetLogin()
	c.mu.Unlock()
	return u.GetLogin(), nil
}

func subject(ref forge.Ref) string { return fmt.Sprintf("%s#%d", ref.Repo, ref.Number) }

// listAll reads every page of a list, 100 at a time.
func listAll[T any](ctx context.Context, c *Client, op string, page func(ctx context.Context, opt gh.ListOptions) ([]T, *gh.Response, error)) ([]T, error) {
	var all []T
	opt := gh.ListOptions{PerPage: 100, Page: 1}
	for {
		var items []T
		var next int
		err := c.read(ctx, fmt.Sprintf("%s (page %d)", op, opt.Page), func(ctx context.Context) (*gh.Response, error) {
			got, resp, err := page(ctx, opt)
			items = got
			if resp != nil {
				next = resp.NextPage
			}
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		if next == 0 {
			return all, nil
		}
		opt.Page = next
	}
}
