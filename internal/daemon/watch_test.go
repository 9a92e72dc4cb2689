package daemon_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/app/apptest"
	"github.com/leanreview/leanreview/internal/daemon"
	"github.com/leanreview/leanreview/internal/gitrepo/gitrepotest"
	"github.com/leanreview/leanreview/internal/session"
	"github.com/leanreview/leanreview/internal/store"
)

// TestWatch_TheWorkTreeMovingTellsEverySurfaceToReload reviews a real git
// work tree through the daemon and changes it three ways (an edit, a new
// directory, a commit): each time every subscriber hears "reloaded" with
// the new digest, the changeset served is the new one, and a write against
// the old one is refused as stale.
func TestWatch_TheWorkTreeMovingTellsEverySurfaceToReload(t *testing.T) {
	sb := gitrepotest.NewSandbox(t)
	sb.WriteFile("a.go", "package a\n\nfunc A() int { return 1 }\n")
	sb.Commit("first")
	sb.WriteFile("a.go", "package a\n\nfunc A() int { return 2 }\n")

	drafts, _ := store.New(filepath.Join(t.TempDir(), "drafts"), 1)
	reg := app.NewRegistry(app.RegistryDeps{
		Deps:    app.Deps{Documents: drafts, Now: time.Now, NewID: apptest.IDs("d")},
		Opener:  daemon.SourceOpener{Git: sb.Runner},
		Watcher: daemon.TreeWatcher{Quiet: 50 * time.Millisecond},
	})
	t.Cleanup(reg.Close)
	d := start(t, daemon.Options{Sessions: reg})
	ctx := context.Background()
	human, err := d.client(t).Open(ctx, app.OpenRequest{Dir: sb.Root})
	if err != nil {
		t.Fatal(err)
	}
	sb.WriteFile("sub/keep.txt", "")
	joined, err := d.client(t).Open(ctx, app.OpenRequest{Args: []string{"."}, Dir: filepath.Join(sb.Root, "sub")})
	if err != nil || joined.ID() != human.ID() {
		t.Fatalf("opening the same work tree from a subdirectory: %v, id %s want %s", err, joined.ID(), human.ID())
	}
	events, err := human.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}

	for _, step := range []struct {
		name   string
		change func()
		files  []string
	}{
		{"an edit", func() { sb.WriteFile("a.go", "package a\n\nfunc A() int { return 3 }\n") }, []string{"a.go", "sub/keep.txt"}},
		{"a new directory", func() { sb.WriteFile("pkg/deep/b.go", "package deep\n") }, []string{"a.go", "pkg/deep/b.go", "sub/keep.txt"}},
		{"a commit", func() { sb.Commit("second") }, nil},
	} {
		before, err := human.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		step.change()
		ev := awaitReload(t, events, before.AsOf)
		after, err := human.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, f := range after.Changeset.Files {
			files = append(files, f.Path)
		}
		if after.AsOf != ev.AsOf || !slices.Equal(files, step.files) {
			t.Errorf("after %s: as_of %s (event %s), files %v, want %v", step.name, after.AsOf, ev.AsOf, files, step.files)
		}
		err = app.At(human, before.AsOf).SetCursor(ctx, session.ActorHuman, app.Cursor{Hunk: -1})
		if !errors.Is(err, app.ErrStale) {
			t.Errorf("after %s, a write against the old change: %v", step.name, err)
		}
	}
}

// awaitReload waits for a reloaded event naming a digest other than old.
func awaitReload(t *testing.T, events <-chan app.Event, old string) app.Event {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("the event stream closed")
			}
			if ev.Kind == app.EventReloaded && ev.AsOf != old {
				return ev
			}
		case <-deadline:
			t.Fatal("no reload within 10s of the change")
		}
	}
}
