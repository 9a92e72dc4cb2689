package daemon_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/app/apptest"
	"github.com/leanreview/leanreview/internal/daemon"
)

func emptyRegistry(t *testing.T) *app.Registry {
	return registry(t, t.TempDir(), app.Deps{Now: time.Now, NewID: apptest.IDs("d")}, fixedOpener{})
}

func TestServe_OneDaemonPerRuntimeDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	start(t, daemon.Options{RuntimeDir: dir, Sessions: emptyRegistry(t)})
	_, err := daemon.New(daemon.Options{RuntimeDir: dir, Sessions: emptyRegistry(t)})
	if err == nil || !strings.Contains(err.Error(), "another leanreview daemon is running") {
		t.Fatalf("a second daemon: %v", err)
	}
	err = daemon.Replace(context.Background(), daemon.ConnectOptions{RuntimeDir: dir, Version: "test"})
	if err == nil || !strings.Contains(err.Error(), "already serves") {
		t.Errorf("Replace by the same version: %v", err)
	}
}

func TestReplace_ADaemonOfAnotherVersionIsAskedToStopAndMakesWay(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	old := start(t, daemon.Options{RuntimeDir: dir, Version: "0.9.0", Sessions: emptyRegistry(t)})
	if err := daemon.Replace(context.Background(), daemon.ConnectOptions{RuntimeDir: dir, Version: "1.0.0"}); err != nil {
		t.Fatal(err)
	}
	old.waitStopped(t, 5*time.Second)
	if old.err != nil {
		t.Errorf("the old daemon stopped with %v", old.err)
	}
	if _, err := daemon.ReadDiscovery(dir); !errors.Is(err, daemon.ErrNoDaemon) {
		t.Errorf("the old daemon left its discovery file: %v", err)
	}
	next := start(t, daemon.Options{RuntimeDir: dir, Version: "1.0.0", Sessions: emptyRegistry(t)})
	if d, _ := daemon.ReadDiscovery(dir); d.Version != "1.0.0" || d.Token != next.disc.Token {
		t.Errorf("discovery after replacing: %+v", d)
	}
}

func TestConnect_JoinsStartsOrReplaces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	starts := 0
	launch := func(version string) func() error {
		return func() error {
			starts++
			start(t, daemon.Options{RuntimeDir: dir, Version: version, Sessions: emptyRegistry(t)})
			return nil
		}
	}
	ctx := context.Background()
	_, err := daemon.Connect(ctx, daemon.ConnectOptions{RuntimeDir: dir, Version: "1"})
	if !errors.Is(err, daemon.ErrNoDaemon) {
		t.Fatalf("Connect with nothing running and no way to start: %v", err)
	}
	first, err := daemon.Connect(ctx, daemon.ConnectOptions{RuntimeDir: dir, Version: "1", Start: launch("1")})
	if err != nil || starts != 1 || first.Version != "1" {
		t.Fatalf("first Connect: %+v, %v, %d starts", first, err, starts)
	}
	again, err := daemon.Connect(ctx, daemon.ConnectOptions{RuntimeDir: dir, Version: "1", Start: launch("1")})
	if err != nil || starts != 1 || again.Token != first.Token {
		t.Fatalf("second Connect started another daemon: %+v, %v, %d starts", again, err, starts)
	}
	newer, err := daemon.Connect(ctx, daemon.ConnectOptions{RuntimeDir: dir, Version: "2", Start: launch("2")})
	if err != nil || starts != 2 || newer.Version != "2" || newer.Token == first.Token {
		t.Fatalf("Connect from a newer version: %+v, %v, %d starts", newer, err, starts)
	}
}

func TestConnect_ADiscoveryFileLeftByADeadDaemonIsIgnored(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	ln, _ := daemon.Listen("127.0.0.1:0")
	dead := ln.Addr().String()
	ln.Close()
	if err := daemon.WriteDiscovery(dir, daemon.Discovery{Version: "1", Addr: dead, Token: "gone"}); err != nil {
		t.Fatal(err)
	}
	started := false
	d, err := daemon.Connect(context.Background(), daemon.ConnectOptions{RuntimeDir: dir, Version: "1", Start: func() error {
		started = true
		start(t, daemon.Options{RuntimeDir: dir, Version: "1", Sessions: emptyRegistry(t)})
		return nil
	}})
	if err != nil || !started || d.Addr == dead {
		t.Errorf("Connect over a dead daemon's file: %+v, %v, started=%v", d, err, started)
	}
}

func TestServe_StopsWhenIdleButNotWhileAStreamIsOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	f := newFixture(t, daemon.Options{RuntimeDir: dir, IdleTimeout: 300 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	events, err := f.human.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(900 * time.Millisecond)
	select {
	case <-f.d.stopped:
		t.Fatal("the daemon stopped while a client was subscribed")
	default:
	}
	cancel()
	for range events {
	}
	f.d.waitStopped(t, 5*time.Second)
	if _, err := daemon.ReadDiscovery(dir); !errors.Is(err, daemon.ErrNoDaemon) {
		t.Errorf("an idle daemon left its discovery file: %v", err)
	}
}

func TestServe_ShutdownEndsOpenEventStreams(t *testing.T) {
	f := newFixture(t, daemon.Options{})
	events, err := f.human.Subscribe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", f.d.disc.BaseURL()+"/api/v1/shutdown", nil)
	req.Header.Set("Authorization", "Bearer "+f.d.disc.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("shutdown: %s", resp.Status)
	}
	f.d.waitStopped(t, 5*time.Second)
	select {
	case _, open := <-events:
		for open {
			_, open = <-events
		}
	case <-time.After(2 * time.Second):
		t.Error("the client's event channel stayed open after the daemon stopped")
	}
}
