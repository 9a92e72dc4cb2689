package source

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/gitrepo"
)

// Options carries what Open needs besides the arguments.
type Options struct {
	// Dir is the working directory relative paths and the repository are
	// found from; "" means the process's.
	Dir string
	// Stdin is read, to its end, when the argument is "-"; nil reads as empty.
	Stdin io.Reader
	// Staged selects the index against HEAD (--staged); no argument may be
	// given with it.
	Staged bool
	// Base selects merge-base(Base, HEAD) to HEAD (--base REF); no argument
	// may be given with it.
	Base string
	// Git runs git for the git kinds, and to read the checkout's remote for
	// #N, !N and N; it is not used for file and stdin.
	Git gitrepo.Runner
	// Hosts maps web hosts to their forge kind for pull and merge request
	// references; nil means forge.DefaultHosts().
	Hosts forge.Hosts
	// Forge returns what reads changes from ref's host. Open calls it once
	// for a pull or merge request, and its error is returned as is (a
	// missing token, say). Nil refuses pull and merge requests.
	Forge func(ref forge.Ref) (Fetcher, error)
}

// Open turns command-line arguments into a source, as the package
// documentation describes. File and stdin content is read here; for git
// kinds the repository is found and every revision resolved, so a mistake
// is reported now, but no diff is run until Patch. Errors a user can fix are
// *Error.
func Open(ctx context.Context, args []string, opts Options) (*Source, error) {
	switch {
	case opts.Staged && opts.Base != "":
		return nil, errorf(nil, "--staged and --base cannot be combined: choose one")
	case opts.Staged && len(args) > 0:
		return nil, errorf(nil, "--staged takes no source argument, got %q: drop it to review the index against HEAD", args[0])
	case opts.Base != "" && len(args) > 0:
		return nil, errorf(nil, "--base takes no source argument, got %q: use %s...%s to compare other revisions", args[0], opts.Base, args[0])
	case opts.Staged:
		return openGit(ctx, opts, &Source{Kind: KindStaged, Spec: "--staged", Label: "staged changes"}, "--staged")
	case opts.Base != "":
		src := &Source{Kind: KindBase, Spec: "--base " + opts.Base, Label: opts.Base + "...HEAD", from: opts.Base}
		return openGit(ctx, opts, src, "--base")
	}
	switch len(args) {
	case 0:
		return openWorktree(ctx, opts)
	case 1:
		return openOne(ctx, args[0], opts)
	case 2:
		return openPair(ctx, args[0], args[1], opts)
	}
	return nil, errorf(nil, "too many arguments (%d): give one patch file, -, ., a commit, or two revisions", len(args))
}

func openWorktree(ctx context.Context, opts Options) (*Source, error) {
	return openGit(ctx, opts, &Source{Kind: KindWorktree, Spec: ".", Label: "working tree"}, ".")
}

// openOne reads one argument: "-", ".", a file, or else a revision or range.
func openOne(ctx context.Context, arg string, opts Options) (*Source, error) {
	if arg == "-" {
		return openStdin(opts.Stdin)
	}
	if filepath.Clean(arg) == "." {
		return openWorktree(ctx, opts)
	}
	info, statErr := os.Stat(inDir(opts.Dir, arg))
	if statErr == nil && !info.IsDir() {
		return openFile(arg, inDir(opts.Dir, arg))
	}
	isDir := statErr == nil
	switch {
	case isDir:
	case strings.Contains(arg, "://") || qualifiedRefRE.MatchString(arg):
		return openChange(arg, nil, opts)
	case shortRefRE.MatchString(arg) || numberRE.MatchString(arg):
		if src, ok, err := openNumberedChange(ctx, arg, opts); ok {
			return src, err
		}
	}
	rev, err := revisionSource(arg)
	var src *Source
	if err == nil {
		src, err = openGit(ctx, opts, rev, arg)
	}
	var unknown *gitrepo.UnknownRevisionError
	switch {
	case err == nil:
		return src, nil
	case isDir:
		return nil, errorf(err, "%q is a directory, not a patch file or a revision: give a patch file, or . for the working tree", arg)
	case errors.As(err, &unknown) && unknown.Rev != "HEAD" && (unknown.Rev == arg || strings.HasPrefix(unknown.Rev, "/")):
		// A side starting with "/" is never a ref: "../x.patch" was a
		// missing file, not a range.
		return nil, errorf(err, "%q is neither a file nor a revision in %s: give a patch file, -, ., a commit or a range", arg, rev.Root)
	}
	return nil, err
}

// revisionSource parses a revision argument: "A..B", "A...B" or one commit.
func revisionSource(arg string) (*Source, error) {
	if a, b, ok := strings.Cut(arg, "..."); ok {
		return rangeSource(a, b, true, arg)
	}
	if a, b, ok := strings.Cut(arg, ".."); ok {
		return rangeSource(a, b, false, arg)
	}
	return &Source{Kind: KindCommit, Spec: arg, Label: "commit " + arg, to: arg}, nil
}

// rangeSource builds a range from its sides as named; an empty side is HEAD.
func rangeSource(a, b string, threeDot bool, arg string) (*Source, error) {
	if a == "" && b == "" {
		return nil, errorf(nil, "%q names no revision: write A..B or A...B, either side may be left out for HEAD", arg)
	}
	if a == "" {
		a = "HEAD"
	}
	if b == "" {
		b = "HEAD"
	}
	dots := ".."
	if threeDot {
		dots = "..."
	}
	spec := a + dots + b
	return &Source{Kind: KindRange, Spec: spec, Label: spec, from: a, to: b, threeDot: threeDot}, nil
}

// openPair reads "A B", the same comparison as "A..B".
func openPair(ctx context.Context, a, b string, opts Options) (*Source, error) {
	for _, arg := range []string{a, b} {
		info, err := os.Stat(inDir(opts.Dir, arg))
		if arg == "-" || arg == "." || err == nil && !info.IsDir() {
			return nil, errorf(nil, "too many arguments: %q is a source on its own; give one patch file, -, or ., or two revisions", arg)
		}
	}
	src, err := rangeSource(a, b, false, a+" "+b)
	if err != nil {
		return nil, err
	}
	return openGit(ctx, opts, src, a+" "+b)
}

// openGit finds the repository, completes src and resolves its revisions
// once so that a mistake is reported at Open. arg names the source in
// messages. src.Root is set even when the revisions then fail to resolve.
func openGit(ctx context.Context, opts Options, src *Source, arg string) (*Source, error) {
	if opts.Git == nil {
		return nil, fmt.Errorf("open %s: source.Options.Git is nil", arg)
	}
	repo, err := gitrepo.Open(ctx, opts.Git, opts.Dir)
	if err != nil {
		return nil, notRepository(err, arg, opts.Dir)
	}
	src.repo = repo
	src.Root = repo.Root()
	src.Key = gitKey(src.Kind, src.Root, src.Spec)
	if _, _, err := src.endpoints(ctx); err != nil {
		return nil, err
	}
	return src, nil
}

func openStdin(stdin io.Reader) (*Source, error) {
	var patch []byte
	if stdin != nil {
		var err error
		if patch, err = io.ReadAll(stdin); err != nil {
			return nil, errorf(err, "cannot read standard input: %v", err)
		}
	}
	if len(bytes.TrimSpace(patch)) == 0 {
		return nil, errorf(nil, "standard input is empty: pipe a patch in, as in git diff | leanreview -")
	}
	return &Source{Kind: KindStdin, Key: patchKey(patch), Label: "stdin", patch: patch}, nil
}

// openFile reads the patch file arg, found at path.
func openFile(arg, path string) (*Source, error) {
	patch, err := os.ReadFile(path)
	if err != nil {
		return nil, unreadable(err, arg)
	}
	if len(bytes.TrimSpace(patch)) == 0 {
		return nil, errorf(nil, "patch file %q is empty: nothing to review", arg)
	}
	return &Source{Kind: KindFile, Key: patchKey(patch), Label: arg, patch: patch}, nil
}

// inDir resolves a relative path against dir.
func inDir(dir, path string) string {
	if dir == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// keyHexDigits is how much of the SHA-256 a key keeps: 128 bits.
const keyHexDigits = 32

// patchKey is the key of a file or stdin source: "patch-" and the hash of
// the patch bytes, whichever way they arrived.
func patchKey(patch []byte) string {
	sum := sha256.Sum256(patch)
	return "patch-" + hex.EncodeToString(sum[:])[:keyHexDigits]
}

// gitKey is the key of a git comparison: the kind's name, "-", and the hash
// of "kind NUL root NUL spec". NUL cannot occur in a path or a revision, so
// distinct triples never hash the same bytes.
func gitKey(kind Kind, root, spec string) string {
	sum := sha256.Sum256([]byte(kind.String() + "\x00" + root + "\x00" + spec))
	return kind.String() + "-" + hex.EncodeToString(sum[:])[:keyHexDigits]
}
