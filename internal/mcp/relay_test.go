package mcp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/mcp"
	"github.com/leanreview/leanreview/internal/session"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// daemonMCP serves svc's MCP endpoint behind a bearer token, standing in
// for the daemon, and returns its URL.
func daemonMCP(t *testing.T, svc app.Service, token string) string {
	return daemonServer(t, svc, token).URL + "/mcp"
}

func daemonServer(t *testing.T, svc app.Service, token string) *httptest.Server {
	t.Helper()
	h := mcp.NewHandler(func(*http.Request) (app.Service, error) { return svc, nil }, mcp.Options{Version: "daemon"})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, `{"code":"unauthorized","message":"no token"}`, http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// bearer adds a token to every request, as the relay's caller does.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// relayed starts Relay on pipes to endpoint and connects an MCP client to
// its stdio side; relay's error arrives on the returned channel.
func relayed(t *testing.T, endpoint, token string) (*sdk.ClientSession, <-chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	hostIn, relayOut := io.Pipe()
	relayIn, hostOut := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcp.Relay(ctx, endpoint, &http.Client{Transport: bearer{token}}, relayIn, relayOut, mcp.Options{Version: "relay"})
		relayOut.Close()
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "host", Version: "1"}, nil).
		Connect(ctx, &sdk.IOTransport{Reader: hostIn, Writer: hostOut}, nil)
	if err != nil {
		cancel()
		return nil, done
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
	})
	return cs, done
}

// TestRelay_StdioHostReachesTheDaemonsReviewAsTheAgent: a host speaking
// stdio to the relay sees the daemon's tools and instructions unchanged,
// its comment lands in the daemon's review as the agent's, and a tool
// error comes back as a tool error.
func TestRelay_StdioHostReachesTheDaemonsReviewAsTheAgent(t *testing.T) {
	ctx := context.Background()
	r := newReview(t, readFile(t, "sample.patch"))
	endpoint := daemonMCP(t, r.svc, "s3cret")
	direct := agent(t, r.svc)
	host, _ := relayed(t, endpoint, "s3cret")
	if host == nil {
		t.Fatal("the host could not connect through the relay")
	}

	want, _ := direct.ListTools(ctx, nil)
	got, err := host.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Tools, got.Tools); diff != "" {
		t.Errorf("tools through the relay differ (-direct +relayed):\n%s", diff)
	}
	if host.InitializeResult().Instructions != direct.InitializeResult().Instructions {
		t.Errorf("the relay changed the server's instructions")
	}

	focus := call[mcp.FocusView](t, host, mcp.ToolFocus, nil)
	c := call[mcp.CommentView](t, host, mcp.ToolComment, map[string]any{"path": "server/handler.go", "line": 16, "body": "relayed", "as_of": focus.AsOf})
	snap, _ := r.svc.Snapshot(ctx)
	if len(snap.Drafts) != 1 || snap.Drafts[0].ID != c.ID || snap.Drafts[0].Author != session.ActorAgent {
		t.Errorf("the daemon's review after a relayed comment: %+v", snap.Drafts)
	}
	if msg := callErr(t, host, mcp.ToolComment, map[string]any{"path": "server/handler.go", "line": 16, "body": "x", "author": "human"}); !strings.Contains(msg, "author") {
		t.Errorf("an author claim through the relay: %q", msg)
	}
	if msg := callErr(t, host, mcp.ToolSuggest, map[string]any{"path": "nowhere.go", "hunk": 0, "reason": "x"}); !strings.HasPrefix(msg, "not_found: ") {
		t.Errorf("a refusal through the relay: %q", msg)
	}
}

// TestRelay_WrongTokenFailsAtTheStart: the relay says it could not reach
// the daemon instead of serving a host nothing.
func TestRelay_WrongTokenFailsAtTheStart(t *testing.T) {
	endpoint := daemonMCP(t, newReview(t, readFile(t, "sample.patch")).svc, "s3cret")
	_, done := relayed(t, endpoint, "guess")
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "connect to the review daemon's MCP endpoint") {
		t.Errorf("Relay with a wrong token: %v", err)
	}
}

// TestRelay_EndsWhenTheDaemonGoesAway: a daemon that stops (idle, or
// replaced by a newer version) ends the relay with an error, so the host
// sees the server gone instead of every later call failing.
func TestRelay_EndsWhenTheDaemonGoesAway(t *testing.T) {
	srv := daemonServer(t, newReview(t, readFile(t, "sample.patch")).svc, "s3cret")
	host, done := relayed(t, srv.URL+"/mcp", "s3cret")
	if host == nil {
		t.Fatal("the host could not connect through the relay")
	}
	call[mcp.FocusView](t, host, mcp.ToolFocus, nil)
	srv.CloseClientConnections()
	srv.Close()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "the review daemon ended the MCP session") {
			t.Errorf("Relay after the daemon stopped: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the relay still runs 20s after the daemon stopped")
	}
}
