//go:build unix

package daemon

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkOwner refuses a file that is not the current user's.
func checkOwner(info fs.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("owned by uid %d, not by you (uid %d)", st.Uid, os.Getuid())
	}
	return nil
}
