package store_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/store"
)

func TestUpdate_CreatesPrivateDirectoryAndFiles(t *testing.T) {
	d := newDir(t)
	save(t, d, "doc", note{ID: "a", Body: "first"})

	for path, want := range map[string]fs.FileMode{
		d.Path():                            fs.ModeDir | 0o700,
		filepath.Join(d.Path(), "doc.json"): 0o600,
		filepath.Join(d.Path(), "doc.lock"): 0o600,
	} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s has mode %v, want %v", path, fi.Mode(), want)
		}
	}
	want := "{\n  \"schema\": 1,\n  \"seq\": 1,\n  \"notes\": [\n    {\n      \"id\": \"a\",\n      \"body\": \"first\"\n    }\n  ]\n}\n"
	if diff := cmp.Diff(want, string(readBytes(t, filepath.Join(d.Path(), "doc.json")))); diff != "" {
		t.Errorf("file content (-want +got):\n%s", diff)
	}
	var got testDoc
	if err := d.Read(context.Background(), "doc", &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(testDoc{Schema: 1, Seq: 1, Notes: []note{{ID: "a", Body: "first"}}}, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
}

func TestUpdate_SeesEarlierSavesAndTellsWhetherTheFileExisted(t *testing.T) {
	d := newDir(t)
	var seen []bool
	for _, id := range []string{"a", "b", "a"} {
		var doc testDoc
		err := d.Update(context.Background(), "doc", &doc, func(exists bool) error {
			seen = append(seen, exists)
			return doc.merge(note{ID: id})(exists)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var got testDoc
	if err := d.Read(context.Background(), "doc", &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]bool{false, true, true}, seen); diff != "" {
		t.Errorf("exists (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a", "b"}, ids(got.Notes)); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

func TestRead_MissingDocumentIsNotExistAndCreatesNothing(t *testing.T) {
	d := newDir(t)
	doc := testDoc{Seq: 9}
	err := d.Read(context.Background(), "doc", &doc)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Read = %v, want fs.ErrNotExist", err)
	}
	if doc.Seq != 0 {
		t.Errorf("Read left seq %d in the target, want it zeroed", doc.Seq)
	}
	if _, err := os.Stat(d.Path()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read created %s (stat: %v)", d.Path(), err)
	}
}

func TestUpdate_MutateErrorWritesNothing(t *testing.T) {
	d := newDir(t)
	save(t, d, "doc", note{ID: "a"})
	before := readBytes(t, filepath.Join(d.Path(), "doc.json"))
	boom := errors.New("boom")

	var doc testDoc
	err := d.Update(context.Background(), "doc", &doc, func(bool) error {
		doc.Notes = nil
		return boom
	})
	if err != boom {
		t.Fatalf("Update = %v, want the mutate error itself", err)
	}
	if diff := cmp.Diff(string(before), string(readBytes(t, filepath.Join(d.Path(), "doc.json")))); diff != "" {
		t.Errorf("file changed (-before +after):\n%s", diff)
	}
}

func TestUpdate_RefusesADocumentWithoutTheDirSchema(t *testing.T) {
	d := newDir(t)
	var doc testDoc
	err := d.Update(context.Background(), "doc", &doc, func(bool) error { return nil })
	if err == nil || !strings.Contains(err.Error(), `must carry "schema": 1 (has 0`) {
		t.Fatalf("Update = %v, want a schema complaint", err)
	}
	if _, err := os.Stat(filepath.Join(d.Path(), "doc.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a document without schema was written (stat: %v)", err)
	}
}

func TestDir_RejectsUnsafeNames(t *testing.T) {
	d := newDir(t)
	ctx := context.Background()
	bad := map[string]string{
		"empty": "", "dot": ".", "dot dot": "..", "hidden": ".hidden",
		"slash": "a/b", "parent": "../escape", "backslash": `a\b`, "NUL": "a\x00b",
		"non-ASCII": "caf\u00e9", "space": "sp ace", "201 bytes": strings.Repeat("a", 201),
	}
	for label, name := range bad {
		t.Run(label, func(t *testing.T) {
			var doc testDoc
			for op, err := range map[string]error{
				"Read":   d.Read(ctx, name, &doc),
				"Update": d.Update(ctx, name, &doc, doc.merge(note{ID: "x"})),
				"Remove": d.Remove(ctx, name),
			} {
				if !errors.Is(err, store.ErrInvalidName) {
					t.Errorf("%s(%q) = %v, want ErrInvalidName", op, name, err)
				}
			}
		})
	}
	if _, err := os.Stat(d.Path()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a rejected name created %s", d.Path())
	}
	for _, name := range []string{"a", "github.com_owner_repo_12", "patch-0123abcdef", "x.y_z-0", strings.Repeat("a", 200)} {
		save(t, d, name, note{ID: "x"})
	}
}

func TestNew_RejectsRelativePathAndNonPositiveSchema(t *testing.T) {
	for _, tc := range []struct {
		path   string
		schema int
	}{{"relative/drafts", 1}, {"", 1}, {"/abs", 0}, {"/abs", -1}} {
		if _, err := store.New(tc.path, tc.schema); err == nil {
			t.Errorf("New(%q, %d) succeeded, want an error", tc.path, tc.schema)
		}
	}
}

func TestReadAndUpdate_RejectNonPointerTargets(t *testing.T) {
	d := newDir(t)
	save(t, d, "doc", note{ID: "a"})
	var nilDoc *testDoc
	for _, v := range []any{testDoc{}, nilDoc, nil} {
		if err := d.Read(context.Background(), "doc", v); err == nil || errors.As(err, new(*store.CorruptError)) {
			t.Errorf("Read into %T = %v, want a plain argument error", v, err)
		}
		if err := d.Update(context.Background(), "doc", v, func(bool) error { return nil }); err == nil {
			t.Errorf("Update into %T succeeded", v)
		}
	}
	if got := leftovers(t, d.Path()); len(got) != 0 {
		t.Errorf("bad targets set files aside: %v", got)
	}
}

func TestRemove_DeletesTheDocumentAndReportsAMissingOne(t *testing.T) {
	d := newDir(t)
	ctx := context.Background()
	if err := d.Remove(ctx, "doc"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Remove before any save = %v, want fs.ErrNotExist", err)
	}
	save(t, d, "doc", note{ID: "a"})
	save(t, d, "other", note{ID: "b"})
	if err := d.Remove(ctx, "doc"); err != nil {
		t.Fatal(err)
	}
	var doc testDoc
	if err := d.Read(ctx, "doc", &doc); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read after Remove = %v, want fs.ErrNotExist", err)
	}
	if err := d.Remove(ctx, "doc"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("second Remove = %v, want fs.ErrNotExist", err)
	}
	if err := d.Read(ctx, "other", &doc); err != nil || doc.Notes[0].ID != "b" {
		t.Errorf("Read of the other document = %+v, %v", doc, err)
	}
}

func TestUpdate_RemovesOnlyItsOwnLeftoverTemporaryFiles(t *testing.T) {
	d := newDir(t)
	save(t, d, "doc", note{ID: "a"})
	for _, n := range []string{".doc.json.tmp-123", ".doc.json.tmp-9.json.tmp-1", ".doc.json.tmp-4567"} {
		if err := os.WriteFile(filepath.Join(d.Path(), n), []byte("{half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	save(t, d, "doc", note{ID: "b"})
	// ".doc.json.tmp-9.json.tmp-1" is a temporary file of the document
	// named "doc.json.tmp-9", which holds a different lock.
	if diff := cmp.Diff([]string{".doc.json.tmp-9.json.tmp-1"}, leftovers(t, d.Path())); diff != "" {
		t.Errorf("left over (-want +got):\n%s", diff)
	}
}

func TestUpdate_WaitForTheLockEndsWithTheContext(t *testing.T) {
	d := newDir(t)
	held, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var doc testDoc
		err := d.Update(context.Background(), "doc", &doc, func(exists bool) error {
			close(held)
			<-release
			return doc.merge(note{ID: "holder"})(exists)
		})
		if err != nil {
			t.Error(err)
		}
	})
	<-held

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var doc testDoc
	err := d.Update(ctx, "doc", &doc, doc.merge(note{ID: "waiter"}))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Update while the lock is held = %v, want context.DeadlineExceeded", err)
	}
	close(release)
	wg.Wait()

	// The abandoned wait must not keep the lock.
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := d.Update(ctx, "doc", &doc, doc.merge(note{ID: "after"})); err != nil {
		t.Fatalf("Update after the holder released = %v", err)
	}
	if diff := cmp.Diff([]string{"holder", "after"}, ids(doc.Notes)); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

func TestSchema_NewerDocumentIsRefusedAndLeftAlone(t *testing.T) {
	d := newDir(t)
	ctx := context.Background()
	path := filepath.Join(d.Path(), "doc.json")
	newer := []byte(`{"schema": 2, "seq": 5, "notes": [{"id": "from-the-future"}], "colour": "blue"}`)
	if err := os.MkdirAll(d.Path(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, newer, 0o600); err != nil {
		t.Fatal(err)
	}

	var doc testDoc
	err := d.Read(ctx, "doc", &doc)
	var se *store.SchemaError
	if !errors.As(err, &se) || !errors.Is(err, store.ErrNewerSchema) {
		t.Fatalf("Read = %v, want a *SchemaError matching ErrNewerSchema", err)
	}
	if diff := cmp.Diff(&store.SchemaError{Path: path, Found: 2, Known: 1}, se); diff != "" {
		t.Errorf("SchemaError (-want +got):\n%s", diff)
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "upgrade leanreview") {
		t.Errorf("message %q does not name the file and say to upgrade", msg)
	}

	called := false
	err = d.Update(ctx, "doc", &doc, func(bool) error { called = true; return nil })
	if !errors.Is(err, store.ErrNewerSchema) || called {
		t.Errorf("Update = %v (mutate called: %v), want ErrNewerSchema without calling mutate", err, called)
	}
	if diff := cmp.Diff(string(newer), string(readBytes(t, path))); diff != "" {
		t.Errorf("newer file changed (-want +got):\n%s", diff)
	}
	if got := leftovers(t, d.Path()); len(got) != 0 {
		t.Errorf("newer file was set aside: %v", got)
	}
}

func TestSchema_OlderDocumentIsReadForTheCallerToMigrate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drafts")
	v1, err := store.New(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	save(t, v1, "doc", note{ID: "old"})
	v2, err := store.New(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	var doc testDoc
	err = v2.Update(context.Background(), "doc", &doc, func(bool) error {
		if doc.Schema != 1 {
			t.Errorf("decoded schema %d, want 1", doc.Schema)
		}
		doc.Schema = 2
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := v1.Read(context.Background(), "doc", &doc); !errors.Is(err, store.ErrNewerSchema) {
		t.Errorf("schema-1 reader after migration: %v, want ErrNewerSchema", err)
	}
}
