// Package agent runs the leanreview binary the way an AI agent host does:
// an MCP client (the official go-sdk) spawns `leanreview mcp` and talks to
// it over stdio, while the human works the same review through the
// daemon's HTTP API, the service the terminal UI uses when it shares a
// review.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/cli"
	"github.com/leanreview/leanreview/internal/daemon"
	"github.com/leanreview/leanreview/internal/httpapi"
	"github.com/leanreview/leanreview/internal/mcp"
	"github.com/leanreview/leanreview/internal/session"
	"github.com/leanreview/leanreview/internal/store"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// binary is leanreview, built once for every test here; wired says
// whether it has the mcp command.
var (
	binary string
	wired  bool
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "leanreview-e2e-agent")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "leanreview")
	build := exec.Command("go", "build", "-o", binary, "../../../cmd/leanreview")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("build leanreview: " + err.Error())
	}
	help, _ := exec.Command(binary, "mcp", "--help").Output()
	wired = strings.Contains(string(help), "leanreview mcp [SOURCE]")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// home is an isolated user for one test: XDG directories, HOME and a
// working directory under the test's temporary directory.
type home struct {
	dir, state, runtime string
	env                 []string
}

func newHome(t *testing.T) *home {
	t.Helper()
	dir := t.TempDir()
	h := &home{dir: dir, state: filepath.Join(dir, "state"), runtime: filepath.Join(dir, "run")}
	if err := os.Mkdir(h.runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	h.env = []string{
		"HOME=" + dir,
		"PATH=" + os.Getenv("PATH"),
		"XDG_STATE_HOME=" + h.state,
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_RUNTIME_DIR=" + h.runtime,
		"TMPDIR=" + dir,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
	}
	return h
}

// samplePatch is the repository's sample change, by absolute path.
func samplePatch(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "sample.patch"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// agentHost spawns `leanreview args...` in h as an agent host does and
// connects to it over stdio; the process ends with the test.
func agentHost(t *testing.T, h *home, args ...string) *sdk.ClientSession {
	t.Helper()
	if !wired {
		t.Fatal("the binary has no mcp command: add newCmdMCP(f, nil) to root.AddCommand in internal/cli/cli.go")
	}
	cmd := exec.Command(binary, args...)
	cmd.Env, cmd.Dir = h.env, h.dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e-agent-host", Version: "1"}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("start leanreview %v: %v\nstderr: %s", args, err, stderr.String())
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("leanreview %v did not end cleanly: %v\nstderr: %s", args, err, stderr.String())
		}
	})
	return cs
}

// call calls a tool, fails the test on any error, and decodes the answer.
func call[T any](t *testing.T, cs *sdk.ClientSession, name string, args any) T {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s %v: tool error: %v", name, args, res.Content)
	}
	var out T
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: decode %s: %v", name, b, err)
	}
	return out
}

// toolError calls a tool and returns the text of the tool error it must
// answer with.
func toolError(t *testing.T, cs *sdk.ClientSession, name string, args any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v, want a tool error", name, err)
	}
	if !res.IsError {
		t.Fatalf("%s %v succeeded, want it refused", name, args)
	}
	return res.Content[0].(*sdk.TextContent).Text
}

// userDaemon runs the user's daemon in h for the test, with MCP mounted
// as `leanreview serve` mounts it, and returns its registry and address.
func userDaemon(t *testing.T, h *home) (*app.Registry, daemon.Discovery) {
	t.Helper()
	drafts, err := store.New(filepath.Join(h.state, "leanreview", "drafts"), 1)
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	reg := app.NewRegistry(app.RegistryDeps{
		Deps:   app.Deps{Documents: drafts, Now: time.Now, NewID: func() string { return fmt.Sprintf("e2e-%d", n.Add(1)) }},
		Opener: daemon.SourceOpener{},
	})
	t.Cleanup(reg.Close)
	mount := mcp.NewHandler(mcp.PathResolver(reg.Get), mcp.Options{Version: cli.Version})
	d, err := daemon.New(daemon.Options{
		Version:    cli.Version, // the binary's, so `leanreview mcp` joins rather than replaces it
		RuntimeDir: filepath.Join(h.runtime, "leanreview"),
		Sessions:   reg,
		Mounts:     map[string]http.Handler{mcp.MountPattern: mount},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- d.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-stopped:
		case <-time.After(10 * time.Second):
			t.Error("the daemon did not stop within 10s")
		}
	})
	deadline := time.Now().Add(5 * time.Second)
	for {
		disc, err := daemon.ReadDiscovery(filepath.Join(h.runtime, "leanreview"))
		if err == nil {
			return reg, disc
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon did not come up: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestMCP_AgentAndHumanShareOneReviewThroughTheDaemon is issue 6's agent
// scenario end to end: an agent host spawns `leanreview mcp`, which joins
// the user's daemon; the agent reads the change, comments and suggests;
// the human's side sees both as the agent's; the agent has no way to move
// the cursor or delete the human's draft and the policy refuses both; the
// human accepts the suggestion and only then does the cursor move.
func TestMCP_AgentAndHumanShareOneReviewThroughTheDaemon(t *testing.T) {
	ctx := context.Background()
	h := newHome(t)
	reg, disc := userDaemon(t, h)
	patch := samplePatch(t)

	client, err := httpapi.NewClient(disc.BaseURL(), disc.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	human, err := client.Open(ctx, app.OpenRequest{Args: []string{patch}, Dir: h.dir})
	if err != nil {
		t.Fatal(err)
	}
	humanDraft, err := human.Comment(ctx, session.ActorHuman, app.CommentRequest{
		Ref: app.LineRef{Path: "server/handler.go", Side: changeset.SideNew, Start: 5}, Body: "Is log the right logger?"})
	if err != nil {
		t.Fatal(err)
	}
	where := app.Cursor{Path: "docs/README.md", Side: changeset.SideNew, Line: 5, Hunk: 0}
	if err := human.SetCursor(ctx, session.ActorHuman, where); err != nil {
		t.Fatal(err)
	}
	events, err := human.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}

	agent := agentHost(t, h, "mcp", patch)
	summary := call[mcp.ReviewView](t, agent, mcp.ToolRead, map[string]any{"projection": "summary"})
	if summary.Totals == nil || summary.Totals.Files != 5 || summary.Totals.Comments != 1 {
		t.Fatalf("the agent's summary: %+v, want 5 files and the human's comment", summary.Totals)
	}
	full := call[mcp.ReviewView](t, agent, mcp.ToolRead, map[string]any{"projection": "full", "path": "server/handler.go", "hunks": []int{1}})
	if rows := full.Files[0].Hunks[0].Rows; len(rows) == 0 || rows[0].New != 15 {
		t.Fatalf("the agent's full read of hunk 1: %+v", full.Files)
	}
	comment := call[mcp.CommentView](t, agent, mcp.ToolComment, map[string]any{
		"path": "server/handler.go", "line": 23, "end_line": 26, "body": "ErrNotFound is not declared in this change.", "as_of": summary.AsOf})
	suggestion := call[mcp.SuggestionView](t, agent, mcp.ToolSuggest, map[string]any{
		"path": "server/handler.go", "hunk": 1, "line": 23, "reason": "The 404 path uses an undeclared error.", "as_of": summary.AsOf})

	// The human's side is told, and sees both as the agent's; the cursor
	// has not moved.
	waitEvent(t, events)
	snap, err := human.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	authors := map[string]session.Actor{}
	for _, d := range snap.Drafts {
		authors[d.ID] = d.Author
	}
	if diff := cmp.Diff(map[string]session.Actor{humanDraft.ID: session.ActorHuman, comment.ID: session.ActorAgent}, authors); diff != "" {
		t.Errorf("drafts the human sees, by author (-want +got):\n%s", diff)
	}
	if len(snap.Suggestions) != 1 || snap.Suggestions[0].ID != suggestion.ID || snap.Suggestions[0].State != app.SuggestionPending {
		t.Fatalf("suggestions the human sees: %+v", snap.Suggestions)
	}
	if snap.Cursor != where {
		t.Errorf("the cursor moved to %+v on a suggestion; want it at %+v until the human accepts", snap.Cursor, where)
	}

	// Moving the cursor or deleting the human's draft: no such tool, and
	// the session's policy refuses the agent on the daemon's side too.
	tools, err := agent.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if diff := cmp.Diff([]string{"add_comment", "get_human_focus", "read_review", "resolve_comment", "suggest_focus"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	for _, name := range []string{"set_cursor", "delete_comment"} {
		if _, err := agent.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: map[string]any{"id": humanDraft.ID}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
			t.Errorf("%s: %v, want unknown tool", name, err)
		}
	}
	held, ok := reg.Get(human.ID())
	if !ok {
		t.Fatal("the daemon does not hold the review")
	}
	if err := held.SetCursor(ctx, session.ActorAgent, app.Cursor{Path: "server/handler.go", Hunk: 1}); !errors.Is(err, session.ErrForbidden) {
		t.Errorf("SetCursor as the agent in the daemon: %v, want ErrForbidden", err)
	}
	if _, err := held.DeleteComment(ctx, session.ActorAgent, humanDraft.ID); !errors.Is(err, session.ErrForbidden) {
		t.Errorf("DeleteComment of the human's draft as the agent in the daemon: %v, want ErrForbidden", err)
	}
	if msg := toolError(t, agent, mcp.ToolComment, map[string]any{"path": "server/handler.go", "line": 16, "body": "posing", "author": "human"}); !strings.Contains(msg, `"author"`) {
		t.Errorf("a comment claiming the human: %q", msg)
	}

	// The human accepts: the cursor moves, and the agent sees it.
	if err := human.AnswerSuggestion(ctx, session.ActorHuman, suggestion.ID, true); err != nil {
		t.Fatal(err)
	}
	snap, _ = human.Snapshot(ctx)
	if want := (app.Cursor{Path: "server/handler.go", Side: changeset.SideNew, Line: 23, Hunk: 1}); snap.Cursor != want {
		t.Errorf("cursor after accepting: %+v, want %+v", snap.Cursor, want)
	}
	focus := call[mcp.FocusView](t, agent, mcp.ToolFocus, nil)
	if focus.Cursor.Path != "server/handler.go" || focus.Cursor.Line != 23 || focus.Suggestions[0].State != "accepted" {
		t.Errorf("the agent's view after accepting: cursor %+v, suggestions %+v", focus.Cursor, focus.Suggestions)
	}
	if d, ok := findDraft(snap.Drafts, humanDraft.ID); !ok || d.Body != "Is log the right logger?" || len(snap.Drafts) != 2 {
		t.Errorf("the human's draft after everything: %+v %v (of %d)", d, ok, len(snap.Drafts))
	}
}

// waitEvent waits for the human's side to be told of a change.
func waitEvent(t *testing.T, events <-chan app.Event) {
	t.Helper()
	select {
	case _, ok := <-events:
		if !ok {
			t.Fatal("the event stream ended")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the human's side was not told of the agent's writes within 10s")
	}
}

func findDraft(drafts []session.Placed, id string) (session.Placed, bool) {
	for _, d := range drafts {
		if d.ID == id {
			return d, true
		}
	}
	return session.Placed{}, false
}

// TestMCP_InProcessServesTheAgentAlone: with --in-process no daemon is
// involved; the agent's comment and suggestion are still its own, and a
// claim to be the human is still refused.
func TestMCP_InProcessServesTheAgentAlone(t *testing.T) {
	h := newHome(t)
	agent := agentHost(t, h, "mcp", "--in-process", samplePatch(t))
	c := call[mcp.CommentView](t, agent, mcp.ToolComment, map[string]any{"path": "server/accounts.go", "side": "old", "line": 5, "body": "The old signature had no context."})
	s := call[mcp.SuggestionView](t, agent, mcp.ToolSuggest, map[string]any{"path": "server/accounts.go", "hunk": 0, "reason": "The interface changed."})
	conv := call[mcp.ReviewView](t, agent, mcp.ToolRead, map[string]any{"projection": "conversation"})
	if len(conv.Comments) != 1 || conv.Comments[0].ID != c.ID || conv.Comments[0].Author != "agent" {
		t.Errorf("comments: %+v", conv.Comments)
	}
	if len(conv.Suggestions) != 1 || conv.Suggestions[0].ID != s.ID || conv.Suggestions[0].State != "pending" {
		t.Errorf("suggestions: %+v", conv.Suggestions)
	}
	if msg := toolError(t, agent, mcp.ToolSuggest, map[string]any{"path": "server/accounts.go", "hunk": 0, "reason": "x", "actor": "human"}); !strings.Contains(msg, `"actor"`) {
		t.Errorf("a suggestion claiming the human: %q", msg)
	}
	if _, err := os.Stat(filepath.Join(h.runtime, "leanreview", daemon.DiscoveryFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("--in-process left a daemon behind: %v", err)
	}
}

// TestMCP_StartsTheDaemonWhenNoneRuns: an agent host starting `leanreview
// mcp` with no daemon running gets one started in the background, and the
// human joining the same source afterwards shares the agent's review.
func TestMCP_StartsTheDaemonWhenNoneRuns(t *testing.T) {
	if err := exec.Command(binary, "serve", "--help").Run(); err != nil {
		t.Skip("the binary has no serve command yet, which `leanreview mcp` starts the daemon with")
	}
	ctx := context.Background()
	h := newHome(t)
	patch := samplePatch(t)
	var disc daemon.Discovery
	t.Cleanup(func() { // after the agent host has closed
		if disc.Token != "" {
			stopDaemon(t, disc)
		}
	})
	agent := agentHost(t, h, "mcp", patch)
	disc, err := daemon.ReadDiscovery(filepath.Join(h.runtime, "leanreview"))
	if err != nil {
		t.Fatalf("no daemon after leanreview mcp: %v", err)
	}

	comment := call[mcp.CommentView](t, agent, mcp.ToolComment, map[string]any{"path": "docs/README.md", "line": 5, "body": "Say which status an unknown id gets."})
	client, err := httpapi.NewClient(disc.BaseURL(), disc.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	human, err := client.Open(ctx, app.OpenRequest{Args: []string{patch}, Dir: h.dir})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := human.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := findDraft(snap.Drafts, comment.ID); !ok || d.Author != session.ActorAgent {
		t.Errorf("the human's view of the started daemon's review: %+v", snap.Drafts)
	}
}

// stopDaemon asks the daemon the test started to stop, and waits until it
// has removed its discovery file.
func stopDaemon(t *testing.T, disc daemon.Discovery) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, disc.BaseURL()+httpapi.Prefix+"/shutdown", nil)
	req.Header.Set("Authorization", "Bearer "+disc.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("stop the daemon (pid %d): %v", disc.PID, err)
		return
	}
	resp.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := http.Get(disc.BaseURL() + httpapi.Prefix + "/version"); err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("the daemon (pid %d) still answers 10s after shutdown", disc.PID)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMCP_CallsThroughTheDaemonAreFastAndLoseNothing measures the agent's
// whole path (stdio to the relay, HTTP to the daemon, the session) with
// 200 reads and 200 comments, and checks every comment reached the
// human's view of the review.
func TestMCP_CallsThroughTheDaemonAreFastAndLoseNothing(t *testing.T) {
	ctx := context.Background()
	h := newHome(t)
	_, disc := userDaemon(t, h)
	patch := samplePatch(t)
	agent := agentHost(t, h, "mcp", patch)
	const n = 200
	start := time.Now()
	for range n {
		call[mcp.FocusView](t, agent, mcp.ToolFocus, nil)
	}
	reads := time.Since(start)
	start = time.Now()
	for i := range n {
		call[mcp.CommentView](t, agent, mcp.ToolComment, map[string]any{"path": "server/handler.go", "line": 15 + i%26, "body": fmt.Sprintf("remark %d", i)})
	}
	writes := time.Since(start)
	t.Logf("through stdio, the relay and the daemon: %d get_human_focus in %v (%.0f/s), %d add_comment in %v (%.0f/s)",
		n, reads.Round(time.Millisecond), n/reads.Seconds(), n, writes.Round(time.Millisecond), n/writes.Seconds())

	client, err := httpapi.NewClient(disc.BaseURL(), disc.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	human, err := client.Open(ctx, app.OpenRequest{Args: []string{patch}, Dir: h.dir})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := human.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Drafts) != n {
		t.Errorf("the human sees %d of the agent's %d comments", len(snap.Drafts), n)
	}
}
