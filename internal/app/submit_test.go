package app_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
)

// oneTry surfaces a failure at once instead of retrying it, so a test sees
// the lost answer the app must reconcile.
var oneTry = forge.RetryPolicy{Attempts: 1, Base: time.Second, Max: time.Second, MaxWait: time.Minute}

func TestSubmit_SendsThePlanAndClearsEveryDraft(t *testing.T) {
	for _, hk := range hosts {
		t.Run(hk.name, func(t *testing.T) {
			w := newWorld(t, hk, forge.RetryPolicy{})
			drafts := w.commentFixture()
			plan := w.plan(forge.EventApprove, "Looks good.")

			want := []app.FileCount{{Path: "main.go", Comments: 3}, {Path: "notes.txt", Comments: 1}}
			if d := cmp.Diff(want, plan.Files); d != "" {
				t.Errorf("per-file counts (-want +got):\n%s", d)
			}
			if plan.Change.HeadSHA != forgetest.FixtureHead || plan.Change.Title != "Greet the world" || plan.Resume || plan.Empty() {
				t.Errorf("plan = %+v", plan)
			}
			if len(plan.Orphans)+len(plan.OffDiff)+len(plan.Deferred)+len(plan.Reconciled) != 0 {
				t.Errorf("plan keeps drafts back: %+v", plan)
			}
			if c := plan.Comments[3]; c.Path != "notes.txt" || c.OldPath != "old.txt" || c.End != 20 {
				t.Errorf("the renamed file's comment is planned as %+v", c)
			}

			res, err := w.submitter().Submit(w.ctx, plan)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Done || len(res.Cleared) != 4 || res.Remaining != 0 || len(res.Rejected) != 0 {
				t.Errorf("result = %+v", res)
			}
			if left := w.draftIDs(); len(left) != 0 {
				t.Errorf("drafts left: %v", left)
			}
			w.exactlyOnce(drafts)
			// GitHub holds one approving review with the summary; GitLab the
			// summary as a note, then the approval.
			verdicts := w.host.Verdicts(w.ref)
			if approvals(verdicts) != 1 || !strings.HasPrefix(verdicts[0].Body, "Looks good.") {
				t.Errorf("verdicts = %+v", verdicts)
			}
			// The next plan has nothing left to send and no review to finish.
			if next := w.plan(forge.EventComment, ""); !next.Empty() || next.Marker == plan.Marker {
				t.Errorf("after a finished submit the plan is %+v", next)
			}
		})
	}
}

func TestSubmit_LostAnswerIsReconciledAndTheReviewIsNotSentTwice(t *testing.T) {
	for _, hk := range hosts {
		t.Run(hk.name, func(t *testing.T) {
			w := newWorld(t, hk, oneTry)
			drafts := w.commentFixture()
			plan := w.plan(forge.EventApprove, "Approved with notes.")
			// The first write reaches the host, which acts on it and drops
			// the connection before answering.
			w.host.Inject(forgetest.Fault{Kind: forgetest.FaultDropAfterCommit, Method: "POST", Nth: 1 + posts(w.host)})
			_, err := w.submitter().Submit(w.ctx, plan)
			var he *forge.HostError
			if !errors.As(err, &he) || !he.Uncertain {
				t.Fatalf("Submit = %v, want an uncertain host error", err)
			}

			for i := range 8 {
				again := w.plan(forge.EventApprove, "Approved with notes.")
				if again.Marker != plan.Marker {
					t.Fatalf("the retry minted marker %s; the review is %s", again.Marker, plan.Marker)
				}
				// GitHub took the whole review at once: the retry finds it,
				// clears every draft and only finishes it.
				if i == 0 && hk.name == "github" && (!again.Resume || len(again.Reconciled) != 4 || len(again.Comments) != 0) {
					t.Errorf("retry plan: resume %v, reconciled %v, comments %d", again.Resume, again.Reconciled, len(again.Comments))
				}
				if _, err = w.submitter().Submit(w.ctx, again); err == nil {
					break
				}
			}
			if err != nil {
				t.Fatalf("still failing: %v", err)
			}
			w.exactlyOnce(drafts)
			if left := w.draftIDs(); len(left) != 0 {
				t.Errorf("drafts left: %v", left)
			}
			if v := w.host.Verdicts(w.ref); approvals(v) != 1 {
				t.Errorf("verdicts = %+v: want one approval", v)
			}
		})
	}
}

func approvals(vs []forgetest.Verdict) int {
	n := 0
	for _, v := range vs {
		if v.Event == forge.EventApprove {
			n++
		}
	}
	return n
}

// posts counts the POST requests the host has had, so a fault can name
// the next one.
func posts(h forgetest.Host) int {
	n := 0
	for _, r := range h.Requests() {
		if strings.HasPrefix(r, "POST ") {
			n++
		}
	}
	return n
}

func TestSubmit_PartialFailureClearsWhatTheHostTookAndTheRetrySendsTheRest(t *testing.T) {
	// Without draft notes GitLab takes each comment on its own, so a
	// failure part way leaves some on the host and some not.
	w := newWorld(t, hosts[2], oneTry)
	drafts := w.commentFixture()
	plan := w.plan(forge.EventComment, "")
	w.host.Inject(forgetest.Fault{Kind: forgetest.FaultServerError, Method: "POST", Nth: 3 + posts(w.host)})
	res, err := w.submitter().Submit(w.ctx, plan)
	if err == nil {
		t.Fatal("Submit succeeded through a 500")
	}
	if d := cmp.Diff([]string{plan.Comments[0].DraftID, plan.Comments[1].DraftID}, res.Cleared); d != "" {
		t.Errorf("cleared (-want +got):\n%s", d)
	}
	if left := w.draftIDs(); len(left) != 2 || res.Remaining != 2 {
		t.Errorf("drafts left %v, result %+v", left, res)
	}
	retry := w.plan(forge.EventComment, "")
	if len(retry.Comments) != 2 || retry.Marker != plan.Marker {
		t.Errorf("the retry plans %d comments under %s", len(retry.Comments), retry.Marker)
	}
	if _, err := w.submitter().Submit(w.ctx, retry); err != nil {
		t.Fatal(err)
	}
	w.exactlyOnce(drafts)
}

func TestSubmit_HeadMovedAfterPlanningSendsNothingAndThePlanIsMadeAgain(t *testing.T) {
	for _, hk := range hosts[:2] {
		t.Run(hk.name, func(t *testing.T) {
			w := newWorld(t, hk, forge.RetryPolicy{})
			w.commentFixture()
			plan := w.plan(forge.EventComment, "Notes.")
			// A push that only renumbers main.go: two lines added on top.
			moved := strings.Replace(string(forgetest.FixturePatch()), "@@ -5,9 +5,13 @@ import (\n \t\"os\"\n )\n",
				"@@ -5,9 +5,15 @@ import (\n \t\"os\"\n )\n+\n+// Package main greets.\n", 1)
			moved = strings.Replace(moved, "@@ -23,8 +27,9 @@", "@@ -23,8 +29,9 @@", 1)
			w.host.Push(w.ref, "7777777777777777777777777777777777777777", []byte(moved))

			_, err := w.submitter().Submit(w.ctx, plan)
			if !errors.Is(err, forge.ErrHeadMoved) {
				t.Fatalf("Submit = %v, want ErrHeadMoved", err)
			}
			if n := len(w.onHost()); n != 0 {
				t.Errorf("%d comments went up against the old head", n)
			}
			if left := w.draftIDs(); len(left) != 4 {
				t.Errorf("drafts left: %v", left)
			}
			again := w.plan(forge.EventComment, "Notes.")
			if again.Change.HeadSHA != "7777777777777777777777777777777777777777" || len(again.Comments) != 4 {
				t.Fatalf("re-plan: head %s, %d comments, orphans %+v", again.Change.HeadSHA, len(again.Comments), again.Orphans)
			}
			if c := planned(t, again, plan.Comments[1].DraftID); c.End != 11 || c.Side != changeset.SideNew || c.Rung != changeset.RungMoved {
				t.Errorf("the added-line draft is planned at %+v, want new line 11, moved", c)
			}
			if _, err := w.submitter().Submit(w.ctx, again); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// planned returns the planned comment of draft id.
func planned(t *testing.T, p app.Plan, id string) app.PlannedComment {
	t.Helper()
	for _, c := range p.Comments {
		if c.DraftID == id {
			return c
		}
	}
	t.Fatalf("draft %s is not planned: %+v", id, p.Comments)
	return app.PlannedComment{}
}

func TestSubmit_DraftEditedAfterPlanningIsStale(t *testing.T) {
	w := newWorld(t, hosts[0], forge.RetryPolicy{})
	d := w.comment("main.go", changeset.SideNew, 9, 0, "first words")
	plan := w.plan(forge.EventComment, "")
	w.clock.Advance(time.Minute)
	book, _, err := app.LoadDraftBook(w.ctx, w.drafts, w.info, w.clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	d.Body, d.Updated = "second thoughts", w.clock.Now()
	if err := book.Put(w.ctx, d); err != nil {
		t.Fatal(err)
	}
	if _, err := w.submitter().Submit(w.ctx, plan); !errors.Is(err, app.ErrPlanStale) {
		t.Fatalf("Submit = %v, want ErrPlanStale", err)
	}
	if n := len(w.onHost()); n != 0 {
		t.Errorf("%d comments sent from a stale plan", n)
	}
}

func TestPlanSubmission_OrphansAndOffDiffDraftsStayBehind(t *testing.T) {
	w := newWorld(t, hosts[0], forge.RetryPolicy{})
	kept := w.comment("main.go", changeset.SideNew, 9, 0, "stays on its line")
	orphan := w.comment("main.go", changeset.SideNew, 30, 0, "about the empty name")
	// A force-push that rewrites the line the second draft is on.
	moved := strings.Replace(string(forgetest.FixturePatch()), "+\tname := \"\"\n", "+\tname := defaultName\n", 1)
	w.host.Push(w.ref, "8888888888888888888888888888888888888888", []byte(moved))

	plan := w.plan(forge.EventRequestChanges, "See inline.")
	if len(plan.Comments) != 1 || plan.Comments[0].DraftID != kept.ID {
		t.Errorf("comments = %+v", plan.Comments)
	}
	if len(plan.Orphans) != 1 || plan.Orphans[0].ID != orphan.ID {
		t.Errorf("orphans = %+v", plan.Orphans)
	}
	if _, err := w.submitter().Submit(w.ctx, plan); err != nil {
		t.Fatal(err)
	}
	if left := w.draftIDs(); len(left) != 1 || left[0] != orphan.ID {
		t.Errorf("drafts left %v, want only the orphan", left)
	}
	if on := w.onHost(); on[kept.ID] != 1 || on[orphan.ID] != 0 {
		t.Errorf("on the host: %v", on)
	}
}

func TestPlanSubmission_InvalidEventIsRefused(t *testing.T) {
	w := newWorld(t, hosts[0], forge.RetryPolicy{})
	_, err := w.submitter().PlanSubmission(w.ctx, app.SubmitRequest{})
	if !errors.Is(err, app.ErrInvalid) {
		t.Errorf("err = %v, want ErrInvalid", err)
	}
}

func TestSubmit_ResumingAReviewTheHostHoldsKeepsNewDraftsForTheNextOne(t *testing.T) {
	w := newWorld(t, hosts[0], oneTry)
	first := w.commentFixture()
	plan := w.plan(forge.EventApprove, "Approved.")
	w.host.Inject(forgetest.Fault{Kind: forgetest.FaultDropAfterCommit, Method: "POST", Nth: 1 + posts(w.host)})
	if _, err := w.submitter().Submit(w.ctx, plan); err == nil {
		t.Fatal("the lost answer went unnoticed")
	}
	later := w.comment("version.go", changeset.SideNew, 3, 0, "Bump to 1.1.")

	resume := w.plan(forge.EventComment, "ignored: the review is already on the host")
	if !resume.Resume || resume.Event != forge.EventApprove || resume.Body != "Approved." || len(resume.Comments) != 0 {
		t.Fatalf("resume plan = %+v", resume)
	}
	if len(resume.Deferred) != 1 || resume.Deferred[0].ID != later.ID {
		t.Errorf("deferred = %+v, want the draft written since", resume.Deferred)
	}
	if res, err := w.submitter().Submit(w.ctx, resume); err != nil || !res.Done || res.Remaining != 1 {
		t.Fatalf("finishing: %+v, %v", res, err)
	}

	next := w.plan(forge.EventComment, "One more.")
	if next.Resume || next.Marker == plan.Marker || len(next.Comments) != 1 || next.Comments[0].DraftID != later.ID {
		t.Fatalf("next plan = %+v", next)
	}
	if _, err := w.submitter().Submit(w.ctx, next); err != nil {
		t.Fatal(err)
	}
	w.exactlyOnce(append(first, later))
	if v := w.host.Verdicts(w.ref); approvals(v) != 1 || len(v) != 2 {
		t.Errorf("verdicts = %+v, want the approval then the comment review", v)
	}
}
