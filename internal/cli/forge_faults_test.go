package cli

import (
	"flag"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
)

var (
	forgeSchedules = flag.Int("forge-schedules", 20, "seeded fault schedules per host that TestForge_SeededFaultSchedules runs through the binary")
	forgeWorkers   = flag.Int("forge-workers", 12, "schedules TestForge_SeededFaultSchedules runs at once (they mostly wait out retry-after)")
)

// faultTally sums what the schedules of one host did.
type faultTally struct {
	mu                                  sync.Mutex
	schedules, fired, submits, failures int
	duplicates                          int
}

// TestForge_SeededFaultSchedulesThroughTheCommandLineEndExactlyOnce writes
// drafts on a change, then plans three faults on the host for the requests
// to come (drawn from a seed: a 500 before or after the host acted, a
// connection dropped before or after it acted, a 429 or 403 with
// retry-after, an exhausted rate limit), and for every third seed an outage
// that starts right after the host took a write, and runs `leanreview
// submit --yes` as a user would, again after each failure, until it
// succeeds. Every draft must end on the host exactly once, with one
// approval, and none left locally. The binary retries with its real policy
// and really sleeps, so schedules run several at a time.
//
//	go test ./internal/cli -run TestForge_SeededFaultSchedules -v -forge-schedules 200
func TestForge_SeededFaultSchedulesThroughTheCommandLineEndExactlyOnce(t *testing.T) {
	for _, hk := range hostKinds {
		tally := &faultTally{}
		t.Run(hk.name, func(t *testing.T) {
			seeds := make(chan uint64)
			var wg sync.WaitGroup
			for range max(*forgeWorkers, 1) {
				wg.Go(func() {
					for seed := range seeds {
						t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) { runFaultSchedule(t, hk.new(t), seed, tally) })
					}
				})
			}
			for seed := range uint64(*forgeSchedules) {
				seeds <- seed + 1
			}
			close(seeds)
			wg.Wait()
		})
		t.Logf("%s: %d schedules through the CLI, %d faults fired, %d submit runs (%d failed and were run again), %d duplicates",
			hk.name, tally.schedules, tally.fired, tally.submits, tally.failures, tally.duplicates)
		if tally.duplicates != 0 {
			t.Errorf("%s: %d duplicates", hk.name, tally.duplicates)
		}
	}
}

// runFaultSchedule plays seed's schedule against a fresh host.
func runFaultSchedule(t *testing.T, host forgetest.Host, seed uint64, tally *faultTally) {
	w := newForgeWorld(t, host, forgetest.FixturePatch(), forgetest.FixtureHead)
	thread := host.SeedThread(w.ref, forgetest.ThreadSeed{Path: "main.go", Side: changeset.SideNew, Line: 11, Body: "Why?"})
	ids := []string{
		savedID(t, w.ok("comment", w.url, "--path", "main.go", "--line", "9", "--body", "Say which world.")),
		savedID(t, w.ok("comment", w.url, "--path", "main.go", "--line", "8", "--side", "old", "--body", "The old comment was fine.")),
		savedID(t, w.ok("comment", w.url, "--path", "main.go", "--line", "11", "--end-line", "14", "--body", "Simplify this block.")),
		savedID(t, w.ok("reply", w.url, "--thread", thread, "--body", "Because.")),
	}
	sched := forgetest.Shift(host, forgetest.Schedule(seed, 3, 4))
	host.Inject(sched...)
	// Every third schedule also loses the host right after it took one of
	// the first three writes, for the rest of that run.
	darkAt := 0
	if seed%3 == 0 {
		darkAt = 1 + int(seed/3)%3
	}
	dark := newOutage(t, host, darkAt)
	w.through(dark)

	submits, failures := 0, []string{}
	for submits < 8 {
		submits++
		_, errOut, code := w.run("", "submit", w.url, "--event", "approve", "--body", "Approved with notes.", "--yes")
		if code == 0 {
			break
		}
		failures = append(failures, strings.TrimSpace(errOut))
		t.Logf("submit run %d failed, as a user would see it:\n%s", submits, errOut)
		dark.restore()
	}
	dups := 0
	on := w.markers()
	for _, id := range ids {
		if on[id] != 1 {
			dups++
			t.Errorf("schedule %v: draft %s is on the host %d times", sched, id, on[id])
		}
	}
	tally.mu.Lock()
	tally.schedules++
	tally.fired += len(host.Fired()) + dark.fired
	tally.submits += submits
	tally.failures += len(failures)
	tally.duplicates += dups
	tally.mu.Unlock()

	if len(failures) == submits {
		t.Fatalf("schedule %v: submit still failing after %d runs:\n%s", sched, submits, strings.Join(failures, "\n"))
	}
	if left := w.draftIDs(); len(left) != 0 {
		t.Errorf("schedule %v: drafts left %v", sched, left)
	}
	approvals := 0
	for _, v := range host.Verdicts(w.ref) {
		if v.Event == forge.EventApprove {
			approvals++
		}
	}
	if approvals != 1 {
		t.Errorf("schedule %v: verdicts %+v, want one approval", sched, host.Verdicts(w.ref))
	}
	for _, f := range failures {
		// A failed run explains itself in one message naming the host.
		if !strings.Contains(f, "GitHub") && !strings.Contains(f, "GitLab") {
			t.Errorf("schedule %v: a failed submit said %q", sched, f)
		}
	}
}
