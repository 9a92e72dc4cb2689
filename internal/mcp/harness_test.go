package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/mcp"
	"github.com/leanreview/leanreview/internal/store"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// patchSource is a review source whose patch a test can replace, as a
// working tree changes under a live review.
type patchSource struct {
	mu sync.Mutex
	b  []byte
}

func (p *patchSource) Patch(context.Context) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.b, nil
}

func (p *patchSource) set(b []byte) {
	p.mu.Lock()
	p.b = b
	p.mu.Unlock()
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// review is one live review as a test drives it: the service both sides
// share, its source, and where its drafts are kept.
type review struct {
	svc    *app.Local
	src    *patchSource
	drafts string
}

var info = app.SourceInfo{Kind: "file", Key: "sample-test", Label: "sample.patch"}

// newReview opens patch as a review with drafts under a temporary
// directory, a fixed clock and numbered ids.
func newReview(t *testing.T, patch []byte) *review {
	t.Helper()
	dir := t.TempDir()
	docs, err := store.New(filepath.Join(dir, "drafts"), 1)
	if err != nil {
		t.Fatal(err)
	}
	viewed, err := store.New(filepath.Join(dir, "viewed"), 1)
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	src := &patchSource{b: patch}
	svc, err := app.NewLocal(context.Background(), app.LocalDeps{
		Deps: app.Deps{
			Documents: docs,
			Now:       func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
			NewID:     func() string { return fmt.Sprintf("id%d", n.Add(1)) },
		},
		Info:   info,
		Source: src,
		Viewed: viewed,
	})
	if err != nil {
		t.Fatal(err)
	}
	return &review{svc: svc, src: src, drafts: filepath.Join(dir, "drafts")}
}

// agent connects an MCP client to a server for svc over an in-memory
// transport and returns the client's session, closed with the test.
func agent(t *testing.T, svc app.Service) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := mcp.NewServer(svc, mcp.Options{Version: "test"}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test-agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// callTool calls name with args and fails the test on a protocol error.
func callTool(t *testing.T, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// call calls name and decodes its structured answer into T, failing the
// test on a tool error.
func call[T any](t *testing.T, cs *sdk.ClientSession, name string, args any) T {
	t.Helper()
	res := callTool(t, cs, name, args)
	var out T
	if res.IsError {
		t.Fatalf("call %s %v: tool error: %s", name, args, text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("call %s: decode %s: %v", name, b, err)
	}
	return out
}

// callErr calls name, requires a tool error (not a protocol error) and
// returns its message.
func callErr(t *testing.T, cs *sdk.ClientSession, name string, args any) string {
	t.Helper()
	res := callTool(t, cs, name, args)
	if !res.IsError {
		t.Fatalf("call %s %v succeeded, want a tool error; answer: %s", name, args, text(res))
	}
	return text(res)
}

// text joins the text blocks of res.
func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// golden compares got, as indented JSON, with testdata/golden/name, or
// rewrites the file under -update.
func golden(t *testing.T, name string, got any) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(got); err != nil {
		t.Fatal(err)
	}
	goldenText(t, name, buf.String())
}

// goldenText compares got with testdata/golden/name, or rewrites the file
// under -update.
func goldenText(t *testing.T, name, got string) {
	t.Helper()
	b := []byte(got)
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(b)); diff != "" {
		t.Errorf("%s differs (-want +got), rerun with -update if intended:\n%s", name, diff)
	}
}
