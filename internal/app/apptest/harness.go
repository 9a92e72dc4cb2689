package apptest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/session"
)

func newHarness(t *testing.T, open Factory) *harness {
	t.Helper()
	env := Env{
		Info:     app.SourceInfo{Kind: "file", Key: "patch-apptest", Label: "calc-v1.diff"},
		Source:   NewSource(V1),
		StateDir: t.TempDir(),
		Deps:     app.Deps{Now: Clock(), NewID: IDs("d")},
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &harness{t: t, ctx: ctx, env: env, open: open, Surfaces: open(t, env)}
}

// reopen opens the review again over the same stores, as a restart does.
func (h *harness) reopen() Surfaces {
	h.t.Helper()
	return h.open(h.t, h.env)
}

func (h *harness) snap(svc app.Service) *app.Snapshot {
	h.t.Helper()
	s, err := svc.Snapshot(h.ctx)
	if err != nil {
		h.t.Fatalf("Snapshot: %v", err)
	}
	return s
}

func (h *harness) comment(svc app.Service, actor session.Actor, ref app.LineRef, body string) session.Placed {
	h.t.Helper()
	p, err := svc.Comment(h.ctx, actor, app.CommentRequest{Ref: ref, Body: body})
	if err != nil {
		h.t.Fatalf("Comment as the %s: %v", actor, err)
	}
	return p
}

// draft returns the placed draft id of snap, failing the test without one.
func (h *harness) draft(snap *app.Snapshot, id string) session.Placed {
	h.t.Helper()
	for _, d := range snap.Drafts {
		if d.ID == id {
			return d
		}
	}
	h.t.Fatalf("no draft %s in %+v", id, snap.Drafts)
	return session.Placed{}
}

// wantErr fails unless err matches target (errors.Is).
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: err = %v, want %v", what, err, target)
	}
}

// awaitEvent reads ch until an event satisfying ok arrives, failing after
// five seconds.
func awaitEvent(t *testing.T, ch <-chan app.Event, ok func(app.Event) bool) app.Event {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case ev, open := <-ch:
			if !open {
				t.Fatal("the event stream closed")
			}
			if ok(ev) {
				return ev
			}
		case <-deadline:
			t.Fatal("no matching event within 5s")
		}
	}
}
