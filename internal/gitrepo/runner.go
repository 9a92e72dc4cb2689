package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Invocation is one run of git, described completely enough for a fake to
// match it: the same Invocation always means the same command.
type Invocation struct {
	// Dir is the working directory git runs in; "" means the process's.
	Dir string
	// Env holds KEY=VALUE entries added on top of the runner's base
	// environment for this run only; a later entry wins over an earlier one.
	// nil and empty are the same.
	Env []string
	// Stdin is fed to git's standard input; nil means no input.
	Stdin []byte
	// Args are git's arguments, without the leading "git".
	Args []string
}

// String renders the invocation as a shell-like line for messages:
// "git rev-parse --show-toplevel". Env and Dir are left out.
func (inv Invocation) String() string {
	return "git " + strings.Join(inv.Args, " ")
}

// Runner runs git. Run returns git's standard output when git exits with
// status 0; otherwise an error, which is an *ExitError when git ran and
// exited non-zero. Implementations must be safe for concurrent use.
type Runner interface {
	Run(ctx context.Context, inv Invocation) (stdout []byte, err error)
}

// ExitError reports that git ran and exited with a non-zero status.
type ExitError struct {
	// Args are git's arguments, without the leading "git".
	Args []string
	// Code is the exit status, or -1 when git was killed by a signal.
	Code int
	// Stderr is git's standard error with surrounding space trimmed.
	Stderr string
}

// Error names the command, the status and the first line of git's stderr.
func (e *ExitError) Error() string {
	msg := fmt.Sprintf("git %s: exit status %d", strings.Join(e.Args, " "), e.Code)
	if line := FirstLine(e.Stderr); line != "" {
		msg += ": " + line
	}
	return msg
}

// FirstLine returns the first non-empty line of s without surrounding space.
func FirstLine(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}

// ExecRunner runs the real git binary. Every run gets, after Env and the
// invocation's own Env, the variables that keep git's output fixed whatever
// the user's locale, terminal and environment: LC_ALL=C, GIT_PAGER=cat,
// GIT_OPTIONAL_LOCKS=0 (so a read never rewrites the user's index),
// GIT_TERMINAL_PROMPT=0, and an empty GIT_DIFF_OPTS (which would otherwise
// override --unified on the command line).
type ExecRunner struct {
	// Path is the git binary; "" means "git" looked up on the process's PATH.
	Path string
	// Env is the complete base environment for git, normally the process's
	// environment handed down by the command line layer; nil means empty.
	Env []string
}

var _ Runner = (*ExecRunner)(nil)

// fixedEnv is appended last to every run: see ExecRunner.
var fixedEnv = [...]string{"LC_ALL=C", "GIT_PAGER=cat", "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_DIFF_OPTS="}

// Run implements Runner.
func (r *ExecRunner) Run(ctx context.Context, inv Invocation) ([]byte, error) {
	path := r.Path
	if path == "" {
		path = "git"
	}
	cmd := exec.CommandContext(ctx, path, inv.Args...)
	cmd.Dir = inv.Dir
	env := make([]string, 0, len(r.Env)+len(inv.Env)+len(fixedEnv))
	env = append(env, r.Env...)
	env = append(env, inv.Env...)
	cmd.Env = append(env, fixedEnv[:]...)
	if inv.Stdin != nil {
		cmd.Stdin = bytes.NewReader(inv.Stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, fmt.Errorf("%s: %w", inv, ctxErr)
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return nil, &ExitError{Args: inv.Args, Code: exitErr.ExitCode(), Stderr: strings.TrimSpace(stderr.String())}
	}
	return nil, fmt.Errorf("run %s: %w", inv, err)
}
