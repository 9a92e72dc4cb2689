package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
)

// asideTimeFormat names set-aside files: UTC, sortable, no ':' (which
// some file systems refuse).
const asideTimeFormat = "20060102T150405Z"

// load decodes the file at path into v with the document's lock held.
// exists is false, with *v zero, when there is no file. A damaged file is
// set aside and reported as a *CorruptError, a newer one as a
// *SchemaError; *v is then zero.
func (d *Dir) load(path string, v any) (exists bool, err error) {
	data, err := d.fs.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		resetTarget(v)
		return false, nil
	case err != nil && !unreadable(err):
		resetTarget(v)
		return false, fmt.Errorf("read %s: %w", path, err)
	case err == nil:
		err = d.decode(path, data, v)
		if err == nil {
			return true, nil
		}
		resetTarget(v)
		var se *SchemaError
		if errors.As(err, &se) {
			return false, err
		}
	}
	return false, d.setAside(path, err)
}

// unreadable reports a read error that makes the file unusable for good
// (as opposed to, say, too many open files), so it is set aside.
func unreadable(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EIO) || errors.Is(err, syscall.EISDIR)
}

// decode checks the schema of data and decodes it into v. It returns a
// *SchemaError for a newer document, nil, or the reason data is damaged.
func (d *Dir) decode(path string, data []byte, v any) error {
	var head struct {
		Schema *int `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case !errors.As(err, &te):
			return err
		case te.Field == "schema":
			return fmt.Errorf(`"schema" is a %s, not an integer`, te.Value)
		}
		return fmt.Errorf("not a JSON object but a JSON %s", te.Value)
	}
	switch {
	case head.Schema == nil:
		return errors.New(`no "schema" field`)
	case *head.Schema < 1:
		return fmt.Errorf("invalid schema %d", *head.Schema)
	case *head.Schema > d.schema:
		return &SchemaError{Path: path, Found: *head.Schema, Known: d.schema}
	}
	resetTarget(v)
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	if val, ok := v.(Validator); ok {
		if err := val.Validate(); err != nil {
			return fmt.Errorf("invalid document: %w", err)
		}
	}
	return nil
}

// encode renders v for path, refusing a document that does not carry the
// Dir's schema: written without it, the file would read back as damaged.
func (d *Dir) encode(path string, v any) ([]byte, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", path, err)
	}
	var head struct {
		Schema int `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil || head.Schema != d.schema {
		return nil, fmt.Errorf("encode %s: document must carry \"schema\": %d (has %d, %v)", path, d.schema, head.Schema, err)
	}
	return append(data, '\n'), nil
}

// setAside moves the damaged file at path to path.corrupt-<UTC time>
// (with -2, -3... if that is taken) and reports it. Syncing the directory
// afterwards is best effort: the move has happened either way.
func (d *Dir) setAside(path string, cause error) *CorruptError {
	base := path + ".corrupt-" + d.now().UTC().Format(asideTimeFormat)
	aside := base
	for i := 2; ; i++ {
		_, err := d.fs.Lstat(aside)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err == nil && i > 1000 {
			err = fmt.Errorf("%s-2 to -1000 all exist", base)
		}
		if err != nil {
			return &CorruptError{Path: path, Err: cause, AsideErr: fmt.Errorf("choose a name to move it to: %w", err)}
		}
		aside = fmt.Sprintf("%s-%d", base, i)
	}
	if err := d.fs.Rename(path, aside); err != nil {
		return &CorruptError{Path: path, Err: cause, AsideErr: err}
	}
	_ = d.fs.SyncDir(d.path)
	return &CorruptError{Path: path, SetAside: aside, Err: cause}
}

func tempPrefix(name string) string { return "." + name + ".json.tmp-" }

// replace atomically replaces the document at path with data. Before the
// rename, a failure removes the temporary file and returns a *WriteError;
// the document is untouched. A failure to sync the directory after the
// rename (the new content is in place but may not survive a power cut) is
// returned as a plain error.
func (d *Dir) replace(path, name string, data []byte) error {
	f, err := d.fs.CreateTemp(d.path, tempPrefix(name)+"*")
	if err != nil {
		return writeError("save", path, d.path, err)
	}
	tmp, closed := f.Name(), false
	fail := func(err error) error {
		if !closed {
			f.Close()
		}
		if rerr := d.fs.Remove(tmp); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = errors.Join(err, fmt.Errorf("clean up: %w", rerr))
		}
		return writeError("save", path, d.path, err)
	}
	if n, err := f.Write(data); err != nil {
		return fail(err)
	} else if n < len(data) {
		return fail(&fs.PathError{Op: "write", Path: tmp, Err: io.ErrShortWrite})
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	closed = true
	if err := f.Close(); err != nil {
		return fail(err)
	}
	if err := d.fs.Rename(tmp, path); err != nil {
		return fail(err)
	}
	if err := d.fs.SyncDir(d.path); err != nil {
		return fmt.Errorf("save %s: sync directory: %w", path, err)
	}
	return nil
}

// removeTemps deletes temporary files of name left by a save that was
// killed. The caller holds the lock, so no save of name is in flight.
// Failures are ignored: a stale temporary file harms nothing.
func (d *Dir) removeTemps(name string) {
	entries, err := d.fs.ReadDir(d.path)
	if err != nil {
		return
	}
	prefix := tempPrefix(name)
	for _, e := range entries {
		// Only digits may follow, or ".a.json.tmp-" would match the
		// temporary files of a document named "a.json.tmp-1".
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			_ = d.fs.Remove(filepath.Join(d.path, e.Name()))
		}
	}
}
