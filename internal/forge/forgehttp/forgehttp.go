// Package forgehttp is the HTTP mechanics both forge adapters share:
// classifying a host's answer into a *forge.HostError, reading its
// rate-limit headers, and running a call with bounded retries through an
// injected sleeper, reconciling before a write is sent again.
//
// Why writes are special: a 5xx answer or a lost connection does not say
// whether the host acted. Re-sending a read is harmless; re-sending a
// write may post a duplicate. So a write is re-sent only after the caller's
// present check has looked at the host and not found it.
package forgehttp

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/leanreview/leanreview/internal/forge"
)

// Caller runs host calls for one adapter. The zero Policy means
// forge.DefaultRetry(); a nil Sleep means real sleeping; a nil Now means
// time.Now. A Caller is a value; copies share nothing mutable.
type Caller struct {
	Kind   forge.Kind
	Policy forge.RetryPolicy
	Sleep  forge.Sleeper
	Now    func() time.Time
}

// Try is what one attempt produced. Resp is nil when no answer arrived;
// Reason is the host's explanation of a failure in its own words; Err is
// nil on success.
type Try struct {
	Resp   *http.Response
	Reason string
	Err    error
}

// Call runs attempt until it succeeds or fails for good, and returns nil
// or a *forge.HostError (or ctx's error).
//
// present is nil for a read, which is simply tried again. For a write it
// reports whether the host already holds what the write sends; it runs
// after an uncertain failure and before the next try, and a true answer
// ends the call with success.
func (c Caller) Call(ctx context.Context, op string, attempt func(context.Context) Try, present func(context.Context) (bool, error)) error {
	p := c.Policy.OrDefault()
	for n := 1; ; n++ {
		t := attempt(ctx)
		if t.Err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		he := c.Classify(op, t)
		he.Attempts = n
		// Only a write can leave something behind on the host.
		he.Uncertain = he.Uncertain && present != nil
		if !retryable(he) || n >= p.Attempts {
			return he
		}
		wait := p.Backoff(n)
		if he.RetryAfter > 0 {
			if he.RetryAfter > p.MaxWait {
				return he
			}
			wait = max(wait, he.RetryAfter)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return err
		}
		if he.Uncertain && present != nil {
			found, err := present(ctx)
			if err != nil {
				return errors.Join(he, err)
			}
			if found {
				return nil
			}
		}
	}
}

func retryable(he *forge.HostError) bool {
	return he.Class == forge.ErrRateLimited || he.Class == forge.ErrUnavailable
}

func (c Caller) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep.Sleep(ctx, d)
	}
	return RealSleeper{}.Sleep(ctx, d)
}

func (c Caller) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Classify explains a failed try. A try without an answer is uncertain:
// the request may have reached the host before the connection died.
func (c Caller) Classify(op string, t Try) *forge.HostError {
	he := &forge.HostError{Kind: c.Kind, Op: op, Reason: t.Reason}
	if t.Resp == nil {
		he.Class, he.Uncertain, he.Err = forge.ErrUnavailable, true, t.Err
		return he
	}
	he.Status = t.Resp.StatusCode
	wait, limited := c.RateLimit(t.Resp)
	switch s := t.Resp.StatusCode; {
	case (s == http.StatusForbidden || s == http.StatusTooManyRequests) && limited:
		he.Class, he.RetryAfter = forge.ErrRateLimited, wait
	case s == http.StatusTooManyRequests:
		he.Class = forge.ErrRateLimited
	case s == http.StatusUnauthorized:
		he.Class = forge.ErrUnauthorized
	case s == http.StatusForbidden:
		he.Class = forge.ErrForbidden
	case s == http.StatusNotFound:
		he.Class = forge.ErrNotFound
	case s >= 500:
		he.Class, he.Uncertain = forge.ErrUnavailable, true
	default:
		he.Class = forge.ErrRejected
	}
	if he.Class != forge.ErrUnavailable {
		he.Err = nil
	} else if he.Reason == "" {
		he.Err = t.Err
	}
	return he
}

// RateLimit reads the wait a rate-limited answer names: Retry-After
// (seconds or an HTTP date), or an exhausted quota's reset time, GitHub's
// x-ratelimit-remaining/-reset or GitLab's RateLimit-Remaining/-Reset
// (Unix seconds). limited is false when the answer carries no such sign.
func (c Caller) RateLimit(resp *http.Response) (wait time.Duration, limited bool) {
	h := resp.Header
	if v := h.Get("Retry-After"); v != "" {
		if secs, err := strconv.Atoi(v); err == nil {
			return time.Duration(secs) * time.Second, true
		}
		if at, err := http.ParseTime(v); err == nil {
			return max(at.Sub(c.now()), 0), true
		}
	}
	for _, prefix := range []string{"X-Ratelimit-", "Ratelimit-"} {
		if h.Get(prefix+"Remaining") != "0" {
			continue
		}
		if reset, err := strconv.ParseInt(h.Get(prefix+"Reset"), 10, 64); err == nil {
			return max(time.Unix(reset, 0).Sub(c.now()), time.Second), true
		}
		return 0, true
	}
	return 0, false
}

// RealSleeper sleeps on a timer, returning early with ctx's error.
type RealSleeper struct{}

// Sleep implements forge.Sleeper.
func (RealSleeper) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
