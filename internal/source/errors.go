package source

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/leanreview/leanreview/internal/gitrepo"
)

// Error is a source the user named that cannot be read: not a repository,
// an unknown revision, an unreadable or empty file, empty standard input,
// arguments that do not fit together. Its message is one line that says
// what is wrong and what to do; the command line maps it to exit status 2.
type Error struct {
	// Msg is the complete message.
	Msg string
	// Err is the underlying cause, or nil.
	Err error
}

func (e *Error) Error() string { return e.Msg }

func (e *Error) Unwrap() error { return e.Err }

func errorf(cause error, format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...), Err: cause}
}

// gitError turns what a user can fix in a comparison into an *Error naming
// the revisions as the user wrote them: a and b, b empty when one revision
// is involved. Other errors are returned unchanged.
func (s *Source) gitError(err error, a, b string) error {
	var unknown *gitrepo.UnknownRevisionError
	var noBase *gitrepo.NoMergeBaseError
	switch {
	case errors.As(err, &unknown) && unknown.Rev == "HEAD":
		return errorf(err, "HEAD has no commit yet in %s: commit first, or review the working tree with .", s.Root)
	case errors.As(err, &unknown):
		return errorf(err, "unknown revision %q in %s: check it with git rev-parse --verify %q", unknown.Rev, s.Root, unknown.Rev)
	case errors.As(err, &noBase):
		return errorf(err, "%s and %s have no common ancestor in %s: compare them directly with %s..%s", a, b, s.Root, a, b)
	}
	return err
}

// notRepository explains that what arg asks for needs a repository dir is
// not in.
func notRepository(err error, arg, dir string) *Error {
	if dir == "" {
		dir = "the current directory"
	}
	var notRepo *gitrepo.NotRepositoryError
	if !errors.As(err, &notRepo) {
		return errorf(err, "%s: cannot look up %q: %v", dir, arg, err)
	}
	if arg == "." || arg == "--staged" || arg == "--base" {
		return errorf(err, "%s is not in a git work tree, so %s has nothing to compare: run leanreview inside a repository, or give a patch file or -", dir, arg)
	}
	return errorf(err, "%q is not a file, and %s is not in a git work tree to look it up as a revision: give a patch file, -, or run inside a repository", arg, dir)
}

// unreadable explains a patch file that exists but cannot be read.
func unreadable(err error, path string) *Error {
	reason := err
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		reason = pathErr.Err
	}
	return errorf(err, "cannot read patch file %q: %v", path, reason)
}
