package cli

import (
	"context"
	"errors"
	"slices"

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

// mcpRun serves the review until the agent host closes standard input.
func mcpRun(ctx context.Context, f *Factory, opts *MCPOptions) error {
	return mcpInProcess(ctx, f, opts)
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
