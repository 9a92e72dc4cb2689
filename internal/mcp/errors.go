package mcp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/session"
)

// errStale is returned for a write naming an as_of other than the current
// one: the change was read again since the agent looked, and the line
// numbers it holds may point at different code now.
var errStale = errors.New("the change moved")

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
		{"stale", errStale},
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
	msg := err.Error()
	if sentinel != nil {
		msg = strings.TrimSuffix(msg, ": "+sentinel.Error())
	}
	return &toolError{class: class, msg: op + ": " + msg, err: err}
}

// checkAsOf refuses a write made against a change other than the current
// one; an empty asOf skips the check.
func checkAsOf(asOf, current string) error {
	if asOf == "" || asOf == current {
		return nil
	}
	return fmt.Errorf("you read the change as_of %s but it is now %s; call read_review again and use the new line numbers: %w", asOf, current, errStale)
}
