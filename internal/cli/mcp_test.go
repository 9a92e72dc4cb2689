package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/config"
	"github.com/leanreview/leanreview/internal/iostreams"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMCPCommand_FlagsReachTheRunFunction(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want MCPOptions
	}{
		{"working tree", nil, MCPOptions{Args: []string{}}},
		{"a range", []string{"main...HEAD"}, MCPOptions{Args: []string{"main...HEAD"}}},
		{"in process", []string{"--in-process", "fix.patch"}, MCPOptions{Args: []string{"fix.patch"}, InProcess: true}},
		{"staged", []string{"--staged"}, MCPOptions{Args: []string{}, Source: sourceFlags{Staged: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ios, _, _ := iostreams.Test("")
			var got *MCPOptions
			cmd := newCmdMCP(&Factory{IOStreams: ios}, func(_ context.Context, o *MCPOptions) error { got = o; return nil })
			cmd.SetArgs(tc.args)
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&tc.want, got, cmp.AllowUnexported(sourceFlags{})); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMCPCommand_StandardInputCannotBeTheSource: it carries the protocol.
func TestMCPCommand_StandardInputCannotBeTheSource(t *testing.T) {
	ios, _, _ := iostreams.Test("")
	cmd := newCmdMCP(&Factory{IOStreams: ios}, func(context.Context, *MCPOptions) error { t.Fatal("ran"); return nil })
	cmd.SetArgs([]string{"-"})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	var usage usageError
	if err := cmd.Execute(); !errors.As(err, &usage) || exitCode(err) != exitUsage {
		t.Errorf("mcp - : %v, want a usage error", err)
	}
}

// TestMCPCommand_ServesTheSourceOnStandardStreams runs the command in
// process with its standard streams joined to an MCP client: the client
// reads the change, comments as the agent, and closing its side ends the
// command cleanly.
func TestMCPCommand_ServesTheSourceOnStandardStreams(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	hostIn, cmdOut := io.Pipe()
	cmdIn, hostOut := io.Pipe()
	var errOut bytes.Buffer
	ios := &iostreams.IOStreams{In: cmdIn, Out: cmdOut, ErrOut: &errOut}
	env := []string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "XDG_RUNTIME_DIR=" + filepath.Join(dir, "run")}
	f := newFactory(ios, config.Sources{Environ: env}, dir)

	cmd := newCmdMCP(f, nil)
	cmd.SetArgs([]string{"--in-process", testdataPath(t, "calc-v1.diff")})
	done := make(chan error, 1)
	go func() {
		done <- cmd.ExecuteContext(ctx)
		cmdOut.Close()
	}()

	cs, err := sdk.NewClient(&sdk.Implementation{Name: "host", Version: "1"}, nil).Connect(ctx, &sdk.IOTransport{Reader: hostIn, Writer: hostOut}, nil)
	if err != nil {
		t.Fatalf("connect: %v (stderr %q)", err, errOut.String())
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "read_review", Arguments: map[string]any{"projection": "summary"}})
	if err != nil || res.IsError {
		t.Fatalf("read_review: %v %+v", err, res)
	}
	var summary struct {
		Files []struct{ Path string }
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &summary); err != nil {
		t.Fatal(err)
	}
	if len(summary.Files) != 2 || summary.Files[0].Path != "calc.go" {
		t.Errorf("files = %+v, want calc.go and dup.txt", summary.Files)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "add_comment", Arguments: map[string]any{"path": "calc.go", "line": 20, "body": "why + 1?"}})
	if err != nil || res.IsError {
		t.Fatalf("add_comment: %v %+v", err, res)
	}
	var c struct{ Author string }
	b, _ = json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &c); err != nil || c.Author != "agent" {
		t.Errorf("comment author %q (%v), want agent", c.Author, err)
	}
	cs.Close()
	hostOut.Close()
	if err := <-done; err != nil {
		t.Errorf("the command ended with %v after the host closed (stderr %q)", err, errOut.String())
	}
}
