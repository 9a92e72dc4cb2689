// Package e2e runs the real leanreview binary in a real terminal (tmux)
// and checks what a reviewer sees and what survives a restart.
package e2e

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var binFlag = flag.String("bin", "", "leanreview binary to test; built from ./cmd/leanreview when empty")

// bin is the binary under test, built once per run by TestMain; wired
// says whether its root command opens the review UI (has --demo).
var (
	bin   string
	wired bool
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if *binFlag != "" {
		bin = *binFlag
		return runWired(m)
	}
	dir, err := os.MkdirTemp("", "leanreview-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin = filepath.Join(dir, "leanreview")
	cmd := exec.Command("go", "build", "-o", bin, "../../cmd/leanreview")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: build leanreview:", err)
		return 1
	}
	return runWired(m)
}

func runWired(m *testing.M) int {
	help, _ := exec.Command(bin, "--help").Output()
	wired = strings.Contains(string(help), "--demo")
	return m.Run()
}
