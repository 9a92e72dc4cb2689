// Package source turns leanreview's command-line arguments into a review
// source: a patch file, standard input, a comparison in a local git
// repository, or a GitHub pull request or GitLab merge request, each with a
// stable identity key.
//
// Arguments Open accepts:
//
//	FILE        a patch file; a path that exists and is not a directory is a
//	            file even when a revision has the same name
//	-           a patch on standard input, read once, at Open
//	. or none   the work tree against HEAD, untracked files that are not
//	            ignored included as added files
//	--staged    the index against HEAD
//	--base REF  merge-base(REF, HEAD) to HEAD: the commits of the current
//	            branch since it left REF, as a pull request shows them;
//	            uncommitted changes are not included
//	A B, A..B   commit A to commit B
//	A...B       merge-base(A, B) to B
//	REV         the commit against its first parent; a root commit against
//	            the empty tree
//	https://github.com/OWNER/REPO/pull/N, OWNER/REPO#N
//	            a GitHub pull request (enterprise hosts from Options.Hosts)
//	https://gitlab.com/GROUP/SUB/PROJECT/-/merge_requests/N, GROUP/PROJECT!N
//	            a GitLab merge request
//	#N, !N      the pull or merge request N of this checkout's origin (else
//	            upstream) remote
//	N           the same, when N has at most six digits and the checkout has
//	            such a remote; otherwise a revision
//
// Git comparisons always cover the whole repository, whichever of its
// directories Open starts from. An empty side of a range stands for HEAD
// ("main.." is "main..HEAD"). An
// unborn HEAD (a repository with no commit yet) compares against the empty
// tree for "." and --staged; the kinds that need a commit report an error.
//
// # Identity keys
//
// Source.Key names a review's drafts file, so it is short and safe as a file
// name: a prefix, a dash and 32 hexadecimal digits (128 bits) of a SHA-256.
//
//	patch-<h>   FILE and -: h hashes the patch bytes. The same patch read
//	            from a file or from standard input shares its drafts; an
//	            edited patch is a new review.
//	<kind>-<h>  git kinds ("worktree-", "staged-", "base-", "range-",
//	            "commit-"): h hashes the kind, the repository root (absolute,
//	            symbolic links resolved) and Source.Spec, the comparison as
//	            the user named it: revisions are not resolved to object names,
//	            so new commits on a branch keep the key and the drafts are
//	            relocated onto the new diff. "A B" and "A..B" are one spec.
//
//	github-<h>, gitlab-<h>
//	            pull and merge requests: h hashes the kind and
//	            host/repo/number (lower case), so new pushes keep the key and
//	            the drafts are relocated onto the new diff.
//
// See patchKey, gitKey and changeKey for the exact bytes hashed.
package source

import (
	"context"
	"fmt"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/gitrepo"
)

// Kind is what a source reads. The zero value is invalid.
type Kind uint8

// Kinds of source. String gives the name used on the wire.
const (
	KindFile     Kind = iota + 1 // a patch file
	KindStdin                    // a patch on standard input
	KindWorktree                 // work tree vs HEAD, untracked files included
	KindStaged                   // index vs HEAD
	KindBase                     // merge-base(REF, HEAD) vs HEAD
	KindRange                    // A..B or A...B
	KindCommit                   // one commit vs its first parent
	KindGitHub                   // a GitHub pull request
	KindGitLab                   // a GitLab merge request
)

var kindNames = [...]string{
	KindFile:     "file",
	KindStdin:    "stdin",
	KindWorktree: "worktree",
	KindStaged:   "staged",
	KindBase:     "base",
	KindRange:    "range",
	KindCommit:   "commit",
	KindGitHub:   "github",
	KindGitLab:   "gitlab",
}

// String returns the kind's wire name, "file", "stdin", "worktree",
// "staged", "base", "range", "commit", "github" or "gitlab", or "Kind(n)"
// for an invalid kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ParseKind returns the kind whose wire name is s.
func ParseKind(s string) (Kind, error) {
	for k, name := range kindNames {
		if name != "" && name == s {
			return Kind(k), nil
		}
	}
	return 0, fmt.Errorf("unknown source kind %q", s)
}

// MarshalText encodes the kind as its wire name; an invalid kind is an error.
func (k Kind) MarshalText() ([]byte, error) {
	if _, err := ParseKind(k.String()); err != nil {
		return nil, fmt.Errorf("marshal source kind: %w", err)
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes a wire name.
func (k *Kind) UnmarshalText(text []byte) error {
	parsed, err := ParseKind(string(text))
	if err != nil {
		return err
	}
	*k = parsed
	return nil
}

// isGit reports whether the kind compares revisions in a repository.
func (k Kind) isGit() bool { return k >= KindWorktree && k <= KindCommit }

// Source is one thing to review. It is immutable after Open, and its
// methods are safe for concurrent use.
type Source struct {
	Kind Kind
	// Key is the identity key described in the package documentation.
	Key string
	// Label describes the source to a person: the file name as given,
	// "stdin", "working tree", "staged changes", the comparison, or the
	// change ("github.com/o/r#12").
	Label string
	// Spec is the normalised comparison of a git kind as the user named it:
	// ".", "--staged", "--base REF", "A..B", "A...B" or "REV"; for a pull or
	// merge request its reference as Ref.String writes it. Empty for file
	// and stdin.
	Spec string
	// Root is the repository's work tree root for git kinds, absolute with
	// symbolic links resolved; empty for file and stdin.
	Root string
	// Ref names the pull or merge request of KindGitHub and KindGitLab; the
	// zero Ref for every other kind.
	Ref forge.Ref

	patch []byte // file and stdin: the bytes read at Open

	repo     *gitrepo.Repo // git kinds
	from, to string        // revisions as named: range A, B; base REF; commit REV in to
	threeDot bool          // range A...B

	fetch Fetcher // pull and merge requests
}

// Patch returns the patch as it is now. For file and stdin that is the
// content read at Open, the same slice on every call, which the caller must
// not modify. For git kinds git is run afresh on each call, because the
// work tree and branches move; the caller owns the result. For a pull or
// merge request the host is asked afresh (see Change). Errors a user can
// fix (a branch deleted since Open, say) are *Error.
func (s *Source) Patch(ctx context.Context) ([]byte, error) {
	if s.fetch != nil {
		ch, err := s.Change(ctx)
		return ch.Patch, err
	}
	if !s.Kind.isGit() {
		return s.patch, nil
	}
	base, head, err := s.endpoints(ctx)
	if err != nil {
		return nil, err
	}
	var out []byte
	switch s.Kind {
	case KindWorktree:
		out, err = s.repo.DiffWorktree(ctx, base)
	case KindStaged:
		out, err = s.repo.DiffStaged(ctx, base)
	default:
		out, err = s.repo.DiffCommits(ctx, base, head)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.Label, err)
	}
	return out, nil
}

// endpoints resolves the comparison to object names as the repository is
// now. base is a commit or the empty tree; head is a commit, or "" for the
// work tree and the index.
func (s *Source) endpoints(ctx context.Context) (base, head string, err error) {
	switch s.Kind {
	case KindWorktree, KindStaged:
		base, err = s.headOrEmptyTree(ctx)
		return base, "", err
	case KindBase:
		return s.mergeBaseTo(ctx, s.from, "HEAD")
	case KindRange:
		if s.threeDot {
			return s.mergeBaseTo(ctx, s.from, s.to)
		}
		if base, err = s.resolve(ctx, s.from); err != nil {
			return "", "", err
		}
		head, err = s.resolve(ctx, s.to)
		return base, head, err
	case KindCommit:
		return s.parentOf(ctx, s.to)
	}
	return "", "", fmt.Errorf("source kind %v has no git comparison", s.Kind)
}

func (s *Source) headOrEmptyTree(ctx context.Context) (string, error) {
	commit, ok, err := s.repo.Head(ctx)
	if err != nil {
		return "", fmt.Errorf("resolve HEAD in %s: %w", s.Root, err)
	}
	if ok {
		return commit, nil
	}
	return s.repo.EmptyTree(ctx)
}

// mergeBaseTo returns merge-base(a, b) and b, resolved.
func (s *Source) mergeBaseTo(ctx context.Context, a, b string) (base, head string, err error) {
	from, err := s.resolve(ctx, a)
	if err != nil {
		return "", "", err
	}
	head, err = s.resolve(ctx, b)
	if err != nil {
		return "", "", err
	}
	base, err = s.repo.MergeBase(ctx, from, head)
	if err != nil {
		return "", "", s.gitError(err, a, b)
	}
	return base, head, nil
}

// parentOf returns rev's first parent, or the empty tree for a root commit,
// and rev, resolved.
func (s *Source) parentOf(ctx context.Context, rev string) (base, head string, err error) {
	head, err = s.resolve(ctx, rev)
	if err != nil {
		return "", "", err
	}
	parents, err := s.repo.Parents(ctx, head)
	if err != nil {
		return "", "", err
	}
	if len(parents) > 0 {
		return parents[0], head, nil
	}
	base, err = s.repo.EmptyTree(ctx)
	return base, head, err
}

func (s *Source) resolve(ctx context.Context, rev string) (string, error) {
	commit, err := s.repo.ResolveCommit(ctx, rev)
	if err != nil {
		return "", s.gitError(err, rev, "")
	}
	return commit, nil
}
