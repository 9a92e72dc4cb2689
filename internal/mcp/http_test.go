package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHandler_ServesEachReviewAtItsOwnAddress mounts the handler as the
// daemon would, one review per path: an agent on each works on its own
// review over streamable HTTP, writes land as the agent, and a review the
// daemon does not hold is a 404 in the API's error shape.
func TestHandler_ServesEachReviewAtItsOwnAddress(t *testing.T) {
	ctx := context.Background()
	reviews := map[string]*review{
		"sample": newReview(t, readFile(t, "sample.patch")),
		"big":    newReview(t, bigPatch(3, 5)),
	}
	get := func(id string) (app.Service, bool) {
		rv, ok := reviews[id]
		if !ok {
			return nil, false
		}
		return rv.svc, true
	}
	mux := http.NewServeMux()
	mux.Handle(mcp.MountPattern, mcp.NewHandler(mcp.PathResolver(get), mcp.Options{Version: "test"}))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	connect := func(key string) *sdk.ClientSession {
		t.Helper()
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "http-agent", Version: "1"}, nil).
			Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL + mcp.EndpointPath(key), DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatalf("connect to %s: %v", key, err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	sample, big := connect("sample"), connect("big")
	if got := call[mcp.ReviewView](t, big, mcp.ToolRead, nil); got.Totals.Files != 3 {
		t.Errorf("the big review over HTTP has %d files, want 3", got.Totals.Files)
	}
	c := call[mcp.CommentView](t, sample, mcp.ToolComment, map[string]any{"path": "server/handler.go", "line": 16, "body": "over HTTP"})
	if c.Author != "agent" {
		t.Errorf("a comment over HTTP is authored by %q, want agent", c.Author)
	}
	for key, want := range map[string]int{"sample": 1, "big": 0} {
		snap, _ := reviews[key].svc.Snapshot(ctx)
		if len(snap.Drafts) != want {
			t.Errorf("review %s holds %d drafts, want %d", key, len(snap.Drafts), want)
		}
	}
	if msg := callErr(t, sample, mcp.ToolComment, map[string]any{"path": "server/handler.go", "line": 16, "body": "x", "author": "human"}); !strings.Contains(msg, "author") {
		t.Errorf("an author claim over HTTP: %q", msg)
	}

	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp/closed", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var apiErr struct{ Code, Message string }
	if err := json.NewDecoder(resp.Body).Decode(&apiErr); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusNotFound || apiErr.Code != "not_found" || !strings.Contains(apiErr.Message, `no review "closed" is open in the daemon`) {
		t.Errorf("unknown review: %d %+v, want 404 not_found", resp.StatusCode, apiErr)
	}
}
