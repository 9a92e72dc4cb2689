package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// binary is the leanreview command built once for the tests that run it as
// a real process.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "leanreview-cli-test")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "leanreview")
	build := exec.Command("go", "build", "-o", binary, "../../cmd/leanreview")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("build leanreview: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sandbox is an isolated home for one test: its own state and config
// directories, and an environment that points there.
type sandbox struct {
	t     *testing.T
	dir   string
	state string
	env   []string
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	dir := t.TempDir()
	s := &sandbox{t: t, dir: dir, state: filepath.Join(dir, "state")}
	s.env = []string{
		"HOME=" + dir,
		"PATH=" + os.Getenv("PATH"),
		"XDG_STATE_HOME=" + s.state,
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_RUNTIME_DIR=" + filepath.Join(dir, "run"),
		"TMPDIR=" + dir,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
	}
	return s
}

// run runs leanreview with args in the sandbox; stdin may be empty.
func (s *sandbox) run(stdin string, args ...string) (stdout, stderr string, code int) {
	s.t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = s.env
	cmd.Dir = s.dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatalf("run leanreview %v: %v", args, err)
	}
	return out.String(), errOut.String(), code
}

// ok runs leanreview and fails the test unless it exits 0.
func (s *sandbox) ok(args ...string) string {
	s.t.Helper()
	out, errOut, code := s.run("", args...)
	if code != 0 {
		s.t.Fatalf("leanreview %v: exit %d\nstdout: %s\nstderr: %s", args, code, out, errOut)
	}
	return out
}

func testdataPath(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
