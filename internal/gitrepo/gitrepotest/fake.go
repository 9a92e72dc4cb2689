// Package gitrepotest holds test doubles for package gitrepo: Fake, a strict
// stand-in for git, and Sandbox, a real repository isolated from the user's
// configuration.
package gitrepotest

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/leanreview/leanreview/internal/gitrepo"
)

// T is the part of *testing.T a Fake reports to.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Cleanup(func())
}

// Fake is a strict gitrepo.Runner. Each expectation matches one whole
// invocation (Dir, Env, Stdin and Args all equal) exactly once, in any order;
// an invocation no unused expectation matches fails the test and returns an
// error. When the test ends, every expectation not used fails it too. It is
// safe for concurrent use.
type Fake struct {
	t T

	mu     sync.Mutex
	expect []*Call
}

var _ gitrepo.Runner = (*Fake)(nil)

// Call is one expected invocation and its answer: empty standard output and
// success unless Returns or Fails says otherwise.
type Call struct {
	inv    gitrepo.Invocation
	stdout []byte
	err    error
	used   bool
}

// NewFake returns a Fake with no expectations that checks, when t's test
// ends, that all expectations added later were used.
func NewFake(t T) *Fake {
	f := &Fake{t: t}
	t.Cleanup(f.verify)
	return f
}

// Expect adds an expected invocation; set its answer on the returned Call.
func (f *Fake) Expect(inv gitrepo.Invocation) *Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := &Call{inv: inv}
	f.expect = append(f.expect, c)
	return c
}

// Returns makes the call succeed with stdout.
func (c *Call) Returns(stdout string) *Call {
	c.stdout, c.err = []byte(stdout), nil
	return c
}

// Fails makes the call fail as git exiting with code and stderr would: with
// a *gitrepo.ExitError.
func (c *Call) Fails(code int, stderr string) *Call {
	c.stdout = nil
	c.err = &gitrepo.ExitError{Args: slices.Clone(c.inv.Args), Code: code, Stderr: stderr}
	return c
}

// Run implements gitrepo.Runner.
func (f *Fake) Run(ctx context.Context, inv gitrepo.Invocation) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", inv, err)
	}
	for _, c := range f.expect {
		if !c.used && sameInvocation(c.inv, inv) {
			c.used = true
			return bytes.Clone(c.stdout), c.err
		}
	}
	f.t.Helper()
	f.t.Errorf("gitrepotest: unexpected invocation\n\t%s\nunused expectations:%s", describe(inv), f.pendingLocked())
	return nil, fmt.Errorf("gitrepotest: unexpected invocation %s", inv)
}

func (f *Fake) verify() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if pending := f.pendingLocked(); pending != "" {
		f.t.Helper()
		f.t.Errorf("gitrepotest: expected invocations never made:%s", pending)
	}
}

// pendingLocked lists the unused expectations, one per line; f.mu is held.
func (f *Fake) pendingLocked() string {
	var b strings.Builder
	for _, c := range f.expect {
		if !c.used {
			b.WriteString("\n\t")
			b.WriteString(describe(c.inv))
		}
	}
	return b.String()
}

func sameInvocation(a, b gitrepo.Invocation) bool {
	return a.Dir == b.Dir &&
		slices.Equal(a.Env, b.Env) &&
		bytes.Equal(a.Stdin, b.Stdin) &&
		slices.Equal(a.Args, b.Args)
}

// describe renders every field that takes part in matching, quoted so that
// spaces and empty arguments show.
func describe(inv gitrepo.Invocation) string {
	s := fmt.Sprintf("dir=%q args=%q", inv.Dir, inv.Args)
	if len(inv.Env) > 0 {
		s += fmt.Sprintf(" env=%q", inv.Env)
	}
	if inv.Stdin != nil {
		s += fmt.Sprintf(" stdin=%q", inv.Stdin)
	}
	return s
}
