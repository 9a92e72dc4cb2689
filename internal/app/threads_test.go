package app_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
)

// authorToken is the token of the fakes' author user, who writes the
// threads a reviewer reads. The fake GitHub's is its documented constant.
func authorToken(h forgetest.Host) string {
	if gl, ok := h.(*forgetest.GitLab); ok {
		return gl.AuthorToken()
	}
	return "ghp_fakeAuthorToken00000000000000000000"
}

func TestConversation_ThreadsArePlacedAndNewUntilSeen(t *testing.T) {
	for _, hk := range hosts[:2] {
		t.Run(hk.name, func(t *testing.T) {
			w := newWorld(t, hk, forge.RetryPolicy{})
			w.host.SeedThread(w.ref, forgetest.ThreadSeed{Path: "main.go", Side: changeset.SideNew, Line: 9, Body: "Which world?", Replies: []string{"This one."}})
			w.host.SeedThread(w.ref, forgetest.ThreadSeed{Path: "notes.txt", Side: changeset.SideNew, Line: 20, Body: "Words or digits?"})
			conv := w.conversation()
			patch, err := w.Patch(w.ctx)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := changeset.ParseBytes(patch)
			if err != nil {
				t.Fatal(err)
			}
			threads, err := conv.Threads(w.ctx, cs)
			if err != nil {
				t.Fatal(err)
			}
			type view struct {
				Path     string
				Hunk     int
				New      bool
				Comments int
			}
			var got []view
			for _, th := range threads {
				got = append(got, view{th.Path, th.Hunk, th.New, len(th.Comments)})
			}
			want := []view{{"main.go", 0, true, 2}, {"notes.txt", 0, true, 1}}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("threads (-want +got):\n%s", d)
			}
			check(t, w, conv, 2)

			// The screen showed the first thread only.
			if err := conv.MarkThreadsSeen(w.ctx, []forge.Thread{threads[0].Thread}); err != nil {
				t.Fatal(err)
			}
			check(t, w, conv, 1)
			if err := conv.MarkThreadsSeen(w.ctx, []forge.Thread{threads[0].Thread, threads[1].Thread}); err != nil {
				t.Fatal(err)
			}
			check(t, w, conv, 0)

			// The reader's own reply is not news; the author's answer is.
			if _, err := conv.StageReply(w.ctx, threads[0].Thread, "Thanks."); err != nil {
				t.Fatal(err)
			}
			if _, err := w.submitter().Submit(w.ctx, w.plan(forge.EventComment, "")); err != nil {
				t.Fatal(err)
			}
			check(t, w, conv, 0)
			author := w.adapter(authorToken(w.host), forge.RetryPolicy{})
			if _, err := author.Reply(w.ctx, w.ref, forge.Reply{MarkerID: "theirs-1", ThreadID: threads[1].ReplyTo, Body: "Digits."}); err != nil {
				t.Fatal(err)
			}
			if res := check(t, w, conv, 1); res.New[0].ID != threads[1].ID {
				t.Errorf("new thread %s, want %s", res.New[0].ID, threads[1].ID)
			}
		})
	}
}

// check runs CheckReview and fails the test unless it finds want new
// threads.
func check(t *testing.T, w *world, conv *app.Conversation, want int) app.CheckResult {
	t.Helper()
	res, err := conv.CheckReview(w.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.New) != want {
		t.Fatalf("CheckReview found %d new of %d threads, want %d: %+v", len(res.New), res.Total, want, res.New)
	}
	return res
}

func TestConversation_StagedReplyIsPostedAfterTheReviewExactlyOnce(t *testing.T) {
	for _, hk := range hosts {
		t.Run(hk.name, func(t *testing.T) {
			w := newWorld(t, hk, oneTry)
			w.host.SeedThread(w.ref, forgetest.ThreadSeed{Path: "main.go", Side: changeset.SideNew, Line: 9, Body: "Which world?"})
			conv := w.conversation()
			threads, err := conv.Threads(w.ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if threads[0].Hunk != -1 {
				t.Errorf("placed on hunk %d without a changeset", threads[0].Hunk)
			}
			reply, err := conv.StageReply(w.ctx, threads[0].Thread, "The whole world.")
			if err != nil {
				t.Fatal(err)
			}
			drafts := append(w.commentFixture(), reply)
			plan := w.plan(forge.EventComment, "")
			if len(plan.Replies) != 1 || plan.Replies[0].ThreadID != threads[0].ReplyTo {
				t.Fatalf("replies = %+v", plan.Replies)
			}
			// The reply's answer is lost after the host took it.
			w.host.Inject(forgetest.Fault{Kind: forgetest.FaultDropAfterCommit, Method: "POST", Nth: posts(w.host) + lastPost(hk)})
			for range 4 {
				if _, err = w.submitter().Submit(w.ctx, w.plan(forge.EventComment, "")); err == nil {
					break
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if fired := w.host.Fired(); len(fired) != 1 {
				t.Errorf("faults fired: %v", fired)
			}
			w.exactlyOnce(drafts)
			if left := w.draftIDs(); len(left) != 0 {
				t.Errorf("drafts left: %v", left)
			}
		})
	}
}

// lastPost is which POST of a fixture submission carries the reply: after
// one review on GitHub; after four drafts on GitLab, which publishes them
// with the reply in one go; fifth of five discussions without drafts.
func lastPost(hk hostKind) int {
	if hk.name == "github" {
		return 2
	}
	return 5
}

func TestConversation_StageReplyRefusesWhatCannotBeSent(t *testing.T) {
	w := newWorld(t, hosts[0], forge.RetryPolicy{})
	conv := w.conversation()
	if _, err := conv.StageReply(w.ctx, forge.Thread{ID: "issuecomment-1"}, "hi"); !errors.Is(err, app.ErrInvalid) {
		t.Errorf("reply to a conversation comment: %v", err)
	}
	if _, err := conv.StageReply(w.ctx, forge.Thread{ID: "1", ReplyTo: "1"}, "  \n"); !errors.Is(err, app.ErrInvalid) {
		t.Errorf("empty reply: %v", err)
	}
	if _, err := app.FindThread(nil, "9"); !errors.Is(err, app.ErrNotFound) {
		t.Errorf("FindThread: %v", err)
	}
}
