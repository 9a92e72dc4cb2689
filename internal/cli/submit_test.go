package cli

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/iostreams"
	"github.com/spf13/cobra"
)

// parse runs cmd on args with its behaviour replaced, returning the
// error flag parsing gave.
func parse(t *testing.T, cmd *cobra.Command, args []string) error {
	t.Helper()
	ios, _, _ := iostreams.Test("")
	cmd.SetArgs(args)
	cmd.SetOut(ios.Out)
	cmd.SetErr(ios.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	return cmd.Execute()
}

func TestSubmitCmd_ParsesFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    SubmitOptions
		wantErr string
	}{
		{[]string{"acme/tool#12", "--event", "approve", "--yes"}, SubmitOptions{Args: []string{"acme/tool#12"}, Event: forge.EventApprove, Yes: true}, ""},
		{[]string{"!7", "--event", "request-changes", "--body", "See inline.", "-y"},
			SubmitOptions{Args: []string{"!7"}, Event: forge.EventRequestChanges, Body: "See inline.", Yes: true}, ""},
		{[]string{"#3", "--event", "comment", "--body-file", "-"}, SubmitOptions{Args: []string{"#3"}, Event: forge.EventComment, BodyFile: "-"}, ""},
		{[]string{"#3"}, SubmitOptions{}, `required flag(s) "event" not set`},
		{[]string{"#3", "--event", "lgtm"}, SubmitOptions{}, `--event: want comment, approve or request-changes, got "lgtm"`},
		{[]string{"#3", "--event", "comment", "--body", "a", "--body-file", "b"}, SubmitOptions{}, "give --body or --body-file, not both"},
		{[]string{"--event", "comment"}, SubmitOptions{}, "accepts 1 arg(s), received 0"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var got *SubmitOptions
			err := parse(t, newCmdSubmit(&Factory{}, func(_ context.Context, o *SubmitOptions) error { got = o; return nil }), tc.args)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got == nil {
				t.Fatalf("err %v, options %v", err, got)
			}
			if d := cmp.Diff(tc.want, *got); d != "" {
				t.Errorf("options (-want +got):\n%s", d)
			}
		})
	}
}

func TestReplyAndCheckReviewCmds_ParseFlags(t *testing.T) {
	var reply *ReplyOptions
	if err := parse(t, newCmdReply(&Factory{}, func(_ context.Context, o *ReplyOptions) error { reply = o; return nil }),
		[]string{"#3", "--thread", "99", "--body", "Done."}); err != nil || reply.Thread != "99" || reply.Body != "Done." {
		t.Errorf("reply: %+v, %v", reply, err)
	}
	for _, args := range [][]string{{"#3", "--body", "x"}, {"#3", "--thread", "9"}, {"#3", "--thread", "9", "--body", "x", "--body-file", "f"}} {
		err := parse(t, newCmdReply(&Factory{}, func(context.Context, *ReplyOptions) error { return nil }), args)
		var usage usageError
		if !errors.As(err, &usage) {
			t.Errorf("reply %v: err = %v, want a usage error", args, err)
		}
	}
	var check *CheckReviewOptions
	if err := parse(t, newCmdCheckReview(&Factory{}, func(_ context.Context, o *CheckReviewOptions) error { check = o; return nil }),
		[]string{"!7", "--json"}); err != nil || !check.JSON || check.Args[0] != "!7" {
		t.Errorf("check-review: %+v, %v", check, err)
	}
}

func TestConfirm_AsksOnATerminalAndRefusesWithoutOne(t *testing.T) {
	for _, tc := range []struct {
		name      string
		yes, tty  bool
		stdinUsed bool
		answer    string
		wantCode  int // -1: no error
		wantOut   string
	}{
		{"--yes", true, false, false, "", -1, ""},
		{"no terminal", false, false, false, "y\n", exitUsage, ""},
		{"stdin holds the summary", false, true, true, "y\n", exitUsage, ""},
		{"answered yes", false, true, false, "yes\n", -1, "Submit? [y/N] "},
		{"answered no", false, true, false, "n\n", exitFailure, "Not submitted; nothing was sent."},
		{"no answer", false, true, false, "", exitFailure, "Not submitted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ios, out, _ := iostreams.Test(tc.answer)
			ios.InTTY = tc.tty
			err := (&Factory{IOStreams: ios}).confirm(tc.yes, tc.stdinUsed)
			switch {
			case tc.wantCode < 0 && err != nil:
				t.Errorf("err = %v", err)
			case tc.wantCode >= 0 && (err == nil || exitCode(err) != tc.wantCode):
				t.Errorf("err = %v, want exit %d", err, tc.wantCode)
			}
			if !strings.Contains(out.String(), tc.wantOut) {
				t.Errorf("printed %q, want %q", out, tc.wantOut)
			}
		})
	}
}

func TestShellWord_QuotesWhatAShellWouldRead(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/o/r/pull/1": "https://github.com/o/r/pull/1",
		"#12":                           "'#12'",
		"g/p!3":                         "'g/p!3'",
		"it's":                          `'it'\''s'`,
	} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %s, want %s", in, got, want)
		}
	}
}
