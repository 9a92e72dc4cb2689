package app_test

import (
	"context"
	"errors"
	"testing"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/forge"
)

// heldForge holds the first Submit inside the host call until released,
// as a slow network would, so a second submission can race it.
type heldForge struct {
	forge.Forge
	entered, release chan struct{}
}

func (h *heldForge) Submit(ctx context.Context, ref forge.Ref, r forge.Review) (forge.SubmitResult, error) {
	if h.entered != nil {
		close(h.entered)
		h.entered = nil
		<-h.release
	}
	return h.Forge.Submit(ctx, ref, r)
}

func TestSubmit_ASecondSubmissionWhileOneIsInFlightSendsNothing(t *testing.T) {
	for _, hk := range hosts {
		t.Run(hk.name, func(t *testing.T) {
			w := newWorld(t, hk, forge.RetryPolicy{})
			drafts := w.commentFixture()
			first, second := w.plan(forge.EventComment, "First."), w.plan(forge.EventComment, "Second.")
			if first.Marker == second.Marker {
				t.Fatalf("two fresh plans share marker %s", first.Marker)
			}
			held := &heldForge{Forge: w.forge, entered: make(chan struct{}), release: make(chan struct{})}
			slow := app.NewSubmitter(app.SubmitDeps{Forge: held, Ref: w.ref, Source: w.info, Drafts: w.drafts,
				Submissions: w.submissions, Seen: w.seen, Now: w.clock.Now, NewID: w.newID})
			done := make(chan error, 1)
			go func() {
				_, err := slow.Submit(w.ctx, first)
				done <- err
			}()
			<-held.entered

			_, err := w.submitter().Submit(w.ctx, second)
			if !errors.Is(err, app.ErrPlanStale) {
				t.Fatalf("second submit while the first is in flight: err = %v, want ErrPlanStale", err)
			}
			close(held.release)
			if err := <-done; err != nil {
				t.Fatalf("first submit: %v", err)
			}
			w.exactlyOnce(drafts)
			if left := w.draftIDs(); len(left) != 0 {
				t.Errorf("drafts left: %v", left)
			}
		})
	}
}
