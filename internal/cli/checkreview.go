package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/spf13/cobra"
)

// CheckReviewOptions are the inputs of `leanreview check-review`.
type CheckReviewOptions struct {
	Args []string
	JSON bool
}

func newCmdCheckReview(f *Factory, runF func(context.Context, *CheckReviewOptions) error) *cobra.Command {
	opts := &CheckReviewOptions{}
	cmd := &cobra.Command{
		Use:   "check-review SOURCE [--json]",
		Short: "List the review threads that are new since you last had them on screen",
		Long: `List the threads of a pull or merge request with comments you have not
had on screen in leanreview (your own are never new). Nothing is marked seen
and no review is opened, so a cron job or a status bar can ask as often as it
likes.

Exit status: 0 when nothing is new, 1 when something is, 2 when the check
could not be made.`,
		Example: "  leanreview check-review https://github.com/acme/tool/pull/12\n  leanreview check-review '!7' --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return checkReviewRun(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the new threads as a JSON array")
	return cmd
}

// checkReviewRun reports new threads with exit status 1 and a failure to
// check with 2, so a caller can tell "something new" from "could not say".
func checkReviewRun(ctx context.Context, f *Factory, opts *CheckReviewOptions) error {
	res, label, err := checkReview(ctx, f, opts.Args)
	if err != nil {
		fmt.Fprintf(f.IOStreams.ErrOut, "leanreview: %v\n", err)
		return silentError{code: exitUsage}
	}
	for _, n := range res.Notices {
		fmt.Fprintf(f.IOStreams.ErrOut, "leanreview: %s\n", n)
	}
	out := f.IOStreams.Out
	if opts.JSON {
		if err := json.NewEncoder(out).Encode(threadsJSON(res.New)); err != nil {
			return err
		}
	} else {
		printNewThreads(out, label, res)
	}
	if len(res.New) > 0 {
		return silentError{code: exitFailure}
	}
	return nil
}

func checkReview(ctx context.Context, f *Factory, args []string) (app.CheckResult, string, error) {
	src, err := f.changeSource(ctx, args, "check-review")
	if err != nil {
		return app.CheckResult{}, "", err
	}
	conv, err := f.conversation(ctx, src)
	if err != nil {
		return app.CheckResult{}, "", err
	}
	res, err := conv.CheckReview(ctx)
	return res, src.Label, err
}

func printNewThreads(w io.Writer, label string, res app.CheckResult) {
	if len(res.New) == 0 {
		fmt.Fprintf(w, "nothing new on %s (%s)\n", label, count(res.Total, "thread"))
		return
	}
	fmt.Fprintf(w, "%s on %s (of %d):\n", count(len(res.New), "new thread"), label, res.Total)
	for _, t := range res.New {
		last := t.Comments[len(t.Comments)-1]
		first, _, _ := strings.Cut(strings.TrimSpace(last.Body), "\n")
		fmt.Fprintf(w, "  %s  %s  %s: %s", t.ID, threadPlace(t), last.Author, sanitize(first))
		if n := len(t.Comments); n > 1 {
			fmt.Fprintf(w, "  (%s)", count(n, "comment"))
		}
		fmt.Fprintln(w)
	}
}

// threadPlace is where a thread sits: "path:line", "path (outdated)", or
// "(conversation)" for a comment on the change as a whole.
func threadPlace(t forge.Thread) string {
	switch {
	case t.Path == "":
		return "(conversation)"
	case t.Line == 0:
		return quotePath(t.Path) + " (outdated)"
	}
	if t.StartLine > 0 && t.StartLine < t.Line {
		return fmt.Sprintf("%s:%d-%d", quotePath(t.Path), t.StartLine, t.Line)
	}
	return fmt.Sprintf("%s:%d", quotePath(t.Path), t.Line)
}

// threadJSON is one thread as --json prints it.
type threadJSON struct {
	ID       string        `json:"id"`
	Path     string        `json:"path,omitempty"`
	Side     string        `json:"side,omitempty"`
	Line     int           `json:"line,omitempty"`
	Resolved bool          `json:"resolved"`
	Outdated bool          `json:"outdated"`
	Comments []commentJSON `json:"comments"`
}

type commentJSON struct {
	ID     string `json:"id"`
	Author string `json:"author"`
	Body   string `json:"body"`
}

func threadsJSON(threads []forge.Thread) []threadJSON {
	out := make([]threadJSON, 0, len(threads))
	for _, t := range threads {
		j := threadJSON{ID: t.ID, Path: t.Path, Line: t.Line, Resolved: t.Resolved, Outdated: t.Outdated}
		if t.Path != "" {
			j.Side = t.Side.String()
		}
		for _, c := range t.Comments {
			j.Comments = append(j.Comments, commentJSON{ID: c.ID, Author: c.Author, Body: c.Body})
		}
		out = append(out, j)
	}
	return out
}
