// Package app holds leanreview's use cases: what every surface (terminal,
// browser, agent, scripts) calls to open a review, comment, and list, export
// or relocate drafts. It declares the ports it needs (Documents, ...) and
// receives implementations from the command wiring; it never imports an
// adapter or a surface.
package app

import "errors"

// ErrNotFound is returned for a draft, file or line that does not exist.
var ErrNotFound = errors.New("not found")

// ErrNotInChange is returned for a comment on a line the changeset does not
// show: there is no code under it to anchor to.
var ErrNotInChange = errors.New("line is not part of the change")

// ErrInvalid is returned for a request that cannot be carried out as asked:
// an empty comment, a suggestion answered twice.
var ErrInvalid = errors.New("invalid request")
