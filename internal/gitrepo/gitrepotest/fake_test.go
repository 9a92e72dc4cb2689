package gitrepotest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/gitrepo"
	"github.com/leanreview/leanreview/internal/gitrepo/gitrepotest"
)

// recorder is a gitrepotest.T that keeps failures instead of reporting them,
// so the tests can check what the fake reports.
type recorder struct {
	errors   []string
	cleanups []func()
}

func (r *recorder) Helper()                           {}
func (r *recorder) Errorf(format string, args ...any) { r.errors = append(r.errors, format) }
func (r *recorder) Cleanup(f func())                  { r.cleanups = append(r.cleanups, f) }

// finish runs the cleanups as the end of a test would.
func (r *recorder) finish() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

var revParse = gitrepo.Invocation{Dir: "/repo", Args: []string{"rev-parse", "HEAD"}}

func TestFake_AnswersMatchingInvocationsInAnyOrder(t *testing.T) {
	rec := &recorder{}
	f := gitrepotest.NewFake(rec)
	f.Expect(revParse).Returns("abc\n")
	f.Expect(gitrepo.Invocation{Dir: "/repo", Env: []string{"GIT_INDEX_FILE=/tmp/i"}, Stdin: []byte("a\x00"), Args: []string{"add", "-N"}}).Returns("added")

	out, err := f.Run(context.Background(), gitrepo.Invocation{Dir: "/repo", Env: []string{"GIT_INDEX_FILE=/tmp/i"}, Stdin: []byte("a\x00"), Args: []string{"add", "-N"}})
	if err != nil || string(out) != "added" {
		t.Errorf("second expectation answered %q, %v", out, err)
	}
	out, err = f.Run(context.Background(), revParse)
	if err != nil || string(out) != "abc\n" {
		t.Errorf("first expectation answered %q, %v", out, err)
	}
	rec.finish()
	if len(rec.errors) != 0 {
		t.Errorf("fake reported %q, want nothing", rec.errors)
	}
}

func TestFake_FailsAsGitWould(t *testing.T) {
	rec := &recorder{}
	f := gitrepotest.NewFake(rec)
	f.Expect(revParse).Fails(128, "fatal: not a git repository")

	_, err := f.Run(context.Background(), revParse)
	var exitErr *gitrepo.ExitError
	if !errors.As(err, &exitErr) {
		t.Fatalf("err = %v, want *gitrepo.ExitError", err)
	}
	want := &gitrepo.ExitError{Args: []string{"rev-parse", "HEAD"}, Code: 128, Stderr: "fatal: not a git repository"}
	if diff := cmp.Diff(want, exitErr); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	rec.finish()
	if len(rec.errors) != 0 {
		t.Errorf("fake reported %q, want nothing", rec.errors)
	}
}

func TestFake_RejectsAnyDifferenceInTheInvocation(t *testing.T) {
	for name, inv := range map[string]gitrepo.Invocation{
		"dir":         {Dir: "/elsewhere", Args: []string{"rev-parse", "HEAD"}},
		"args":        {Dir: "/repo", Args: []string{"rev-parse", "HEAD~1"}},
		"extra arg":   {Dir: "/repo", Args: []string{"rev-parse", "HEAD", "--"}},
		"env":         {Dir: "/repo", Env: []string{"GIT_DIR=x"}, Args: []string{"rev-parse", "HEAD"}},
		"stdin":       {Dir: "/repo", Stdin: []byte("x"), Args: []string{"rev-parse", "HEAD"}},
		"no expected": {},
	} {
		t.Run(name, func(t *testing.T) {
			rec := &recorder{}
			f := gitrepotest.NewFake(rec)
			f.Expect(revParse).Returns("abc\n")
			_, err := f.Run(context.Background(), inv)
			if err == nil || !strings.Contains(err.Error(), "unexpected invocation") {
				t.Errorf("err = %v, want an unexpected invocation error", err)
			}
			if len(rec.errors) != 1 {
				t.Errorf("fake reported %d failures, want 1", len(rec.errors))
			}
			f.Run(context.Background(), revParse) // use it, so only the mismatch is reported
			rec.finish()
			if len(rec.errors) != 1 {
				t.Errorf("after the test ended: %d failures, want 1", len(rec.errors))
			}
		})
	}
}

func TestFake_EachExpectationAnswersOnce(t *testing.T) {
	rec := &recorder{}
	f := gitrepotest.NewFake(rec)
	f.Expect(revParse).Returns("abc\n")
	if _, err := f.Run(context.Background(), revParse); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Run(context.Background(), revParse); err == nil {
		t.Error("second identical run succeeded; want it rejected")
	}
	if len(rec.errors) != 1 {
		t.Errorf("fake reported %d failures, want 1", len(rec.errors))
	}
}

func TestFake_ReportsUnusedExpectationsWhenTheTestEnds(t *testing.T) {
	rec := &recorder{}
	f := gitrepotest.NewFake(rec)
	f.Expect(revParse).Returns("abc\n")
	if len(rec.errors) != 0 {
		t.Fatalf("fake reported %q before the test ended", rec.errors)
	}
	rec.finish()
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "never made") {
		t.Errorf("fake reported %q, want one unused expectation", rec.errors)
	}
}

func TestFake_HonoursCancelledContext(t *testing.T) {
	rec := &recorder{}
	f := gitrepotest.NewFake(rec)
	f.Expect(revParse).Returns("abc\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.Run(ctx, revParse); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	f.Run(context.Background(), revParse)
	rec.finish()
	if len(rec.errors) != 0 {
		t.Errorf("fake reported %q, want nothing", rec.errors)
	}
}
