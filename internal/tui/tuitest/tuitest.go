// Package tuitest builds review services for the terminal UI's tests: the
// real in-process app.Local over a patch, with its drafts and read marks
// in a test's temporary directory, a fixed clock and numbered draft ids.
package tuitest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/store"
)

// Patch is an app.PatchSource over fixed bytes.
type Patch []byte

// Patch implements app.PatchSource.
func (p Patch) Patch(context.Context) ([]byte, error) { return p, nil }

// Open returns an app.Local reviewing patch, keeping its state under dir
// (pass the same dir to reopen the same review). It fails t on error.
func Open(t testing.TB, patch []byte, dir string) *app.Local {
	t.Helper()
	return OpenKeyed(t, patch, dir, changeset.PatchDigest(string(patch)))
}

// OpenKeyed is Open with the source's identity key given: two patches
// opened under one key are one source whose diff changed (a force-push),
// so drafts written on the first are relocated or orphaned on the second.
func OpenKeyed(t testing.TB, patch []byte, dir, key string) *app.Local {
	t.Helper()
	drafts, err := store.New(filepath.Join(dir, "drafts"), 1)
	if err != nil {
		t.Fatal(err)
	}
	viewed, err := store.New(filepath.Join(dir, "viewed"), 1)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	deps := app.LocalDeps{
		Deps: app.Deps{
			Documents: drafts,
			Now:       func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) },
			NewID: func() string {
				n++
				return fmt.Sprintf("d%d", n)
			},
		},
		Info:   app.SourceInfo{Kind: "file", Key: key, Label: "test.patch"},
		Source: Patch(patch),
		Viewed: viewed,
	}
	l, err := app.NewLocal(context.Background(), deps)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// NoEvents is a Service whose Subscribe delivers nothing and ends at once,
// for tests that drive the UI's messages one by one: the UI then refreshes
// only after its own writes, never from a goroutine the test cannot see.
type NoEvents struct{ app.Service }

// Subscribe returns a closed channel.
func (NoEvents) Subscribe(context.Context) (<-chan app.Event, error) {
	ch := make(chan app.Event)
	close(ch)
	return ch, nil
}
