package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/leanreview/leanreview/internal/app"
)

// Client calls a daemon's API with its bearer token. It is safe for
// concurrent use.
type Client struct {
	base  string // "http://127.0.0.1:PORT", no trailing slash
	token string
	hc    *http.Client
}

// NewClient returns a client of the daemon at baseURL ("http://host:port")
// authenticating with token. A nil hc uses a client without a timeout
// (the event stream is long-lived; callers bound requests with their ctx).
func NewClient(baseURL, token string, hc *http.Client) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("daemon address %q: want http://host:port", baseURL)
	}
	if hc == nil {
		hc = &http.Client{}
	}
	return &Client{base: strings.TrimRight(u.Scheme+"://"+u.Host, "/"), token: token, hc: hc}, nil
}

// Open opens or joins the session for req's source and returns it as an
// app.Service.
func (c *Client) Open(ctx context.Context, req app.OpenRequest) (*Session, error) {
	var s SessionInfo
	body := OpenRequest{Args: req.Args, Dir: req.Dir, Staged: req.Staged, Base: req.Base}
	if body.Args == nil {
		body.Args = []string{}
	}
	if err := c.call(ctx, http.MethodPost, "/sessions", body, &s); err != nil {
		return nil, err
	}
	return c.Session(s.ID), nil
}

// Session returns the session with id without asking the daemon; a call on
// a session that is not open fails with app.ErrNotFound.
func (c *Client) Session(id string) *Session {
	return &Session{c: c, id: id, shared: &sessionCache{}}
}

// Sessions lists the daemon's open sessions.
func (c *Client) Sessions(ctx context.Context) ([]SessionInfo, error) {
	var l SessionList
	err := c.call(ctx, http.MethodGet, "/sessions", nil, &l)
	return l.Sessions, err
}

// call sends in (nil: no body) to path under Prefix and decodes the answer
// into out (nil: ignore it). An error answer is an *Error.
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	resp, err := c.send(ctx, method, path, in, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil || resp.StatusCode == http.StatusNoContent {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("%s %s: read the answer: %w", method, path, err)
	}
	return nil
}

// send makes the request and returns a 2xx or 304 response for the caller
// to close; anything else becomes an *Error.
func (c *Client) send(ctx context.Context, method, path string, in any, header http.Header) (*http.Response, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", method, path, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+Prefix+path, body)
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 == 2 || resp.StatusCode == http.StatusNotModified {
		return resp, nil
	}
	defer resp.Body.Close()
	e := &Error{Status: resp.StatusCode}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&e.ErrorBody); err != nil || e.Code == "" {
		e.Code, e.Message = CodeInternal, fmt.Sprintf("%s %s: %s", method, path, resp.Status)
	}
	return nil, e
}

// LoginURL asks the daemon for a one-time URL that logs a browser in to
// it (valid once, for five minutes).
func (c *Client) LoginURL(ctx context.Context) (string, error) {
	var out struct {
		URL string `json:"url"`
	}
	err := c.call(ctx, http.MethodPost, "/login-url", struct{}{}, &out)
	return out.URL, err
}
