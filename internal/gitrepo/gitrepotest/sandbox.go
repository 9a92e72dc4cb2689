package gitrepotest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/leanreview/internal/gitrepo"
)

// Sandbox is a fresh git repository in a temporary directory, with HEAD
// unborn on branch main, and a runner whose git reads no system
// configuration and takes its user configuration from a file of the
// sandbox's own (see WriteUserConfig), never from the user's home.
type Sandbox struct {
	t testing.TB

	// Root is the work tree's top directory, symbolic links resolved.
	Root string
	// Home is the HOME git sees; its .gitconfig is the user configuration.
	Home string
	// Runner runs the real git with the sandbox's environment. It carries no
	// author identity: commits made through Git and Commit do.
	Runner *gitrepo.ExecRunner
}

// commitEnv fixes the identity and dates of sandbox commits so their object
// names are the same on every run.
var commitEnv = []string{
	"GIT_AUTHOR_NAME=Ada Author", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_AUTHOR_DATE=2024-01-02T03:04:05Z",
	"GIT_COMMITTER_NAME=Carl Committer", "GIT_COMMITTER_EMAIL=carl@example.com", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z",
}

// NewSandbox creates the repository, skipping the test when git is not
// installed.
func NewSandbox(t testing.TB) *Sandbox {
	t.Helper()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skipf("git not installed: %v", err)
	}
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(tmp, "home")
	root := filepath.Join(tmp, "repo")
	for _, dir := range []string{home, root} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := &Sandbox{t: t, Root: root, Home: home, Runner: &gitrepo.ExecRunner{
		Path: gitPath,
		Env: []string{
			"PATH=" + filepath.Dir(gitPath),
			"HOME=" + home,
			"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
			"GIT_CONFIG_NOSYSTEM=1",
			"GIT_CONFIG_GLOBAL=" + filepath.Join(home, ".gitconfig"),
		},
	}}
	s.Git("init", "--quiet", "--initial-branch=main")
	return s
}

// Git runs git in the sandbox root with the fixed commit identity and
// returns its standard output; a failure fails the test.
func (s *Sandbox) Git(args ...string) string {
	s.t.Helper()
	out, err := s.Runner.Run(context.Background(), gitrepo.Invocation{Dir: s.Root, Env: commitEnv, Args: args})
	if err != nil {
		s.t.Fatalf("sandbox: %v", err)
	}
	return string(out)
}

// WriteFile writes content to the file at rel, a slash-separated path under
// the root, creating directories as needed.
func (s *Sandbox) WriteFile(rel, content string) {
	s.t.Helper()
	path := filepath.Join(s.Root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// Commit stages every change in the work tree, commits it with message and
// returns the new commit's full object name.
func (s *Sandbox) Commit(message string) string {
	s.t.Helper()
	s.Git("add", "--all")
	s.Git("commit", "--quiet", "--allow-empty", "--message", message)
	return strings.TrimSpace(s.Git("rev-parse", "HEAD"))
}

// WriteUserConfig replaces the user configuration git reads in the sandbox
// with content, in git-config syntax.
func (s *Sandbox) WriteUserConfig(content string) {
	s.t.Helper()
	if err := os.WriteFile(filepath.Join(s.Home, ".gitconfig"), []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}
