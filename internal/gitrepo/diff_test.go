package gitrepo_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/gitrepo"
	"github.com/leanreview/leanreview/internal/gitrepo/gitrepotest"
)

// blobNull is the object name git prints for the missing side of a file.
const blobNull = "0000000000000000000000000000000000000000"

func diffOf(t *testing.T, name string, f func() ([]byte, error)) string {
	t.Helper()
	out, err := f()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return string(out)
}

func hashObject(t *testing.T, s *gitrepotest.Sandbox, content string) string {
	t.Helper()
	out, err := s.Runner.Run(context.Background(), gitrepo.Invocation{Dir: s.Root, Stdin: []byte(content), Args: []string{"hash-object", "--stdin"}})
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func TestDiffWorktree_ShowsUntrackedFilesAndLeavesIndexAlone(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	s.WriteFile(".gitignore", "*.log\n")
	s.WriteFile("kept.txt", "one\n\ntwo\n")
	s.WriteFile("gone.txt", "bye\n")
	head := s.Commit("base")
	s.WriteFile("kept.txt", "one\n\n2\n")
	if err := os.Remove(filepath.Join(s.Root, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	s.WriteFile("new dir/untracked *.txt", "fresh\n")
	s.WriteFile("debug.log", "ignored\n")
	s.WriteFile("nested/inner.txt", "inner\n")
	if _, err := s.Runner.Run(context.Background(), gitrepo.Invocation{Dir: filepath.Join(s.Root, "nested"), Args: []string{"init", "--quiet"}}); err != nil {
		t.Fatal(err)
	}
	indexPath := filepath.Join(s.Root, ".git", "index")
	indexBefore, err := os.ReadFile(indexPath)
	if err != nil {
		t.Fatal(err)
	}
	statusBefore := s.Git("status", "--porcelain")

	r := openRepo(t, s)
	got := diffOf(t, "DiffWorktree", func() ([]byte, error) { return r.DiffWorktree(context.Background(), head) })

	want := "diff --git a/gone.txt b/gone.txt\n" +
		"deleted file mode 100644\n" +
		"index " + hashObject(t, s, "bye\n") + ".." + blobNull + "\n" +
		"--- a/gone.txt\n" +
		"+++ /dev/null\n" +
		"@@ -1 +0,0 @@\n" +
		"-bye\n" +
		"diff --git a/kept.txt b/kept.txt\n" +
		"index " + hashObject(t, s, "one\n\ntwo\n") + ".." + hashObject(t, s, "one\n\n2\n") + " 100644\n" +
		"--- a/kept.txt\n" +
		"+++ b/kept.txt\n" +
		"@@ -1,3 +1,3 @@\n" +
		" one\n" +
		" \n" +
		"-two\n" +
		"+2\n" +
		"diff --git a/new dir/untracked *.txt b/new dir/untracked *.txt\n" +
		"new file mode 100644\n" +
		"index " + blobNull + ".." + hashObject(t, s, "fresh\n") + "\n" +
		"--- /dev/null\n" +
		"+++ b/new dir/untracked *.txt\t\n" +
		"@@ -0,0 +1 @@\n" +
		"+fresh\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DiffWorktree (-want +got):\n%s", diff)
	}

	indexAfter, err := os.ReadFile(indexPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(indexBefore, indexAfter) {
		t.Error("DiffWorktree changed .git/index")
	}
	if statusAfter := s.Git("status", "--porcelain"); statusAfter != statusBefore {
		t.Errorf("git status changed:\nbefore:\n%s\nafter:\n%s", statusBefore, statusAfter)
	}
}

func TestDiffWorktree_UnbornHeadDiffsAgainstEmptyTree(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	s.WriteFile("staged.txt", "staged\n")
	s.Git("add", "staged.txt")
	s.WriteFile("untracked.txt", "untracked\n")
	r := openRepo(t, s)
	empty, err := r.EmptyTree(context.Background())
	if err != nil {
		t.Fatal(err)
	}

	got := diffOf(t, "DiffWorktree", func() ([]byte, error) { return r.DiffWorktree(context.Background(), empty) })
	want := "diff --git a/staged.txt b/staged.txt\n" +
		"new file mode 100644\n" +
		"index " + blobNull + ".." + hashObject(t, s, "staged\n") + "\n" +
		"--- /dev/null\n" +
		"+++ b/staged.txt\n" +
		"@@ -0,0 +1 @@\n" +
		"+staged\n" +
		"diff --git a/untracked.txt b/untracked.txt\n" +
		"new file mode 100644\n" +
		"index " + blobNull + ".." + hashObject(t, s, "untracked\n") + "\n" +
		"--- /dev/null\n" +
		"+++ b/untracked.txt\n" +
		"@@ -0,0 +1 @@\n" +
		"+untracked\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DiffWorktree (-want +got):\n%s", diff)
	}

	staged := diffOf(t, "DiffStaged", func() ([]byte, error) { return r.DiffStaged(context.Background(), empty) })
	if wantStaged, _, _ := strings.Cut(want, "diff --git a/untracked.txt"); staged != wantStaged {
		t.Errorf("DiffStaged = %q\nwant %q", staged, wantStaged)
	}
}

func TestDiffStaged_ShowsTheIndexNotTheWorkTree(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	s.WriteFile("a.txt", "a\n")
	head := s.Commit("base")
	s.WriteFile("a.txt", "staged\n")
	s.Git("add", "a.txt")
	s.WriteFile("a.txt", "not staged\n")
	s.WriteFile("untracked.txt", "u\n")

	got := diffOf(t, "DiffStaged", func() ([]byte, error) { return openRepo(t, s).DiffStaged(context.Background(), head) })
	want := "diff --git a/a.txt b/a.txt\n" +
		"index " + hashObject(t, s, "a\n") + ".." + hashObject(t, s, "staged\n") + " 100644\n" +
		"--- a/a.txt\n" +
		"+++ b/a.txt\n" +
		"@@ -1 +1 @@\n" +
		"-a\n" +
		"+staged\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DiffStaged (-want +got):\n%s", diff)
	}
}

func TestDiffCommits_DetectsRenames(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	body := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
	s.WriteFile("old name.txt", body)
	from := s.Commit("before")
	s.Git("mv", "old name.txt", "new name.txt")
	s.WriteFile("new name.txt", strings.Replace(body, "5\n", "five\n", 1))
	to := s.Commit("rename")

	got := diffOf(t, "DiffCommits", func() ([]byte, error) { return openRepo(t, s).DiffCommits(context.Background(), from, to) })
	want := "diff --git a/old name.txt b/new name.txt\n" +
		"similarity index 79%\n" +
		"rename from old name.txt\n" +
		"rename to new name.txt\n" +
		"index " + hashObject(t, s, body) + ".." + hashObject(t, s, strings.Replace(body, "5\n", "five\n", 1)) + " 100644\n" +
		"--- a/old name.txt\t\n" + // git ends a path holding a space with a tab
		"+++ b/new name.txt\t\n" +
		"@@ -2,7 +2,7 @@\n" +
		" 2\n 3\n 4\n" +
		"-5\n" +
		"+five\n" +
		" 6\n 7\n 8\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DiffCommits (-want +got):\n%s", diff)
	}
}

func TestDiffCommits_BinaryFileAsGitBinaryPatch(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	from := s.Commit("empty")
	s.WriteFile("image.bin", "\x00\x01\x02binary\x00\xff")
	to := s.Commit("binary")

	got := diffOf(t, "DiffCommits", func() ([]byte, error) { return openRepo(t, s).DiffCommits(context.Background(), from, to) })
	wantPrefix := "diff --git a/image.bin b/image.bin\n" +
		"new file mode 100644\n" +
		"index " + blobNull + ".." + hashObject(t, s, "\x00\x01\x02binary\x00\xff") + "\n" +
		"GIT binary patch\n" +
		"literal 11\n"
	if !strings.HasPrefix(got, wantPrefix) {
		t.Errorf("DiffCommits = %q\nwant prefix %q", got, wantPrefix)
	}
}

func TestDiffCommits_QuotesNonASCIIPaths(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	from := s.Commit("empty")
	s.WriteFile("café menu/naïve file.txt", "x\n")
	to := s.Commit("non-ASCII")

	got := diffOf(t, "DiffCommits", func() ([]byte, error) { return openRepo(t, s).DiffCommits(context.Background(), from, to) })
	want := `diff --git "a/caf\303\251 menu/na\303\257ve file.txt" "b/caf\303\251 menu/na\303\257ve file.txt"` + "\n" +
		"new file mode 100644\n" +
		"index " + blobNull + ".." + hashObject(t, s, "x\n") + "\n" +
		"--- /dev/null\n" +
		`+++ "b/caf\303\251 menu/na\303\257ve file.txt"` + "\t\n" +
		"@@ -0,0 +1 @@\n" +
		"+x\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DiffCommits (-want +got):\n%s", diff)
	}
}

// hostileConfig is a user configuration that changes `git diff`'s output in
// every way a configuration can; none of it, nor the environment variables
// the test adds, may reach leanreview's diffs.
const hostileConfig = `[color]
	ui = always
	diff = always
[core]
	quotePath = false
	abbrev = 12
	attributesFile = ~/.gitattributes
[diff]
	noprefix = true
	mnemonicPrefix = true
	context = 10
	interHunkContext = 10
	renames = false
	external = false
	suppressBlankEmpty = true
	relative = true
	submodule = log
[diff "shout"]
	textconv = sed s/[a-z]/X/g
`

func TestDiff_UserConfigCannotChangeTheOutput(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	lines := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n\nk\nl\nm\nn\no\np\n"
	s.WriteFile("letters.txt", lines)
	s.WriteFile("move me.txt", "1\n2\n3\n4\n5\n")
	from := s.Commit("before")
	s.WriteFile("letters.txt", strings.NewReplacer("b\n", "B\n", "n\n", "N\n").Replace(lines))
	s.Git("mv", "move me.txt", "moved é.txt")
	s.WriteFile("blob.bin", "\x00bin\x00")
	to := s.Commit("after")
	s.WriteFile("letters.txt", lines)
	s.Git("add", "letters.txt")
	s.WriteFile("untracked é.txt", "new\n")

	r := openRepo(t, s)
	ctx := context.Background()
	diffs := func() map[string]string {
		return map[string]string{
			"commits":  diffOf(t, "DiffCommits", func() ([]byte, error) { return r.DiffCommits(ctx, from, to) }),
			"staged":   diffOf(t, "DiffStaged", func() ([]byte, error) { return r.DiffStaged(ctx, to) }),
			"worktree": diffOf(t, "DiffWorktree", func() ([]byte, error) { return r.DiffWorktree(ctx, to) }),
		}
	}
	plain := diffs()
	s.WriteUserConfig(hostileConfig)
	if err := os.WriteFile(filepath.Join(s.Home, ".gitattributes"), []byte("*.txt diff=shout\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The configuration is in force: plain git diff obeys it.
	raw := s.Git("diff", "--no-ext-diff", from, to)
	for _, effect := range []string{
		"\x1b[",                // color.ui
		"--- letters.txt",      // diff.noprefix
		"+++ moved é.txt",      // core.quotePath, diff.renames
		"index 000000000000..", // core.abbrev
		"\x1b[32mB",            // textconv turned the context into X
		"@@ -1,17 +1,17 @@",    // diff.context
		"X\x1b[m\n\n X",        // diff.suppressBlankEmpty
	} {
		if !strings.Contains(raw, effect) {
			t.Fatalf("hostile configuration not in force: git diff lacks %q:\n%q", effect, raw)
		}
	}
	s.Runner.Env = append(s.Runner.Env, "GIT_DIFF_OPTS=--unified=0", "GIT_EXTERNAL_DIFF=false", "LANG=de_DE.UTF-8")
	if diff := cmp.Diff(plain, diffs()); diff != "" {
		t.Errorf("user configuration changed the diffs (-plain +configured):\n%s", diff)
	}
	for name, d := range plain {
		if !strings.Contains(d, "diff --git a/") {
			t.Errorf("%s diff has no a/ prefix:\n%s", name, d)
		}
	}
	if !strings.Contains(plain["commits"], "rename from move me.txt\nrename to \"moved \\303\\251.txt\"\n") {
		t.Errorf("commits diff lacks the quoted rename:\n%s", plain["commits"])
	}
}

func TestDiffWorktree_FileMovedWithoutGitIsARename(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	s.WriteFile("before.txt", "1\n2\n3\n4\n5\n")
	head := s.Commit("base")
	if err := os.Rename(filepath.Join(s.Root, "before.txt"), filepath.Join(s.Root, "after.txt")); err != nil {
		t.Fatal(err)
	}
	got := diffOf(t, "DiffWorktree", func() ([]byte, error) { return openRepo(t, s).DiffWorktree(context.Background(), head) })
	want := "diff --git a/before.txt b/after.txt\n" +
		"similarity index 100%\n" +
		"rename from before.txt\n" +
		"rename to after.txt\n"
	if got != want {
		t.Errorf("DiffWorktree = %q\nwant %q", got, want)
	}
}
