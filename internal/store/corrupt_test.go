package store_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/store"
	"github.com/leanreview/leanreview/internal/store/storetest"
)

// corruptCases are the damaged files of testdata/corrupt and a fragment of
// the reason each must be reported with.
var corruptCases = []struct{ file, cause string }{
	{"truncated.json", "unexpected end of JSON input"},
	{"empty.json", "unexpected end of JSON input"},
	{"zeroed.json", "invalid character"},
	{"two-documents.json", "invalid character '{' after top-level value"},
	{"array.json", "not a JSON object but a JSON array"},
	{"wrong-type.json", "cannot unmarshal string"},
	{"schema-string.json", `"schema" is a string, not an integer`},
	{"schema-fraction.json", `"schema" is a number 1.5, not an integer`},
	{"no-schema.json", `no "schema" field`},
	{"duplicate-ids.json", `invalid document: duplicate note id "7"`},
}

// plantCorrupt copies testdata/corrupt/file to the document "doc" of d and
// returns its bytes.
func plantCorrupt(t *testing.T, d *store.Dir, file string) []byte {
	t.Helper()
	b := readBytes(t, filepath.Join("testdata", "corrupt", file))
	if err := os.MkdirAll(d.Path(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.Path(), "doc.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return b
}

// checkSetAside asserts err reports doc.json of d as moved to aside, with
// cause in its message, and that aside holds original.
func checkSetAside(t *testing.T, d *store.Dir, err error, aside, cause string, original []byte) {
	t.Helper()
	path := filepath.Join(d.Path(), "doc.json")
	var ce *store.CorruptError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want a *CorruptError", err)
	}
	if ce.Path != path || ce.SetAside != filepath.Join(d.Path(), aside) || ce.AsideErr != nil {
		t.Errorf("CorruptError{Path %q, SetAside %q, AsideErr %v}, want %q moved to %q", ce.Path, ce.SetAside, ce.AsideErr, path, aside)
	}
	msg := err.Error()
	t.Logf("message: %s", msg)
	for _, want := range []string{path + " is damaged", "moved to " + ce.SetAside, cause} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not contain %q", msg, want)
		}
	}
	if diff := cmp.Diff(original, readBytes(t, ce.SetAside)); diff != "" {
		t.Errorf("set-aside bytes differ from the original (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s still exists after being set aside (stat: %v)", path, err)
	}
}

func TestRead_CorruptFileIsSetAsideAndTheNextWriteStartsClean(t *testing.T) {
	for _, tc := range corruptCases {
		t.Run(tc.file, func(t *testing.T) {
			d := newDir(t, store.WithClock(fixedClock))
			ctx := context.Background()
			original := plantCorrupt(t, d, tc.file)

			doc := testDoc{Seq: 42}
			err := d.Read(ctx, "doc", &doc)
			checkSetAside(t, d, err, "doc.json.corrupt-20260102T020405Z", tc.cause, original)
			if diff := cmp.Diff(testDoc{}, doc); diff != "" {
				t.Errorf("target after a corrupt read is not zero (-want +got):\n%s", diff)
			}

			var existed bool
			err = d.Update(ctx, "doc", &doc, func(exists bool) error {
				existed = exists
				return doc.merge(note{ID: "fresh"})(exists)
			})
			if err != nil || existed {
				t.Fatalf("Update after set-aside = %v (exists %v), want a clean start", err, existed)
			}
			if err := d.Read(ctx, "doc", &doc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(testDoc{Schema: 1, Seq: 1, Notes: []note{{ID: "fresh"}}}, doc); diff != "" {
				t.Errorf("document after a clean start (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUpdate_CorruptFileIsSetAsideWithoutCallingMutate(t *testing.T) {
	d := newDir(t, store.WithClock(fixedClock))
	ctx := context.Background()
	original := plantCorrupt(t, d, "truncated.json")

	var doc testDoc
	called := false
	err := d.Update(ctx, "doc", &doc, func(bool) error { called = true; return nil })
	checkSetAside(t, d, err, "doc.json.corrupt-20260102T020405Z", "unexpected end of JSON input", original)
	if called {
		t.Error("mutate was called on a corrupt document")
	}
	save(t, d, "doc", note{ID: "fresh"})

	// A second corruption in the same second gets its own name.
	second := plantCorrupt(t, d, "zeroed.json")
	err = d.Update(ctx, "doc", &doc, func(bool) error { called = true; return nil })
	checkSetAside(t, d, err, "doc.json.corrupt-20260102T020405Z-2", "invalid character", second)
	if diff := cmp.Diff(original, readBytes(t, filepath.Join(d.Path(), "doc.json.corrupt-20260102T020405Z"))); diff != "" {
		t.Errorf("first set-aside file was overwritten (-want +got):\n%s", diff)
	}
}

func TestRead_UnreadableFileIsSetAside(t *testing.T) {
	faults := storetest.New(store.OS{})
	d := newDir(t, store.WithFS(faults), store.WithClock(fixedClock))
	save(t, d, "doc", note{ID: "a"})
	original := readBytes(t, filepath.Join(d.Path(), "doc.json"))
	faults.Fail(storetest.OpReadFile, syscall.EIO)

	var doc testDoc
	err := d.Read(context.Background(), "doc", &doc)
	checkSetAside(t, d, err, "doc.json.corrupt-20260102T020405Z", "input/output error", original)
	if !errors.Is(err, syscall.EIO) {
		t.Errorf("error %v does not match EIO", err)
	}
}

func TestRead_CorruptFileThatCannotBeMovedIsLeftInPlace(t *testing.T) {
	faults := storetest.New(store.OS{})
	d := newDir(t, store.WithFS(faults), store.WithClock(fixedClock))
	original := plantCorrupt(t, d, "truncated.json")
	faults.Fail(storetest.OpRename, syscall.EROFS)

	var doc testDoc
	err := d.Read(context.Background(), "doc", &doc)
	var ce *store.CorruptError
	if !errors.As(err, &ce) || ce.SetAside != "" || !errors.Is(ce.AsideErr, syscall.EROFS) {
		t.Fatalf("Read = %#v, want a *CorruptError with no set-aside path and an EROFS AsideErr", err)
	}
	path := filepath.Join(d.Path(), "doc.json")
	for _, want := range []string{path + " is damaged", "could not be moved aside", "read-only file system", "left in place"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q does not contain %q", err.Error(), want)
		}
	}
	if diff := cmp.Diff(original, readBytes(t, path)); diff != "" {
		t.Errorf("corrupt file changed (-want +got):\n%s", diff)
	}
}

// TestRead_FileRepairedBeforeTheLockIsKept covers a damaged read that a
// second look under the lock finds whole (a writer replaced the file in
// between): nothing is set aside.
func TestRead_FileRepairedBeforeTheLockIsKept(t *testing.T) {
	faults := storetest.New(store.OS{})
	d := newDir(t, store.WithFS(faults))
	save(t, d, "doc", note{ID: "a"})
	reads := faults.Calls(storetest.OpReadFile)
	faults.FailNext(storetest.OpReadFile, 1, syscall.EIO)

	var doc testDoc
	if err := d.Read(context.Background(), "doc", &doc); err != nil {
		t.Fatalf("Read = %v, want the document read on the second look", err)
	}
	if diff := cmp.Diff([]string{"a"}, ids(doc.Notes)); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if got, want := faults.Calls(storetest.OpReadFile)-reads, 2; got != want {
		t.Errorf("%d reads, want %d", got, want)
	}
	if got := leftovers(t, d.Path()); len(got) != 0 {
		t.Errorf("set aside although whole: %v", got)
	}
}
