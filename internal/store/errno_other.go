//go:build !windows

package store

import (
	"errors"
	"syscall"
)

// readOnlyErrno reports a write refused because the file system is mounted
// read-only. Permission errors are recognised portably by the caller.
func readOnlyErrno(err error) bool { return errors.Is(err, syscall.EROFS) }

// noSpaceErrno reports a write refused for want of space or quota.
func noSpaceErrno(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}
