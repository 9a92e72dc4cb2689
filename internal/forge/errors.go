package forge

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Classes of failure. A *HostError matches exactly one of them under
// errors.Is, so a caller maps failures to exit codes or advice without
// reading messages.
var (
	// ErrUnauthorized: the host rejected the token, or none was given (401).
	ErrUnauthorized = errors.New("token rejected")
	// ErrForbidden: the token is valid but may not do this (403 that is not
	// a rate limit).
	ErrForbidden = errors.New("forbidden")
	// ErrNotFound: no such change, thread or repository, or the token cannot
	// see it (404).
	ErrNotFound = errors.New("not found")
	// ErrRejected: the host refused the content (GitHub 422, GitLab 400).
	ErrRejected = errors.New("rejected by the host")
	// ErrRateLimited: still rate limited after the allowed retries, or the
	// host asked for a longer wait than RetryPolicy.MaxWait.
	ErrRateLimited = errors.New("rate limited")
	// ErrUnavailable: 5xx answers or network failures outlasted the retries.
	ErrUnavailable = errors.New("host unavailable")
	// ErrHeadMoved: the change's head is not the commit the review was
	// anchored against; relocate the drafts and confirm again.
	ErrHeadMoved = errors.New("head moved")
	// ErrInput: the request was malformed before anything was sent.
	ErrInput = errors.New("invalid input")
)

// HostError is a failed call to a host, explained in words.
type HostError struct {
	Kind Kind
	// Op is the operation and its subject: "create review on o/r#12".
	Op string
	// Status is the HTTP status of the last answer, 0 when none arrived.
	Status int
	// Reason is the host's own explanation, "" when it gave none.
	Reason string
	// RetryAfter is the wait the host asked for, 0 when it named none.
	RetryAfter time.Duration
	// Attempts is how many tries were made.
	Attempts int
	// Uncertain reports that the host may have acted on the request although
	// no success was seen (a 5xx answer or a connection lost after the
	// request went out): reconcile before sending it again.
	Uncertain bool
	// Class is one of the Err* sentinels above.
	Class error
	// Err is the underlying transport error, nil when the host answered.
	Err error
}

func (e *HostError) Error() string {
	var b strings.Builder
	host := e.Kind.Title()
	switch e.Class {
	case ErrUnauthorized:
		fmt.Fprintf(&b, "%s rejected the token (%d) on %s", host, e.Status, e.Op)
	case ErrForbidden:
		fmt.Fprintf(&b, "%s refused %s (%d)", host, e.Op, e.Status)
	case ErrNotFound:
		fmt.Fprintf(&b, "%s found nothing for %s (%d)", host, e.Op, e.Status)
	case ErrRejected:
		fmt.Fprintf(&b, "%s rejected %s (%d)", host, e.Op, e.Status)
	case ErrRateLimited:
		fmt.Fprintf(&b, "%s rate limit hit on %s", host, e.Op)
		if e.Status != 0 {
			fmt.Fprintf(&b, " (%d)", e.Status)
		}
	default:
		fmt.Fprintf(&b, "%s unavailable for %s", host, e.Op)
		if e.Status != 0 {
			fmt.Fprintf(&b, " (%d)", e.Status)
		}
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d tries", e.Attempts)
	}
	if e.Reason != "" {
		b.WriteString(": " + e.Reason)
	} else if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	if hint := e.hint(); hint != "" {
		b.WriteString(": " + hint)
	}
	return b.String()
}

// hint is the advice that goes with a class of failure on a host.
func (e *HostError) hint() string {
	switch e.Class {
	case ErrUnauthorized:
		if e.Kind == KindGitLab {
			return "set GITLAB_TOKEN to a token with api scope (or log in with glab)"
		}
		return "set GITHUB_TOKEN or GH_TOKEN to a token with repo scope (or log in with gh)"
	case ErrForbidden:
		return "the token lacks permission for this repository"
	case ErrNotFound:
		return "check the reference, and that the token can see the repository (private ones answer 404 to tokens without access)"
	case ErrRateLimited:
		if e.RetryAfter > 0 {
			return fmt.Sprintf("try again in %s", e.RetryAfter.Round(time.Second))
		}
		return "try again later"
	case ErrUnavailable:
		if e.Uncertain {
			return "the host may have taken the request; the next submit reconciles before sending again"
		}
	}
	return ""
}

// Unwrap exposes the class and the transport error to errors.Is/As.
func (e *HostError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Class}
	}
	return []error{e.Class, e.Err}
}

// HeadMovedError says the change moved on since the review was anchored.
type HeadMovedError struct {
	Ref      Ref
	Anchored string
	HeadNow  string
}

func (e *HeadMovedError) Error() string {
	return fmt.Sprintf("%s moved from %s to %s since the drafts were anchored: relocate them and confirm again", e.Ref, short(e.Anchored), short(e.HeadNow))
}

// Is makes errors.Is(err, ErrHeadMoved) hold.
func (e *HeadMovedError) Is(target error) bool { return target == ErrHeadMoved }

// InputError is a request refused before anything was sent.
type InputError struct {
	Field  string
	Reason string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Reason }

// Is makes errors.Is(err, ErrInput) hold.
func (e *InputError) Is(target error) bool { return target == ErrInput }

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	if sha == "" {
		return "(none)"
	}
	return sha
}
