//go:build !unix

package daemon

import "syscall"

func detached() *syscall.SysProcAttr { return nil }
