package mcp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/session"
)

// toolError is err as the agent reads it: a one-word class the agent can
// branch on, then the message, which already says what to do. The SDK
// returns it as a tool result with isError set, not as a protocol error, so
// the model sees it and can correct itself.
type toolError struct {
	class string
	msg   string
	err   error
}

func (e *toolError) Error() string { return e.class + ": " + e.msg }
func (e *toolError) Unwrap() error { return e.err }

// translate classifies err for the agent, once, at the edge. The sentinel's
// own words are dropped from the end of the message: the class says it.
func translate(op string, err error) error {
	if err == nil {
		return nil
	}
	class, sentinel := "failed", error(nil)
	for _, c := range []struct {
		class string
		err   error
	}{
		{"refused", session.ErrForbidden},
		{"stale", app.ErrStale},
		{"not_found", app.ErrNotFound},
		{"not_found", app.ErrNotInChange},
		{"invalid", app.ErrInvalid},
		{"not_saved", app.ErrNotSaved},
	} {
		if errors.Is(err, c.err) {
			class, sentinel = c.class, c.err
			break
		}
	}
	if sentinel == app.ErrStale {
		err = staleAdvice(err)
	}
	msg := err.Error()
	if sentinel != nil {
		msg = strings.TrimSuffix(msg, ": "+sentinel.Error())
	}
	return &toolError{class: class, msg: op + ": " + msg, err: err}
}

// checkAsOf refuses early a write naming an as_of that is already not
// the current one, before the write's coordinates are checked against a
// change the agent has not seen. The write itself is made through app.At,
// which checks again atomically.
func checkAsOf(asOf, current string) error {
	if asOf == "" || asOf == current {
		return nil
	}
	return &app.StaleError{AsOf: asOf, Current: current}
}

// staleAdvice says what an agent does about a stale write: it cannot
// reload, it reads again.
func staleAdvice(err error) error {
	var se *app.StaleError
	if !errors.As(err, &se) {
		return err
	}
	return fmt.Errorf("the change moved since you read it (as_of is now %s); call read_review again and use its line numbers: %w", se.Current, app.ErrStale)
}
