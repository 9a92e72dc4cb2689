package editor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/leanreview/leanreview/internal/iostreams"
)

// BufferName is the name of the file the editor opens; the .md suffix
// lets editors highlight Markdown.
const BufferName = "leanreview-comment.md"

// ErrEditorFailed matches (with errors.Is) an *ExitError: the editor ran
// and exited non-zero or was killed, and the comment is unchanged.
var ErrEditorFailed = errors.New("editor failed")

// ExitError says the editor exited unsuccessfully.
type ExitError struct {
	Command Command
	// Status is the exit status, or -1 when a signal ended the editor.
	Status int
	Err    error
}

func (e *ExitError) Error() string {
	if e.Status < 0 {
		return fmt.Sprintf("editor %s was stopped (%v); the comment is unchanged", e.Command, e.Err)
	}
	return fmt.Sprintf("editor %s exited with status %d; the comment is unchanged", e.Command, e.Status)
}

func (e *ExitError) Unwrap() error        { return e.Err }
func (e *ExitError) Is(target error) bool { return target == ErrEditorFailed }

// StartError says the editor could not be started at all (not found, not
// executable). Its message names the command and the setting that chose it.
type StartError struct {
	Command Command
	Err     error
}

func (e *StartError) Error() string {
	return fmt.Sprintf("cannot start editor %s: %v", e.Command, e.Err)
}

func (e *StartError) Unwrap() error { return e.Err }

// Request is one comment to write or edit.
type Request struct {
	Context Context
	// Body pre-fills the buffer when editing an existing comment; "" for a
	// new one.
	Body string
}

// Outcome is what the user did with the buffer. The zero Outcome is
// invalid.
type Outcome uint8

const (
	// OutcomeSaved means Result.Body holds a non-empty comment.
	OutcomeSaved Outcome = iota + 1
	// OutcomeDiscarded means the user left the comment empty: the caller
	// drops a new comment, and for an edit drops the existing one.
	OutcomeDiscarded
)

func (o Outcome) String() string {
	switch o {
	case OutcomeSaved:
		return "saved"
	case OutcomeDiscarded:
		return "discarded"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// Result is a finished edit.
type Result struct {
	Outcome Outcome
	// Body is the comment with the header removed and trailing white space
	// trimmed; "" when discarded.
	Body string
	// Changed is false when Body equals the request's Body (trimmed alike).
	Changed bool
}

// Editor runs one resolved editor command. Its fields are read-only once
// in use; an Editor may then be used from several goroutines.
type Editor struct {
	Command Command
	// IO is the terminal the editor runs attached to (Edit only); nil
	// attaches none (the null device).
	IO *iostreams.IOStreams
	// TempDir is where each edit makes its private (0700) directory; ""
	// means the system's temporary directory.
	TempDir string
	// Env is the editor's environment; nil inherits the process's.
	Env []string
}

// Edit writes the buffer, runs the editor on it attached to e.IO, waits,
// and reads the comment back. A non-zero exit returns an *ExitError (which
// matches ErrEditorFailed) and a zero Result; an editor that cannot start
// returns a *StartError. The buffer is removed in every case.
func (e *Editor) Edit(ctx context.Context, req Request) (Result, error) {
	b, err := e.Prepare(ctx, req)
	if err != nil {
		return Result{}, err
	}
	cmd := b.Cmd()
	if e.IO != nil {
		cmd.Stdin, cmd.Stdout, cmd.Stderr = e.IO.In, e.IO.Out, e.IO.ErrOut
	}
	return b.Finish(cmd.Run())
}

// Buffer is one comment being edited: its file on disk and the command
// that edits it. A full-screen UI hands Cmd to its exec mechanism (Bubble
// Tea's tea.ExecProcess) and calls Finish with the error that reports.
type Buffer struct {
	dir, path string
	cmd       *exec.Cmd
	command   Command
	orig      string
	ctx       context.Context
}

// Prepare writes req's buffer into a new private directory (file mode
// 0600) and builds, without starting, the command that edits it: e's
// command line with the buffer's path as last argument. The caller must
// call Finish (or Discard) to remove the directory.
func (e *Editor) Prepare(ctx context.Context, req Request) (*Buffer, error) {
	if len(e.Command.Args) == 0 {
		return nil, errors.New("prepare editor: no command resolved")
	}
	dir, err := os.MkdirTemp(e.TempDir, "leanreview-edit-")
	if err != nil {
		return nil, fmt.Errorf("prepare editor buffer: %w", err)
	}
	path := filepath.Join(dir, BufferName)
	if err := writeNew(path, renderBuffer(req.Context, req.Body)); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("prepare editor buffer: %w", err)
	}
	args := append(append([]string(nil), e.Command.Args[1:]...), path)
	cmd := exec.CommandContext(ctx, e.Command.Args[0], args...)
	cmd.Env = e.Env
	return &Buffer{dir: dir, path: path, cmd: cmd, command: e.Command, orig: req.Body, ctx: ctx}, nil
}

func writeNew(path, content string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Path is the buffer file's absolute path.
func (b *Buffer) Path() string { return b.path }

// Cmd is the unstarted editor command. Its Stdin, Stdout and Stderr are
// nil, for the caller (or tea.ExecProcess) to attach to the terminal.
func (b *Buffer) Cmd() *exec.Cmd { return b.cmd }

// Finish reads the comment back after the command has run and removes the
// buffer. runErr is the command's error (from Run, or from the UI's exec
// callback): a non-nil one yields an *ExitError or *StartError and a zero
// Result, whatever the file holds. Call Finish once.
func (b *Buffer) Finish(runErr error) (Result, error) {
	defer b.Discard()
	if runErr != nil {
		if err := b.ctx.Err(); err != nil {
			return Result{}, fmt.Errorf("edit comment: %w", err)
		}
		var exit *exec.ExitError
		if errors.As(runErr, &exit) {
			return Result{}, &ExitError{Command: b.command, Status: exit.ExitCode(), Err: runErr}
		}
		return Result{}, &StartError{Command: b.command, Err: runErr}
	}
	content, err := os.ReadFile(b.path)
	if err != nil {
		return Result{}, fmt.Errorf("read back comment %s: %w", b.path, err)
	}
	body := extractBody(content)
	r := Result{Outcome: OutcomeSaved, Body: body, Changed: body != strings.TrimRight(b.orig, " \t\r\n")}
	if body == "" {
		r.Outcome = OutcomeDiscarded
	}
	return r, nil
}

// Discard removes the buffer's directory without reading it. It is safe
// to call more than once.
func (b *Buffer) Discard() { os.RemoveAll(b.dir) }
