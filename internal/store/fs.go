package store

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"runtime"
	"syscall"
)

// FS is every file-system operation a Dir performs. OS is the real one;
// storetest.FaultFS wraps it to make chosen operations fail. Paths are
// absolute. An implementation must be safe for concurrent use.
type FS interface {
	// MkdirAll creates path and any missing parents with perm, like os.MkdirAll.
	MkdirAll(path string, perm fs.FileMode) error
	// ReadFile returns the whole content of name, like os.ReadFile.
	ReadFile(name string) ([]byte, error)
	// ReadDir lists the entries of a directory, like os.ReadDir.
	ReadDir(name string) ([]fs.DirEntry, error)
	// Lstat describes name without following a final symbolic link.
	Lstat(name string) (fs.FileInfo, error)
	// CreateTemp creates a new file with mode 0600 in dir, named by pattern
	// as os.CreateTemp does, open for writing.
	CreateTemp(dir, pattern string) (File, error)
	// Rename moves oldpath to newpath, atomically replacing newpath.
	Rename(oldpath, newpath string) error
	// Remove deletes one file.
	Remove(name string) error
	// SyncDir flushes a directory's entries (a rename or removal in it) to
	// stable storage.
	SyncDir(path string) error
	// Lock opens name (creating it with mode 0600 if missing) and waits
	// until it holds an exclusive advisory lock on it, or until ctx is done.
	// Closing the result releases the lock. The lock excludes other
	// processes and other Lock calls in the same process alike.
	Lock(ctx context.Context, name string) (io.Closer, error)
}

// File is a file opened for writing by FS.CreateTemp.
type File interface {
	Name() string
	Write(p []byte) (int, error)
	Sync() error
	Close() error
}

// OS is the FS of the operating system. The zero value is ready to use.
type OS struct{}

var _ FS = OS{}

func (OS) MkdirAll(path string, perm fs.FileMode) error { return os.MkdirAll(path, perm) }
func (OS) ReadFile(name string) ([]byte, error)         { return os.ReadFile(name) }
func (OS) ReadDir(name string) ([]fs.DirEntry, error)   { return os.ReadDir(name) }
func (OS) Lstat(name string) (fs.FileInfo, error)       { return os.Lstat(name) }
func (OS) Rename(oldpath, newpath string) error         { return os.Rename(oldpath, newpath) }
func (OS) Remove(name string) error                     { return os.Remove(name) }

func (OS) CreateTemp(dir, pattern string) (File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// SyncDir fsyncs the directory. Windows cannot open a directory for
// syncing, and some file systems reject fsync on one (EINVAL): there the
// rename is as durable as the platform makes it and nil is returned.
func (OS) SyncDir(path string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(path)
	if err != nil {
		return err
	}
	err = d.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported) {
		err = nil
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// Lock locks name; see FS.Lock. A lock file that exists but cannot be
// opened for writing (a read-only directory) is opened read-only, which is
// enough to lock it.
func (OS) Lock(ctx context.Context, name string) (io.Closer, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		ro, rerr := os.Open(name)
		if rerr != nil {
			return nil, err
		}
		f = ro
	}
	ok, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "lock", Path: name, Err: err}
	}
	if ok {
		return f, nil
	}
	// Contended: wait in a blocking call so waiters are served in turn, and
	// let ctx abandon the wait; the abandoned goroutine closes the file
	// (releasing the lock) once its call returns.
	done := make(chan error, 1)
	go func() { done <- waitLock(f) }()
	select {
	case err := <-done:
		if err != nil {
			f.Close()
			return nil, &fs.PathError{Op: "lock", Path: name, Err: err}
		}
		return f, nil
	case <-ctx.Done():
		go func() {
			<-done
			f.Close()
		}()
		return nil, ctx.Err()
	}
}
