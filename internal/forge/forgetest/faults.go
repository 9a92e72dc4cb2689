package forgetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// FaultKind is one way a fake host misbehaves. The zero value is invalid.
type FaultKind uint8

const (
	// FaultServerError answers 500 without acting on the request.
	FaultServerError FaultKind = iota + 1
	// FaultServerErrorAfterCommit acts on the request, then answers 500.
	FaultServerErrorAfterCommit
	// FaultRateLimit answers 429 with Retry-After (GitHub's secondary
	// limit may also answer 403; see FaultSecondaryLimit403).
	FaultRateLimit
	// FaultSecondaryLimit403 is GitHub's 403 secondary rate limit with
	// retry-after; on GitLab it is a plain 429.
	FaultSecondaryLimit403
	// FaultPrimaryLimit is an exhausted quota: GitHub answers 403 with
	// x-ratelimit-remaining 0 and x-ratelimit-reset; GitLab 429 with
	// RateLimit-Remaining 0 and RateLimit-Reset.
	FaultPrimaryLimit
	// FaultDropBeforeCommit closes the connection without acting or
	// answering.
	FaultDropBeforeCommit
	// FaultDropAfterCommit acts on the request, then closes the connection
	// without answering: the lost answer exactly-once must survive.
	FaultDropAfterCommit
)

var faultNames = [...]string{FaultServerError: "500", FaultServerErrorAfterCommit: "500-after-commit",
	FaultRateLimit: "429", FaultSecondaryLimit403: "403-secondary", FaultPrimaryLimit: "primary-limit",
	FaultDropBeforeCommit: "drop", FaultDropAfterCommit: "drop-after-commit"}

func (k FaultKind) String() string {
	if int(k) < len(faultNames) && faultNames[k] != "" {
		return faultNames[k]
	}
	return fmt.Sprintf("FaultKind(%d)", uint8(k))
}

// commits reports whether the fake acts on the request before misbehaving.
func (k FaultKind) commits() bool {
	return k == FaultServerErrorAfterCommit || k == FaultDropAfterCommit
}

// Fault is one planned misbehaviour: the Nth request (1-based) whose method
// is Method ("" counts every request) meets Kind. A GraphQL query is a POST
// like any other, though it only reads.
type Fault struct {
	Kind   FaultKind
	Method string
	Nth    int
	// RetryAfter is the wait a rate-limit fault names; 0 means 1 s.
	RetryAfter time.Duration
}

func (f Fault) String() string {
	m := f.Method
	if m == "" {
		m = "any"
	}
	return fmt.Sprintf("%s on %s #%d", f.Kind, m, f.Nth)
}

// Schedule draws n faults deterministically from seed, each on one of the
// first maxNth requests of its method (writes, POST, are drawn twice as
// often as reads, GET, since they are what exactly-once is about).
func Schedule(seed uint64, n, maxNth int) []Fault {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	kinds := []FaultKind{FaultServerError, FaultServerErrorAfterCommit, FaultRateLimit, FaultSecondaryLimit403,
		FaultPrimaryLimit, FaultDropBeforeCommit, FaultDropAfterCommit}
	methods := []string{"POST", "POST", "GET"}
	out := make([]Fault, 0, n)
	used := map[string]bool{}
	for len(out) < n {
		f := Fault{Kind: kinds[rng.IntN(len(kinds))], Method: methods[rng.IntN(len(methods))], Nth: 1 + rng.IntN(maxNth)}
		key := fmt.Sprintf("%s#%d", f.Method, f.Nth)
		if used[key] {
			continue
		}
		used[key] = true
		out = append(out, f)
	}
	return out
}

// faultPlan matches requests against planned faults. Safe for concurrent
// use.
type faultPlan struct {
	mu     sync.Mutex
	plan   []Fault
	counts map[string]int
	fired  []Fault
}

func (p *faultPlan) add(fs ...Fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.plan = append(p.plan, fs...)
}

// next counts r and returns the fault it meets, if any.
func (p *faultPlan) next(r *http.Request) (Fault, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.counts == nil {
		p.counts = map[string]int{}
	}
	p.counts[""]++
	p.counts[r.Method]++
	for i, f := range p.plan {
		if p.counts[f.Method] == f.Nth && (f.Method == "" || f.Method == r.Method) {
			p.plan = append(p.plan[:i:i], p.plan[i+1:]...)
			p.fired = append(p.fired, f)
			if f.RetryAfter == 0 {
				f.RetryAfter = time.Second
			}
			return f, true
		}
	}
	return Fault{}, false
}

func (p *faultPlan) firedFaults() []Fault {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Fault(nil), p.fired...)
}

// dropConnection closes the client's connection without an answer.
func dropConnection(w http.ResponseWriter) error {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return fmt.Errorf("response writer %T cannot be hijacked", w)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return err
	}
	return conn.Close()
}

// commitThenFail runs serve into a recorder, so the fake acts on the
// request, then misbehaves as f says instead of sending the answer.
func commitThenFail(w http.ResponseWriter, r *http.Request, serve http.Handler, f Fault, fail func(w http.ResponseWriter)) error {
	serve.ServeHTTP(httptest.NewRecorder(), r)
	if f.Kind == FaultDropAfterCommit {
		return dropConnection(w)
	}
	fail(w)
	return nil
}

// Clock is a fake time source and Sleeper: Sleep advances Now by d at once
// and records d. Safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

// NewClock starts a clock at start.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now is the clock's current time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Sleep implements forge.Sleeper without waiting.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	return nil
}

// Sleeps returns every wait asked for, in order.
func (c *Clock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}
