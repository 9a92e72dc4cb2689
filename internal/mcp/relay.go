package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

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
// nil when the host closes in or ctx ends, and an error when the daemon
// cannot be reached at the start or goes away later (stopped, replaced by
// a newer version): the host then sees the server end rather than every
// call fail.
//
// While the host is connected the relay holds the session's event stream
// open and pings every relayKeepAlive, so neither the daemon's idle
// shutdown nor the MCP session's idle timeout ends a quiet pairing.
func Relay(ctx context.Context, endpoint string, hc *http.Client, in io.Reader, out io.Writer, opts Options) error {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "leanreview-relay", Version: opts.Version},
		&sdk.ClientOptions{Logger: logger, KeepAlive: relayKeepAlive})
	upstream, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxRetries: relayRetries}, nil)
	if err != nil {
		return fmt.Errorf("connect to the review daemon's MCP endpoint %s: %w", endpoint, err)
	}
	defer upstream.Close()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		err := upstream.Wait()
		cancel(fmt.Errorf("the review daemon ended the MCP session (%v): %w", err, errUpstreamGone))
	}()

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
	err = local.Run(ctx, t)
	if cause := context.Cause(ctx); errors.Is(cause, errUpstreamGone) {
		return cause
	}
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("relay mcp: %w", err)
	}
	return nil
}

// errUpstreamGone marks the daemon ending the relay's session.
var errUpstreamGone = errors.New("upstream gone")

const (
	// relayKeepAlive is how often the relay pings the daemon.
	relayKeepAlive = 5 * time.Minute
	// relayRetries bounds reconnecting a broken event stream: a daemon
	// that restarted listens elsewhere with another token, so retrying
	// long only delays telling the host.
	relayRetries = 2
)

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
