// Package gitlab is the forge.Forge adapter for GitLab (gitlab.com and
// self-managed), on GitLab's official client-go. client-go's own retries and
// rate limiter are off: they sleep on the wall clock, and every call here
// goes through forgehttp's bounded retries and the injected sleeper.
package gitlab

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgehttp"
)

// Options configure a Client. Token is required; the rest default.
type Options struct {
	// BaseURL is the API root: "" for https://gitlab.com/api/v4, or a
	// self-managed one such as "https://gitlab.example.com/api/v4".
	BaseURL string
	Token   string
	// HTTPClient defaults to a client with a 60 s timeout.
	HTTPClient *http.Client
	// Sleeper waits between retries; nil sleeps for real.
	Sleeper forge.Sleeper
	// Now is the clock rate-limit resets are measured against.
	Now   func() time.Time
	Retry forge.RetryPolicy
}

// Client talks to one GitLab host. Safe for concurrent use.
type Client struct {
	gl     *gl.Client
	caller forgehttp.Caller

	mu       sync.Mutex
	username string // the token's user, once known
}

var _ forge.Forge = (*Client)(nil)

// noLimit is a rate limiter that never waits: forgehttp does the waiting.
type noLimit struct{}

func (noLimit) Wait(context.Context) error { return nil }

// New builds a Client. It sends nothing until a method is called.
func New(opts Options) (*Client, error) {
	if opts.Token == "" {
		return nil, &forge.HostError{Kind: forge.KindGitLab, Op: "connect", Status: 401, Class: forge.ErrUnauthorized, Reason: "no token"}
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	glOpts := []gl.ClientOptionFunc{gl.WithHTTPClient(hc), gl.WithoutRetries(), gl.WithCustomLimiter(noLimit{}), gl.WithUserAgent("leanreview")}
	if opts.BaseURL != "" {
		glOpts = append(glOpts, gl.WithBaseURL(opts.BaseURL))
	}
	c, err := gl.NewClient(opts.Token, glOpts...)
	if err != nil {
		return nil, fmt.Errorf("gitlab client: %w", err)
	}
	return &Client{gl: c, caller: forgehttp.Caller{Kind: forge.KindGitLab, Policy: opts.Retry, Sleep: opts.Sleeper, Now: opts.Now}}, nil
}

// try turns a client-go result into a forgehttp.Try with GitLab's reason.
func try(resp *gl.Response, err error) forgehttp.Try {
	t := forgehttp.Try{Err: err}
	if resp != nil {
		t.Resp = resp.Response
	}
	var er *gl.ErrorResponse
	if errors.As(err, &er) {
		t.Reason = strings.Trim(er.Message, "{}")
		t.Reason = strings.TrimPrefix(t.Reason, "message: ")
	}
	if t.Resp != nil && t.Resp.StatusCode < 300 {
		// A 2xx whose body did not decode is not a host refusal.
		t.Resp = nil
	}
	return t
}

func (c *Client) read(ctx context.Context, op string, f func(opt gl.RequestOptionFunc) (*gl.Response, error)) error {
	return c.caller.Call(ctx, op, func(ctx context.Context) forgehttp.Try { return try(f(gl.WithContext(ctx))) }, nil)
}

func (c *Client) write(ctx context.Context, op string, f func(opt gl.RequestOptionFunc) (*gl.Response, error), present func(context.Context) (bool, error)) error {
	return c.caller.Call(ctx, op, func(ctx context.Context) forgehttp.Try { return try(f(gl.WithContext(ctx))) }, present)
}

// me returns the token's username, asking GitLab once.
func (c *Client) me(ctx context.Context) (string, error) {
	c.mu.Lock()
	name := c.username
	c.mu.Unlock()
	if name != "" {
		return name, nil
	}
	var u *gl.User
	err := c.read(ctx, "read the token's user", func(opt gl.RequestOptionFunc) (resp *gl.Response, err error) {
		u, resp, err = c.gl.Users.CurrentUser(opt)
		return resp, err
	})
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	c.username = u.Username
	c.mu.Unlock()
	return u.Username, nil
}

func subject(ref forge.Ref) string { return fmt.Sprintf("%s!%d", ref.Repo, ref.Number) }

// listAll reads every page of a list, 100 at a time, following
// X-Next-Page.
func listAll[T any](ctx context.Context, c *Client, op string, page func(lo gl.ListOptions, opt gl.RequestOptionFunc) ([]T, *gl.Response, error)) ([]T, error) {
	var all []T
	lo := gl.ListOptions{PerPage: 100, Page: 1}
	for {
		var items []T
		var next int64
		err := c.read(ctx, fmt.Sprintf("%s (page %d)", op, lo.Page), func(opt gl.RequestOptionFunc) (*gl.Response, error) {
			got, resp, err := page(lo, opt)
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
		lo.Page = next
	}
}
