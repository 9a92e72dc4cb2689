// Package gitrepo reads a local git repository by running the git binary
// through an injected Runner: the repository root, revisions, merge bases
// and the diffs leanreview reviews.
//
// Diffs are produced so that no user or repository configuration can change
// their format (see diffArgs): fixed a/ and b/ prefixes, default path
// quoting, no colour, no external diff or textconv, rename detection, binary
// patches, three lines of context. The bytes are returned exactly as git
// printed them.
package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Repo is one work tree of a git repository. Its methods are safe for
// concurrent use.
type Repo struct {
	run  Runner
	root string

	mu        sync.Mutex
	emptyTree string // cached by EmptyTree once known
}

// Open finds the repository that contains dir and returns it. The root is
// git's --show-toplevel: absolute, with symbolic links resolved. When dir is
// in no work tree the error is a *NotRepositoryError.
func Open(ctx context.Context, run Runner, dir string) (*Repo, error) {
	out, err := run.Run(ctx, Invocation{Dir: dir, Args: []string{"rev-parse", "--show-toplevel"}})
	if err != nil {
		var exitErr *ExitError
		if errors.As(err, &exitErr) && exitErr.Code == 128 {
			return nil, &NotRepositoryError{Dir: dir, Detail: FirstLine(exitErr.Stderr)}
		}
		return nil, fmt.Errorf("find repository of %s: %w", dir, err)
	}
	root := strings.TrimRight(string(out), "\r\n")
	if root == "" {
		return nil, &NotRepositoryError{Dir: dir, Detail: "git printed no work tree"}
	}
	return &Repo{run: run, root: root}, nil
}

// Root returns the absolute path of the work tree's top directory.
func (r *Repo) Root() string { return r.root }

// git runs git in the repository root and returns its standard output.
func (r *Repo) git(ctx context.Context, env []string, stdin []byte, args ...string) ([]byte, error) {
	return r.run.Run(ctx, Invocation{Dir: r.root, Env: env, Stdin: stdin, Args: args})
}

// Head returns the commit HEAD points at, or "" and ok false when HEAD is
// unborn (a fresh repository, or an orphan branch, with no commit yet).
func (r *Repo) Head(ctx context.Context) (commit string, ok bool, err error) {
	commit, err = r.ResolveCommit(ctx, "HEAD")
	var unknown *UnknownRevisionError
	if errors.As(err, &unknown) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return commit, true, nil
}

// ResolveCommit returns the full object name of the commit rev names
// (a branch, tag, abbreviated name, HEAD~2, ...). A rev that names no commit,
// or that starts with "-" and so could be read as an option, is reported as
// an *UnknownRevisionError.
func (r *Repo) ResolveCommit(ctx context.Context, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", &UnknownRevisionError{Rev: rev}
	}
	out, err := r.git(ctx, nil, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	var exitErr *ExitError
	if errors.As(err, &exitErr) && exitErr.Code == 1 {
		return "", &UnknownRevisionError{Rev: rev}
	}
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", rev, err)
	}
	return objectName(out, "rev-parse "+rev)
}

// MergeBase returns the best common ancestor of commits a and b, which are
// full object names. Unrelated histories give a *NoMergeBaseError.
func (r *Repo) MergeBase(ctx context.Context, a, b string) (string, error) {
	out, err := r.git(ctx, nil, nil, "merge-base", a, b, "--")
	var exitErr *ExitError
	if errors.As(err, &exitErr) && exitErr.Code == 1 && exitErr.Stderr == "" {
		return "", &NoMergeBaseError{A: a, B: b}
	}
	if err != nil {
		return "", fmt.Errorf("merge base of %s and %s: %w", a, b, err)
	}
	return objectName(out, "merge-base")
}

// Parents returns the parents of commit, a full object name, first parent
// first; a root commit has none (a nil slice).
func (r *Repo) Parents(ctx context.Context, commit string) ([]string, error) {
	out, err := r.git(ctx, nil, nil, "rev-list", "--parents", "--max-count=1", commit, "--")
	if err != nil {
		return nil, fmt.Errorf("parents of %s: %w", commit, err)
	}
	fields := strings.Fields(string(out))
	if len(fields) == 0 || fields[0] != commit {
		return nil, fmt.Errorf("parents of %s: unexpected rev-list output %q", commit, out)
	}
	if len(fields) == 1 {
		return nil, nil
	}
	return fields[1:], nil
}

// EmptyTree returns the object name of the empty tree in this repository's
// hash algorithm, the base an unborn HEAD or a root commit diffs against.
// Git is asked until it answers once; the answer is kept.
func (r *Repo) EmptyTree(ctx context.Context) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.emptyTree != "" {
		return r.emptyTree, nil
	}
	out, err := r.git(ctx, nil, nil, "hash-object", "-t", "tree", "/dev/null")
	if err != nil {
		return "", fmt.Errorf("empty tree: %w", err)
	}
	name, err := objectName(out, "hash-object")
	if err != nil {
		return "", err
	}
	r.emptyTree = name
	return name, nil
}

// objectName checks that out is one hexadecimal object name and a newline.
func objectName(out []byte, what string) (string, error) {
	name := string(bytes.TrimRight(out, "\r\n"))
	if len(name) != 40 && len(name) != 64 {
		return "", fmt.Errorf("%s: unexpected output %q", what, out)
	}
	for _, c := range name {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", fmt.Errorf("%s: unexpected output %q", what, out)
		}
	}
	return name, nil
}
