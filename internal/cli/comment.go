package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/editor"
	"github.com/leanreview/leanreview/internal/session"
	"github.com/spf13/cobra"
)

// CommentOptions are the inputs of `leanreview comment`.
type CommentOptions struct {
	Args     []string
	Source   sourceFlags
	Path     string
	Line     int
	EndLine  int
	Side     string
	Body     string
	BodyFile string
	Edit     bool
}

func newCmdComment(f *Factory, runF func(context.Context, *CommentOptions) error) *cobra.Command {
	opts := &CommentOptions{}
	cmd := &cobra.Command{
		Use:   "comment [SOURCE] --path P --line N [--end-line M] [--side old|new] (--body TEXT | --body-file F | --edit)",
		Short: "Add a draft comment on lines of a change, exactly as the terminal UI does",
		Example: `  leanreview comment fix.patch --path src/a.go --line 42 --body "Check the error here."
  leanreview comment main...HEAD --path src/a.go --line 10 --end-line 14 --edit`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			n := 0
			for _, set := range []bool{cmd.Flags().Changed("body"), opts.BodyFile != "", opts.Edit} {
				if set {
					n++
				}
			}
			switch {
			case opts.Path == "" || opts.Line == 0:
				return usageError{fmt.Errorf("comment needs --path and --line")}
			case n != 1:
				return usageError{fmt.Errorf("give exactly one of --body, --body-file and --edit")}
			}
			if _, err := changeset.ParseSide(opts.Side); err != nil {
				return usageError{err}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return commentRun(cmd.Context(), f, opts)
		},
	}
	opts.Source.register(cmd)
	cmd.Flags().StringVar(&opts.Path, "path", "", "the file, as the change names it")
	cmd.Flags().IntVar(&opts.Line, "line", 0, "the (first) line, 1-based, on --side")
	cmd.Flags().IntVar(&opts.EndLine, "end-line", 0, "the last line of a range")
	cmd.Flags().StringVar(&opts.Side, "side", "new", "old (the line as it was) or new (as it is now)")
	cmd.Flags().StringVar(&opts.Body, "body", "", "the comment's text")
	cmd.Flags().StringVar(&opts.BodyFile, "body-file", "", "read the comment from `FILE` (- for standard input)")
	cmd.Flags().BoolVar(&opts.Edit, "edit", false, "write the comment in your editor")
	return cmd
}

func commentRun(ctx context.Context, f *Factory, opts *CommentOptions) error {
	side, _ := changeset.ParseSide(opts.Side)
	src, err := f.OpenSource(ctx, opts.Args, opts.Source)
	if err != nil {
		return err
	}
	r, err := f.OpenReview(ctx, src)
	if err != nil {
		return err
	}
	ref := app.LineRef{Path: opts.Path, Side: side, Start: opts.Line, End: opts.EndLine}
	anchor, err := app.Capture(r.Changeset, ref)
	if err != nil {
		return usageError{err}
	}
	body := opts.Body
	switch {
	case opts.BodyFile == "-":
		b, err := io.ReadAll(f.IOStreams.In)
		if err != nil {
			return fmt.Errorf("read comment from standard input: %w", err)
		}
		body = string(b)
	case opts.BodyFile != "":
		b, err := os.ReadFile(opts.BodyFile)
		if err != nil {
			return usageError{fmt.Errorf("read comment: %w", err)}
		}
		body = string(b)
	case opts.Edit:
		res, err := f.editComment(ctx, anchor, "")
		if err != nil {
			return err
		}
		if res.Outcome == editor.OutcomeDiscarded {
			fmt.Fprintln(f.IOStreams.ErrOut, "empty comment: nothing was saved")
			return nil
		}
		body = res.Body
	}
	d, err := r.Comment(ctx, ref, body)
	if errors.Is(err, app.ErrNotSaved) {
		return f.rescue(d, err)
	}
	if err != nil {
		return usageError{err}
	}
	fmt.Fprintf(f.IOStreams.Out, "draft %s on %s:%s (%s side) saved\n", d.ID, quotePath(d.Anchor.Path), lineSpan(d.Anchor.Start, d.Anchor.End), d.Anchor.Side)
	return nil
}

func lineSpan(start, end int) string {
	if end > start {
		return fmt.Sprintf("%d-%d", start, end)
	}
	return fmt.Sprint(start)
}

// editComment opens the user's editor on a comment about anchor, prefilled
// with body.
func (f *Factory) editComment(ctx context.Context, a changeset.Anchor, body string) (editor.Result, error) {
	cfg, err := f.Config()
	if err != nil {
		return editor.Result{}, err
	}
	cmd, err := editor.Resolve(ctx, editor.SettingsFrom(cfg, editor.GitVar(f.Dir, f.Sources.Environ)))
	if err != nil {
		return editor.Result{}, err
	}
	ed := &editor.Editor{Command: cmd, IO: f.IOStreams}
	oldPath := ""
	if a.OldPath != a.Path {
		oldPath = a.OldPath
	}
	return ed.Edit(ctx, editor.Request{
		Context: editor.Context{Path: a.Path, OldPath: oldPath, Side: a.Side, StartLine: a.Start, EndLine: a.End, Code: a.Lines},
		Body:    body,
	})
}

// rescue is what happens when a draft cannot be written to the state
// directory: the draft is written to a file in the temporary directory and
// printed, so the words are never lost, and the user is told what to fix.
func (f *Factory) rescue(d session.Draft, cause error) error {
	name := filepath.Join(os.TempDir(), "leanreview-unsaved-"+d.ID+".md")
	var buf []byte
	buf = fmt.Appendf(buf, "<!-- leanreview unsaved draft: %s:%s (%s side) -->\n%s\n", d.Anchor.Path, lineSpan(d.Anchor.Start, d.Anchor.End), d.Anchor.Side, d.Body)
	werr := os.WriteFile(name, buf, 0o600)
	ew := f.IOStreams.ErrOut
	fmt.Fprintf(ew, "leanreview: %v\n", cause)
	if werr == nil {
		fmt.Fprintf(ew, "Your comment was NOT saved with your drafts, but it is not lost: it was written to %s\n", name)
		fmt.Fprintf(ew, "Fix the problem above, then add it again with: leanreview comment ... --body-file %s\n", name)
	} else {
		fmt.Fprintf(ew, "Your comment was not saved anywhere (%v); here it is:\n\n%s\n", werr, d.Body)
	}
	return silentError{code: exitFailure}
}
