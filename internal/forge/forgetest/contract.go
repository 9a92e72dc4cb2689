package forgetest

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
)

//go:embed testdata/review.patch
var fixturePatch []byte

// The fixture change every contract test starts from: testdata/review.patch
// between these two commits.
const (
	FixtureBase = "203bff28dc8d1e8dd0ed444c0efd7d9851984d8b"
	FixtureHead = "6576ec336a748f565323690665bb7b6c6f381d71"
	FixtureRepo = "acme/tools/greeter"
)

// FixturePatch returns a copy of the fixture patch.
func FixturePatch() []byte { return slices.Clone(fixturePatch) }

// Contract is what RunContract needs to test one adapter.
type Contract struct {
	// NewHost starts a fresh fake host for one test, on the suite's clock.
	NewHost func(t *testing.T, now func() time.Time) Host
	// NewForge builds the adapter under test against h.
	NewForge func(t *testing.T, h Host, cfg ForgeConfig) forge.Forge
	// NewHostWithoutResolvedState starts a host that cannot say whether a
	// thread is resolved (GitHub without its GraphQL API); nil for a family
	// of hosts that always can (GitLab).
	NewHostWithoutResolvedState func(t *testing.T, now func() time.Time) Host
}

// ForgeConfig is how the suite wants an adapter built.
type ForgeConfig struct {
	Token   string
	Sleeper forge.Sleeper
	Now     func() time.Time
	Retry   forge.RetryPolicy
}

// setup is one contract test's world: a host with the fixture change, a
// fake clock and an adapter waiting on it.
type setup struct {
	t     *testing.T
	host  Host
	ref   forge.Ref
	clock *Clock
	forge forge.Forge
	diff  []changeset.File
}

func (c Contract) setup(t *testing.T, retry forge.RetryPolicy) *setup {
	t.Helper()
	clock := NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	h := c.NewHost(t, clock.Now)
	ref := h.Seed(ChangeSeed{Repo: fixtureRepo(h.Kind()), Number: 7, Title: "Greet the world", Base: FixtureBase, Head: FixtureHead, Patch: FixturePatch()})
	diff, err := ParseFiles(FixturePatch())
	if err != nil {
		t.Fatal(err)
	}
	f := c.NewForge(t, h, ForgeConfig{Token: h.Token(), Sleeper: clock, Now: clock.Now, Retry: retry})
	return &setup{t: t, host: h, ref: ref, clock: clock, forge: f, diff: diff}
}

// fixtureRepo is a GitHub owner/repo or a nested GitLab project path.
func fixtureRepo(k forge.Kind) string {
	if k == forge.KindGitHub {
		return "acme/greeter"
	}
	return FixtureRepo
}

// RunContract runs the behaviour every forge adapter must show against its
// fake host.
func RunContract(t *testing.T, c Contract) {
	t.Run("Change_ReadsMetadataAndTheWholeDiff", c.testChange)
	t.Run("Change_ReadsADiffPastTheHostLimits", c.testBigChange)
	t.Run("Threads_ReadsEveryPageWithRepliesAndResolvedState", c.testThreads)
	t.Run("Threads_ReportsAThreadResolvedOnTheHost", c.testResolved)
	t.Run("Threads_WithoutResolvedStateReadUnresolvedWithoutError", c.testNoResolvedState)
	t.Run("Submit_SendsLineCommentsOnBothSidesRangesAndRenames", c.testSubmit)
	t.Run("Submit_MapsEachEvent", c.testEvents)
	t.Run("Submit_ReportsLinesOutsideTheDiffBeforeSending", c.testOffDiff)
	t.Run("Submit_PostsRepliesToThreads", c.testReplies)
	t.Run("Submit_RefusesWhenTheHeadMoved", c.testHeadMoved)
	t.Run("Reconcile_FindsWhatALostAnswerLeftAndTheRetryPostsNoDuplicate", c.testReconcile)
	t.Run("Submit_RetriesRateLimitsAndServerErrorsThroughTheSleeper", c.testRetries)
	t.Run("Errors_ExplainTokenAndMissingChange", c.testErrors)
	t.Run("FaultSchedules_EndExactlyOnce", func(t *testing.T) { RunFaultSchedules(t, c, 1, 30) })
}

func (c Contract) testChange(t *testing.T) {
	s := c.setup(t, forge.RetryPolicy{})
	ch, err := s.forge.Change(context.Background(), s.ref)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{ch.Title, ch.Author, ch.State.String(), ch.BaseSHA, ch.HeadSHA, ch.StartSHA, fmt.Sprint(ch.Ref == s.ref)}
	want := []string{"Greet the world", "author", "open", FixtureBase, FixtureHead, FixtureBase, "true"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("change (-want +got):\n%s", d)
	}
	if ch.URL == "" || ch.Missing != nil {
		t.Errorf("URL %q, Missing %+v", ch.URL, ch.Missing)
	}
	sameFiles(t, FixturePatch(), ch.Patch)
}

// sameFiles compares two patches file by file: paths, status, binary flag
// and hunk bodies; header details (modes, index lines) may differ.
func sameFiles(t *testing.T, want, got []byte) {
	t.Helper()
	wf, err := ParseFiles(want)
	if err != nil {
		t.Fatal(err)
	}
	gf, err := ParseFiles(got)
	if err != nil {
		t.Fatalf("the patch read from the host does not parse: %v\n%s", err, got)
	}
	type file struct {
		Path, OldPath, Status string
		Binary                bool
		Hunks                 [][]string
	}
	view := func(fs []changeset.File) []file {
		var out []file
		for _, f := range fs {
			v := file{Path: f.Path, OldPath: f.OldPath, Status: f.Status.String(), Binary: f.Binary}
			for _, h := range f.Hunks {
				v.Hunks = append(v.Hunks, append([]string{fmt.Sprintf("-%d,%d +%d,%d", h.OldStart, h.OldCount, h.NewStart, h.NewCount)}, h.Lines...))
			}
			out = append(out, v)
		}
		return out
	}
	if d := cmp.Diff(view(wf), view(gf)); d != "" {
		t.Errorf("patch read from the host differs (-want +got):\n%s", d)
	}
}

// BigPatch is a generated patch of n small files, one hunk each: past
// GitHub's 300-file diff limit at n = 301.
func BigPatch(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "diff --git a/pkg/f%03d.go b/pkg/f%03d.go\nindex 1111111..2222222 100644\n--- a/pkg/f%03d.go\n+++ b/pkg/f%03d.go\n", i, i, i, i)
		fmt.Fprintf(&b, "@@ -1,3 +1,3 @@\n package pkg\n-const v%d = 1\n+const v%d = 2\n \n", i, i)
	}
	return []byte(b.String())
}

func (c Contract) testBigChange(t *testing.T) {
	h := c.NewHost(t, time.Now)
	big := BigPatch(301)
	ref := h.Seed(ChangeSeed{Repo: fixtureRepo(h.Kind()), Number: 9, Title: "Big", Base: FixtureBase, Head: FixtureHead, Patch: big})
	f := c.NewForge(t, h, ForgeConfig{Token: h.Token(), Sleeper: NewClock(time.Now())})
	ch, err := f.Change(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	sameFiles(t, big, ch.Patch)
	if ch.Missing != nil {
		t.Errorf("Missing = %+v, want none", ch.Missing)
	}
}

// fixtureComments exercise every kind of anchor the fixture offers.
func fixtureComments() []forge.Comment {
	return []forge.Comment{
		{MarkerID: "c-added", Path: "main.go", Side: changeset.SideNew, Line: 9, Body: "Say which world."},
		{MarkerID: "c-removed", Path: "main.go", Side: changeset.SideOld, Line: 8, Body: "The old comment was fine."},
		{MarkerID: "c-context-old", Path: "main.go", Side: changeset.SideOld, Line: 9, Body: "Context, old side."},
		{MarkerID: "c-range", Path: "main.go", Side: changeset.SideNew, StartLine: 11, Line: 14, Body: "Simplify this block."},
		{MarkerID: "c-cross", Path: "main.go", StartSide: changeset.SideOld, StartLine: 10, Side: changeset.SideNew, Line: 14, Body: "Old return to new."},
		{MarkerID: "c-rename", Path: "notes.txt", OldPath: "old.txt", Side: changeset.SideNew, Line: 20, Body: "Twenty in words?"},
		{MarkerID: "c-deleted", Path: "gone.txt", Side: changeset.SideOld, Line: 1, Body: "Why remove it?"},
		{MarkerID: "c-new-file", Path: "version.go", Side: changeset.SideNew, Line: 3, Body: "Bump to 1.1."},
	}
}

func (s *setup) review(marker string, ev forge.Event, body string, comments ...forge.Comment) forge.Review {
	return forge.Review{MarkerID: marker, CommitID: FixtureHead, Event: ev, Body: body, Comments: comments, Diff: s.diff}
}

func (c Contract) testSubmit(t *testing.T) {
	s := c.setup(t, forge.RetryPolicy{})
	comments := fixtureComments()
	res, err := s.forge.Submit(context.Background(), s.ref, s.review("r-1", forge.EventComment, "A few notes.", comments...))
	if err != nil {
		t.Fatal(err)
	}
	wantAccepted := []string{"r-1"}
	for _, cm := range comments {
		wantAccepted = append(wantAccepted, cm.MarkerID)
	}
	if d := cmp.Diff(wantAccepted, res.Accepted, sortStrings); d != "" {
		t.Errorf("accepted (-want +got):\n%s", d)
	}
	type line struct {
		Marker, Path, OldPath string
		Side                  changeset.Side
		Line, StartLine       int
		Body                  string
	}
	var want, got []line
	for _, cm := range comments {
		side, at := cm.Side, cm.Line
		if s.host.Kind() == forge.KindGitLab {
			// GitLab anchors a context row on both sides; it reads back as new.
			if p, err := forge.Locate(s.diff, cm); err == nil && p.End.Kind == changeset.KindContext {
				side, at = changeset.SideNew, p.End.NewLine
			}
		}
		want = append(want, line{cm.MarkerID, cm.Path, cm.OldPath, side, at, cm.StartLine, cm.Body})
	}
	for _, hc := range s.host.Posted(s.ref) {
		if hc.Path == "" || hc.Author != "reviewer" {
			continue
		}
		if hc.Pending {
			t.Errorf("comment %s left unpublished", hc.ID)
		}
		got = append(got, line{forge.MarkerOf(hc.Body), hc.Path, hc.OldPath, hc.Side, hc.Line, hc.StartLine, forge.StripMarker(hc.Body)})
	}
	byMarker := cmp.Transformer("sort", func(in []line) []line {
		out := slices.Clone(in)
		slices.SortFunc(out, func(a, b line) int { return strings.Compare(a.Marker, b.Marker) })
		return out
	})
	if d := cmp.Diff(want, got, byMarker); d != "" {
		t.Errorf("comments on the host (-want +got):\n%s", d)
	}
	s.wantVerdict(forge.EventComment, "A few notes.")
}

var sortStrings = cmp.Transformer("sort", func(in []string) []string {
	out := slices.Clone(in)
	slices.Sort(out)
	return out
})

// wantVerdict checks the reviewer's last verdict's event, and that some
// verdict carries the summary. GitLab has no request-changes verdict: it
// becomes a note with the summary, and an approval with a summary is a
// note and an approval.
func (s *setup) wantVerdict(ev forge.Event, body string) {
	s.t.Helper()
	vs := s.host.Verdicts(s.ref)
	if len(vs) == 0 {
		s.t.Fatalf("no verdict on the host, want %v", ev)
	}
	if s.host.Kind() == forge.KindGitLab && ev == forge.EventRequestChanges {
		ev = forge.EventComment
	}
	if last := vs[len(vs)-1]; last.Event != ev {
		s.t.Errorf("verdicts = %+v, want the last to be %v", vs, ev)
	}
	if !slices.ContainsFunc(vs, func(v Verdict) bool { return strings.Contains(v.Body, body) }) {
		s.t.Errorf("verdicts = %+v, want one containing %q", vs, body)
	}
}

func (c Contract) testEvents(t *testing.T) {
	tests := []struct {
		ev   forge.Event
		body string
	}{
		{forge.EventApprove, ""},
		{forge.EventApprove, "Ship it."},
		{forge.EventRequestChanges, "Please handle the empty name."},
		{forge.EventComment, "Just a thought."},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v/%q", tt.ev, tt.body), func(t *testing.T) {
			s := c.setup(t, forge.RetryPolicy{})
			res, err := s.forge.Submit(context.Background(), s.ref, s.review("r-ev", tt.ev, tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([]string{"r-ev"}, res.Accepted); d != "" {
				t.Errorf("accepted (-want +got):\n%s", d)
			}
			s.wantVerdict(tt.ev, tt.body)
		})
	}
}

func (c Contract) testOffDiff(t *testing.T) {
	s := c.setup(t, forge.RetryPolicy{})
	comments := []forge.Comment{
		{MarkerID: "in", Path: "main.go", Side: changeset.SideNew, Line: 9, Body: "fine"},
		{MarkerID: "outside", Path: "main.go", Side: changeset.SideNew, Line: 20, Body: "not in any hunk"},
		{MarkerID: "binary", Path: "logo.png", Side: changeset.SideNew, Line: 1, Body: "binary"},
	}
	res, err := s.forge.Submit(context.Background(), s.ref, s.review("r-off", forge.EventComment, "", comments...))
	if err != nil {
		t.Fatal(err)
	}
	var rejected []string
	for _, r := range res.Rejected {
		rejected = append(rejected, r.MarkerID)
	}
	if d := cmp.Diff([]string{"outside", "binary"}, rejected); d != "" {
		t.Errorf("rejected (-want +got):\n%s", d)
	}
	if !slices.Contains(res.Accepted, "in") || slices.Contains(res.Accepted, "outside") {
		t.Errorf("accepted = %v", res.Accepted)
	}
	for _, hc := range s.host.Posted(s.ref) {
		if m := forge.MarkerOf(hc.Body); m == "outside" || m == "binary" {
			t.Errorf("off-diff comment %s reached the host", m)
		}
	}
}

func (c Contract) testReplies(t *testing.T) {
	s := c.setup(t, forge.RetryPolicy{})
	t1 := s.host.SeedThread(s.ref, ThreadSeed{Path: "main.go", Side: changeset.SideNew, Line: 11, Body: "Why the branch?"})
	t2 := s.host.SeedThread(s.ref, ThreadSeed{Path: "notes.txt", Side: changeset.SideNew, Line: 20, Body: "Words?", Replies: []string{"Yes."}})
	threads, err := s.forge.Threads(context.Background(), s.ref)
	if err != nil || len(threads) != 2 {
		t.Fatalf("threads: %d, %v", len(threads), err)
	}
	rv := s.review("r-rep", forge.EventComment, "")
	rv.Replies = []forge.Reply{{MarkerID: "p-1", ThreadID: threads[0].ReplyTo, Body: "For the empty name."}}
	if _, err := s.forge.Submit(context.Background(), s.ref, rv); err != nil {
		t.Fatal(err)
	}
	p, err := s.forge.Reply(context.Background(), s.ref, forge.Reply{MarkerID: "p-2", ThreadID: threads[1].ReplyTo, Body: "Agreed."})
	if err != nil {
		t.Fatal(err)
	}
	if p.MarkerID != "p-2" || p.Kind != forge.PostedReply || p.ThreadID != threads[1].ReplyTo {
		t.Errorf("Reply = %+v", p)
	}
	again, err := s.forge.Reply(context.Background(), s.ref, forge.Reply{MarkerID: "p-2", ThreadID: threads[1].ReplyTo, Body: "Agreed."})
	if err != nil || again.MarkerID != "p-2" {
		t.Errorf("repeated Reply = %+v, %v", again, err)
	}
	var got []string
	for _, hc := range s.host.Posted(s.ref) {
		if hc.Reply && hc.Author == "reviewer" {
			got = append(got, hc.Thread+":"+forge.StripMarker(hc.Body))
		}
	}
	if d := cmp.Diff([]string{t1 + ":For the empty name.", t2 + ":Agreed."}, got); d != "" {
		t.Errorf("replies on the host (-want +got):\n%s", d)
	}
}

func (c Contract) testHeadMoved(t *testing.T) {
	s := c.setup(t, forge.RetryPolicy{})
	s.host.Push(s.ref, "1111111111111111111111111111111111111111", FixturePatch())
	_, err := s.forge.Submit(context.Background(), s.ref, s.review("r-moved", forge.EventComment, "late", fixtureComments()[0]))
	if !errors.Is(err, forge.ErrHeadMoved) {
		t.Fatalf("err = %v, want ErrHeadMoved", err)
	}
	if n := len(s.host.Posted(s.ref)); n != 0 {
		t.Errorf("%d comments posted against a moved head", n)
	}
}
