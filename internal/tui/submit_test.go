package tui

import (
	"bytes"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
)

// head2 is the fixture pull request after a force-push that rewrote
// main.go's new line 14 (`return "hello, " + name`): a draft on it is
// orphaned, the others relocate.
const head2 = "2222222222222222222222222222222222222222"

func head2Patch(t *testing.T) []byte {
	t.Helper()
	p := forgetest.FixturePatch()
	q := bytes.Replace(p, []byte(`+	return "hello, " + name`), []byte(`+	return "hi, " + name`), 1)
	if bytes.Equal(p, q) {
		t.Fatal("the fixture patch no longer has the line head 2 rewrites")
	}
	return q
}

// draftFixture writes three drafts (one on the line head 2 rewrites) and
// a reply to the seeded thread.
func draftFixture(t *testing.T, w *forgeWorld, h *harness) {
	t.Helper()
	h.comment("main.go", changeset.SideNew, 9, "Say which world.")
	h.comment("main.go", changeset.SideNew, 14, "Keep the comma?")
	h.comment("notes.txt", changeset.SideNew, 20, "Twenty in words?")
	h.keys("]", "f", "]", "f", "]", "c", "j", "j", "j", "j", "j", "j", "r")
}

// onHost lists the bodies the reviewer's comments reached the host with,
// sorted, markers removed.
func onHost(w *forgeWorld) []string {
	var out []string
	for _, c := range w.host.Posted(w.ref) {
		if c.Author != forgetest.GitHubAuthor && !c.Pending {
			out = append(out, strings.TrimSpace(forge.StripMarker(c.Body)))
		}
	}
	sort.Strings(out)
	return out
}

// Issue 5's force-push scenario on the terminal: drafts written against
// head 1 are relocated onto head 2; the confirmation screen counts what
// goes per file and warns about the orphan that will NOT be sent; the
// event is chosen there; after sending, the sent drafts are gone from the
// review and the orphan stays.
func TestSubmit_ConfirmationListsOrphansAndSendsTheRest(t *testing.T) {
	w := newForgeWorld(t)
	w.thread("main.go", changeset.SideNew, 9, "Which world?")
	h := w.open(harnessOpts{editor: fakeEditor(t, "The one on the command line.")})
	draftFixture(t, w, h)
	w.host.Push(w.ref, head2, head2Patch(t))

	h = w.open(harnessOpts{})
	h.keys("S")
	h.golden("submit-confirm")
	h.keys("tab")
	if !strings.Contains(h.screen(), "[approve]") {
		t.Fatalf("tab did not choose approve:\n%s", h.screen())
	}
	h.keys("enter")
	if h.m.overlay != overlayNone || !strings.Contains(h.m.msg, "submitted to github.com/acme/greeter#7 (approve): 2 comments and 1 reply sent; 1 draft left as drafts") {
		t.Fatalf("no confirmation after sending:\n%s", h.screen())
	}
	h.golden("submit-sent")

	want := []string{"Say which world.", "The one on the command line.", "Twenty in words?"}
	if diff := cmp.Diff(want, onHost(w)); diff != "" {
		t.Errorf("on the host (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]forgetest.Verdict{{Event: forge.EventApprove}}, verdicts(w)); diff != "" {
		t.Errorf("verdicts on the host (-want +got):\n%s", diff)
	}
	snap := h.serviceSnapshot()
	if len(snap.Drafts) != 1 || snap.Drafts[0].Body != "Keep the comma?" || !snap.Drafts[0].Orphaned() {
		t.Errorf("drafts left in the review: %+v, want only the orphan", snap.Drafts)
	}
}

// When the pull request moves while the screen is open, nothing is sent:
// the change is read again, the drafts are placed on the new head and the
// screen is shown again, saying why; confirming then sends.
func TestSubmit_HeadMovedPlansAgainAndShowsTheScreenAgain(t *testing.T) {
	w := newForgeWorld(t)
	w.thread("main.go", changeset.SideNew, 9, "Which world?")
	h := w.open(harnessOpts{editor: fakeEditor(t, "The one on the command line.")})
	draftFixture(t, w, h)
	h.keys("S")
	if strings.Contains(h.screen(), "Will NOT send") {
		t.Fatalf("an orphan before the push:\n%s", h.screen())
	}
	w.host.Push(w.ref, head2, head2Patch(t))
	h.keys("enter")
	h.golden("submit-head-moved")
	if got := onHost(w); len(got) != 0 {
		t.Fatalf("sent against the old head: %v", got)
	}
	if h.m.snap.AsOf == "" || !strings.Contains(h.screen(), "head 222222222222") {
		t.Errorf("the screen was not planned against the new head:\n%s", h.screen())
	}
	h.keys("enter")
	if diff := cmp.Diff([]string{"Say which world.", "The one on the command line.", "Twenty in words?"}, onHost(w)); diff != "" {
		t.Errorf("on the host after confirming again (-want +got):\n%s", diff)
	}
}

// The summary is written in the editor; esc leaves without sending.
func TestSubmit_SummaryAndCancel(t *testing.T) {
	w := newForgeWorld(t)
	h := w.open(harnessOpts{editor: fakeEditor(t, "Looks good overall.")})
	h.comment("main.go", changeset.SideNew, 9, "Say which world.")
	h.keys("S", "s")
	if !strings.Contains(h.screen(), "Summary:  Looks good overall.") {
		t.Fatalf("the summary is not shown:\n%s", h.screen())
	}
	h.keys("esc")
	if got := onHost(w); len(got) != 0 || !strings.Contains(h.screen(), "nothing was sent") {
		t.Fatalf("esc sent %v:\n%s", got, h.screen())
	}
	h.keys("S", "s", "enter")
	if diff := cmp.Diff([]string{"Say which world."}, onHost(w)); diff != "" {
		t.Errorf("on the host (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]forgetest.Verdict{{Event: forge.EventComment, Body: "Looks good overall."}}, verdicts(w)); diff != "" {
		t.Errorf("verdicts on the host (-want +got):\n%s", diff)
	}
}

// A review that is not a pull or merge request has nowhere to submit to.
func TestSubmit_ExplainsWhenTheSourceIsNotAPullRequest(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.keys("S")
	if h.m.overlay != overlayNone || !strings.Contains(h.m.msg, "GitHub pull request or a GitLab merge request") {
		t.Errorf("S on a patch: overlay %v, message %q", h.m.overlay, h.m.msg)
	}
}

// verdicts lists the reviewer's review-level outcomes, markers removed.
func verdicts(w *forgeWorld) []forgetest.Verdict {
	var out []forgetest.Verdict
	for _, v := range w.host.Verdicts(w.ref) {
		v.Body = strings.TrimSpace(forge.StripMarker(v.Body))
		out = append(out, v)
	}
	return out
}
