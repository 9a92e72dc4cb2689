package e2e

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/daemon"
	"github.com/leanreview/leanreview/internal/httpapi"
	"github.com/leanreview/leanreview/internal/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// sharedHome is termHome plus a private runtime directory, where `--share`
// starts the user's daemon and writes its discovery file.
type sharedHome struct {
	*termHome
	runtime string
}

func newSharedHome(t *testing.T) *sharedHome {
	t.Helper()
	h := &sharedHome{termHome: newTermHome(t, "unused")}
	h.runtime = filepath.Join(h.dir, "run")
	if err := os.Mkdir(h.runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *sharedHome) env() []string {
	return append(h.termHome.env(), "XDG_RUNTIME_DIR="+h.runtime, "TMPDIR="+h.dir)
}

// openShared starts `leanreview --share args...` in tmux and returns the
// daemon it started; the daemon is stopped when the test ends.
func openShared(t *testing.T, h *sharedHome, w, hgt int, args ...string) (*term, daemon.Discovery) {
	t.Helper()
	requireTmux(t)
	if !wired {
		t.Fatal("leanreview's root command does not open the review UI: wire reviewRun and --demo in internal/cli/cli.go (see internal/cli/review.go)")
	}
	tm := startTerm(t, h.dir, h.env(), w, hgt, append([]string{bin, "--share"}, args...)...)
	tm.wait("the first screen", func(s string) bool { return strings.Contains(s, " hunks · ") })
	disc, err := daemon.ReadDiscovery(filepath.Join(h.runtime, "leanreview"))
	if err != nil {
		t.Fatalf("no daemon after leanreview --share: %v", err)
	}
	t.Cleanup(func() { stopDaemon(t, disc) })
	return tm, disc
}

// agentSession spawns `leanreview mcp args...` in h as an agent host does
// and connects to it over stdio with the MCP SDK's client.
func agentSession(t *testing.T, h *sharedHome, args ...string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	cmd.Env = append(h.env(), "PATH="+os.Getenv("PATH"))
	cmd.Dir = h.dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e-agent", Version: "1"}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("start leanreview mcp: %v\nstderr: %s", err, stderr.String())
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// callTool calls an MCP tool and fails the test on a protocol or tool
// error.
func callTool(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s %v: tool error: %v", name, args, res.Content)
	}
}

// stopDaemon asks the daemon to stop and waits until it no longer answers.
func stopDaemon(t *testing.T, disc daemon.Discovery) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, disc.BaseURL()+httpapi.Prefix+"/shutdown", nil)
	req.Header.Set("Authorization", "Bearer "+disc.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return // already gone
	}
	resp.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := http.Get(disc.BaseURL() + httpapi.Prefix + "/version"); err != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("the daemon (pid %d) still answers 10s after shutdown", disc.PID)
}

// suggestedRow is the line the agent points at: new line 45 of
// internal/ratelimit/bucket.go, in its third hunk, under the cursor.
const suggestedRow = ">   45  + // refill adds the tokens"

// Issue 6's terminal side: the agent suggests a line through MCP while
// the human reviews in the terminal, shared through the daemon; the
// suggestion appears with no key pressed, the human accepts it, the view
// moves to the line, and the daemon's session says the cursor is there.
func TestShare_AgentSuggestionIsShownAcceptedAndFollowed(t *testing.T) {
	h := newSharedHome(t)
	patch := reviewPatch(t)
	tm, disc := openShared(t, h, 120, 30, patch)

	agent := agentSession(t, h, patch)
	callTool(t, agent, mcp.ToolSuggest, map[string]any{"path": "internal/ratelimit/bucket.go", "hunk": 2, "line": 45,
		"reason": "The clock-step guard returns before updating last."})

	scr := tm.waitText("The clock-step guard returns before updating last.")
	if !strings.Contains(scr, "◆ agent: …/bucket.go:45 — ") {
		t.Errorf("the bar does not say where the agent points:\n%s", scr)
	}
	if strings.Contains(scr, suggestedRow) {
		t.Fatalf("the cursor is on the suggested line before the human accepted:\n%s", scr)
	}

	tm.keys("a")
	scr = tm.waitText(suggestedRow)
	if !strings.Contains(scr, "accepted: internal/ratelimit/bucket.go hunk 3, new line 45") {
		t.Errorf("no confirmation in the status line:\n%s", scr)
	}

	client, err := httpapi.NewClient(disc.BaseURL(), disc.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc, err := client.Open(ctx, app.OpenRequest{Args: []string{patch}, Dir: h.dir})
	if err != nil {
		t.Fatal(err)
	}
	want := app.Cursor{Path: "internal/ratelimit/bucket.go", Side: changeset.SideNew, Line: 45, Hunk: 2}
	var snap *app.Snapshot
	deadline := time.Now().Add(10 * time.Second)
	for {
		if snap, err = svc.Snapshot(ctx); err != nil {
			t.Fatal(err)
		}
		if snap.Cursor == want || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if snap.Cursor != want {
		t.Errorf("the daemon's cursor is %+v, want %+v", snap.Cursor, want)
	}
	if len(snap.Suggestions) != 1 || snap.Suggestions[0].State != app.SuggestionAccepted {
		t.Errorf("the daemon's suggestions: %+v, want one accepted", snap.Suggestions)
	}

	// The human moves on; the daemon hears where, without the agent's help.
	tm.keys("j")
	tm.waitText(">   46  + func (b *Bucket) refill")
	want.Line = 46
	for deadline := time.Now().Add(10 * time.Second); ; {
		if snap, err = svc.Snapshot(ctx); err != nil {
			t.Fatal(err)
		}
		if snap.Cursor == want || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if snap.Cursor != want {
		t.Errorf("after j the daemon's cursor is %+v, want %+v", snap.Cursor, want)
	}
	tm.quit()
}
