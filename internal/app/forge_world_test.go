package app_test

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
	"github.com/leanreview/leanreview/internal/forge/gitlab"
	"github.com/leanreview/leanreview/internal/session"
	"github.com/leanreview/leanreview/internal/store"
)

// world is one pull or merge request on a fake host, the real adapter in
// front of it, and the stores a reviewer's machine keeps.
type world struct {
	t     *testing.T
	ctx   context.Context
	host  forgetest.Host
	ref   forge.Ref
	forge forge.Forge
	clock *forgetest.Clock
	info  app.SourceInfo
	n     int // ids handed out

	drafts, submissions, seen *store.Dir
}

type hostKind struct {
	name string
	new  func(t *testing.T, now func() time.Time) forgetest.Host
}

var hosts = []hostKind{
	{"github", func(t *testing.T, now func() time.Time) forgetest.Host {
		return forgetest.NewGitHub(t, forgetest.GitHubOptions{Now: now})
	}},
	{"gitlab", func(t *testing.T, now func() time.Time) forgetest.Host {
		return forgetest.NewGitLab(t, forgetest.GitLabOptions{Now: now})
	}},
	{"gitlab-without-draft-notes", func(t *testing.T, now func() time.Time) forgetest.Host {
		return forgetest.NewGitLab(t, forgetest.GitLabOptions{Now: now, NoDraftNotes: true})
	}},
}

// newWorld seeds the fixture change on a fresh host. retry is the
// adapter's policy; its sleeps are instant on the fake clock.
func newWorld(t *testing.T, hk hostKind, retry forge.RetryPolicy) *world {
	t.Helper()
	clock := forgetest.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	h := hk.new(t, clock.Now)
	repo := "acme/greeter"
	if h.Kind() == forge.KindGitLab {
		repo = forgetest.FixtureRepo
	}
	ref := h.Seed(forgetest.ChangeSeed{Repo: repo, Number: 7, Title: "Greet the world", Base: forgetest.FixtureBase,
		Head: forgetest.FixtureHead, Patch: forgetest.FixturePatch()})
	w := &world{t: t, ctx: context.Background(), host: h, ref: ref, clock: clock,
		info: app.SourceInfo{Kind: h.Kind().String(), Key: h.Kind().String() + "-test", Label: ref.String()}}
	w.forge = w.adapter(h.Token(), retry)
	dir := t.TempDir()
	for name, d := range map[string]**store.Dir{"drafts": &w.drafts, "submissions": &w.submissions, "seen": &w.seen} {
		var err error
		if *d, err = store.New(filepath.Join(dir, name), 1); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *world) adapter(token string, retry forge.RetryPolicy) forge.Forge {
	w.t.Helper()
	var f forge.Forge
	var err error
	if w.host.Kind() == forge.KindGitHub {
		f, err = github.New(github.Options{BaseURL: w.host.URL(), Token: token, HTTPClient: w.host.Client(),
			Sleeper: w.clock, Now: w.clock.Now, Retry: retry})
	} else {
		f, err = gitlab.New(gitlab.Options{BaseURL: w.host.URL(), Token: token, HTTPClient: w.host.Client(),
			Sleeper: w.clock, Now: w.clock.Now, Retry: retry})
	}
	if err != nil {
		w.t.Fatal(err)
	}
	return f
}

func (w *world) newID() string {
	w.n++
	return fmt.Sprintf("d%03d", w.n)
}

// Patch reads the change through the adapter, as the pull request source
// does.
func (w *world) Patch(ctx context.Context) ([]byte, error) {
	ch, err := w.forge.Change(ctx, w.ref)
	return ch.Patch, err
}

// comment writes a draft against the change as it is now.
func (w *world) comment(path string, side changeset.Side, start, end int, body string) session.Draft {
	w.t.Helper()
	r, _, err := app.OpenReview(w.ctx, w.info, w, app.Deps{Documents: w.drafts, Now: w.clock.Now, NewID: w.newID})
	if err != nil {
		w.t.Fatal(err)
	}
	d, err := r.Comment(w.ctx, app.LineRef{Path: path, Side: side, Start: start, End: end}, body)
	if err != nil {
		w.t.Fatalf("comment on %s:%d: %v", path, start, err)
	}
	return d
}

// commentFixture writes four drafts: an added line, a removed line, a
// range and a line of a renamed file.
func (w *world) commentFixture() []session.Draft {
	return []session.Draft{
		w.comment("main.go", changeset.SideNew, 9, 0, "Say which world."),
		w.comment("main.go", changeset.SideOld, 8, 0, "The old comment was fine."),
		w.comment("main.go", changeset.SideNew, 11, 14, "Simplify this block."),
		w.comment("notes.txt", changeset.SideNew, 20, 0, "Twenty in words?"),
	}
}

func (w *world) submitter() *app.Submitter {
	return app.NewSubmitter(app.SubmitDeps{Forge: w.forge, Ref: w.ref, Source: w.info, Drafts: w.drafts,
		Submissions: w.submissions, Seen: w.seen, Now: w.clock.Now, NewID: w.newID})
}

func (w *world) conversation() *app.Conversation {
	return app.NewConversation(app.ConversationDeps{Forge: w.forge, Ref: w.ref, Source: w.info, Seen: w.seen,
		Drafts: w.drafts, Now: w.clock.Now, NewID: w.newID})
}

func (w *world) plan(ev forge.Event, body string) app.Plan {
	w.t.Helper()
	p, err := w.submitter().PlanSubmission(w.ctx, app.SubmitRequest{Event: ev, Body: body})
	if err != nil {
		w.t.Fatalf("PlanSubmission: %v", err)
	}
	return p
}

// draftIDs lists the drafts left on this machine.
func (w *world) draftIDs() []string {
	w.t.Helper()
	book, _, err := app.LoadDraftBook(w.ctx, w.drafts, w.info, w.clock.Now)
	if err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, d := range book.Drafts() {
		out = append(out, d.ID)
	}
	return out
}

// onHost counts the published comments on the host by marker.
func (w *world) onHost() map[string]int {
	n := map[string]int{}
	for _, c := range w.host.Posted(w.ref) {
		if m := forge.MarkerOf(c.Body); m != "" && !c.Pending {
			n[m]++
		}
	}
	return n
}

// exactlyOnce fails the test unless each draft is on the host once.
func (w *world) exactlyOnce(drafts []session.Draft) {
	w.t.Helper()
	on := w.onHost()
	for _, d := range drafts {
		if on[d.ID] != 1 {
			w.t.Errorf("draft %s (%q) is on the host %d times", d.ID, d.Body, on[d.ID])
		}
	}
}
