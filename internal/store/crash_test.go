package store_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestUpdate_SIGKILLMidSaveLeavesThePreviousOrTheNextDocument starts a
// child that saves a growing document in a loop, acknowledging each save
// by its seq, and kills it at a random moment, 200 times. After each kill
// the file must parse and hold exactly the last acknowledged save or the
// one after it (completed but not yet acknowledged).
func TestUpdate_SIGKILLMidSaveLeavesThePreviousOrTheNextDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 200 processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "drafts")
	path := filepath.Join(dir, "doc.json")
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("seed %d", seed)

	const kills = 200
	acked, midSave := 0, 0
	for i := range kills {
		cmd := helperCommand(t, exe, "save-loop", dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		acks := bufio.NewReader(out)
		// The first acknowledgement shows the child is in its save loop;
		// the kill then lands anywhere in the following saves.
		first, err := readAck(acks)
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("kill %d: child gave no acknowledgement: %v; stderr: %s", i, err, cmd.Stderr)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(3 * time.Millisecond))))
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		last := first
		for {
			n, err := readAck(acks)
			if err != nil {
				break
			}
			last = n
		}
		if err := cmd.Wait(); err == nil || cmd.ProcessState.Success() {
			t.Fatalf("kill %d: child exited by itself (%v); stderr: %s", i, err, cmd.Stderr)
		}
		if last < acked+1 {
			t.Fatalf("kill %d: child acknowledged seq %d after %d", i, last, acked)
		}
		acked = last

		if hasTemp(t, dir) {
			midSave++
		}
		doc, err := decodeStrict(path)
		if err != nil {
			t.Fatalf("kill %d: after acknowledged seq %d the file is broken: %v", i, acked, err)
		}
		if doc.Seq != acked && doc.Seq != acked+1 {
			t.Fatalf("kill %d: file holds seq %d, want %d (last acknowledged) or %d", i, doc.Seq, acked, acked+1)
		}
		acked = doc.Seq
	}
	t.Logf("%d kills, %d of them mid-save (a temporary file was left), last seq %d", kills, midSave, acked)
	if midSave == 0 {
		t.Errorf("no kill interrupted a save, so the test proved nothing")
	}

	// The next save sweeps the killed saves' temporary files.
	save(t, mustDir(t, dir), "doc", note{ID: "after"})
	if got := leftovers(t, dir); len(got) != 0 {
		t.Errorf("left over after a clean save: %v", got)
	}
}

// readAck reads one acknowledged seq from a save-loop child.
func readAck(r *bufio.Reader) (int, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSuffix(line, "\n"))
}

// decodeStrict parses path without the store, rejecting unknown fields and
// trailing data, and checks it is a complete appendNext document.
func decodeStrict(path string) (testDoc, error) {
	f, err := os.Open(path)
	if err != nil {
		return testDoc{}, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	var doc testDoc
	if err := dec.Decode(&doc); err != nil {
		return doc, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return doc, errors.New("trailing data after the document")
	}
	return doc, checkSeqDoc(doc)
}

func hasTemp(t *testing.T, dir string) bool {
	t.Helper()
	return slices.ContainsFunc(leftovers(t, dir), func(n string) bool { return strings.HasPrefix(n, ".doc.json.tmp-") })
}

// TestUpdate_TwoProcessesAddingAtOnceKeepEveryEntry releases two children
// at the same moment, each adding 100 notes with its own ids, one Update
// per note. Merging by id under the lock must keep all 200.
func TestUpdate_TwoProcessesAddingAtOnceKeepEveryEntry(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "drafts")
	const perChild = 100
	var gates []io.WriteCloser
	var children []*childProc
	for _, prefix := range []string{"A", "B"} {
		cmd := helperCommand(t, exe, "add", dir, prefix, strconv.Itoa(perChild))
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
			t.Fatalf("child %s: %q, %v; stderr: %s", prefix, line, err, cmd.Stderr)
		}
		gates = append(gates, in)
		children = append(children, &childProc{name: prefix, cmd: cmd})
	}
	for _, g := range gates {
		io.WriteString(g, "go\n")
	}
	var wg sync.WaitGroup
	for _, c := range children {
		wg.Go(func() { c.err = c.cmd.Wait() })
	}
	wg.Wait()
	for _, c := range children {
		if c.err != nil {
			t.Fatalf("child %s: %v; stderr: %s", c.name, c.err, c.cmd.Stderr)
		}
	}

	var doc testDoc
	if err := mustDir(t, dir).Read(context.Background(), "doc", &doc); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, prefix := range []string{"A", "B"} {
		for i := range perChild {
			want = append(want, prefix+"-"+strconv.Itoa(i))
		}
	}
	got := ids(doc.Notes)
	t.Logf("%d notes, %d alternations between the writers", len(got), alternations(got))
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if doc.Seq != 2*perChild {
		t.Errorf("seq %d, want %d: a save was lost", doc.Seq, 2*perChild)
	}
}

type childProc struct {
	name string
	cmd  *exec.Cmd
	err  error
}

// alternations counts changes of writer along the saved order of ids, to
// show the two processes did interleave.
func alternations(ids []string) int {
	n := 0
	for i := 1; i < len(ids); i++ {
		if ids[i][0] != ids[i-1][0] {
			n++
		}
	}
	return n
}

func TestUpdate_ConcurrentGoroutinesWithSeparateDirsKeepEveryEntry(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drafts")
	const writers, each = 4, 25
	var wg sync.WaitGroup
	for w := range writers {
		d := mustDir(t, dir)
		wg.Go(func() {
			for i := range each {
				var doc testDoc
				id := strconv.Itoa(w) + "-" + strconv.Itoa(i)
				if err := d.Update(context.Background(), "doc", &doc, doc.merge(note{ID: id})); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	var doc testDoc
	if err := mustDir(t, dir).Read(context.Background(), "doc", &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Notes) != writers*each || doc.Seq != writers*each {
		t.Errorf("%d notes after %d saves counted, want %d of each", len(doc.Notes), doc.Seq, writers*each)
	}
	if _, err := os.Stat(filepath.Join(dir, "doc.json")); errors.Is(err, fs.ErrNotExist) {
		t.Error("no document written")
	}
}
