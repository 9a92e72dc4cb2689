package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/spf13/cobra"
)

// RelocateOptions are the inputs of `leanreview relocate`.
type RelocateOptions struct {
	From string
	To   string
}

func newCmdRelocate(f *Factory, runF func(context.Context, *RelocateOptions) error) *cobra.Command {
	opts := &RelocateOptions{}
	cmd := &cobra.Command{
		Use:   "relocate --from OLD_SOURCE --to NEW_SOURCE < requests.jsonl",
		Short: "Relocate lines of one change into another, as drafts are relocated (JSON Lines in and out)",
		Long: `Read JSON Lines on standard input, each naming lines of OLD_SOURCE:
  {"id": "c1", "path": "a.go", "side": "new", "line": 10, "end_line": 12}
capture an anchor exactly as a draft comment would, re-locate it in
NEW_SOURCE exactly as loading drafts does, and print one line per input:
  {"id": "c1", "status": "exact"|"moved"|"orphaned", "path": ..., "side": ..., "line": ..., "end_line": ...}`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.From == "" || opts.To == "" {
				return usageError{fmt.Errorf("relocate needs --from OLD_SOURCE and --to NEW_SOURCE")}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return relocateRun(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().StringVar(&opts.From, "from", "", "the change the lines are named in (any SOURCE but -)")
	cmd.Flags().StringVar(&opts.To, "to", "", "the change to find them in (any SOURCE but -)")
	return cmd
}

func (f *Factory) relocateSide(ctx context.Context, arg string) (*changeset.Changeset, error) {
	if arg == "-" {
		return nil, usageError{fmt.Errorf("relocate reads its requests on standard input; name the sources as files or revisions")}
	}
	_, cs, err := f.ReadChangeset(ctx, []string{arg}, sourceFlags{})
	return cs, err
}

func relocateRun(ctx context.Context, f *Factory, opts *RelocateOptions) error {
	from, err := f.relocateSide(ctx, opts.From)
	if err != nil {
		return err
	}
	to, err := f.relocateSide(ctx, opts.To)
	if err != nil {
		return err
	}
	in := bufio.NewReader(f.IOStreams.In)
	out := bufio.NewWriter(f.IOStreams.Out)
	enc := json.NewEncoder(out)
	dec := json.NewDecoder(in)
	for n := 1; ; n++ {
		var req app.RelocateRequest
		err := dec.Decode(&req)
		if err == io.EOF {
			break
		}
		if err != nil {
			out.Flush()
			return usageError{fmt.Errorf("request %d on standard input: %w", n, err)}
		}
		if err := enc.Encode(app.Relocate(from, to, req)); err != nil {
			return err
		}
	}
	return out.Flush()
}
