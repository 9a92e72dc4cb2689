//go:build windows

package store

import (
	"errors"

	"golang.org/x/sys/windows"
)

// readOnlyErrno reports a write refused because the medium is
// write-protected. Permission errors are recognised portably by the caller.
func readOnlyErrno(err error) bool { return errors.Is(err, windows.ERROR_WRITE_PROTECT) }

// noSpaceErrno reports a write refused for want of space.
func noSpaceErrno(err error) bool {
	return errors.Is(err, windows.ERROR_DISK_FULL) || errors.Is(err, windows.ERROR_HANDLE_DISK_FULL)
}
