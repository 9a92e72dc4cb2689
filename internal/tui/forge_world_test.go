package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
	"github.com/leanreview/leanreview/internal/forge/github"
	"github.com/leanreview/leanreview/internal/session"
	"github.com/leanreview/leanreview/internal/store"
)

// forgeWorld is a pull request on the fake GitHub (forgetest, which checks
// every request against GitHub's OpenAPI description), the real adapter in
// front of it, and the stores a reviewer's machine keeps: the UI is tested
// against the real app.Local, app.Conversation and app.Submitter.
type forgeWorld struct {
	t     *testing.T
	host  *forgetest.GitHub
	ref   forge.Ref
	forge forge.Forge
	clock *forgetest.Clock
	info  app.SourceInfo
	n     int

	drafts, viewed, submissions, seen *store.Dir
}

func newForgeWorld(t *testing.T) *forgeWorld {
	t.Helper()
	clock := forgetest.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	host := forgetest.NewGitHub(t, forgetest.GitHubOptions{Now: clock.Now})
	ref := host.Seed(forgetest.ChangeSeed{Repo: "acme/greeter", Number: 7, Title: "Greet the world",
		Base: forgetest.FixtureBase, Head: forgetest.FixtureHead, Patch: forgetest.FixturePatch()})
	w := &forgeWorld{t: t, host: host, ref: ref, clock: clock,
		info: app.SourceInfo{Kind: "github", Key: "github-acme-greeter-7", Label: ref.String()}}
	f, err := github.New(github.Options{BaseURL: host.URL(), Token: host.Token(), HTTPClient: host.Client(),
		Sleeper: clock, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	w.forge = f
	dir := t.TempDir()
	for name, d := range map[string]**store.Dir{"drafts": &w.drafts, "viewed": &w.viewed, "submissions": &w.submissions, "seen": &w.seen} {
		if *d, err = store.New(filepath.Join(dir, name), 1); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *forgeWorld) newID() string {
	w.n++
	return fmt.Sprintf("d%03d", w.n)
}

// Patch reads the pull request's diff through the adapter, as the pull
// request source does.
func (w *forgeWorld) Patch(ctx context.Context) ([]byte, error) {
	ch, err := w.forge.Change(ctx, w.ref)
	return ch.Patch, err
}

// thread seeds a thread by the pull request's author.
func (w *forgeWorld) thread(path string, side changeset.Side, line int, body string, replies ...string) {
	w.host.SeedThread(w.ref, forgetest.ThreadSeed{Path: path, Side: side, Line: line, Body: body, Replies: replies})
}

func (w *forgeWorld) conversation() *app.Conversation {
	return app.NewConversation(app.ConversationDeps{Forge: w.forge, Ref: w.ref, Source: w.info, Seen: w.seen,
		Drafts: w.drafts, Now: w.clock.Now, NewID: w.newID})
}

func (w *forgeWorld) submitter() *app.Submitter {
	return app.NewSubmitter(app.SubmitDeps{Forge: w.forge, Ref: w.ref, Source: w.info, Drafts: w.drafts,
		Submissions: w.submissions, Seen: w.seen, Now: w.clock.Now, NewID: w.newID})
}

// open starts the UI on the pull request at 80x24 (or o's size).
func (w *forgeWorld) open(o harnessOpts) *harness {
	w.t.Helper()
	svc, err := app.NewLocal(context.Background(), app.LocalDeps{
		Deps: app.Deps{Documents: w.drafts, Now: w.clock.Now, NewID: w.newID},
		Info: w.info, Source: w, Viewed: w.viewed,
	})
	if err != nil {
		w.t.Fatal(err)
	}
	o.svc, o.threads, o.submitter = svc, w.conversation(), w.submitter()
	o.patch = w.info.Label
	return newHarness(w.t, o)
}

// comment writes a human draft through the service, as c does.
func (h *harness) comment(path string, side changeset.Side, line int, body string) session.Placed {
	h.t.Helper()
	p, err := h.svc.Comment(context.Background(), session.ActorHuman, app.CommentRequest{
		Ref: app.LineRef{Path: path, Side: side, Start: line, End: line}, Body: body})
	if err != nil {
		h.t.Fatal(err)
	}
	h.changed()
	return p
}
