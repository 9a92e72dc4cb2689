package changeset

import (
	"errors"
	"fmt"
)

// ErrNoDiff is returned (wrapped in a *ParseError) for non-empty input in
// which no diff of any dialect was found: a changeset with no files would
// otherwise read as "nothing changed".
var ErrNoDiff = errors.New("no diff found")

// ErrUnsupportedDialect matches, under errors.Is, every *DialectError.
var ErrUnsupportedDialect = errors.New("unsupported diff dialect")

// ParseError is malformed input: Line is the 1-based line of the patch where
// the parser gave up and Msg says what it expected there.
type ParseError struct {
	Line int
	Msg  string
	// Err is a sentinel the error also matches (ErrNoDiff), or nil.
	Err error
}

func (e *ParseError) Error() string {
	if e.Line <= 0 {
		return "parse patch: " + e.Msg
	}
	return fmt.Sprintf("parse patch: line %d: %s", e.Line, e.Msg)
}

// Unwrap exposes the sentinel, so errors.Is(err, ErrNoDiff) works.
func (e *ParseError) Unwrap() error { return e.Err }

// DialectError is a recognised diff dialect this package does not read, such
// as a combined diff (diff --cc), a normal diff or an ed script. Line is the
// 1-based line where the dialect was recognised.
type DialectError struct {
	Dialect string
	Line    int
}

func (e *DialectError) Error() string {
	return fmt.Sprintf("parse patch: line %d: %s is not supported; produce a unified diff (diff -u, git diff)", e.Line, e.Dialect)
}

// Is makes errors.Is(err, ErrUnsupportedDialect) true.
func (e *DialectError) Is(target error) bool { return target == ErrUnsupportedDialect }

// Dialect names used in DialectError.
const (
	DialectCombined = "combined diff (diff --cc)"
	DialectNormal   = "normal diff"
	DialectEd       = "ed script"
)
