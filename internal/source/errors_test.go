package source_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/leanreview/leanreview/internal/gitrepo/gitrepotest"
	"github.com/leanreview/leanreview/internal/source"
)

// failingReader fails every read, as a closed or broken pipe would.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestOpen_ErrorsSayWhatToDoInOneLine(t *testing.T) {
	h := newHistory(t)
	root := h.s.Root
	h.s.WriteFile("empty.patch", "")
	h.s.WriteFile("docs/guide.md", "guide\n")
	outside := t.TempDir()
	fresh := gitrepotest.NewSandbox(t)
	unrelated := h.s.Git("commit-tree", "4b825dc642cb6eb9a060e54bf8d69288fbee4904", "-m", "unrelated root")
	h.s.Git("branch", "unrelated", strings.TrimSpace(unrelated))

	for _, tc := range []struct {
		name string
		args []string
		opts source.Options
		want string
	}{
		{"working tree outside a repository", []string{"."}, source.Options{Dir: outside, Git: h.s.Runner},
			outside + " is not in a git work tree, so . has nothing to compare: run leanreview inside a repository, or give a patch file or -"},
		{"staged outside a repository", nil, source.Options{Dir: outside, Git: h.s.Runner, Staged: true},
			outside + " is not in a git work tree, so --staged has nothing to compare: run leanreview inside a repository, or give a patch file or -"},
		{"revision outside a repository", []string{"main..topic"}, source.Options{Dir: outside, Git: h.s.Runner},
			`"main..topic" is not a file, and ` + outside + " is not in a git work tree to look it up as a revision: give a patch file, -, or run inside a repository"},
		{"neither file nor revision", []string{"fix.patch"}, h.options(),
			`"fix.patch" is neither a file nor a revision in ` + root + ": give a patch file, -, ., a commit or a range"},
		{"missing file in a parent directory", []string{"../fix.patch"}, h.options(),
			`"../fix.patch" is neither a file nor a revision in ` + root + ": give a patch file, -, ., a commit or a range"},
		{"unknown revision in a range", []string{"main...nope"}, h.options(),
			`unknown revision "nope" in ` + root + `: check it with git rev-parse --verify "nope"`},
		{"unknown second revision", []string{"main", "nope"}, h.options(),
			`unknown revision "nope" in ` + root + `: check it with git rev-parse --verify "nope"`},
		{"unknown base", nil, source.Options{Dir: root, Git: h.s.Runner, Base: "nope"},
			`unknown revision "nope" in ` + root + `: check it with git rev-parse --verify "nope"`},
		{"option-like revision", []string{"--output=x..main"}, h.options(),
			`unknown revision "--output=x" in ` + root + `: check it with git rev-parse --verify "--output=x"`},
		{"no common ancestor", []string{"unrelated...main"}, h.options(),
			"unrelated and main have no common ancestor in " + root + ": compare them directly with unrelated..main"},
		{"base without common ancestor", nil, source.Options{Dir: root, Git: h.s.Runner, Base: "unrelated"},
			"unrelated and HEAD have no common ancestor in " + root + ": compare them directly with unrelated..HEAD"},
		{"commit in a repository without commits", []string{"HEAD"}, source.Options{Dir: fresh.Root, Git: fresh.Runner},
			"HEAD has no commit yet in " + fresh.Root + ": commit first, or review the working tree with ."},
		{"base in a repository without commits", nil, source.Options{Dir: fresh.Root, Git: fresh.Runner, Base: "main"},
			`unknown revision "main" in ` + fresh.Root + `: check it with git rev-parse --verify "main"`},
		{"directory", []string{"docs"}, h.options(),
			`"docs" is a directory, not a patch file or a revision: give a patch file, or . for the working tree`},
		{"range naming nothing", []string{"..."}, h.options(),
			`"..." names no revision: write A..B or A...B, either side may be left out for HEAD`},
		{"empty file", []string{"empty.patch"}, h.options(),
			`patch file "empty.patch" is empty: nothing to review`},
		{"empty stdin", []string{"-"}, source.Options{Stdin: strings.NewReader(" \n")},
			"standard input is empty: pipe a patch in, as in git diff | leanreview -"},
		{"no stdin", []string{"-"}, source.Options{},
			"standard input is empty: pipe a patch in, as in git diff | leanreview -"},
		{"unreadable stdin", []string{"-"}, source.Options{Stdin: io.MultiReader(strings.NewReader("diff"), failingReader{})},
			"cannot read standard input: broken pipe"},
		{"too many arguments", []string{"a", "b", "c"}, h.options(),
			"too many arguments (3): give one patch file, -, ., a commit, or two revisions"},
		{"a file and a revision", []string{"empty.patch", "main"}, h.options(),
			`too many arguments: "empty.patch" is a source on its own; give one patch file, -, or ., or two revisions`},
		{"staged with an argument", []string{"main"}, source.Options{Dir: root, Git: h.s.Runner, Staged: true},
			`--staged takes no source argument, got "main": drop it to review the index against HEAD`},
		{"base with an argument", []string{"topic"}, source.Options{Dir: root, Git: h.s.Runner, Base: "main"},
			`--base takes no source argument, got "topic": use main...topic to compare other revisions`},
		{"staged and base", nil, source.Options{Dir: root, Git: h.s.Runner, Staged: true, Base: "main"},
			"--staged and --base cannot be combined: choose one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := source.Open(context.Background(), tc.args, tc.opts)
			assertSourceError(t, err, tc.want)
		})
	}
}

func assertSourceError(t *testing.T, err error, want string) {
	t.Helper()
	var srcErr *source.Error
	if !errors.As(err, &srcErr) {
		t.Fatalf("err = %v (%T), want *source.Error", err, err)
	}
	if got := err.Error(); got != want {
		t.Errorf("message:\n got %s\nwant %s", got, want)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("message spans lines: %q", err)
	}
}

func TestOpen_UnreadableFile(t *testing.T) {
	t.Run("permission denied", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads any file")
		}
		path := filepath.Join(t.TempDir(), "secret.patch")
		if err := os.WriteFile(path, []byte("diff\n"), 0o000); err != nil {
			t.Fatal(err)
		}
		_, err := source.Open(context.Background(), []string{path}, source.Options{})
		assertSourceError(t, err, `cannot read patch file "`+path+`": permission denied`)
	})
	t.Run("read fails", func(t *testing.T) {
		// Reading a process's memory from offset 0 fails with EIO on Linux,
		// whoever the user is.
		if runtime.GOOS != "linux" {
			t.Skip("needs /proc/self/mem")
		}
		_, err := source.Open(context.Background(), []string{"/proc/self/mem"}, source.Options{})
		assertSourceError(t, err, `cannot read patch file "/proc/self/mem": input/output error`)
	})
}

func TestPatch_RevisionDeletedAfterOpenIsASourceError(t *testing.T) {
	h := newHistory(t)
	h.s.Git("branch", "doomed", "topic")
	src := mustOpen(t, []string{"main...doomed"}, h.options())
	h.s.Git("branch", "--delete", "--force", "doomed")
	_, err := src.Patch(context.Background())
	assertSourceError(t, err, `unknown revision "doomed" in `+h.s.Root+`: check it with git rev-parse --verify "doomed"`)
}
