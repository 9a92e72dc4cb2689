// Package store keeps JSON documents in one directory so that none is ever
// lost or half-written: every save replaces the file atomically under an
// advisory lock, concurrent writers each see the other's saves, a damaged
// file is moved aside instead of overwritten, and a failed write is
// classified (read-only, full) while the old file stays intact.
package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"reflect"
	"time"
)

// Dir is a directory of JSON documents, each named by its caller. The
// document called name lives in <name>.json; beside it Dir keeps
// <name>.lock (the advisory lock file, never removed, since a lock file
// removed while another process waits on it stops excluding anyone),
// .<name>.json.tmp-* while a save is in flight, and <name>.json.corrupt-*
// for damaged files it has set aside. A name is 1-200 ASCII letters,
// digits, '.', '_' or '-', not starting with '.'.
//
// Every document carries a top-level integer "schema" field. Dir reads
// documents whose schema is from 1 up to its own (the caller migrates older
// ones after decoding), refuses newer ones, and writes only its own.
//
// The directory is created with mode 0700 on the first write and documents
// are written with mode 0600. A Dir is safe for concurrent use by several
// goroutines and processes.
type Dir struct {
	path   string
	schema int
	fs     FS
	now    func() time.Time
}

// Option configures a Dir built by New.
type Option func(*Dir)

// WithFS makes the Dir use fsys instead of OS, the real file system.
func WithFS(fsys FS) Option { return func(d *Dir) { d.fs = fsys } }

// WithClock makes the Dir take the time that names set-aside files from
// now instead of time.Now.
func WithClock(now func() time.Time) Option { return func(d *Dir) { d.now = now } }

// Validator is implemented by a document type whose well-formedness goes
// beyond JSON syntax. Dir calls Validate after decoding a file; an error
// makes the file corrupt (see CorruptError).
type Validator interface {
	Validate() error
}

// New returns the Dir rooted at path, an absolute directory that need not
// exist yet. schema (at least 1) is the document version the caller's
// code reads and writes.
func New(path string, schema int, opts ...Option) (*Dir, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("open store %q: path is not absolute", path)
	}
	if schema < 1 {
		return nil, fmt.Errorf("open store %s: schema %d is not positive", path, schema)
	}
	d := &Dir{path: filepath.Clean(path), schema: schema, fs: OS{}, now: time.Now}
	for _, o := range opts {
		o(d)
	}
	return d, nil
}

// Path returns the directory the documents live in.
func (d *Dir) Path() string { return d.path }

// Read decodes the document name into v, a non-nil pointer, after setting
// *v to its zero value. It takes no lock: saves replace files atomically,
// so it sees one complete version.
//
// A missing document gives an error matching fs.ErrNotExist. A newer
// document gives a *SchemaError. A damaged or unreadable one is moved
// aside (under the lock, after reading it again, so a file another process
// has just repaired is kept) and gives a *CorruptError; *v is then zero.
// Read never creates the directory; it waits for the lock, and so uses
// ctx, only to set a file aside.
func (d *Dir) Read(ctx context.Context, name string, v any) error {
	path, err := d.file(name)
	if err != nil {
		return err
	}
	if err := checkTarget(v); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	resetTarget(v)
	data, cause := d.fs.ReadFile(path)
	switch {
	case cause == nil:
		cause = d.decode(path, data, v)
		var se *SchemaError
		if cause == nil || errors.As(cause, &se) {
			return cause
		}
	case errors.Is(cause, fs.ErrNotExist):
		return fmt.Errorf("read %s: %w", path, fs.ErrNotExist)
	case !unreadable(cause):
		return fmt.Errorf("read %s: %w", path, cause)
	}
	resetTarget(v)
	lk, err := d.fs.Lock(ctx, d.lockFile(name))
	if err != nil {
		return &CorruptError{Path: path, Err: cause, AsideErr: err}
	}
	defer lk.Close()
	exists, err := d.load(path, v)
	if err == nil && !exists {
		return fmt.Errorf("read %s: %w", path, fs.ErrNotExist)
	}
	return err
}

// Update changes the document name under its exclusive lock: it decodes
// the current file into v (a non-nil pointer, zeroed first and left zero
// when there is no file), calls mutate, and saves v atomically (temporary
// file in the same directory, fsync, rename over the document, fsync of
// the directory). mutate's exists says whether a file was read; it merges
// the caller's changes into v, which holds every save made so far by any
// process. v must then carry the Dir's schema.
//
// An error from mutate is returned as it is and nothing is written. A
// damaged file is set aside and reported as by Read, and a newer one
// reported, without calling mutate; after a *CorruptError a second Update
// starts from an empty document. A failed write returns a *WriteError
// (errors.Is ErrReadOnly or ErrNoSpace when that is the cause) and leaves
// the file as it was. ctx bounds only the wait for the lock.
func (d *Dir) Update(ctx context.Context, name string, v any, mutate func(exists bool) error) error {
	path, err := d.file(name)
	if err != nil {
		return err
	}
	if err := checkTarget(v); err != nil {
		return fmt.Errorf("update %s: %w", path, err)
	}
	if err := d.fs.MkdirAll(d.path, 0o700); err != nil {
		return writeError("save", path, d.path, err)
	}
	lk, err := d.lock(ctx, "save", name)
	if err != nil {
		return err
	}
	defer lk.Close()
	d.removeTemps(name)
	exists, err := d.load(path, v)
	if err != nil {
		return err
	}
	if err := mutate(exists); err != nil {
		return err
	}
	data, err := d.encode(path, v)
	if err != nil {
		return err
	}
	return d.replace(path, name, data)
}

// Remove deletes the document name under its lock. A missing document
// gives an error matching fs.ErrNotExist; a directory that cannot be
// written gives a *WriteError. Set-aside files are kept.
func (d *Dir) Remove(ctx context.Context, name string) error {
	path, err := d.file(name)
	if err != nil {
		return err
	}
	if _, err := d.fs.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	lk, err := d.lock(ctx, "remove", name)
	if err != nil {
		return err
	}
	defer lk.Close()
	if err := d.fs.Remove(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	} else if err != nil {
		return writeError("remove", path, d.path, err)
	}
	if err := d.fs.SyncDir(d.path); err != nil {
		return fmt.Errorf("remove %s: sync directory: %w", path, err)
	}
	return nil
}

// file returns the path of the document name, or an error matching
// ErrInvalidName.
func (d *Dir) file(name string) (string, error) {
	ok := name != "" && len(name) <= 200 && name[0] != '.'
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-'
	}
	if !ok {
		return "", fmt.Errorf("%w %q: want 1-200 ASCII letters, digits, '.', '_' or '-', not starting with '.'", ErrInvalidName, name)
	}
	return filepath.Join(d.path, name+".json"), nil
}

func (d *Dir) lockFile(name string) string { return filepath.Join(d.path, name+".lock") }

// lock takes the lock of the document name for op ("save", "remove").
func (d *Dir) lock(ctx context.Context, op, name string) (io.Closer, error) {
	lk, err := d.fs.Lock(ctx, d.lockFile(name))
	if err == nil {
		return lk, nil
	}
	path := filepath.Join(d.path, name+".json")
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, fmt.Errorf("%s %s: wait for lock: %w", op, path, err)
	}
	return nil, writeError(op, path, d.path, err)
}

// checkTarget rejects a v that json.Unmarshal could not fill, so a
// decoding error always means bad data, never a bad argument.
func checkTarget(v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("decode into %T: not a non-nil pointer", v)
	}
	return nil
}

func resetTarget(v any) { reflect.ValueOf(v).Elem().SetZero() }
