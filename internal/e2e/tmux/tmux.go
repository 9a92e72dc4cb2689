// Package tmux drives a program in a real terminal: a detached tmux session
// on a private server socket, with keys sent and the screen read back. The
// end-to-end tests and scripts/tui-bench use it.
package tmux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Available reports whether a tmux binary is on PATH.
func Available() bool {
	_, err := exec.LookPath("tmux")
	return err == nil
}

// Options describe the session to start.
type Options struct {
	// Socket names the private tmux server (tmux -L); one per test keeps
	// tests from touching each other or the user's tmux.
	Socket string
	Width  int
	Height int
	Dir    string
	// Env are KEY=VALUE entries set in the program's environment, on top
	// of the tmux server's.
	Env  []string
	Argv []string
}

// Session is one running tmux session with one pane.
type Session struct {
	socket string
	target string
}

func (s *Session) tmux(ctx context.Context, args ...string) (string, error) {
	full := append([]string{"-L", s.socket, "-f", "/dev/null"}, args...)
	cmd := exec.CommandContext(ctx, "tmux", full...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// Start runs o.Argv in a new detached session of o.Width x o.Height cells.
func Start(ctx context.Context, o Options) (*Session, error) {
	s := &Session{socket: o.Socket, target: "t"}
	args := []string{"new-session", "-d", "-s", s.target, "-x", strconv.Itoa(o.Width), "-y", strconv.Itoa(o.Height)}
	if o.Dir != "" {
		args = append(args, "-c", o.Dir)
	}
	for _, e := range o.Env {
		args = append(args, "-e", e)
	}
	args = append(args, "--")
	args = append(args, o.Argv...)
	if _, err := s.tmux(ctx, args...); err != nil {
		return nil, err
	}
	// Keep the pane after the program exits, to read its last screen and
	// know that it has exited; and never let the size follow a client.
	if _, err := s.tmux(ctx, "set-option", "-t", s.target, "remain-on-exit", "on"); err != nil {
		return nil, err
	}
	return s, nil
}

// Keys sends key names as tmux's send-keys understands them ("j",
// "Enter", "C-d", "NPage", "Escape"). All arrive in one write, as a burst.
func (s *Session) Keys(ctx context.Context, keys ...string) error {
	_, err := s.tmux(ctx, append([]string{"send-keys", "-t", s.target}, keys...)...)
	return err
}

// Type sends text literally.
func (s *Session) Type(ctx context.Context, text string) error {
	_, err := s.tmux(ctx, "send-keys", "-t", s.target, "-l", text)
	return err
}

// Screen returns the pane's visible text, one line per row, without
// colours.
func (s *Session) Screen(ctx context.Context) (string, error) {
	return s.tmux(ctx, "capture-pane", "-p", "-t", s.target)
}

// Display returns a tmux format string evaluated for the pane, such as
// "#{pane_title}" or "#{pane_pid}".
func (s *Session) Display(ctx context.Context, format string) (string, error) {
	out, err := s.tmux(ctx, "display-message", "-p", "-t", s.target, format)
	return strings.TrimRight(out, "\n"), err
}

// Resize sets the window's size in cells.
func (s *Session) Resize(ctx context.Context, w, h int) error {
	_, err := s.tmux(ctx, "resize-window", "-t", s.target, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h))
	return err
}

// Dead reports whether the program in the pane has exited.
func (s *Session) Dead(ctx context.Context) bool {
	out, err := s.Display(ctx, "#{pane_dead}")
	return err != nil || out == "1"
}

// ErrTimeout is returned by WaitFor when the screen never matched.
var ErrTimeout = errors.New("screen did not match in time")

// WaitFor polls the screen (every poll) until ok accepts it, and returns
// that screen. On timeout it returns the last screen and ErrTimeout.
func (s *Session) WaitFor(ctx context.Context, timeout, poll time.Duration, ok func(screen string) bool) (string, error) {
	deadline := time.Now().Add(timeout)
	var last string
	for {
		scr, err := s.Screen(ctx)
		if err != nil {
			return last, err
		}
		last = scr
		if ok(scr) {
			return scr, nil
		}
		if time.Now().After(deadline) {
			return last, ErrTimeout
		}
		time.Sleep(poll)
	}
}

// Close kills the tmux server of the session.
func (s *Session) Close() {
	_, _ = s.tmux(context.Background(), "kill-server")
}
