//go:build unix

package daemon

import "syscall"

// detached starts the child in a session of its own.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
