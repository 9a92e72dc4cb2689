package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
)

// These tests run the real leanreview binary against fake GitHub and
// GitLab servers on loopback (internal/forge/forgetest), pointed at them the
// way a user points leanreview at an enterprise host: LEANREVIEW_GITHUB_API
// or LEANREVIEW_GITLAB_API, and a token in the environment.

func TestForge_CommentReplyAndSubmitThroughTheCommandLine(t *testing.T) {
	for _, hk := range hostKinds {
		t.Run(hk.name, func(t *testing.T) {
			t.Parallel()
			w := newForgeWorld(t, hk.new(t), forgetest.FixturePatch(), forgetest.FixtureHead)
			thread := w.host.SeedThread(w.ref, forgetest.ThreadSeed{Path: "main.go", Side: changeset.SideNew, Line: 9,
				Body: "Which world?", Replies: []string{"Any world."}})

			if out := w.ok("inspect", w.url, "--numstat"); !strings.Contains(out, "main.go") || !strings.Contains(out, "notes.txt") {
				t.Errorf("inspect read no diff from the host:\n%s", out)
			}
			ids := []string{
				savedID(t, w.ok("comment", w.url, "--path", "main.go", "--line", "9", "--body", "Say which world.")),
				savedID(t, w.ok("comment", w.url, "--path", "main.go", "--line", "8", "--side", "old", "--body", "The old comment was fine.")),
				savedID(t, w.ok("comment", w.url, "--path", "main.go", "--line", "11", "--end-line", "14", "--body", "Simplify this block.")),
				savedID(t, w.ok("comment", w.url, "--path", "notes.txt", "--line", "20", "--body", "Twenty in words?")),
			}

			out, _ := w.must(1, "check-review", w.url)
			if !strings.Contains(out, "1 new thread") || !strings.Contains(out, thread) || !strings.Contains(out, "main.go:9") {
				t.Errorf("check-review before replying:\n%s", out)
			}
			ids = append(ids, savedID(t, w.ok("reply", w.url, "--thread", thread, "--body", "This world.")))

			_, errOut := w.must(2, "submit", w.url, "--event", "approve", "--body", "Looks good.")
			if !strings.Contains(errOut, "--yes") {
				t.Errorf("submit without --yes off a terminal: %q", errOut)
			}
			if n := len(w.markers()); n != 0 {
				t.Fatalf("%d comments sent without confirmation", n)
			}

			out = w.ok("submit", w.url, "--event", "approve", "--body", "Looks good.", "--yes")
			t.Logf("leanreview submit --yes:\n%s", out)
			for _, want := range []string{"Will send 4 comments and 1 reply:", "main.go    3 comments", "notes.txt  1 comment",
				"1 reply to existing threads", "Event: approve", "Summary: Looks good.", "5 drafts sent and cleared."} {
				if !strings.Contains(out, want) {
					t.Errorf("submit output lacks %q:\n%s", want, out)
				}
			}
			on := w.markers()
			for _, id := range ids {
				if on[id] != 1 {
					t.Errorf("draft %s is on the host %d times", id, on[id])
				}
			}
			checkServer(t, w, ids, thread)
			if left := w.draftIDs(); len(left) != 0 {
				t.Errorf("drafts left after submitting: %v", left)
			}

			// The reader's own comments are not news; the seeded thread, never
			// on screen, still is.
			out, _ = w.must(1, "check-review", w.url, "--json")
			if !strings.Contains(out, `"id":"`+thread+`"`) || strings.Count(out, `"id":"`) != 1+3 {
				t.Errorf("check-review --json after submitting:\n%s", out)
			}
			if out := w.ok("submit", w.url, "--event", "comment", "--yes"); !strings.Contains(out, "Nothing to submit.") {
				t.Errorf("a second submit:\n%s", out)
			}
		})
	}
}

// checkServer looks at what the fake host holds after the submission:
// the comments where they were written, the reply in its thread, and one
// approval.
func checkServer(t *testing.T, w *forgeWorld, ids []string, thread string) {
	t.Helper()
	byMarker := map[string]forgetest.HostComment{}
	for _, c := range w.host.Posted(w.ref) {
		if m := forge.MarkerOf(c.Body); m != "" {
			byMarker[m] = c
		}
	}
	type where struct {
		Path string
		Side changeset.Side
		Line int
	}
	for i, want := range []where{{"main.go", changeset.SideNew, 9}, {"main.go", changeset.SideOld, 8}, {"main.go", changeset.SideNew, 14}, {"notes.txt", changeset.SideNew, 20}} {
		c := byMarker[ids[i]]
		if got := (where{c.Path, c.Side, c.Line}); got != want {
			t.Errorf("comment %d is on %+v, want %+v", i, got, want)
		}
	}
	if c := byMarker[ids[2]]; c.StartLine != 11 {
		t.Errorf("the range starts at %d, want 11", c.StartLine)
	}
	if r := byMarker[ids[4]]; !r.Reply || r.Thread != thread || !strings.HasPrefix(r.Body, "This world.") {
		t.Errorf("reply = %+v, want in thread %s", r, thread)
	}
	approvals := 0
	for _, v := range w.host.Verdicts(w.ref) {
		if v.Event == forge.EventApprove {
			approvals++
		}
	}
	if approvals != 1 {
		t.Errorf("verdicts = %+v, want one approval", w.host.Verdicts(w.ref))
	}
}

func TestForge_ForcePushRelocatesDraftsAndTheConfirmationListsOrphans(t *testing.T) {
	v1, err := os.ReadFile(testdataPath(t, "calc-v1.diff"))
	if err != nil {
		t.Fatal(err)
	}
	v2, err := os.ReadFile(testdataPath(t, "calc-v2.diff"))
	if err != nil {
		t.Fatal(err)
	}
	for _, hk := range hostKinds {
		t.Run(hk.name, func(t *testing.T) {
			t.Parallel()
			w := newForgeWorld(t, hk.new(t), v1, forgetest.FixtureHead)
			moved := savedID(t, w.ok("comment", w.url, "--path", "calc.go", "--line", "20", "--body", "Why + 1?"))
			orphan := savedID(t, w.ok("comment", w.url, "--path", "calc.go", "--line", "80", "--body", "Why - 1?"))
			renamed := savedID(t, w.ok("comment", w.url, "--path", "dup.txt", "--line", "8", "--body", "Extra what?"))

			// A force-push inserts lines above F5, rewrites F20's line and
			// renames dup.txt.
			w.host.Push(w.ref, head2, v2)
			out := w.ok("submit", w.url, "--event", "comment", "--body", "After the push.", "--yes")
			t.Logf("leanreview submit --yes:\n%s", out)
			for _, want := range []string{"(open), head " + head2[:12], "Will send 2 comments:", "calc.go   1 comment", "dup2.txt  1 comment",
				"warning: will NOT send 1 orphaned draft", orphan + "  calc.go:80 (new side)  Why - 1?"} {
				if !strings.Contains(out, want) {
					t.Errorf("submit output lacks %q:\n%s", want, out)
				}
			}
			on := map[string]forgetest.HostComment{}
			for _, c := range w.host.Posted(w.ref) {
				on[forge.MarkerOf(c.Body)] = c
			}
			if c := on[moved]; c.Path != "calc.go" || c.Line != 24 {
				t.Errorf("the moved draft went to %s:%d, want calc.go:24", c.Path, c.Line)
			}
			if c := on[renamed]; c.Path != "dup2.txt" || c.Line != 8 {
				t.Errorf("the renamed file's draft went to %s:%d, want dup2.txt:8", c.Path, c.Line)
			}
			if _, sent := on[orphan]; sent {
				t.Error("the orphan was sent")
			}
			if left := w.draftIDs(); !slices.Equal(left, []string{orphan}) {
				t.Errorf("drafts left %v, want only the orphan %s", left, orphan)
			}
		})
	}
}

func TestForge_TokensComeFromTheEnvironmentOrTheHostsOwnTools(t *testing.T) {
	t.Run("no token names what to set", func(t *testing.T) {
		for _, hk := range hostKinds {
			w := newForgeWorld(t, hk.new(t), forgetest.FixturePatch(), forgetest.FixtureHead)
			w.env = slices.DeleteFunc(w.env, func(kv string) bool { return strings.Contains(kv, "_TOKEN=") })
			_, errOut := w.must(2, "comment", w.url, "--path", "main.go", "--line", "9", "--body", "x")
			want := map[string]string{"github": "no GitHub token for github.com: set GITHUB_TOKEN or GH_TOKEN",
				"gitlab": "no GitLab token for gitlab.com: set GITLAB_TOKEN"}[hk.name]
			if !strings.Contains(errOut, want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Errorf("%s: stderr %q, want one line with %q", hk.name, errOut, want)
			}
		}
	})
	t.Run("a rejected token says where it came from", func(t *testing.T) {
		w := newForgeWorld(t, forgetest.NewGitHub(t, forgetest.GitHubOptions{}), forgetest.FixturePatch(), forgetest.FixtureHead)
		w.env = append(w.env, "GH_TOKEN=ghp_revoked")
		_, errOut := w.must(1, "submit", w.url, "--event", "comment", "--yes")
		for _, want := range []string{"GitHub rejected the token (401)", "Bad credentials", "set GITHUB_TOKEN or GH_TOKEN", "the token came from GH_TOKEN"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("stderr lacks %q: %s", want, errOut)
			}
		}
	})
	t.Run("gh auth token", func(t *testing.T) {
		host := forgetest.NewGitHub(t, forgetest.GitHubOptions{})
		w := newForgeWorld(t, host, forgetest.FixturePatch(), forgetest.FixtureHead)
		bin := filepath.Join(w.dir, "bin")
		if err := os.Mkdir(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(bin, "gh"), "#!/bin/sh\n[ \"$*\" = \"auth token --hostname github.com\" ] && echo "+host.Token()+"\n", 0o755)
		w.env = slices.DeleteFunc(w.env, func(kv string) bool { return strings.HasPrefix(kv, "GITHUB_TOKEN=") || strings.HasPrefix(kv, "PATH=") })
		w.env = append(w.env, "PATH="+bin+":"+os.Getenv("PATH"))
		w.ok("comment", w.url, "--path", "main.go", "--line", "9", "--body", "Through gh's token.")
	})
	t.Run("glab's config file", func(t *testing.T) {
		host := forgetest.NewGitLab(t, forgetest.GitLabOptions{})
		w := newForgeWorld(t, host, forgetest.FixturePatch(), forgetest.FixtureHead)
		w.env = slices.DeleteFunc(w.env, func(kv string) bool { return strings.HasPrefix(kv, "GITLAB_TOKEN=") })
		dir := filepath.Join(w.dir, "config", "glab-cli")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "config.yml"), "git_protocol: ssh\nhosts:\n    gitlab.com:\n        token: "+host.Token()+"\n        api_host: gitlab.com\n", 0o600)
		w.ok("comment", w.url, "--path", "main.go", "--line", "9", "--body", "Through glab's token.")
	})
}

func TestForge_CheckReviewExitStatusSaysNewNothingOrFailure(t *testing.T) {
	w := newForgeWorld(t, forgetest.NewGitHub(t, forgetest.GitHubOptions{}), forgetest.FixturePatch(), forgetest.FixtureHead)
	if out, _ := w.must(0, "check-review", w.url); !strings.Contains(out, "nothing new on github.com/acme/greeter#7 (0 threads)") {
		t.Errorf("no threads: %q", out)
	}
	w.host.SeedThread(w.ref, forgetest.ThreadSeed{Path: "version.go", Side: changeset.SideNew, Line: 3, Body: "1.0?"})
	w.must(1, "check-review", w.url)
	w.env = append(w.env, "GH_TOKEN=ghp_revoked")
	if _, errOut := w.must(2, "check-review", w.url); !strings.Contains(errOut, "GitHub rejected the token (401)") {
		t.Errorf("a revoked token: %q", errOut)
	}
	if _, errOut := w.must(2, "check-review", testdataPath(t, "calc-v1.diff")); !strings.Contains(errOut, "check-review works on a GitHub pull request") {
		t.Errorf("a patch file: %q", errOut)
	}
}

func TestForge_HostFailuresAreExplainedInWords(t *testing.T) {
	w := newForgeWorld(t, forgetest.NewGitHub(t, forgetest.GitHubOptions{}), forgetest.FixturePatch(), forgetest.FixtureHead)
	missing := strings.Replace(w.url, "/pull/7", "/pull/404", 1)
	if _, errOut := w.must(1, "inspect", missing); !strings.Contains(errOut, "GitHub found nothing for read pull request acme/greeter#404 (404)") ||
		!strings.Contains(errOut, "check the reference") {
		t.Errorf("a missing pull request: %q", errOut)
	}
	// A wait longer than leanreview will sit through is not slept: the
	// message says when to come back.
	w.host.Inject(forgetest.Shift(w.host, []forgetest.Fault{{Kind: forgetest.FaultRateLimit, Method: "GET", Nth: 1, RetryAfter: time.Hour}})...)
	if _, errOut := w.must(1, "inspect", w.url); !strings.Contains(errOut, "GitHub rate limit hit") || !strings.Contains(errOut, "try again in 1h0m0s") {
		t.Errorf("rate limited: %q", errOut)
	}
}

func TestForge_BigPullRequestsAndManyThreadsAreReadWhole(t *testing.T) {
	// 301 files is past GitHub's diff limit: the adapter reads the files
	// endpoint instead. 130 threads take two pages.
	w := newForgeWorld(t, forgetest.NewGitHub(t, forgetest.GitHubOptions{}), forgetest.BigPatch(301), forgetest.FixtureHead)
	if out := w.ok("inspect", w.url, "--numstat"); strings.Count(out, "\n") != 301 {
		t.Errorf("inspect listed %d files, want 301", strings.Count(out, "\n"))
	}
	for i := range 130 {
		w.host.SeedThread(w.ref, forgetest.ThreadSeed{Path: fmt.Sprintf("pkg/f%03d.go", i), Side: changeset.SideNew, Line: 2, Body: "Why 2?"})
	}
	if out, _ := w.must(1, "check-review", w.url); !strings.Contains(out, "130 new threads on github.com/acme/greeter#7 (of 130)") {
		t.Errorf("check-review: %s", strings.SplitN(out, "\n", 2)[0])
	}
}

func TestForge_SelfHostedHostComesFromTheConfigFile(t *testing.T) {
	host := forgetest.NewGitLab(t, forgetest.GitLabOptions{})
	w := newForgeWorld(t, host, forgetest.FixturePatch(), forgetest.FixtureHead)
	w.env = slices.DeleteFunc(w.env, func(kv string) bool { return strings.HasPrefix(kv, "LEANREVIEW_GITLAB_API=") })
	dir := filepath.Join(w.dir, "config", "leanreview")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "config.toml"), "[hosts.\"git.example.com\"]\nkind = \"gitlab\"\napi = \""+host.URL()+"\"\n", 0o600)
	url := "https://git.example.com/" + w.ref.Repo + "/-/merge_requests/7"
	out := w.ok("comment", url, "--path", "main.go", "--line", "9", "--body", "On our own GitLab.")
	if on := w.ok("drafts", url+"/diffs"); !strings.Contains(on, savedID(t, out)) {
		t.Errorf("the merge request's diffs page finds no draft:\n%s", on)
	}
}
