package store_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/store"
)

// helperEnv, when set to "1", turns the test binary into one of the child
// processes of helperMain instead of running tests: the crash, concurrency
// and unprivileged-user tests need real separate processes.
const helperEnv = "LEANREVIEW_STORE_TEST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		os.Exit(helperMain(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// helperCommand returns a command running helperMain(args) in a child
// process, from the test binary exe.
func helperCommand(t *testing.T, exe string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	cmd.Stderr = &strings.Builder{}
	return cmd
}

// helperMain runs one child role and returns its exit code:
//
//	save-loop DIR           save forever, printing each acknowledged seq
//	add DIR PREFIX N        print "ready", wait for a stdin line, then add
//	                        notes PREFIX-0..PREFIX-N-1, one Update each
//	save-once DIR           try one save; print a saveResult as JSON
func helperMain(args []string) int {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "helper: want ROLE DIR [ARGS]")
		return 2
	}
	d, err := store.New(args[1], 1)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx := context.Background()
	switch args[0] {
	case "save-loop":
		for {
			var doc testDoc
			if err := d.Update(ctx, "doc", &doc, doc.appendNext); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			// One write(2) per line: a kill cannot tear an acknowledgement.
			os.Stdout.WriteString(strconv.Itoa(doc.Seq) + "\n")
		}
	case "add":
		n, _ := strconv.Atoi(args[3])
		os.Stdout.WriteString("ready\n")
		if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
			return 1
		}
		for i := range n {
			var doc testDoc
			id := fmt.Sprintf("%s-%d", args[2], i)
			if err := d.Update(ctx, "doc", &doc, doc.merge(note{ID: id})); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
		return 0
	case "save-once":
		var doc testDoc
		err := d.Update(ctx, "doc", &doc, doc.merge(note{ID: "from-child"}))
		res := saveResult{ReadOnly: errors.Is(err, store.ErrReadOnly), NoSpace: errors.Is(err, store.ErrNoSpace)}
		if err != nil {
			res.Error = err.Error()
		}
		json.NewEncoder(os.Stdout).Encode(res)
		return 0
	}
	fmt.Fprintln(os.Stderr, "helper: unknown role", args[0])
	return 2
}

// saveResult is what the save-once child reports.
type saveResult struct {
	Error    string `json:"error"`
	ReadOnly bool   `json:"read_only"`
	NoSpace  bool   `json:"no_space"`
}

// testDoc stands in for a drafts file: a schema, a save counter and notes
// merged by id.
type testDoc struct {
	Schema int    `json:"schema"`
	Seq    int    `json:"seq"`
	Notes  []note `json:"notes"`
}

type note struct {
	ID   string `json:"id"`
	Body string `json:"body,omitempty"`
}

// Validate rejects two notes with one id, as a drafts file would.
func (d *testDoc) Validate() error {
	seen := map[string]bool{}
	for _, n := range d.Notes {
		if seen[n.ID] {
			return fmt.Errorf("duplicate note id %q", n.ID)
		}
		seen[n.ID] = true
	}
	return nil
}

// merge returns an Update mutation adding n unless a note with its id is
// already there.
func (d *testDoc) merge(n note) func(bool) error {
	return func(bool) error {
		d.Schema = 1
		d.Seq++
		for _, have := range d.Notes {
			if have.ID == n.ID {
				return nil
			}
		}
		d.Notes = append(d.Notes, n)
		return nil
	}
}

// keepNotes bounds the crash test's document: it grows for the first
// keepNotes saves, then keeps its size.
const keepNotes = 300

// appendNext is the crash test's mutation: the next seq, with a note whose
// id is that seq. The document always holds notes seq-k+1..seq, k =
// min(seq, keepNotes); checkSeqDoc verifies it.
func (d *testDoc) appendNext(bool) error {
	d.Schema = 1
	d.Seq++
	body := strings.Repeat(strconv.Itoa(d.Seq%10), 100+d.Seq%400)
	d.Notes = append(d.Notes, note{ID: strconv.Itoa(d.Seq), Body: body})
	if len(d.Notes) > keepNotes {
		d.Notes = d.Notes[len(d.Notes)-keepNotes:]
	}
	return nil
}

// checkSeqDoc reports whether doc is a complete appendNext document.
func checkSeqDoc(doc testDoc) error {
	if want := min(doc.Seq, keepNotes); len(doc.Notes) != want {
		return fmt.Errorf("seq %d with %d notes, want %d", doc.Seq, len(doc.Notes), want)
	}
	for i, n := range doc.Notes {
		seq := doc.Seq - len(doc.Notes) + 1 + i
		if n.ID != strconv.Itoa(seq) || n.Body != strings.Repeat(strconv.Itoa(seq%10), 100+seq%400) {
			return fmt.Errorf("seq %d: note %d is %q with a %d-byte body", doc.Seq, i, n.ID, len(n.Body))
		}
	}
	return nil
}

// newDir returns a Dir over a fresh directory that does not exist yet.
func newDir(t *testing.T, opts ...store.Option) *store.Dir {
	t.Helper()
	d, err := store.New(filepath.Join(t.TempDir(), "state", "drafts"), 1, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// fixedClock is the time set-aside files are named after in tests.
var fixedClock = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("X", 3600)) }

// save adds n to the document name, failing the test on error.
func save(t *testing.T, d *store.Dir, name string, n note) {
	t.Helper()
	var doc testDoc
	if err := d.Update(context.Background(), name, &doc, doc.merge(n)); err != nil {
		t.Fatalf("save %s: %v", n.ID, err)
	}
}

// readBytes returns the content of path, failing the test if it is absent.
func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// leftovers lists the files in dir that are neither documents nor lock
// files: temporary and set-aside files.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); !strings.HasSuffix(n, ".json") && !strings.HasSuffix(n, ".lock") {
			out = append(out, n)
		}
	}
	return out
}

// ids lists the ids of notes in order.
func ids(notes []note) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = n.ID
	}
	return out
}

// mustDir returns the schema-1 Dir at path.
func mustDir(t *testing.T, path string) *store.Dir {
	t.Helper()
	d, err := store.New(path, 1)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
