//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows)

package store

import (
	"errors"
	"os"
)

// tryLock reports that this platform has no advisory locking we use, so
// Update and Remove fail rather than risk two writers losing each other's
// data.
func tryLock(*os.File) (bool, error) { return false, errors.ErrUnsupported }

func waitLock(*os.File) error { return errors.ErrUnsupported }
