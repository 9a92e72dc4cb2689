package e2e

import (
	"context"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/e2e/tmux"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
)

// pullRequest is a pull request on the fake GitHub of forgetest (on
// loopback, checking every request against GitHub's OpenAPI description),
// and the environment that points leanreview at it, as a user points it
// at an enterprise host.
type pullRequest struct {
	host *forgetest.GitHub
	ref  forge.Ref
	url  string
	env  []string
}

func newPullRequest(t *testing.T) *pullRequest {
	t.Helper()
	host := forgetest.NewGitHub(t, forgetest.GitHubOptions{})
	ref := host.Seed(forgetest.ChangeSeed{Repo: "acme/greeter", Number: 7, Title: "Greet the world",
		Base: forgetest.FixtureBase, Head: forgetest.FixtureHead, Patch: forgetest.FixturePatch()})
	return &pullRequest{host: host, ref: ref, url: "https://github.com/acme/greeter/pull/7",
		env: []string{"LEANREVIEW_GITHUB_API=" + host.URL(), "GITHUB_TOKEN=" + host.Token()}}
}

// reviewer lists the bodies of the reviewer's published comments, sorted,
// markers removed.
func (p *pullRequest) reviewer() []string {
	var out []string
	for _, c := range p.host.Posted(p.ref) {
		if c.Author != forgetest.GitHubAuthor && !c.Pending {
			out = append(out, strings.TrimSpace(forge.StripMarker(c.Body)))
		}
	}
	sort.Strings(out)
	return out
}

// startTerm runs argv in a w x hgt tmux pane in dir with env; the session
// ends with the test.
func startTerm(t *testing.T, dir string, env []string, w, hgt int, argv ...string) *term {
	t.Helper()
	ctx := context.Background()
	s, err := tmux.Start(ctx, tmux.Options{Socket: socketName(t), Width: w, Height: hgt, Dir: dir, Env: env, Argv: argv})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return &term{t: t, s: s, ctx: ctx}
}

// openPR starts leanreview on the pull request in tmux.
func openPR(t *testing.T, h *termHome, pr *pullRequest, w, hgt int) *term {
	t.Helper()
	requireTmux(t)
	if !wired {
		t.Fatal("leanreview's root command does not open the review UI: wire reviewRun and --demo in internal/cli/cli.go (see internal/cli/review.go)")
	}
	env := append(h.env(), pr.env...)
	tm := startTerm(t, h.dir, env, w, hgt, bin, pr.url)
	tm.wait("the first screen", func(s string) bool { return strings.Contains(s, " hunks · ") })
	return tm
}

// Issue 5 in the terminal: the pull request's thread is shown under its
// line, r stages a reply through the editor, c a comment, S shows what
// will be sent, tab picks approve, Enter sends; the host then holds the
// comment, the reply in its thread and one approval, and no draft is
// left. The thread, having been on screen, is no longer new to
// check-review.
func TestForge_ThreadReplyAndSubmitInTheTerminal(t *testing.T) {
	pr := newPullRequest(t)
	pr.host.SeedThread(pr.ref, forgetest.ThreadSeed{Path: "main.go", Side: changeset.SideNew, Line: 9, Body: "Which world?"})
	h := newTermHome(t, "The one named on the command line.")
	tm := openPR(t, h, pr, 120, 40)
	tm.wait("the thread under main.go's line 9, or the UI was given no ThreadSource (wire tui.Options.Threads and Submitter in internal/cli/review.go)",
		func(s string) bool {
			return strings.Contains(s, "thread by author · new") && strings.Contains(s, "author: Which world?")
		})

	tm.pickFile("main.go", " 3/5 main.go")
	tm.keys("]", "c")
	tm.waitText(">── import (")
	tm.keys("j", "j", "j", "j", "j", "j")
	tm.waitText(">    9  + // or for the world")
	tm.keys("r")
	tm.waitText("reply staged")
	scr := tm.waitText("your reply on new line 9")
	if !strings.Contains(scr, "The one named on the command line.") {
		t.Errorf("the reply's preview lacks its body:\n%s", scr)
	}
	tm.keys("j", "j", "j", "j", "j", "j")
	tm.wait("the cursor on new line 14", func(s string) bool {
		for _, l := range lines(s) {
			if strings.Contains(l, ">   14  +") && strings.Contains(l, `return "hello, " + name`) {
				return true
			}
		}
		return false
	})
	tm.keys("c")
	tm.waitText("draft saved on new line 14")

	tm.keys("S")
	scr = tm.waitText("Will send 1 comment and 1 reply:")
	for _, want := range []string{"main.go  1 comment", "1 reply to an existing thread", "Event:    [comment]"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the confirmation screen lacks %q:\n%s", want, scr)
		}
	}
	tm.keys("Tab")
	tm.waitText("[approve]")
	tm.keys("Enter")
	tm.waitText("submitted to github.com/acme/greeter#7 (approve): 1 comment and 1 reply sent")
	tm.waitText(" 0 drafts")
	tm.quit()

	want := []string{"The one named on the command line.", "The one named on the command line."}
	if diff := cmp.Diff(want, pr.reviewer()); diff != "" {
		t.Errorf("the reviewer's comments on the host (-want +got):\n%s", diff)
	}
	var approvals int
	for _, v := range pr.host.Verdicts(pr.ref) {
		if v.Event == forge.EventApprove {
			approvals++
		}
	}
	if approvals != 1 {
		t.Errorf("%d approvals on the host, want 1: %+v", approvals, pr.host.Verdicts(pr.ref))
	}
	replies := 0
	for _, c := range pr.host.Posted(pr.ref) {
		if c.Reply && c.Author != forgetest.GitHubAuthor {
			replies++
		}
	}
	if replies != 1 {
		t.Errorf("%d replies by the reviewer on the host, want 1", replies)
	}

	cmd := exec.Command(bin, "check-review", pr.url)
	cmd.Env, cmd.Dir = append(append(h.env(), "PATH=/usr/bin:/bin"), pr.env...), h.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("check-review after the thread was on screen: %v\n%s", err, out)
	}
}
