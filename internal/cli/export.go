package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/spf13/cobra"
)

// ExportOptions are the inputs of `leanreview export`.
type ExportOptions struct {
	Args   []string
	Source sourceFlags
	Format string
	Output string
}

func newCmdExport(f *Factory, runF func(context.Context, *ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{}
	cmd := &cobra.Command{
		Use:   "export [SOURCE] --format markdown|json [-o FILE]",
		Short: "Write the drafts of a source as Markdown (grouped by file, under the quoted code) or JSON",
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			if opts.Format != "markdown" && opts.Format != "json" {
				return usageError{fmt.Errorf("--format must be markdown or json, not %q", opts.Format)}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return exportRun(cmd.Context(), f, opts)
		},
	}
	opts.Source.register(cmd)
	cmd.Flags().StringVar(&opts.Format, "format", "markdown", "markdown or json")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write to `FILE` instead of standard output")
	return cmd
}

func exportRun(ctx context.Context, f *Factory, opts *ExportOptions) error {
	src, err := f.OpenSource(ctx, opts.Args, opts.Source)
	if err != nil {
		return err
	}
	r, err := f.OpenReview(ctx, src)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	drafts := app.Export(r.Placed())
	if opts.Format == "json" {
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		err = enc.Encode(drafts)
	} else {
		err = app.WriteMarkdown(&buf, src.Label, drafts)
	}
	if err != nil {
		return err
	}
	if opts.Output == "" {
		_, err = f.IOStreams.Out.Write(buf.Bytes())
		return err
	}
	if err := os.WriteFile(opts.Output, buf.Bytes(), 0o600); err != nil {
		return fmt.Errorf("export drafts: %w", err)
	}
	fmt.Fprintf(f.IOStreams.ErrOut, "wrote %d draft%s to %s\n", len(drafts), plural(len(drafts)), opts.Output)
	return nil
}
