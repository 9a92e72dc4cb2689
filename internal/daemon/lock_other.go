//go:build !unix

package daemon

import (
	"fmt"
	"os"
)

// lockFile creates path exclusively: without flock a lock cannot outlive a
// crash cleanly, so a stale lock file must be removed by hand.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if os.IsExist(err) {
		return nil, errLocked
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return f, nil
}
