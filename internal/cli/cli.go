// Package cli is leanreview's command tree and the one place where concrete
// types are wired together: it reads configuration, builds the adapters and
// hands them to the use cases and surfaces.
package cli

import (
	"context"
	"errors"
	"fmt"

	"os"

	"github.com/leanreview/leanreview/internal/config"
	"github.com/leanreview/leanreview/internal/iostreams"
	"github.com/leanreview/leanreview/internal/tui"
	"github.com/spf13/cobra"
)

// Version is the release version, set at build time with
// -ldflags "-X github.com/leanreview/leanreview/internal/cli.Version=...".
var Version = "0.1.0-dev"

// Exit statuses. Every command returns an error; Main maps it to one of these
// in exitCode and nowhere else.
const (
	exitOK      = 0
	exitFailure = 1 // the command ran and failed, or found what it reports (check-review)
	exitUsage   = 2 // bad arguments, an unreadable source, a malformed patch
)

// Main runs the command line args against ios and returns the exit status.
func Main(ctx context.Context, args []string, ios *iostreams.IOStreams) int {
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(ios.ErrOut, "leanreview: %v\n", err)
		return exitFailure
	}
	src := config.Process()
	// The [keys] table of the config file may remap only the UI's actions.
	src.Actions = tui.Actions()
	return run(ctx, args, newFactory(ios, src, dir))
}

// run executes args with f; tests call it with their own Factory.
func run(ctx context.Context, args []string, f *Factory) int {
	ios := f.IOStreams
	root := newRootCmd(f)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var silent silentError
	if !errors.As(err, &silent) {
		fmt.Fprintf(ios.ErrOut, "leanreview: %v\n", err)
	}
	return exitCode(err)
}

// usageError marks an error that is the caller's to fix: wrong arguments, a
// source that cannot be read, a patch that cannot be parsed.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// silentError carries an exit status for a command that has already said
// everything it had to say.
type silentError struct{ code int }

func (e silentError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func exitCode(err error) int {
	var silent silentError
	var usage usageError
	switch {
	case errors.As(err, &silent):
		return silent.code
	case errors.As(err, &usage):
		return exitUsage
	case errors.Is(err, context.Canceled):
		return exitFailure
	default:
		return exitFailure
	}
}

// RootOptions are the inputs of `leanreview [SOURCE]` itself.
type RootOptions struct {
	Args    []string
	Source  sourceFlags
	Discard bool
	Demo    bool
	Share   bool
}

func newRootCmd(f *Factory) *cobra.Command {
	ios := f.IOStreams
	opts := &RootOptions{}
	root := &cobra.Command{
		Use:           "leanreview [SOURCE]",
		Short:         "Review a change in the terminal, the browser, or with an AI agent",
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			if opts.Discard {
				return discardRun(cmd.Context(), f, &DiscardOptions{Args: args, Source: opts.Source})
			}
			return reviewRun(cmd.Context(), f, opts, opts.Demo)
		},
	}
	opts.Source.register(root)
	root.Flags().BoolVar(&opts.Demo, "demo", false, "open a sample change built into leanreview, to try the UI")
	root.Flags().BoolVar(&opts.Share, "share", false, "review through the shared daemon, so a browser and an agent can join")
	root.Flags().BoolVar(&opts.Discard, "discard", false, "delete the saved drafts of SOURCE (says how many)")
	root.AddCommand(
		newCmdInspect(f, nil),
		newCmdComment(f, nil),
		newCmdDrafts(f, nil),
		newCmdExport(f, nil),
		newCmdRelocate(f, nil),
		newCmdServe(f, nil),
		newCmdMCP(f, nil),
	)
	root.AddCommand(forgeCommands(f)...)
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	return root
}
