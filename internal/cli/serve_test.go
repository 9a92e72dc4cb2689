package cli

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/config"
	"github.com/leanreview/leanreview/internal/daemon"
	"github.com/leanreview/leanreview/internal/iostreams"
	"github.com/leanreview/leanreview/internal/mcp"
	"github.com/leanreview/leanreview/internal/session"
)

func TestServeCmd_ParsesFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    ServeOptions
		wantErr string
	}{
		{nil, ServeOptions{Addr: "127.0.0.1:0", Idle: 30 * time.Minute}, ""},
		{[]string{"--open", "--addr", "[::1]:7777", "--idle", "2h"}, ServeOptions{Addr: "[::1]:7777", Open: true, Idle: 2 * time.Hour}, ""},
		{[]string{"--idle", "0"}, ServeOptions{Addr: "127.0.0.1:0"}, ""},
		{[]string{"--idle", "-1s"}, ServeOptions{}, "must not be negative"},
		{[]string{"fix.patch"}, ServeOptions{}, "unknown command"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			ios, _, _ := iostreams.Test("")
			var got *ServeOptions
			cmd := newCmdServe(&Factory{IOStreams: ios}, func(_ context.Context, o *ServeOptions) error { got = o; return nil })
			cmd.SetArgs(tc.args)
			cmd.SetOut(ios.Out)
			cmd.SetErr(ios.ErrOut)
			err := cmd.Execute()
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got == nil || *got != tc.want {
				t.Fatalf("options %+v, err %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// serveFactory is a Factory whose directories are all under dir.
// Read its output only once whatever writes it has returned.
func serveFactory(t *testing.T, dir string) (*Factory, *bytes.Buffer) {
	t.Helper()
	ios, out, _ := iostreams.Test("")
	env := []string{
		"HOME=" + dir, "PATH=" + os.Getenv("PATH"),
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_RUNTIME_DIR=" + filepath.Join(dir, "run"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
	}
	return newFactory(ios, config.Sources{Environ: env}, dir), out
}

func TestServe_RefusesANonLoopbackAddressAsAUsageError(t *testing.T) {
	f, _ := serveFactory(t, t.TempDir())
	err := serveRun(context.Background(), f, &ServeOptions{Addr: "0.0.0.0:0"})
	if exitCode(err) != exitUsage || !errors.Is(err, daemon.ErrNotLoopback) || !strings.Contains(err.Error(), "loopback only") {
		t.Errorf("err = %v (exit %d), want a usage error about loopback", err, exitCode(err))
	}
}

// TestServe_ShareJoinsTheDaemonAndWritesTheTerminalsDraftsFile runs the
// daemon as `leanreview serve --open` does, joins it as `--share` does,
// comments through the shared session, and finds the comment in the same
// drafts file `leanreview drafts` reads.
func TestServe_ShareJoinsTheDaemonAndWritesTheTerminalsDraftsFile(t *testing.T) {
	dir := t.TempDir()
	patch, err := os.ReadFile(filepath.Join("testdata", "calc-v1.diff"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fix.patch"), patch, 0o644); err != nil {
		t.Fatal(err)
	}
	f, out := serveFactory(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serveRun(ctx, f, &ServeOptions{Addr: "127.0.0.1:0", Open: true}) }()
	cfg, _ := f.Config()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := daemon.ReadDiscovery(cfg.Paths.RuntimeDir); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the daemon did not write its discovery file")
		}
		time.Sleep(10 * time.Millisecond)
	}

	sharer, _ := serveFactory(t, dir)
	svc, login, err := sharer.SharedService(ctx, []string{"fix.patch"}, sourceFlags{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(login, "/login#code=") {
		t.Errorf("login URL %q", login)
	}
	ref := app.LineRef{Path: "calc.go", Side: changeset.SideNew, Start: 20}
	if _, err := svc.Comment(ctx, session.ActorHuman, app.CommentRequest{Ref: ref, Body: "shared"}); err != nil {
		t.Fatal(err)
	}
	// The agent's MCP endpoint for the session is mounted behind the same
	// token check as the API.
	disc, _ := daemon.ReadDiscovery(cfg.Paths.RuntimeDir)
	resp, err := http.Post(disc.BaseURL()+mcp.EndpointPath(svc.ID()), "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the MCP endpoint without the token: %s, want 401", resp.Status)
	}
	_, _, err = sharer.SharedService(ctx, []string{"-"}, sourceFlags{})
	if exitCode(err) != exitUsage || !strings.Contains(err.Error(), "standard input cannot be shared") {
		t.Errorf("sharing stdin: %v", err)
	}

	cancel()
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
	if printed := out.String(); !strings.Contains(printed, "serving on http://127.0.0.1:") || !strings.Contains(printed, "/login#code=") {
		t.Errorf("serve --open printed %q", printed)
	}
	src, err := f.OpenSource(context.Background(), []string{"fix.patch"}, sourceFlags{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.OpenReview(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Drafts.Drafts(); len(d) != 1 || d[0].Body != "shared" || d[0].Author != session.ActorHuman {
		t.Errorf("the terminal's drafts file holds %+v", d)
	}
}
