package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/store"
)

// These tests make the file system itself refuse writes, where the
// injected faults of failure_test.go only pretend to. Root ignores file
// modes, so as root they use mounts and an unprivileged child process.

const nobody = 65534

// mountOrSkip mounts source on target and unmounts it when the test ends,
// skipping the test where this process may not mount.
func mountOrSkip(t *testing.T, source, target, fstype string, flags uintptr, data string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting needs root")
	}
	if err := syscall.Mount(source, target, fstype, flags, data); err != nil {
		if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES) {
			t.Skipf("mount %s on %s not permitted here (%v): needs CAP_SYS_ADMIN", source, target, err)
		}
		t.Fatalf("mount %s on %s: %v", source, target, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(target, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", target, err)
		}
	})
}

func TestUpdate_FullTmpfsFailsCleanlyAndKeepsThePreviousFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drafts")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	mountOrSkip(t, "tmpfs", dir, "tmpfs", 0, "size=64k,mode=0700")
	d := mustDir(t, dir)
	save(t, d, "doc", note{ID: "kept"})
	before := readBytes(t, filepath.Join(dir, "doc.json"))

	var doc testDoc
	err := d.Update(context.Background(), "doc", &doc, doc.merge(bigNote))
	checkFailedSave(t, d, err, store.ErrNoSpace, "no space left on the device holding "+dir+" (write ", before)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("error %v does not match ENOSPC", err)
	}

	// The removed temporary file gave its space back: a save that fits
	// still succeeds and keeps the earlier note.
	save(t, d, "doc", note{ID: "small"})
	if err := d.Read(context.Background(), "doc", &doc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"kept", "small"}, ids(doc.Notes)); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

func TestUpdate_ReadOnlyMountFailsCleanlyAndStillReads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drafts")
	d := mustDir(t, dir)
	save(t, d, "doc", note{ID: "kept"})
	before := readBytes(t, filepath.Join(dir, "doc.json"))
	mountOrSkip(t, dir, dir, "", syscall.MS_BIND, "")
	if err := syscall.Mount("", dir, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("remount %s read-only not permitted here: %v", dir, err)
	}

	var doc testDoc
	err := d.Update(context.Background(), "doc", &doc, doc.merge(note{ID: "new"}))
	checkFailedSave(t, d, err, store.ErrReadOnly, dir+" is read-only or not writable (open ", before)
	if !errors.Is(err, syscall.EROFS) || !strings.Contains(err.Error(), "read-only file system") {
		t.Errorf("error %v does not report EROFS", err)
	}
	if err := d.Read(context.Background(), "doc", &doc); err != nil || len(doc.Notes) != 1 {
		t.Errorf("Read on the read-only mount = %+v, %v", doc, err)
	}
}

// TestUpdate_DirectoryItsOwnerCannotWriteFailsCleanly makes the drafts
// directory 0555. As root, which ignores modes, the save runs in a child
// process as the unprivileged owner of the directory.
func TestUpdate_DirectoryItsOwnerCannotWriteFailsCleanly(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "drafts")
	d := mustDir(t, dir)
	save(t, d, "doc", note{ID: "kept"})
	path := filepath.Join(dir, "doc.json")
	before := readBytes(t, path)
	t.Cleanup(func() { os.Chmod(dir, 0o700) })

	var msg string
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		var doc testDoc
		err := d.Update(context.Background(), "doc", &doc, doc.merge(note{ID: "new"}))
		checkFailedSave(t, d, err, store.ErrReadOnly, "", before)
		msg = err.Error()
	} else {
		res := saveAsNobody(t, base, dir)
		if !res.ReadOnly || res.NoSpace {
			t.Errorf("child classified %q as read-only %v, no space %v; want read-only only", res.Error, res.ReadOnly, res.NoSpace)
		}
		msg = res.Error
		t.Logf("message: %s", msg)
		if diff := cmp.Diff(string(before), string(readBytes(t, path))); diff != "" {
			t.Errorf("document changed by a failed save (-before +after):\n%s", diff)
		}
		if got := leftovers(t, dir); len(got) != 0 {
			t.Errorf("left behind: %v", got)
		}
	}
	for _, want := range []string{"cannot save " + path, dir + " is read-only or not writable", "permission denied", "the file on disk is unchanged"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not contain %q", msg, want)
		}
	}
}

// saveAsNobody hands dir (under base) to uid nobody, makes it 0555, and
// runs one save in a copy of the test binary as nobody.
func saveAsNobody(t *testing.T, base, dir string) saveResult {
	t.Helper()
	for p := filepath.Dir(filepath.Dir(base)); p != "/"; p = filepath.Dir(p) {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm()&0o001 == 0 {
			t.Skipf("%s cannot be entered by an unprivileged user", p)
		}
	}
	for _, p := range []string{filepath.Dir(base), base} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{dir, filepath.Join(dir, "doc.json"), filepath.Join(dir, "doc.lock")} {
		if err := os.Chown(p, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	exe := copyTestBinary(t, filepath.Join(base, "store.test"))

	cmd := helperCommand(t, exe, "save-once", dir)
	cmd.Dir = base
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child as uid %d: %v; stderr: %s", nobody, err, cmd.Stderr)
	}
	var res saveResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("child output %q: %v", out, err)
	}
	return res
}

// copyTestBinary copies the running test binary to dst, mode 0755: the go
// tool's build directory cannot be entered by other users.
func copyTestBinary(t *testing.T, dst string) string {
	t.Helper()
	src, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}
