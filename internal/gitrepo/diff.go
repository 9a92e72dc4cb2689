package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// diffArgs returns git's arguments for a diff of revs whose format no
// configuration can change, ending in "--" so a revision is never read as a
// path:
//   - core.quotePath=true: non-ASCII path bytes are C-quoted, as a patch
//     reader expects;
//   - diff.suppressBlankEmpty=false: an empty context line keeps its space;
//   - --src-prefix/--dst-prefix: a/ and b/ even with diff.noprefix or
//     diff.mnemonicPrefix set;
//   - --no-color, --no-ext-diff, --no-textconv, --no-relative;
//   - -M, --binary, --full-index: renames detected, binary files as
//     "GIT binary patch", index lines whatever core.abbrev says;
//   - --unified=3, --inter-hunk-context=0: hunks the same on every machine,
//     so anchors do not depend on diff.context;
//   - --submodule=short: a submodule is a "Subproject commit" line, not a log.
func diffArgs(revs ...string) []string {
	args := []string{
		"-c", "core.quotePath=true",
		"-c", "diff.suppressBlankEmpty=false",
		"diff",
		"--no-color", "--no-ext-diff", "--no-textconv", "--no-relative",
		"--src-prefix=a/", "--dst-prefix=b/",
		"-M", "--binary", "--full-index",
		"--unified=3", "--inter-hunk-context=0",
		"--submodule=short",
	}
	args = append(args, revs...)
	return append(args, "--")
}

// DiffCommits returns the patch from commit or tree from to commit or tree
// to, both full object names.
func (r *Repo) DiffCommits(ctx context.Context, from, to string) ([]byte, error) {
	out, err := r.git(ctx, nil, nil, diffArgs(from, to)...)
	if err != nil {
		return nil, fmt.Errorf("diff %s %s: %w", from, to, err)
	}
	return out, nil
}

// DiffStaged returns the patch from commit or tree base to the index: what
// `git commit` would record.
func (r *Repo) DiffStaged(ctx context.Context, base string) ([]byte, error) {
	out, err := r.git(ctx, nil, nil, diffArgs("--cached", base)...)
	if err != nil {
		return nil, fmt.Errorf("diff index against %s: %w", base, err)
	}
	return out, nil
}

// DiffWorktree returns the patch from commit or tree base to the files in
// the work tree, untracked files that are not ignored included as added
// files. Untracked directories that are repositories of their own are left
// out. The user's index is left as it was: untracked files are marked
// intent-to-add in a copy of it, in a temporary directory removed on return.
func (r *Repo) DiffWorktree(ctx context.Context, base string) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "leanreview-index-")
	if err != nil {
		return nil, fmt.Errorf("diff work tree: %w", err)
	}
	defer os.RemoveAll(tmp)
	index := filepath.Join(tmp, "index")
	if err := r.copyIndex(ctx, index); err != nil {
		return nil, fmt.Errorf("diff work tree: %w", err)
	}
	env := []string{"GIT_INDEX_FILE=" + index}
	if err := r.addIntentToAdd(ctx, env); err != nil {
		return nil, fmt.Errorf("diff work tree: %w", err)
	}
	out, err := r.git(ctx, env, nil, diffArgs(base)...)
	if err != nil {
		return nil, fmt.Errorf("diff work tree against %s: %w", base, err)
	}
	return out, nil
}

// copyIndex copies the repository's index file to dst. A repository that
// has never had an index (nothing ever added) leaves dst absent, which git
// reads as an empty index.
func (r *Repo) copyIndex(ctx context.Context, dst string) error {
	out, err := r.git(ctx, nil, nil, "rev-parse", "--git-path", "index")
	if err != nil {
		return fmt.Errorf("locate index: %w", err)
	}
	src := strings.TrimRight(string(out), "\r\n")
	if !filepath.IsAbs(src) {
		src = filepath.Join(r.root, src)
	}
	in, err := os.Open(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("copy index: %w", err)
	}
	defer in.Close()
	outFile, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("copy index: %w", err)
	}
	if _, err := io.Copy(outFile, in); err != nil {
		outFile.Close()
		return fmt.Errorf("copy index %s: %w", src, err)
	}
	if err := outFile.Close(); err != nil {
		return fmt.Errorf("copy index: %w", err)
	}
	return nil
}

// addIntentToAdd marks every untracked, not ignored file intent-to-add in
// the index env names, so a diff against a commit shows it as a new file.
func (r *Repo) addIntentToAdd(ctx context.Context, env []string) error {
	out, err := r.git(ctx, env, nil, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return fmt.Errorf("list untracked files: %w", err)
	}
	var paths bytes.Buffer
	for name := range bytes.SplitSeq(out, []byte{0}) {
		// A trailing slash marks an untracked repository of its own; adding
		// it would record a submodule, or fail when it has no commit.
		if len(name) == 0 || name[len(name)-1] == '/' {
			continue
		}
		paths.Write(name)
		paths.WriteByte(0)
	}
	if paths.Len() == 0 {
		return nil
	}
	// --literal-pathspecs: a file named "*.go" or "[x]" is that file, not a
	// pattern. core.splitIndex=false: writing the copy must not create a
	// shared index file inside the user's .git directory.
	_, err = r.git(ctx, env, paths.Bytes(),
		"-c", "core.splitIndex=false", "--literal-pathspecs",
		"add", "--intent-to-add", "--pathspec-from-file=-", "--pathspec-file-nul")
	if err != nil {
		return fmt.Errorf("mark untracked files intent-to-add: %w", err)
	}
	return nil
}
