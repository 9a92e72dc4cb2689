package mcp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Relay serves MCP on in and out (stdio, for an agent host that spawned
// this process) by forwarding to the MCP endpoint of a daemon, where the
// review lives and where the daemon's Handler stamps every write as the
// agent. The host sees the daemon's tools, descriptions and instructions
// unchanged; arguments and results pass through untouched, so validation
// and policy happen once, in the daemon.
//
// hc carries the daemon's credentials (its bearer token). Relay returns
// when the host closes in, when ctx ends, or with an error when the daemon
// cannot be reached at the start; a daemon lost later fails each call as a
// protocol error the host reports.
func Relay(ctx context.Context, endpoint string, hc *http.Client, in io.Reader, out io.Writer, opts Options) error {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	upstream, err := sdk.NewClient(&sdk.Implementation{Name: "leanreview-relay", Version: opts.Version}, &sdk.ClientOptions{Logger: logger}).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return fmt.Errorf("connect to the review daemon's MCP endpoint %s: %w", endpoint, err)
	}
	defer upstream.Close()

	init := upstream.InitializeResult()
	info := *init.ServerInfo
	local := sdk.NewServer(&info, &sdk.ServerOptions{Instructions: init.Instructions, Logger: logger})
	for tool, err := range upstream.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("list the review daemon's tools: %w", err)
		}
		local.AddTool(tool, forward(upstream, tool.Name))
	}
	t := &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}}
	if err := local.Run(ctx, t); err != nil && ctx.Err() == nil {
		return fmt.Errorf("relay mcp: %w", err)
	}
	return nil
}

// forward calls name on upstream with the host's arguments as they came
// and returns the daemon's result as it came, tool errors included.
func forward(upstream *sdk.ClientSession, name string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		params := &sdk.CallToolParams{Name: name}
		if len(req.Params.Arguments) > 0 {
			params.Arguments = req.Params.Arguments
		}
		return upstream.CallTool(ctx, params)
	}
}
