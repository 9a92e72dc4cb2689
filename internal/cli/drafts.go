package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/spf13/cobra"
)

// DraftsOptions are the inputs of `leanreview drafts`.
type DraftsOptions struct {
	Args   []string
	Source sourceFlags
	JSON   bool
}

func newCmdDrafts(f *Factory, runF func(context.Context, *DraftsOptions) error) *cobra.Command {
	opts := &DraftsOptions{}
	cmd := &cobra.Command{
		Use:   "drafts [SOURCE]",
		Short: "List the draft comments of a source, placed against the change as it is now",
		Long: `List draft comments with where they sit in the change as it is now:
exact (where they were written), moved (the code moved; the comment followed
it), or orphaned (the code is gone or ambiguous; the comment is kept, will
not be submitted, and waits to be moved or deleted).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return draftsRun(cmd.Context(), f, opts)
		},
	}
	opts.Source.register(cmd)
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the drafts as a JSON array")
	return cmd
}

func draftsRun(ctx context.Context, f *Factory, opts *DraftsOptions) error {
	src, err := f.OpenSource(ctx, opts.Args, opts.Source)
	if err != nil {
		return err
	}
	r, err := f.OpenReview(ctx, src)
	if err != nil {
		return err
	}
	drafts := app.Export(r.Placed())
	out := f.IOStreams.Out
	if opts.JSON {
		return json.NewEncoder(out).Encode(drafts)
	}
	if len(drafts) == 0 {
		fmt.Fprintf(out, "no drafts for %s\n", src.Label)
		return nil
	}
	for _, d := range drafts {
		where := fmt.Sprintf("%s:%d", quotePath(d.Path), d.Line)
		if d.EndLine > d.Line {
			where += fmt.Sprintf("-%d", d.EndLine)
		}
		if d.Side != 0 {
			where += fmt.Sprintf(" (%s)", d.Side)
		}
		if d.ReplyTo != "" && d.Path == "" {
			where = "reply to thread " + quotePath(d.ReplyTo)
		}
		first, _, _ := strings.Cut(strings.TrimSpace(d.Body), "\n")
		first, _ = changeset.SanitizeBidi(first)
		fmt.Fprintf(out, "%s  %-9s %s  %s\n", d.ID, d.Status, where, first)
	}
	return nil
}

// DiscardOptions are the inputs of `leanreview --discard`.
type DiscardOptions struct {
	Args   []string
	Source sourceFlags
}

func discardRun(ctx context.Context, f *Factory, opts *DiscardOptions) error {
	src, err := f.OpenSource(ctx, opts.Args, opts.Source)
	if err != nil {
		return err
	}
	docs, err := f.Documents()
	if err != nil {
		return err
	}
	book, notices, err := app.LoadDraftBook(ctx, docs, sourceInfo(src), f.Now)
	if err != nil {
		return err
	}
	for _, n := range notices {
		fmt.Fprintf(f.IOStreams.ErrOut, "leanreview: %s\n", n)
	}
	n, err := book.DeleteAll(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(f.IOStreams.Out, "discarded %d draft%s of %s\n", n, plural(n), src.Label)
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
