package source_test

import (
	"context"
	"strings"
	"testing"

	"github.com/leanreview/leanreview/internal/gitrepo"
	"github.com/leanreview/leanreview/internal/gitrepo/gitrepotest"
	"github.com/leanreview/leanreview/internal/source"
)

// These tests pin the exact git commands a source runs, with a strict fake:
// a flag dropped from the diff, or an extra command, fails them.

const (
	shaMain  = "1111111111111111111111111111111111111111"
	shaTopic = "2222222222222222222222222222222222222222"
	shaBase  = "3333333333333333333333333333333333333333"
	shaEmpty = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
)

func inRepo(args ...string) gitrepo.Invocation {
	return gitrepo.Invocation{Dir: "/src/repo", Args: args}
}

func verify(rev string) gitrepo.Invocation {
	return inRepo("rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
}

// diffInvocation is the diff gitrepo must run between from and to.
func diffInvocation(from, to string) gitrepo.Invocation {
	return inRepo("-c", "core.quotePath=true", "-c", "diff.suppressBlankEmpty=false", "diff",
		"--no-color", "--no-ext-diff", "--no-textconv", "--no-relative",
		"--src-prefix=a/", "--dst-prefix=b/", "-M", "--binary", "--full-index",
		"--unified=3", "--inter-hunk-context=0", "--submodule=short",
		from, to, "--")
}

func TestOpen_ThreeDotRangeRunsMergeBaseThenDiff(t *testing.T) {
	git := gitrepotest.NewFake(t)
	git.Expect(gitrepo.Invocation{Dir: "/src/repo/sub", Args: []string{"rev-parse", "--show-toplevel"}}).Returns("/src/repo\n")
	for range 2 { // once at Open, once at Patch: branches move
		git.Expect(verify("main")).Returns(shaMain + "\n")
		git.Expect(verify("topic")).Returns(shaTopic + "\n")
		git.Expect(inRepo("merge-base", shaMain, shaTopic, "--")).Returns(shaBase + "\n")
	}
	git.Expect(diffInvocation(shaBase, shaTopic)).Returns("diff --git a/x b/x\n")

	src, err := source.Open(context.Background(), []string{"main...topic"}, source.Options{Dir: "/src/repo/sub", Git: git})
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != source.KindRange || src.Root != "/src/repo" || src.Spec != "main...topic" {
		t.Errorf("source = %+v", src)
	}
	patch, err := src.Patch(context.Background())
	if err != nil || string(patch) != "diff --git a/x b/x\n" {
		t.Errorf("Patch = %q, %v", patch, err)
	}
}

func TestOpen_RootCommitDiffsAgainstTheEmptyTree(t *testing.T) {
	git := gitrepotest.NewFake(t)
	git.Expect(gitrepo.Invocation{Dir: "/src/repo", Args: []string{"rev-parse", "--show-toplevel"}}).Returns("/src/repo\n")
	for range 2 {
		git.Expect(verify(shaMain[:7])).Returns(shaMain + "\n")
		git.Expect(inRepo("rev-list", "--parents", "--max-count=1", shaMain, "--")).Returns(shaMain + "\n")
	}
	// The empty tree is asked for once per repository.
	git.Expect(inRepo("hash-object", "-t", "tree", "/dev/null")).Returns(shaEmpty + "\n")
	git.Expect(diffInvocation(shaEmpty, shaMain)).Returns("root patch")

	src, err := source.Open(context.Background(), []string{shaMain[:7]}, source.Options{Dir: "/src/repo", Git: git})
	if err != nil {
		t.Fatal(err)
	}
	if patch, err := src.Patch(context.Background()); err != nil || string(patch) != "root patch" {
		t.Errorf("Patch = %q, %v", patch, err)
	}
}

func TestOpen_GitFailuresBecomeSourceErrors(t *testing.T) {
	t.Run("not a repository", func(t *testing.T) {
		git := gitrepotest.NewFake(t)
		git.Expect(gitrepo.Invocation{Dir: "/tmp/x", Args: []string{"rev-parse", "--show-toplevel"}}).
			Fails(128, "fatal: not a git repository (or any of the parent directories): .git")
		_, err := source.Open(context.Background(), nil, source.Options{Dir: "/tmp/x", Git: git})
		assertSourceError(t, err, "/tmp/x is not in a git work tree, so . has nothing to compare: run leanreview inside a repository, or give a patch file or -")
	})
	t.Run("unknown revision", func(t *testing.T) {
		git := gitrepotest.NewFake(t)
		git.Expect(gitrepo.Invocation{Dir: "/src/repo", Args: []string{"rev-parse", "--show-toplevel"}}).Returns("/src/repo\n")
		git.Expect(verify("main")).Returns(shaMain + "\n")
		git.Expect(verify("nope")).Fails(1, "")
		_, err := source.Open(context.Background(), []string{"main", "nope"}, source.Options{Dir: "/src/repo", Git: git})
		assertSourceError(t, err, `unknown revision "nope" in /src/repo: check it with git rev-parse --verify "nope"`)
	})
	t.Run("git breaks", func(t *testing.T) {
		git := gitrepotest.NewFake(t)
		git.Expect(gitrepo.Invocation{Dir: "/src/repo", Args: []string{"rev-parse", "--show-toplevel"}}).Returns("/src/repo\n")
		git.Expect(verify("HEAD")).Fails(128, "fatal: bad object HEAD\nmore detail")
		_, err := source.Open(context.Background(), []string{"."}, source.Options{Dir: "/src/repo", Git: git})
		want := "resolve HEAD in /src/repo: resolve HEAD: git rev-parse --verify --quiet --end-of-options HEAD^{commit}: exit status 128: fatal: bad object HEAD"
		if err == nil || err.Error() != want {
			t.Errorf("err = %v\nwant %s", err, want)
		}
		if strings.Contains(err.Error(), "more detail") {
			t.Error("message carries more than git's first line")
		}
	})
}
