package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/store"
	"github.com/leanreview/leanreview/internal/store/storetest"
)

// bigNote is larger than any injected partial write and than the tmpfs
// of the full-disk test.
var bigNote = note{ID: "big", Body: strings.Repeat("x", 256<<10)}

// checkFailedSave asserts err is the *WriteError of a save of doc.json in
// d classified as kind (nil: neither) with phrase in its message, that the
// file still holds before, and that no temporary file is left.
func checkFailedSave(t *testing.T, d *store.Dir, err, kind error, phrase string, before []byte) {
	t.Helper()
	var we *store.WriteError
	if !errors.As(err, &we) {
		t.Fatalf("got %v, want a *WriteError", err)
	}
	path := filepath.Join(d.Path(), "doc.json")
	if we.Path != path || we.Dir != d.Path() || we.Kind != kind {
		t.Errorf("WriteError{Path %q, Dir %q, Kind %v}, want {%q, %q, %v}", we.Path, we.Dir, we.Kind, path, d.Path(), kind)
	}
	for _, k := range []error{store.ErrReadOnly, store.ErrNoSpace} {
		if errors.Is(err, k) != (k == kind) {
			t.Errorf("errors.Is(err, %v) = %v", k, !(k == kind))
		}
	}
	msg := err.Error()
	t.Logf("message: %s", msg)
	for _, want := range []string{"cannot save " + path, phrase, "the file on disk is unchanged"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not contain %q", msg, want)
		}
	}
	if diff := cmp.Diff(string(before), string(readBytes(t, path))); diff != "" {
		t.Errorf("document changed by a failed save (-before +after):\n%s", diff)
	}
	if got := leftovers(t, d.Path()); len(got) != 0 {
		t.Errorf("left behind: %v", got)
	}
}

func TestUpdate_InjectedWriteFailuresAreClassifiedAndLoseNothing(t *testing.T) {
	cases := []struct {
		name   string
		inject func(*storetest.FaultFS)
		kind   error
		errno  syscall.Errno
		phrase string
	}{
		{"read-only creating the directory", func(f *storetest.FaultFS) { f.Fail(storetest.OpMkdirAll, syscall.EROFS) },
			store.ErrReadOnly, syscall.EROFS, "is read-only or not writable (mkdir"},
		{"permission denied opening the lock", func(f *storetest.FaultFS) { f.Fail(storetest.OpLock, syscall.EACCES) },
			store.ErrReadOnly, syscall.EACCES, "permission denied"},
		{"read-only creating the temporary file", func(f *storetest.FaultFS) { f.Fail(storetest.OpCreateTemp, syscall.EROFS) },
			store.ErrReadOnly, syscall.EROFS, "read-only file system"},
		{"operation not permitted renaming", func(f *storetest.FaultFS) { f.Fail(storetest.OpRename, syscall.EPERM) },
			store.ErrReadOnly, syscall.EPERM, "operation not permitted"},
		{"disk full in the middle of the write", func(f *storetest.FaultFS) { f.FailWriteAfter(1000, syscall.ENOSPC) },
			store.ErrNoSpace, syscall.ENOSPC, "no space left on the device holding"},
		{"quota exceeded at the first byte", func(f *storetest.FaultFS) { f.Fail(storetest.OpWrite, syscall.EDQUOT) },
			store.ErrNoSpace, syscall.EDQUOT, "quota exceeded"},
		{"disk full at fsync", func(f *storetest.FaultFS) { f.Fail(storetest.OpSync, syscall.ENOSPC) },
			store.ErrNoSpace, syscall.ENOSPC, "no space left on device"},
		{"disk full at close", func(f *storetest.FaultFS) { f.Fail(storetest.OpClose, syscall.ENOSPC) },
			store.ErrNoSpace, syscall.ENOSPC, "no space left on device"},
		{"I/O error at fsync", func(f *storetest.FaultFS) { f.Fail(storetest.OpSync, syscall.EIO) },
			nil, syscall.EIO, "input/output error"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			faults := storetest.New(store.OS{})
			d := newDir(t, store.WithFS(faults))
			save(t, d, "doc", note{ID: "kept"})
			before := readBytes(t, filepath.Join(d.Path(), "doc.json"))

			tc.inject(faults)
			var doc testDoc
			err := d.Update(context.Background(), "doc", &doc, doc.merge(bigNote))
			checkFailedSave(t, d, err, tc.kind, tc.phrase, before)
			if !errors.Is(err, tc.errno) {
				t.Errorf("error %v does not match %v", err, tc.errno)
			}
			if tc.kind == store.ErrReadOnly {
				if !strings.Contains(err.Error(), d.Path()+" is read-only or not writable") {
					t.Errorf("message %q does not name the directory", err)
				}
			}

			// The caller kept the note in memory; once the fault is gone
			// the same save succeeds and nothing is lost.
			faults.Heal()
			save(t, d, "doc", bigNote)
			if err := d.Read(context.Background(), "doc", &doc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"kept", "big"}, ids(doc.Notes)); diff != "" {
				t.Errorf("notes after the retry (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRemove_ReadOnlyDirectoryIsClassified(t *testing.T) {
	faults := storetest.New(store.OS{})
	d := newDir(t, store.WithFS(faults))
	save(t, d, "doc", note{ID: "kept"})
	faults.Fail(storetest.OpRemove, syscall.EACCES)

	err := d.Remove(context.Background(), "doc")
	if !errors.Is(err, store.ErrReadOnly) || !strings.Contains(err.Error(), "cannot remove "+filepath.Join(d.Path(), "doc.json")) {
		t.Errorf("Remove = %v, want a read-only WriteError naming the file", err)
	}
	var doc testDoc
	if err := d.Read(context.Background(), "doc", &doc); err != nil || len(doc.Notes) != 1 {
		t.Errorf("document after a failed Remove: %+v, %v", doc, err)
	}
}
