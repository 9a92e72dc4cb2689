package gitrepo_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/gitrepo"
	"github.com/leanreview/leanreview/internal/gitrepo/gitrepotest"
)

func openRepo(t *testing.T, s *gitrepotest.Sandbox) *gitrepo.Repo {
	t.Helper()
	r, err := gitrepo.Open(context.Background(), s.Runner, s.Root)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return r
}

func TestExecRunner_ErrorNamesCommandAndFirstStderrLine(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	_, err := s.Runner.Run(context.Background(), gitrepo.Invocation{Dir: s.Root, Args: []string{"cat-file", "-t", "nosuchobject"}})
	var exitErr *gitrepo.ExitError
	if !errors.As(err, &exitErr) {
		t.Fatalf("err = %v, want *ExitError", err)
	}
	if exitErr.Code != 128 {
		t.Errorf("Code = %d, want 128", exitErr.Code)
	}
	want := "git cat-file -t nosuchobject: exit status 128: fatal: Not a valid object name nosuchobject"
	if got := err.Error(); got != want {
		t.Errorf("Error() = %q\nwant %q", got, want)
	}
}

func TestExecRunner_PassesStdinAndEnv(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	out, err := s.Runner.Run(context.Background(), gitrepo.Invocation{
		Dir:   s.Root,
		Env:   []string{"GIT_AUTHOR_NAME=From Env", "GIT_AUTHOR_EMAIL=env@example.com", "GIT_AUTHOR_DATE=@0 +0000"},
		Stdin: []byte("hello\n"),
		Args:  []string{"hash-object", "--stdin"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), "ce013625030ba8dba906f756967f9e9ca394464a\n"; got != want {
		t.Errorf("hash of stdin = %q, want %q", got, want)
	}
	out, err = s.Runner.Run(context.Background(), gitrepo.Invocation{
		Dir:  s.Root,
		Env:  []string{"GIT_AUTHOR_NAME=From Env", "GIT_AUTHOR_EMAIL=env@example.com", "GIT_AUTHOR_DATE=@0 +0000"},
		Args: []string{"var", "GIT_AUTHOR_IDENT"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), "From Env <env@example.com> 0 +0000\n"; got != want {
		t.Errorf("author ident = %q, want %q", got, want)
	}
}

func TestOpen_FindsRootFromSubdirectoryThroughSymlink(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	s.WriteFile("sub/dir/file.txt", "x\n")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(s.Root, link); err != nil {
		t.Fatal(err)
	}
	r, err := gitrepo.Open(context.Background(), s.Runner, filepath.Join(link, "sub", "dir"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Root() != s.Root {
		t.Errorf("Root() = %q, want %q", r.Root(), s.Root)
	}
}

func TestOpen_OutsideWorkTreeIsNotRepositoryError(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	for name, dir := range map[string]string{
		"outside any repository": t.TempDir(),
		"inside .git":            filepath.Join(s.Root, ".git"),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := gitrepo.Open(context.Background(), s.Runner, dir)
			var notRepo *gitrepo.NotRepositoryError
			if !errors.As(err, &notRepo) {
				t.Fatalf("err = %v, want *NotRepositoryError", err)
			}
			if notRepo.Dir != dir || notRepo.Detail == "" {
				t.Errorf("err = %+v, want Dir %q and git's detail", notRepo, dir)
			}
		})
	}
}

func TestHead_UnbornInFreshRepository(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	commit, ok, err := openRepo(t, s).Head(context.Background())
	if err != nil || ok || commit != "" {
		t.Errorf("Head() = %q, %v, %v; want unborn", commit, ok, err)
	}
}

func TestHead_ReturnsCurrentCommit(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	s.WriteFile("a.txt", "a\n")
	want := s.Commit("first")
	commit, ok, err := openRepo(t, s).Head(context.Background())
	if err != nil || !ok || commit != want {
		t.Errorf("Head() = %q, %v, %v; want %q, true", commit, ok, err, want)
	}
}

func TestResolveCommit(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	s.WriteFile("a.txt", "a\n")
	first := s.Commit("first")
	s.Git("tag", "v1")
	s.WriteFile("a.txt", "b\n")
	second := s.Commit("second")
	r := openRepo(t, s)
	for _, tc := range []struct{ rev, want string }{
		{"HEAD", second},
		{"main", second},
		{"HEAD~1", first},
		{"v1", first},
		{first[:10], first},
	} {
		t.Run(tc.rev, func(t *testing.T) {
			got, err := r.ResolveCommit(context.Background(), tc.rev)
			if err != nil || got != tc.want {
				t.Errorf("ResolveCommit(%q) = %q, %v; want %q", tc.rev, got, err, tc.want)
			}
		})
	}
}

func TestResolveCommit_UnknownRevisionNamesIt(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	s.WriteFile("a.txt", "a\n")
	s.Commit("first")
	r := openRepo(t, s)
	for _, rev := range []string{"no-such-branch", "HEAD~5", "HEAD:a.txt", "--output=/tmp/x", ""} {
		t.Run(rev, func(t *testing.T) {
			_, err := r.ResolveCommit(context.Background(), rev)
			var unknown *gitrepo.UnknownRevisionError
			if !errors.As(err, &unknown) || unknown.Rev != rev {
				t.Fatalf("err = %v, want *UnknownRevisionError for %q", err, rev)
			}
			if !strings.Contains(err.Error(), `"`+rev+`"`) {
				t.Errorf("message %q does not name %q", err, rev)
			}
		})
	}
}

func TestMergeBase(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	s.WriteFile("a.txt", "a\n")
	base := s.Commit("base")
	s.Git("switch", "--quiet", "--create", "topic")
	s.WriteFile("b.txt", "b\n")
	topic := s.Commit("topic")
	s.Git("switch", "--quiet", "main")
	s.WriteFile("c.txt", "c\n")
	main := s.Commit("main moves on")
	s.Git("switch", "--quiet", "--orphan", "unrelated")
	s.WriteFile("d.txt", "d\n")
	orphan := s.Commit("unrelated root")
	r := openRepo(t, s)
	ctx := context.Background()

	got, err := r.MergeBase(ctx, main, topic)
	if err != nil || got != base {
		t.Errorf("MergeBase(main, topic) = %q, %v; want %q", got, err, base)
	}
	_, err = r.MergeBase(ctx, main, orphan)
	var none *gitrepo.NoMergeBaseError
	if !errors.As(err, &none) {
		t.Errorf("MergeBase(main, orphan) err = %v, want *NoMergeBaseError", err)
	}
}

func TestParents(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	s.WriteFile("a.txt", "a\n")
	root := s.Commit("root")
	s.Git("switch", "--quiet", "--create", "topic")
	s.WriteFile("b.txt", "b\n")
	topic := s.Commit("topic")
	s.Git("switch", "--quiet", "main")
	s.WriteFile("c.txt", "c\n")
	main := s.Commit("main")
	s.Git("merge", "--quiet", "--no-edit", "topic")
	merge := strings.TrimSpace(s.Git("rev-parse", "HEAD"))
	r := openRepo(t, s)
	for name, tc := range map[string]struct {
		commit string
		want   []string
	}{
		"root commit has none": {root, nil},
		"ordinary commit":      {topic, []string{root}},
		"merge, first first":   {merge, []string{main, topic}},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := r.Parents(context.Background(), tc.commit)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Parents (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEmptyTree(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	got, err := openRepo(t, s).EmptyTree(context.Background())
	if err != nil || got != "4b825dc642cb6eb9a060e54bf8d69288fbee4904" {
		t.Errorf("EmptyTree() = %q, %v", got, err)
	}
}
