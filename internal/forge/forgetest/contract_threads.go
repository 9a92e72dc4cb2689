package forgetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
)

// diffLines lists lines of the fixture that threads can sit on.
var diffLines = []struct {
	path string
	side changeset.Side
	line int
}{
	{"main.go", changeset.SideNew, 8}, {"main.go", changeset.SideNew, 11}, {"main.go", changeset.SideOld, 10},
	{"main.go", changeset.SideNew, 33}, {"notes.txt", changeset.SideNew, 20}, {"version.go", changeset.SideNew, 3},
}

func (c Contract) testThreads(t *testing.T) {
	s := c.setup(t, forge.RetryPolicy{})
	const n = 130
	ids := make([]string, n)
	for i := range n {
		at := diffLines[i%len(diffLines)]
		var replies []string
		if i%10 == 0 {
			replies = []string{fmt.Sprintf("reply %d.1", i), fmt.Sprintf("reply %d.2", i)}
		}
		ids[i] = s.host.SeedThread(s.ref, ThreadSeed{Path: at.path, Side: at.side, Line: at.line, Body: fmt.Sprintf("thread %d", i), Replies: replies})
	}
	// Resolved threads on every page, past 100 included (101, 129).
	resolved := func(i int) bool { return i%7 == 3 }
	for i := range n {
		if resolved(i) {
			s.host.Resolve(s.ref, ids[i])
		}
	}
	threads, err := s.forge.Threads(context.Background(), s.ref)
	if err != nil {
		t.Fatal(err)
	}
	if len(threads) != n {
		t.Fatalf("got %d threads, want %d (every page read)", len(threads), n)
	}
	for i, th := range threads {
		at := diffLines[i%len(diffLines)]
		wantComments := 1
		if i%10 == 0 {
			wantComments = 3
		}
		got := fmt.Sprintf("%s %s:%d %v %d %q by %s", th.ID, th.Path, th.Line, th.Side, len(th.Comments), th.Comments[0].Body, th.Comments[0].Author)
		want := fmt.Sprintf("%s %s:%d %v %d %q by %s", ids[i], at.path, at.line, at.side, wantComments, fmt.Sprintf("thread %d", i), "author")
		if got != want {
			t.Errorf("thread %d = %s\n           want %s", i, got, want)
		}
		if th.ReplyTo == "" || th.Outdated || th.Resolved != resolved(i) {
			t.Errorf("thread %d: ReplyTo %q, Outdated %v, Resolved %v (want %v)", i, th.ReplyTo, th.Outdated, th.Resolved, resolved(i))
		}
	}
	if got := threads[0].Comments[2].Body; got != "reply 0.2" {
		t.Errorf("replies out of order: %q", got)
	}
}

func (c Contract) testResolved(t *testing.T) {
	s := c.setup(t, forge.RetryPolicy{})
	var ids []string
	for i, at := range diffLines[:3] {
		ids = append(ids, s.host.SeedThread(s.ref, ThreadSeed{Path: at.path, Side: at.side, Line: at.line, Body: fmt.Sprintf("thread %d", i),
			Replies: []string{"a reply"}}))
	}
	s.host.Resolve(s.ref, ids[1])
	wantResolved(t, s, []bool{false, true, false})
	// A thread resolved since the last read reads resolved on the next.
	s.host.Resolve(s.ref, ids[2])
	wantResolved(t, s, []bool{false, true, true})
}

// wantResolved reads the threads of s and compares their resolved state.
func wantResolved(t *testing.T, s *setup, want []bool) {
	t.Helper()
	threads, err := s.forge.Threads(context.Background(), s.ref)
	if err != nil {
		t.Fatal(err)
	}
	var got []bool
	for _, th := range threads {
		got = append(got, th.Resolved)
		if len(th.Comments) != 2 || th.Outdated {
			t.Errorf("thread %s: %d comments, Outdated %v", th.ID, len(th.Comments), th.Outdated)
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("resolved (-want +got):\n%s", d)
	}
}

func (c Contract) testNoResolvedState(t *testing.T) {
	if c.NewHostWithoutResolvedState == nil {
		t.Skip("every host of this family says whether a thread is resolved")
	}
	clock := NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	h := c.NewHostWithoutResolvedState(t, clock.Now)
	ref := h.Seed(ChangeSeed{Repo: fixtureRepo(h.Kind()), Number: 7, Title: "Greet the world", Base: FixtureBase, Head: FixtureHead, Patch: FixturePatch()})
	f := c.NewForge(t, h, ForgeConfig{Token: h.Token(), Sleeper: clock, Now: clock.Now})
	s := &setup{t: t, host: h, ref: ref, clock: clock, forge: f}
	var ids []string
	for i, at := range diffLines[:2] {
		ids = append(ids, h.SeedThread(ref, ThreadSeed{Path: at.path, Side: at.side, Line: at.line, Body: fmt.Sprintf("thread %d", i),
			Replies: []string{"a reply"}}))
	}
	h.Resolve(ref, ids[0])
	// Twice: the second read must not fail either.
	wantResolved(t, s, []bool{false, false})
	wantResolved(t, s, []bool{false, false})
	if len(clock.Sleeps()) != 0 {
		t.Errorf("slept %v: an absent API is not retried", clock.Sleeps())
	}
}
