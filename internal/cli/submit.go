package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/session"
	"github.com/leanreview/leanreview/internal/source"
	"github.com/spf13/cobra"
)

// SubmitOptions are the inputs of `leanreview submit`.
type SubmitOptions struct {
	Args     []string
	Event    forge.Event
	Body     string
	BodyFile string
	Yes      bool
}

func newCmdSubmit(f *Factory, runF func(context.Context, *SubmitOptions) error) *cobra.Command {
	opts := &SubmitOptions{}
	var event string
	cmd := &cobra.Command{
		Use:   "submit SOURCE --event comment|approve|request-changes [--body TEXT | --body-file F] [--yes]",
		Short: "Send the drafts of a pull or merge request to GitHub or GitLab, exactly once",
		Long: `Send the drafts of a pull or merge request as one review.

The drafts are first relocated onto the change's current head. The command
prints what will be sent (comments per file, replies to threads), the event
and summary, and the drafts that will NOT be sent: orphans, whose code is gone,
and drafts on lines the host does not take comments on. Those stay drafts.

GitHub receives every line comment in one review pinned to that head, then
the staged replies. GitLab receives positioned discussions, the replies, and
an approval or a summary note.

Whatever the host accepts is removed from the drafts at once. If the run
fails part way, run it again: it first finds what the host already holds and
sends only the rest, never a second copy.

Without --yes the command asks for confirmation, and refuses when standard
input is not a terminal.`,
		Example: `  leanreview submit https://github.com/acme/tool/pull/12 --event approve --yes
  leanreview submit '#12' --event request-changes --body "See inline." --yes
  leanreview submit acme/tool!7 --event comment`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			ev, err := forge.ParseEvent(event)
			if err != nil {
				return usageError{fmt.Errorf("--event: want comment, approve or request-changes, got %q", event)}
			}
			opts.Event = ev
			if cmd.Flags().Changed("body") && opts.BodyFile != "" {
				return usageError{errors.New("give --body or --body-file, not both")}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return submitRun(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().StringVar(&event, "event", "", "what the review says: comment, approve or request-changes (required)")
	cmd.Flags().StringVar(&opts.Body, "body", "", "the review's summary")
	cmd.Flags().StringVar(&opts.BodyFile, "body-file", "", "read the summary from `FILE` (- for standard input)")
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "send without asking")
	_ = cmd.MarkFlagRequired("event")
	return cmd
}

func submitRun(ctx context.Context, f *Factory, opts *SubmitOptions) error {
	body, err := f.readBody(opts.Body, opts.BodyFile)
	if err != nil {
		return err
	}
	src, err := f.changeSource(ctx, opts.Args, "submit")
	if err != nil {
		return err
	}
	sub, err := f.submitter(ctx, src)
	if err != nil {
		return err
	}
	plan, err := sub.PlanSubmission(ctx, app.SubmitRequest{Event: opts.Event, Body: body})
	if err != nil {
		return err
	}
	out := f.IOStreams.Out
	printPlan(out, plan)
	if plan.Empty() {
		fmt.Fprintln(out, "Nothing to submit.")
		return nil
	}
	if err := f.confirm(opts.Yes, opts.BodyFile == "-"); err != nil {
		return err
	}
	res, err := sub.Submit(ctx, plan)
	for _, n := range res.Notices {
		fmt.Fprintf(f.IOStreams.ErrOut, "leanreview: %s\n", n)
	}
	switch {
	case errors.Is(err, forge.ErrHeadMoved):
		return fmt.Errorf("%w\nNothing was sent. Run the command again: it relocates the drafts onto the new head and shows what will be sent", err)
	case errors.Is(err, app.ErrPlanStale):
		return fmt.Errorf("%w\nNothing was sent. Run the command again to see the drafts as they are now", err)
	case err != nil:
		// The failure first, then what it means for the drafts.
		ew := f.IOStreams.ErrOut
		fmt.Fprintf(ew, "leanreview: %v\n", err)
		if len(res.Cleared) > 0 {
			fmt.Fprintf(ew, "%s took %s before the failure; they are no longer drafts.\n", src.Ref.Kind.Title(), count(len(res.Cleared), "draft"))
		}
		fmt.Fprintf(ew, "%s. Run the command again to send only what is still pending.\n", count(res.Remaining, "draft remains", "drafts remain"))
		return silentError{code: exitFailure}
	}
	printResult(out, plan, res, opts.Args[0])
	return nil
}

// submitter is the app's submission use case for src.
func (f *Factory) submitter(ctx context.Context, s *source.Source) (*app.Submitter, error) {
	fg, err := f.Forge(ctx, s.Ref)
	if err != nil {
		return nil, err
	}
	docs, err := f.Documents()
	if err != nil {
		return nil, err
	}
	subs, err := f.stateStore("submissions")
	if err != nil {
		return nil, err
	}
	seen, err := f.stateStore("threads")
	if err != nil {
		return nil, err
	}
	return app.NewSubmitter(app.SubmitDeps{Forge: fg, Ref: s.Ref, Source: sourceInfo(s), Drafts: docs, Submissions: subs,
		Seen: seen, Now: f.Now, NewID: f.NewID}), nil
}

// readBody returns the text of --body or --body-file.
func (f *Factory) readBody(body, file string) (string, error) {
	switch file {
	case "":
		return body, nil
	case "-":
		b, err := io.ReadAll(f.IOStreams.In)
		if err != nil {
			return "", fmt.Errorf("read the summary from standard input: %w", err)
		}
		return string(b), nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", usageError{fmt.Errorf("read the summary: %w", err)}
	}
	return string(b), nil
}

// confirm asks on the terminal unless yes; without a terminal to ask on,
// or with standard input taken by --body-file -, it refuses.
func (f *Factory) confirm(yes, stdinUsed bool) error {
	if yes {
		return nil
	}
	if !f.IOStreams.InTTY || stdinUsed {
		return usageError{errors.New("not submitted: confirm with --yes (standard input is not a terminal to ask on)")}
	}
	fmt.Fprint(f.IOStreams.Out, "Submit? [y/N] ")
	line, _ := bufio.NewReader(f.IOStreams.In).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		fmt.Fprintln(f.IOStreams.Out, "Not submitted; nothing was sent.")
		return silentError{code: exitFailure}
	}
	return nil
}

// printPlan writes the confirmation: what goes, what stays, and why.
func printPlan(w io.Writer, p app.Plan) {
	ch := p.Change
	fmt.Fprintf(w, "%s %q by %s (%s), head %s\n", ch.Label, ch.Title, ch.Author, ch.State, shortSHA(ch.HeadSHA))
	if n := len(p.Reconciled); n > 0 {
		fmt.Fprintf(w, "%s already on %s (an earlier answer was lost) and cleared.\n", count(n, "draft was", "drafts were"), ch.Ref.Kind.Title())
	}
	if p.Resume {
		fmt.Fprintf(w, "Finishing the review sent earlier (%s): %s already holds it.\n", p.Event, ch.Ref.Kind.Title())
	}
	fmt.Fprintf(w, "Event: %s\n", p.Event)
	if s := strings.TrimSpace(p.Body); s != "" {
		first, _, _ := strings.Cut(s, "\n")
		fmt.Fprintf(w, "Summary: %s\n", sanitize(first))
	}
	if len(p.Comments)+len(p.Replies) > 0 {
		fmt.Fprintf(w, "Will send %s:\n", sendCounts(p))
		width := 0
		for _, fc := range p.Files {
			width = max(width, len(quotePath(fc.Path)))
		}
		for _, fc := range p.Files {
			fmt.Fprintf(w, "  %-*s  %s\n", width, quotePath(fc.Path), count(fc.Comments, "comment"))
		}
		if n := len(p.Replies); n > 0 {
			fmt.Fprintf(w, "  %s to existing threads\n", count(n, "reply", "replies"))
		}
	}
	if n := len(p.Orphans); n > 0 {
		fmt.Fprintf(w, "warning: will NOT send %s (the code it was written on is gone; it stays a draft):\n", count(n, "orphaned draft"))
		for _, d := range p.Orphans {
			fmt.Fprintf(w, "  %s\n", anchorLine(d))
		}
	}
	if n := len(p.OffDiff); n > 0 {
		fmt.Fprintf(w, "warning: will NOT send %s on lines %s takes no comments on (it stays a draft):\n", count(n, "draft"), ch.Ref.Kind.Title())
		for _, o := range p.OffDiff {
			fmt.Fprintf(w, "  %s: %s\n", anchorLine(o.Draft), o.Reason)
		}
	}
	if n := len(p.Deferred); n > 0 {
		fmt.Fprintf(w, "Kept for the next submission: %s written since the earlier review.\n", count(n, "draft"))
	}
}

func sendCounts(p app.Plan) string {
	var parts []string
	if n := len(p.Comments); n > 0 {
		parts = append(parts, count(n, "comment"))
	}
	if n := len(p.Replies); n > 0 {
		parts = append(parts, count(n, "reply", "replies"))
	}
	return strings.Join(parts, " and ")
}

// anchorLine describes a draft by its id, where it was written and its
// first line.
func anchorLine(d session.Placed) string {
	first, _, _ := strings.Cut(strings.TrimSpace(d.Body), "\n")
	return fmt.Sprintf("%s  %s:%s (%s side)  %s", d.ID, quotePath(d.Anchor.Path), lineSpan(d.Anchor.Start, d.Anchor.End), d.Anchor.Side, sanitize(first))
}

// printResult says what was sent; arg is the source as the user named it,
// for the command that lists what remains.
func printResult(w io.Writer, p app.Plan, res app.Result, arg string) {
	fmt.Fprintf(w, "Submitted to %s: %s sent and cleared.\n", p.Change.Label, count(len(res.Cleared), "draft"))
	if p.Change.URL != "" {
		fmt.Fprintln(w, p.Change.URL)
	}
	for _, r := range res.Rejected {
		fmt.Fprintf(w, "warning: %s refused draft %s: %s\n", p.Change.Ref.Kind.Title(), r.MarkerID, r.Reason)
	}
	if res.Remaining > 0 {
		fmt.Fprintf(w, "%s; list them with: leanreview drafts %s\n", count(res.Remaining, "draft remains", "drafts remain"), shellWord(arg))
	}
}

// count writes n with a noun: "1 draft", "2 drafts"; forms gives the
// singular and, when the plural is not singular+"s", the plural.
func count(n int, forms ...string) string {
	noun := forms[0]
	if n != 1 {
		noun += "s"
		if len(forms) > 1 {
			noun = forms[1]
		}
	}
	return fmt.Sprintf("%d %s", n, noun)
}

// shellWord quotes s for a POSIX shell when it holds anything but plain
// word characters ("#12" starts a comment, "!7" expands history).
func shellWord(s string) string {
	if strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/:._-", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// sanitize escapes what a terminal would obey but a reader cannot see.
func sanitize(s string) string {
	out, _ := changeset.SanitizeBidi(s)
	return out
}
