package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/spf13/cobra"
)

// ReplyOptions are the inputs of `leanreview reply`.
type ReplyOptions struct {
	Args     []string
	Thread   string
	Body     string
	BodyFile string
}

func newCmdReply(f *Factory, runF func(context.Context, *ReplyOptions) error) *cobra.Command {
	opts := &ReplyOptions{}
	cmd := &cobra.Command{
		Use:   "reply SOURCE --thread ID (--body TEXT | --body-file F)",
		Short: "Stage a reply to a review thread as a draft; submit sends it after the review",
		Long: `Stage a reply to an existing thread of a pull or merge request. The reply is
a draft like any other: listed by drafts, discarded by --discard, and posted
by submit after the review. Thread ids are what check-review prints.`,
		Example: "  leanreview reply acme/tool#12 --thread 1234567 --body \"Fixed in the next push.\"",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			switch {
			case opts.Thread == "":
				return usageError{errors.New("reply needs --thread")}
			case cmd.Flags().Changed("body") == (opts.BodyFile != ""):
				return usageError{errors.New("give exactly one of --body and --body-file")}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return replyRun(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Thread, "thread", "", "the thread's `ID`, as check-review prints it")
	cmd.Flags().StringVar(&opts.Body, "body", "", "the reply's text")
	cmd.Flags().StringVar(&opts.BodyFile, "body-file", "", "read the reply from `FILE` (- for standard input)")
	return cmd
}

func replyRun(ctx context.Context, f *Factory, opts *ReplyOptions) error {
	body, err := f.readBody(opts.Body, opts.BodyFile)
	if err != nil {
		return err
	}
	src, err := f.changeSource(ctx, opts.Args, "reply")
	if err != nil {
		return err
	}
	conv, err := f.conversation(ctx, src)
	if err != nil {
		return err
	}
	threads, err := conv.Threads(ctx, nil)
	if err != nil {
		return err
	}
	var plain []forge.Thread
	for _, t := range threads {
		plain = append(plain, t.Thread)
	}
	t, err := app.FindThread(plain, opts.Thread)
	if err != nil {
		return usageError{fmt.Errorf("%s has no thread %s; check-review lists them", src.Label, opts.Thread)}
	}
	d, err := conv.StageReply(ctx, t, body)
	if errors.Is(err, app.ErrInvalid) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(f.IOStreams.Out, "reply draft %s to thread %s saved\n", d.ID, t.ID)
	return nil
}
