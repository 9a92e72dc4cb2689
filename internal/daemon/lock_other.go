//go:build !unix

package daemon

import (
	"fmt"
	"io"
	"os"
)

// lockFile creates path exclusively and removes it on Close: without flock
// a lock cannot outlive a crash cleanly, so a crashed daemon's lock file
// must be removed by hand.
func lockFile(path string) (io.Closer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if os.IsExist(err) {
		return nil, errLocked
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return removeOnClose{f}, nil
}

type removeOnClose struct{ f *os.File }

func (r removeOnClose) Close() error {
	r.f.Close()
	return os.Remove(r.f.Name())
}
