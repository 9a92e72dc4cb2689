package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/httpapi"
	"github.com/leanreview/leanreview/internal/mcp"
	"github.com/spf13/cobra"
)

// MCPOptions are the inputs of `leanreview mcp`.
type MCPOptions struct {
	Args   []string
	Source sourceFlags
	// InProcess serves the review from this process instead of the daemon:
	// the agent then shares nothing with a terminal or browser open on the
	// same source except the human's saved drafts.
	InProcess bool
}

func newCmdMCP(f *Factory, runF func(context.Context, *MCPOptions) error) *cobra.Command {
	opts := &MCPOptions{}
	cmd := &cobra.Command{
		Use:   "mcp [SOURCE]",
		Short: "Serve a review to an AI agent over MCP on standard input and output",
		Long: `Serve the review of SOURCE to an AI agent as a Model Context Protocol server
speaking on standard input and output, for agent hosts that start one.

The agent can read the change and the review conversation, see where you
are looking, comment (marked as the agent's, not saved), ask you to look
at a hunk (you accept or decline), and resolve comments. It cannot move
your cursor or change your comments.

It joins the review held by your leanreview daemon (starting the daemon
when none runs), so the agent works in the same live review as the
terminal UI and the browser page on that source. With --in-process the
review is held by this process alone.

SOURCE is what every command takes (. for the working tree, the default).
Standard input carries the MCP conversation, so - cannot be the source.`,
		Example: `  leanreview mcp                      # the working tree of the current repository
  leanreview mcp main...HEAD
  # an agent host's MCP server entry: command "leanreview", arguments ["mcp"]`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			if slices.Contains(args, "-") {
				return usageError{errors.New("standard input carries the MCP conversation: give the patch as a file, not -")}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return mcpRun(cmd.Context(), f, opts)
		},
	}
	opts.Source.register(cmd)
	cmd.Flags().BoolVar(&opts.InProcess, "in-process", false, "serve the review from this process rather than the shared daemon")
	return cmd
}

// mcpRun serves the review until the agent host closes standard input:
// by default the daemon's live review of the source, shared with every
// terminal and browser attached to it.
func mcpRun(ctx context.Context, f *Factory, opts *MCPOptions) error {
	if opts.InProcess {
		return mcpInProcess(ctx, f, opts)
	}
	return mcpViaDaemon(ctx, f, opts)
}

// mcpViaDaemon joins (or starts) the per-user daemon, opens the source's
// session there, and relays standard input and output to that session's
// MCP endpoint. The daemon, not this process, stamps the agent as author.
func mcpViaDaemon(ctx context.Context, f *Factory, opts *MCPOptions) error {
	disc, err := f.connectDaemon(ctx)
	if err != nil {
		return fmt.Errorf("attach to the review daemon: %w (leanreview mcp --in-process serves without it)", err)
	}
	client, err := httpapi.NewClient(disc.BaseURL(), disc.Token, nil)
	if err != nil {
		return err
	}
	sess, err := client.Open(ctx, app.OpenRequest{Args: opts.Args, Dir: f.Dir, Staged: opts.Source.Staged, Base: opts.Source.Base})
	if errors.Is(err, app.ErrInvalid) {
		return usageError{err}
	}
	if err != nil {
		return fmt.Errorf("open the review in the daemon: %w", err)
	}
	hc := &http.Client{Transport: bearer{token: disc.Token, next: http.DefaultTransport}}
	return mcp.Relay(ctx, disc.BaseURL()+mcp.EndpointPath(sess.ID()), hc, f.IOStreams.In, f.IOStreams.Out, mcp.Options{Version: Version})
}

// bearer authenticates every request with the daemon's token.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// mcpInProcess serves an in-process review of the source: the agent's
// comments and suggestions live as long as this process.
func mcpInProcess(ctx context.Context, f *Factory, opts *MCPOptions) error {
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	src, err := f.OpenSource(ctx, opts.Args, opts.Source)
	if err != nil {
		return err
	}
	svc, err := f.openLocal(ctx, cfg, sourceInfo(src), src)
	if err != nil {
		return err
	}
	return mcp.Serve(ctx, svc, f.IOStreams.In, f.IOStreams.Out, mcp.Options{Version: Version})
}
