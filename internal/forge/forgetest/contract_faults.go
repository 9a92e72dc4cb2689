package forgetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/leanreview/leanreview/internal/forge"
)

func (c Contract) testReconcile(t *testing.T) {
	// One try only, so the lost answer surfaces instead of being retried.
	s := c.setup(t, forge.RetryPolicy{Attempts: 1, Base: time.Second, Max: time.Second, MaxWait: time.Minute})
	s.host.Inject(Fault{Kind: FaultDropAfterCommit, Method: "POST", Nth: 1})
	comments := fixtureComments()[:3]
	rv := s.review("r-lost", forge.EventComment, "Lost answer.", comments...)
	res, err := s.forge.Submit(context.Background(), s.ref, rv)
	var he *forge.HostError
	if !errors.As(err, &he) || !he.Uncertain || !errors.Is(err, forge.ErrUnavailable) {
		t.Fatalf("Submit = %v, want an uncertain ErrUnavailable", err)
	}
	if len(res.Accepted) != 0 {
		t.Errorf("accepted %v although no answer arrived", res.Accepted)
	}
	posted, err := s.forge.Reconcile(context.Background(), s.ref)
	if err != nil {
		t.Fatal(err)
	}
	if len(posted) == 0 {
		t.Fatal("Reconcile found nothing the lost answer left behind")
	}
	for _, p := range posted {
		if !slices.Contains([]string{"r-lost", "c-added", "c-removed", "c-context-old"}, p.MarkerID) {
			t.Errorf("Reconcile found unknown marker %q", p.MarkerID)
		}
	}
	res, err = s.forge.Submit(context.Background(), s.ref, rv)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"r-lost", "c-added", "c-removed", "c-context-old"}, res.Accepted, sortStrings); d != "" {
		t.Errorf("accepted after the retry (-want +got):\n%s", d)
	}
	s.exactlyOnce(rv)
}

func (c Contract) testRetries(t *testing.T) {
	s := c.setup(t, forge.RetryPolicy{Attempts: 4, Base: time.Second, Max: 4 * time.Second, MaxWait: time.Minute})
	s.host.Inject(
		Fault{Kind: FaultRateLimit, Method: "GET", Nth: 1, RetryAfter: 7 * time.Second},
		Fault{Kind: FaultServerError, Method: "POST", Nth: 1},
		Fault{Kind: FaultSecondaryLimit403, Method: "POST", Nth: 2, RetryAfter: 3 * time.Second},
		Fault{Kind: FaultPrimaryLimit, Method: "GET", Nth: 4, RetryAfter: 30 * time.Second},
	)
	rv := s.review("r-retry", forge.EventComment, "Retried.", fixtureComments()[:2]...)
	res, err := s.forge.Submit(context.Background(), s.ref, rv)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Accepted) != 3 {
		t.Errorf("accepted = %v", res.Accepted)
	}
	if fired := s.host.Fired(); len(fired) != 4 {
		t.Errorf("fired = %v, want all 4 faults", fired)
	}
	sleeps := s.clock.Sleeps()
	for _, want := range []time.Duration{7 * time.Second, 3 * time.Second, 30 * time.Second} {
		if !slices.Contains(sleeps, want) {
			t.Errorf("sleeps = %v, want one of %v (the host's own wait)", sleeps, want)
		}
	}
	s.exactlyOnce(rv)

	// A host that keeps failing ends in a clear, typed error.
	s2 := c.setup(t, forge.RetryPolicy{Attempts: 3, Base: time.Second, Max: time.Second, MaxWait: time.Minute})
	s2.host.Inject(Fault{Kind: FaultServerError, Nth: 1}, Fault{Kind: FaultServerError, Nth: 2}, Fault{Kind: FaultServerError, Nth: 3})
	_, err = s2.forge.Change(context.Background(), s2.ref)
	var he *forge.HostError
	if !errors.As(err, &he) || he.Class != forge.ErrUnavailable || he.Attempts != 3 || he.Status != 500 {
		t.Errorf("err = %v (%+v), want ErrUnavailable after 3 tries", err, he)
	}
	if got := len(s2.clock.Sleeps()); got != 2 {
		t.Errorf("slept %d times between 3 tries", got)
	}
	// A wait longer than MaxWait is not slept through.
	s3 := c.setup(t, forge.RetryPolicy{Attempts: 3, Base: time.Second, Max: time.Second, MaxWait: time.Minute})
	s3.host.Inject(Fault{Kind: FaultRateLimit, Nth: 1, RetryAfter: time.Hour})
	_, err = s3.forge.Change(context.Background(), s3.ref)
	if !errors.Is(err, forge.ErrRateLimited) || !strings.Contains(err.Error(), "try again in 1h0m0s") {
		t.Errorf("err = %v, want ErrRateLimited naming the wait", err)
	}
}

func (c Contract) testErrors(t *testing.T) {
	s := c.setup(t, forge.RetryPolicy{})
	bad := c.NewForge(t, s.host, ForgeConfig{Token: "not-a-token", Sleeper: s.clock, Now: s.clock.Now})
	_, err := bad.Change(context.Background(), s.ref)
	if !errors.Is(err, forge.ErrUnauthorized) {
		t.Fatalf("bad token: err = %v, want ErrUnauthorized", err)
	}
	hint := "GITHUB_TOKEN"
	if s.host.Kind() == forge.KindGitLab {
		hint = "GITLAB_TOKEN"
	}
	if !strings.Contains(err.Error(), hint) || !strings.Contains(err.Error(), "(401)") {
		t.Errorf("bad token message %q names neither %s nor the status", err, hint)
	}
	missing := s.ref
	missing.Number = 404
	_, err = s.forge.Change(context.Background(), missing)
	if !errors.Is(err, forge.ErrNotFound) || !strings.Contains(err.Error(), "404") {
		t.Errorf("missing change: err = %v, want ErrNotFound", err)
	}
	_, err = s.forge.Submit(context.Background(), s.ref, forge.Review{MarkerID: "x"})
	if !errors.Is(err, forge.ErrInput) {
		t.Errorf("malformed review: err = %v, want ErrInput", err)
	}
}

// exactlyOnce fails the test unless every marker of rv is on the host
// exactly once, published.
func (s *setup) exactlyOnce(rv forge.Review) {
	s.t.Helper()
	if dups := duplicates(s.host, s.ref, rv); len(dups) > 0 {
		s.t.Errorf("not exactly once: %v", dups)
	}
}

// duplicates lists the markers of rv's comments and replies that the host
// does not hold exactly once, published.
func duplicates(h Host, ref forge.Ref, rv forge.Review) []string {
	count := map[string]int{}
	for _, hc := range h.Posted(ref) {
		if m := forge.MarkerOf(hc.Body); m != "" && !hc.Pending {
			count[m]++
		}
	}
	var bad []string
	for _, cm := range rv.Comments {
		if count[cm.MarkerID] != 1 {
			bad = append(bad, fmt.Sprintf("%s x%d", cm.MarkerID, count[cm.MarkerID]))
		}
	}
	for _, r := range rv.Replies {
		if count[r.MarkerID] != 1 {
			bad = append(bad, fmt.Sprintf("%s x%d", r.MarkerID, count[r.MarkerID]))
		}
	}
	return bad
}

// Shift moves each fault's Nth past the requests h has already had of its
// method, so that a schedule drawn for a fresh host hits the requests still
// to come rather than ones already served (the threads read before a
// submission, its GraphQL POST included).
func Shift(h Host, faults []Fault) []Fault {
	seen := map[string]int{}
	for _, r := range h.Requests() {
		method, _, _ := strings.Cut(r, " ")
		seen[method]++
		seen[""]++
	}
	out := make([]Fault, len(faults))
	for i, f := range faults {
		f.Nth += seen[f.Method]
		out[i] = f
	}
	return out
}

// RunFaultSchedules submits the fixture review (comments and a reply)
// against a fresh host for each seed in [first, first+n), with a seeded
// schedule of faults, repeating Submit, as a user would, until it succeeds
// (at most 8 runs). It fails the test unless every comment and reply ends
// on the host exactly once and accepted, and returns the number of
// schedules run and of duplicates found.
func RunFaultSchedules(t *testing.T, c Contract, first uint64, n int) (runs, dups int) {
	t.Helper()
	fired := 0
	defer func() { t.Logf("%d schedules, %d faults fired, %d duplicates", runs, fired, dups) }()
	for seed := first; seed < first+uint64(n); seed++ {
		sched := Schedule(seed, 3, 4)
		ok := t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
			s := c.setup(t, forge.RetryPolicy{Attempts: 3, Base: time.Second, Max: 4 * time.Second, MaxWait: time.Minute})
			thread := s.host.SeedThread(s.ref, ThreadSeed{Path: "main.go", Side: 2, Line: 11, Body: "Why?"})
			threads, err := s.forge.Threads(context.Background(), s.ref)
			if err != nil || len(threads) != 1 {
				t.Fatalf("threads: %v", err)
			}
			s.host.Inject(Shift(s.host, sched)...)
			rv := s.review(fmt.Sprintf("r-%d", seed), forge.EventApprove, "Approved with notes.", fixtureComments()...)
			rv.Replies = []forge.Reply{{MarkerID: "p-1", ThreadID: threads[0].ReplyTo, Body: "Answering " + thread}}
			accepted := map[string]bool{}
			var lastErr error
			for range 8 {
				res, err := s.forge.Submit(context.Background(), s.ref, rv)
				for _, m := range res.Accepted {
					accepted[m] = true
				}
				if lastErr = err; err == nil {
					break
				}
			}
			if lastErr != nil {
				t.Fatalf("schedule %v: still failing after 8 submits: %v", sched, lastErr)
			}
			fired += len(s.host.Fired())
			d := duplicates(s.host, s.ref, rv)
			dups += len(d)
			if len(d) > 0 {
				t.Errorf("schedule %v: %v", sched, d)
			}
			for _, cm := range rv.Comments {
				if !accepted[cm.MarkerID] {
					t.Errorf("schedule %v: %s never reported accepted", sched, cm.MarkerID)
				}
			}
		})
		runs++
		if !ok {
			t.Logf("seed %d schedule: %v", seed, sched)
		}
	}
	return runs, dups
}
