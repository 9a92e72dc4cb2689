// Package storetest provides FaultFS, a store.FS that makes chosen file
// operations fail the way a full disk or a read-only directory does, for
// tests of store and of the code that reacts to its errors.
package storetest

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/leanreview/leanreview/internal/store"
)

// Op is one kind of FS operation a fault can be attached to. The zero Op
// is invalid.
type Op uint8

const (
	OpMkdirAll Op = iota + 1
	OpReadFile
	OpLock
	OpCreateTemp
	OpWrite // File.Write
	OpSync  // File.Sync
	OpClose // File.Close
	OpRename
	OpRemove
	OpSyncDir
)

var opNames = [...]string{
	OpMkdirAll: "mkdir", OpReadFile: "read", OpLock: "lock", OpCreateTemp: "open",
	OpWrite: "write", OpSync: "sync", OpClose: "close", OpRename: "rename",
	OpRemove: "remove", OpSyncDir: "sync",
}

func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// FaultFS forwards every call to a base store.FS except those of an Op
// given a fault, which fail with the fault's error wrapped in an
// *fs.PathError naming the file, as the operating system reports it.
// Faults can be changed while a store.Dir uses the FaultFS; it is safe for
// concurrent use.
type FaultFS struct {
	base store.FS

	mu     sync.Mutex
	faults map[Op]fault
	calls  map[Op]int
}

type fault struct {
	err   error
	after int // OpWrite only: bytes of the file written before failing
	left  int // calls still to fail; 0 means every call
}

var _ store.FS = (*FaultFS)(nil)

// New returns a FaultFS over base with no faults.
func New(base store.FS) *FaultFS {
	return &FaultFS{base: base, faults: map[Op]fault{}, calls: map[Op]int{}}
}

// Fail makes every later call of op fail with err (a syscall.Errno such as
// syscall.ENOSPC, usually) without reaching the base. A failing Write
// writes nothing.
func (f *FaultFS) Fail(op Op, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults[op] = fault{err: err}
}

// FailNext makes the next n calls of op fail with err, then lets calls
// through again: a transient fault.
func (f *FaultFS) FailNext(op Op, n int, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults[op] = fault{err: err, left: n}
}

// FailWriteAfter makes a file's writes fail with err once n bytes of it
// have been written, as a device filling up in the middle of a write does:
// the first n bytes reach the file, the write reports n and err.
func (f *FaultFS) FailWriteAfter(n int, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults[OpWrite] = fault{err: err, after: n}
}

// Heal removes every fault.
func (f *FaultFS) Heal() {
	f.mu.Lock()
	defer f.mu.Unlock()
	clear(f.faults)
}

// Calls reports how many times op has been called, failed or not.
func (f *FaultFS) Calls(op Op) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[op]
}

// check counts a call of op on path and returns its fault, if any.
func (f *FaultFS) check(op Op, path string) (fault, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[op]++
	ft, ok := f.faults[op]
	if !ok {
		return fault{}, nil
	}
	switch ft.left {
	case 0:
	case 1:
		delete(f.faults, op)
	default:
		ft.left--
		f.faults[op] = ft
	}
	return ft, &fs.PathError{Op: op.String(), Path: path, Err: ft.err}
}

func (f *FaultFS) MkdirAll(path string, perm fs.FileMode) error {
	if _, err := f.check(OpMkdirAll, path); err != nil {
		return err
	}
	return f.base.MkdirAll(path, perm)
}

func (f *FaultFS) ReadFile(name string) ([]byte, error) {
	if _, err := f.check(OpReadFile, name); err != nil {
		return nil, err
	}
	return f.base.ReadFile(name)
}

func (f *FaultFS) ReadDir(name string) ([]fs.DirEntry, error) { return f.base.ReadDir(name) }
func (f *FaultFS) Lstat(name string) (fs.FileInfo, error)     { return f.base.Lstat(name) }

func (f *FaultFS) Lock(ctx context.Context, name string) (io.Closer, error) {
	if _, err := f.check(OpLock, name); err != nil {
		return nil, err
	}
	return f.base.Lock(ctx, name)
}

func (f *FaultFS) CreateTemp(dir, pattern string) (store.File, error) {
	if _, err := f.check(OpCreateTemp, dir+"/"+pattern); err != nil {
		return nil, err
	}
	file, err := f.base.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &faultFile{File: file, fs: f}, nil
}

func (f *FaultFS) Rename(oldpath, newpath string) error {
	if ft, err := f.check(OpRename, oldpath); err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: ft.err}
	}
	return f.base.Rename(oldpath, newpath)
}

func (f *FaultFS) Remove(name string) error {
	if _, err := f.check(OpRemove, name); err != nil {
		return err
	}
	return f.base.Remove(name)
}

func (f *FaultFS) SyncDir(path string) error {
	if _, err := f.check(OpSyncDir, path); err != nil {
		return err
	}
	return f.base.SyncDir(path)
}

// faultFile applies the FaultFS's file faults to one temporary file.
type faultFile struct {
	store.File
	fs      *FaultFS
	written int
}

func (w *faultFile) Write(p []byte) (int, error) {
	ft, err := w.fs.check(OpWrite, w.Name())
	if err == nil {
		n, err := w.File.Write(p)
		w.written += n
		return n, err
	}
	room := max(0, min(ft.after-w.written, len(p)))
	n, werr := w.File.Write(p[:room])
	w.written += n
	if werr != nil {
		return n, werr
	}
	return n, err
}

func (w *faultFile) Sync() error {
	if _, err := w.fs.check(OpSync, w.Name()); err != nil {
		return err
	}
	return w.File.Sync()
}

// Close closes the file even when it reports a fault, as a close that
// fails with ENOSPC on a network file system still releases the handle.
func (w *faultFile) Close() error {
	_, ferr := w.fs.check(OpClose, w.Name())
	err := w.File.Close()
	if ferr != nil {
		return ferr
	}
	return err
}
