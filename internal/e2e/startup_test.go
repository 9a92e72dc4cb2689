package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY returns a new pseudo-terminal pair of rows x cols.
func openPTY(t *testing.T, rows, cols uint16) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols}); err != nil {
		t.Fatal(err)
	}
	return master, slave
}

// A terminal that never answers a query (colour, background, modes) must
// not hold up the first screen: leanreview asks without waiting.
func TestStartup_SilentTerminalDoesNotDelayTheFirstScreen(t *testing.T) {
	if !wired {
		t.Fatal("leanreview's root command does not open the review UI: wire reviewRun and --demo in internal/cli/cli.go (see internal/cli/review.go)")
	}
	master, slave := openPTY(t, 24, 100)
	defer master.Close()
	h := newTermHome(t, "unused")
	cmd := exec.Command(bin, "--demo")
	cmd.Env = append(h.env(), "PATH="+os.Getenv("PATH"))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()

	// Read everything the program writes and answer nothing.
	var mu sync.Mutex
	var out bytes.Buffer
	first := make(chan time.Duration, 1)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			out.Write(buf[:n])
			if bytes.Contains(out.Bytes(), []byte("0 drafts")) {
				select {
				case first <- time.Since(start):
				default:
				}
			}
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	select {
	case d := <-first:
		// The demo parses in microseconds; the budget covers process
		// start-up on a busy machine, far below any query time-out.
		if d > 800*time.Millisecond {
			t.Errorf("first screen after %v with a silent terminal", d)
		}
		t.Logf("first screen after %v", d)
	case <-time.After(10 * time.Second):
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("no first screen in 10 s with a silent terminal; output: %q", out.String())
	}
}
