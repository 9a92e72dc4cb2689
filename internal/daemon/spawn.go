package daemon

import (
	"fmt"
	"os"
	"os/exec"
)

// StartProcess launches exe with args as a daemon: detached from the
// caller's terminal and session (so the terminal UI's exit or ^C does not
// stop it), output appended to logPath. It returns once the process has
// started; Connect then waits for its discovery file.
func StartProcess(exe string, args []string, logPath string) error {
	log, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open daemon log: %w", err)
	}
	defer log.Close()
	cmd := exec.Command(exe, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, log, log
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", exe, err)
	}
	return cmd.Process.Release()
}
