package store

import (
	"errors"
	"fmt"
	"io/fs"
)

var (
	// ErrReadOnly classifies a WriteError whose directory cannot be written:
	// a read-only file system, or permission denied.
	ErrReadOnly = errors.New("directory is read-only or not writable")
	// ErrNoSpace classifies a WriteError whose device is full or whose
	// disk quota is exhausted.
	ErrNoSpace = errors.New("no space left on device")
	// ErrNewerSchema matches a *SchemaError.
	ErrNewerSchema = errors.New("document written by a newer leanreview")
	// ErrInvalidName is returned for a document name Dir refuses; see Dir.
	ErrInvalidName = errors.New("invalid document name")
)

// WriteError reports a document that could not be saved or removed. The
// document's file is as it was before the attempt: new content goes to a
// temporary file first, which a failed save removes.
type WriteError struct {
	Op   string // "save" or "remove"
	Path string // the document's file
	Dir  string // the directory holding it
	// Kind is ErrReadOnly, ErrNoSpace, or nil when the cause is neither.
	Kind error
	Err  error // the failing operation's error, usually an *fs.PathError
}

func (e *WriteError) Error() string {
	const kept = "the file on disk is unchanged"
	switch e.Kind {
	case ErrReadOnly:
		return fmt.Sprintf("cannot %s %s: the directory %s is read-only or not writable (%v); %s", e.Op, e.Path, e.Dir, e.Err, kept)
	case ErrNoSpace:
		return fmt.Sprintf("cannot %s %s: no space left on the device holding %s (%v); %s", e.Op, e.Path, e.Dir, e.Err, kept)
	}
	return fmt.Sprintf("cannot %s %s: %v; %s", e.Op, e.Path, e.Err, kept)
}

// Unwrap exposes both the classification and the cause, so
// errors.Is(err, ErrNoSpace) and errors.Is(err, syscall.ENOSPC) both hold.
func (e *WriteError) Unwrap() []error {
	if e.Kind == nil {
		return []error{e.Err}
	}
	return []error{e.Kind, e.Err}
}

// writeError classifies err, the failure of an operation on the way to
// replacing or removing (op) path in dir.
func writeError(op, path, dir string, err error) *WriteError {
	var kind error
	switch {
	case noSpaceErrno(err):
		kind = ErrNoSpace
	case readOnlyErrno(err) || errors.Is(err, fs.ErrPermission):
		kind = ErrReadOnly
	}
	return &WriteError{Op: op, Path: path, Dir: dir, Kind: kind, Err: err}
}

// CorruptError reports a document file that exists but cannot be used: it
// is not JSON, lacks a valid "schema", fails the document's Validate, or
// cannot be read at all. Dir never overwrites such a file; it moves it
// aside so the caller can start clean and tell the user where it went.
type CorruptError struct {
	Path string // the document's file
	// SetAside is where the file was moved, Path + ".corrupt-<UTC time>",
	// or "" when it could not be moved (AsideErr says why; it is then
	// still at Path).
	SetAside string
	Err      error // why the file is unusable
	AsideErr error // why it could not be moved; nil when SetAside != ""
}

func (e *CorruptError) Error() string {
	if e.SetAside != "" {
		return fmt.Sprintf("%s is damaged (%v); it was moved to %s and a new file will be started", e.Path, e.Err, e.SetAside)
	}
	return fmt.Sprintf("%s is damaged (%v) and could not be moved aside (%v); it was left in place", e.Path, e.Err, e.AsideErr)
}

func (e *CorruptError) Unwrap() []error {
	if e.AsideErr == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.AsideErr}
}

// SchemaError reports a document written with a schema newer than the
// Dir's. The file is left as it is; only a newer leanreview can use it.
type SchemaError struct {
	Path  string
	Found int // the file's "schema"
	Known int // the newest schema this Dir reads and writes
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("%s was written by a newer leanreview (schema %d; this version reads up to %d): upgrade leanreview to use it; the file was left unchanged", e.Path, e.Found, e.Known)
}

// Is makes errors.Is(err, ErrNewerSchema) hold.
func (e *SchemaError) Is(target error) bool { return target == ErrNewerSchema }

// Corrupt reports true: it lets a caller that may not import this package
// (internal/app, through its Documents port) recognise a set-aside file.
func (e *CorruptError) Corrupt() bool { return true }
