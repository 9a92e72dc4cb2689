package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/mcp"
	"github.com/leanreview/leanreview/internal/session"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// leanreviewBin builds the command once per test run.
func leanreviewBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "leanreview-web-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "leanreview")
		out, err := exec.Command("go", "build", "-o", builtBin, "github.com/leanreview/leanreview/cmd/leanreview").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

// draftsListed runs `leanreview drafts PATCH` with the daemon's XDG
// directories: what the terminal side reads from disk.
func draftsListed(t *testing.T, s *server) string {
	t.Helper()
	cmd := exec.Command(leanreviewBin(t), "drafts", s.patch)
	cmd.Env = s.dirs.environ()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("leanreview drafts: %v\n%s", err, out)
	}
	return string(out)
}

// waitSnapshot waits up to 10s for the daemon's state to satisfy ok.
func waitSnapshot(t *testing.T, s *server, what string, ok func(*app.Snapshot) bool) *app.Snapshot {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		snap := s.snapshot(t)
		if ok(snap) {
			return snap
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for the terminal side to see %s; cursor %+v, %d drafts, %d viewed", what, snap.Cursor, len(snap.Drafts), len(snap.Viewed))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func hunkDigest(t *testing.T, snap *app.Snapshot, path string, hunk int) string {
	t.Helper()
	for _, f := range snap.Changeset.Files {
		if f.Path == path && hunk < len(f.Hunks) {
			return f.Hunks[hunk].Digest
		}
	}
	t.Fatalf("no hunk %d in %s", hunk, path)
	return ""
}

// bearer adds the daemon's token to every request, as the MCP relay does.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// agentSession connects an MCP client to the daemon's agent endpoint for
// the review, as an agent host would.
func agentSession(t *testing.T, s *server) *sdk.ClientSession {
	t.Helper()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "web-test-agent", Version: "1"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: s.disc.BaseURL() + mcp.EndpointPath(s.id), HTTPClient: &http.Client{Transport: bearer{s.disc.Token}}, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("connect the agent over MCP: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callTool[T any](t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) T {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s refused: %+v", name, res.Content)
	}
	var out T
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: decode %s: %v", name, b, err)
	}
	return out
}

const handler = "server/handler.go"

// TestBrowser_ReviewRoundTripWithTheTerminalAndTheAgent drives the page in
// real Chromium against a real daemon: it logs in through the URL `serve
// --open` prints, marks a hunk viewed by click and another by key (the
// daemon's state and the viewed file show both), comments on a line (`leanreview
// drafts` lists it), accepts a suggestion the agent made over MCP (the
// cursor moves there), sees the terminal's cursor move, and sends its own.
func TestBrowser_ReviewRoundTripWithTheTerminalAndTheAgent(t *testing.T) {
	s := startServer(t, "testdata/sample.patch")
	b := newBrowser(t, s.disc.BaseURL(), 1280, 900)
	b.login(t, s)
	if href := evalJS[string](t, b, `location.href`); strings.Contains(href, "code=") {
		t.Errorf("the login code is still in the address bar: %s", href)
	}
	if n := evalJS[int](t, b, `history.length`); n > 2 {
		t.Errorf("history holds %d entries; the login URL should have been replaced", n)
	}
	snap := s.snapshot(t)
	first, second := hunkDigest(t, snap, handler, 0), hunkDigest(t, snap, handler, 1)

	// A hunk marked viewed by clicking its toggle.
	b.click(t, "open server/handler.go from the file list", `.file-entry[data-path="`+handler+`"]`, false)
	b.click(t, "click the first hunk's Viewed", `.row.hunk[data-path="`+handler+`"][data-hunk="0"] .viewed-toggle`, false)
	waitSnapshot(t, s, "the first hunk viewed", func(sn *app.Snapshot) bool { return sn.Viewed[first] })
	b.waitJS(t, "the toggle to show it", `document.querySelector('.row.hunk[data-path="`+handler+`"][data-hunk="0"]').classList.contains("viewed")`)

	// Another by key: ]c to the second hunk, v.
	b.key(t, "]", "c", "]", "c", "v")
	waitSnapshot(t, s, "the second hunk viewed by key", func(sn *app.Snapshot) bool { return sn.Viewed[second] })
	viewedOnDisk(t, s, first, second)

	// A comment on new line 23, through the editor.
	const body = "Should this be errors.Is(err, store.ErrNotFound)?"
	b.click(t, "click new line 23", `.row.line[data-path="`+handler+`"][data-new="23"] .code`, false)
	b.key(t, "c")
	b.waitJS(t, "the editor", `document.activeElement && document.activeElement.classList.contains("ctext")`)
	b.key(t, body)
	b.click(t, "save", `.row.editor button.primary`, false)
	sn := waitSnapshot(t, s, "the draft", func(sn *app.Snapshot) bool { return len(sn.Drafts) == 1 })
	d := sn.Drafts[0]
	if d.Author != session.ActorHuman || d.Body != body || d.Location.Path != handler || d.Location.Side != changeset.SideNew || d.Location.Start != 23 {
		t.Errorf("the page's draft is %+v at %+v, want the human's on new line 23 of %s", d.Draft, d.Location, handler)
	}
	if out := draftsListed(t, s); !strings.Contains(out, handler+":23") || !strings.Contains(out, body) {
		t.Errorf("leanreview drafts does not list the page's draft:\n%s", out)
	}
	b.waitJS(t, "the draft under its line", `[...document.querySelectorAll(".row.comment.mine .cbody")].some(e => e.textContent === `+jsString(body)+`)`)

	// The agent suggests over MCP; the human accepts in the page.
	agent := agentSession(t, s)
	sg := callTool[mcp.SuggestionView](t, agent, mcp.ToolSuggest, map[string]any{"path": handler, "hunk": 1, "line": 31, "reason": "The response header is set before the encode now."})
	b.waitJS(t, "the suggestion in the sidebar", `document.querySelector('.suggestion.pending[data-id="`+sg.ID+`"]') !== null`)
	if c := s.snapshot(t).Cursor; c.Line == 31 {
		t.Fatalf("the cursor moved to the suggestion before it was accepted: %+v", c)
	}
	b.click(t, "accept", `.suggestion[data-id="`+sg.ID+`"] button.primary`, false)
	waitSnapshot(t, s, "the cursor on the accepted suggestion", func(sn *app.Snapshot) bool {
		return sn.Cursor.Path == handler && sn.Cursor.Line == 31 && sn.Cursor.Side == changeset.SideNew
	})
	b.waitJS(t, "the page's focus and the cursor on new line 31",
		`(e => e && e.classList.contains("focus") && e.classList.contains("shared-cursor"))(document.querySelector('.row.line[data-path="`+handler+`"][data-new="31"]'))`)

	// A second suggestion, declined: recorded, and the cursor stays.
	sg2 := callTool[mcp.SuggestionView](t, agent, mcp.ToolSuggest, map[string]any{"path": "docs/README.md", "hunk": 0, "reason": "Docs changed too."})
	b.click(t, "decline", `.suggestion[data-id="`+sg2.ID+`"] button:not(.primary):not(.link)`, false)
	waitSnapshot(t, s, "the decline", func(sn *app.Snapshot) bool {
		for _, x := range sn.Suggestions {
			if x.ID == sg2.ID {
				return x.State == app.SuggestionDeclined
			}
		}
		return false
	})
	if c := s.snapshot(t).Cursor; c.Path != handler || c.Line != 31 {
		t.Errorf("declining moved the cursor to %+v", c)
	}

	// The terminal moves the cursor; the page shows it.
	if err := s.human.SetCursor(context.Background(), session.ActorHuman, app.Cursor{Path: "server/accounts.go", Side: changeset.SideNew, Line: 9, Hunk: 0}); err != nil {
		t.Fatal(err)
	}
	b.waitJS(t, "the terminal's cursor on accounts.go new line 9",
		`(e => e !== null && e.classList.contains("shared-cursor"))(document.querySelector('.row.line[data-path="server/accounts.go"][data-new="9"]'))`)
	if n := evalJS[int](t, b, `document.querySelectorAll(".shared-cursor").length`); n != 1 {
		t.Errorf("%d rows carry the cursor, want 1", n)
	}

	// The page moves; the terminal side sees it.
	b.key(t, "j")
	want := evalJS[string](t, b, `document.querySelector(".row.line.focus").dataset.new`)
	waitSnapshot(t, s, "the page's move (new line "+want+")", func(sn *app.Snapshot) bool {
		return sn.Cursor.Path == "server/accounts.go" && fmt.Sprint(sn.Cursor.Line) == want
	})
	b.checkClean(t)
}

// viewedOnDisk checks the viewed-mark file the terminal reads holds the
// digests.
func viewedOnDisk(t *testing.T, s *server, digests ...string) {
	t.Helper()
	dir := filepath.Join(s.dirs.state, "leanreview", "viewed")
	var all strings.Builder
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			all.Write(b)
		}
		return nil
	})
	for _, d := range digests {
		if !strings.Contains(all.String(), d) {
			t.Errorf("the viewed marks under %s do not hold %s", dir, d)
		}
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
