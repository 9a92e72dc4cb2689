package daemon_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/app/apptest"
	"github.com/leanreview/leanreview/internal/daemon"
	"github.com/leanreview/leanreview/internal/httpapi"
	"github.com/leanreview/leanreview/internal/store"
)

// fixedOpener opens one source whatever the request says.
type fixedOpener struct{ src app.OpenedSource }

func (o fixedOpener) OpenSource(context.Context, app.OpenRequest) (app.OpenedSource, error) {
	return o.src, nil
}

// registry builds a Registry persisting under stateDir that opens src.
func registry(t testing.TB, stateDir string, deps app.Deps, opener app.Opener) *app.Registry {
	t.Helper()
	drafts, err := store.New(filepath.Join(stateDir, "drafts"), 1)
	if err != nil {
		t.Fatal(err)
	}
	viewed, err := store.New(filepath.Join(stateDir, "viewed"), 1)
	if err != nil {
		t.Fatal(err)
	}
	deps.Documents = drafts
	reg := app.NewRegistry(app.RegistryDeps{Deps: deps, Viewed: viewed, Opener: opener})
	t.Cleanup(reg.Close)
	return reg
}

// running is a daemon serving in this process on a real loopback port.
type running struct {
	*daemon.Daemon
	disc daemon.Discovery
	// stopped is closed when Serve has returned err.
	stopped chan struct{}
	err     error
	stop    context.CancelFunc
}

// start serves opts until the test ends; opts.RuntimeDir defaults to a
// fresh directory and opts.Version to "test".
func start(t testing.TB, opts daemon.Options) *running {
	t.Helper()
	if opts.RuntimeDir == "" {
		opts.RuntimeDir = filepath.Join(t.TempDir(), "run")
	}
	if opts.Version == "" {
		opts.Version = "test"
	}
	d, err := daemon.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{Daemon: d, disc: d.Discovery(), stopped: make(chan struct{}), stop: cancel}
	go func() { r.err = d.Serve(ctx); close(r.stopped) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-r.stopped:
		case <-time.After(10 * time.Second):
			t.Error("the daemon did not stop within 10s")
		}
	})
	waitUp(t, opts.RuntimeDir)
	return r
}

// waitUp waits for the discovery file: Serve writes it before serving.
func waitUp(t testing.TB, dir string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := daemon.ReadDiscovery(dir)
		if err == nil {
			return
		}
		if !errors.Is(err, daemon.ErrNoDaemon) || time.Now().After(deadline) {
			t.Fatalf("the daemon did not come up: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitStopped fails the test unless Serve returns within limit.
func (r *running) waitStopped(t testing.TB, limit time.Duration) {
	t.Helper()
	select {
	case <-r.stopped:
	case <-time.After(limit):
		t.Fatalf("the daemon still runs after %v", limit)
	}
}

func (r *running) client(t testing.TB) *httpapi.Client {
	t.Helper()
	c, err := httpapi.NewClient(r.disc.BaseURL(), r.disc.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fixture is the calc-v1 review behind a daemon: its registry, the daemon,
// and the human's client session.
type fixture struct {
	reg   *app.Registry
	d     *running
	human *httpapi.Session
	agent app.Service
	src   *apptest.Source
}

func newFixture(t testing.TB, opts daemon.Options) *fixture {
	t.Helper()
	src := apptest.NewSource(apptest.V1)
	info := app.SourceInfo{Kind: "file", Key: "patch-fixture", Label: "calc-v1.diff"}
	reg := registry(t, t.TempDir(), app.Deps{Now: time.Now, NewID: apptest.IDs("d")}, fixedOpener{app.OpenedSource{Info: info, Source: src}})
	opts.Sessions = reg
	d := start(t, opts)
	sess, err := d.client(t).Open(context.Background(), app.OpenRequest{Args: []string{"calc-v1.diff"}, Dir: "/"})
	if err != nil {
		t.Fatal(err)
	}
	local, ok := reg.Get(sess.ID())
	if !ok {
		t.Fatalf("session %s is not in the registry", sess.ID())
	}
	return &fixture{reg: reg, d: d, human: sess, agent: local, src: src}
}
