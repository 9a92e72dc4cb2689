// Package apptest is the conformance suite of app.Service: one set of
// behaviours run against every implementation (the in-process app.Local and
// the httpapi client talking to a real daemon), so they cannot drift.
//
// A caller supplies a Factory that opens a review from an Env and returns
// the Surfaces through which the suite reaches it; Run does the rest.
package apptest

import (
	"context"
	_ "embed"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// V1 and V2 are the fixture patches (see testdata/README.md): V2 is V1
// force-pushed.
var (
	//go:embed testdata/calc-v1.diff
	V1 []byte
	//go:embed testdata/calc-v2.diff
	V2 []byte
)

// Surfaces are one review as the suite reaches it.
type Surfaces struct {
	// Human is the service as the terminal and the browser reach it; the
	// suite writes through it as session.ActorHuman.
	Human app.Service
	// Agent is the service as the MCP surface reaches it; the suite writes
	// through it as session.ActorAgent.
	Agent app.Service
}

// Env is what a Factory opens a review from. Every call of the Factory in
// one test gets the same Env, so a second call is the review reopened (a
// restart): it must see what Drafts and Viewed persisted and nothing else.
type Env struct {
	Info   app.SourceInfo
	Source *Source
	// StateDir is an empty directory, the same for every opening, under
	// which the Factory keeps the review's drafts and read marks (for
	// example in store.Dirs at StateDir/drafts and StateDir/viewed).
	StateDir string
	// Deps stamps time and ids; the Factory sets Documents.
	Deps app.Deps
}

// Factory opens the review env describes and returns its surfaces. It
// registers its own cleanup with t.
type Factory func(t *testing.T, env Env) Surfaces

// Source is a PatchSource whose patch a test replaces, as a force-push or
// an edit in the work tree would. It is safe for concurrent use.
type Source struct {
	mu    sync.Mutex
	patch []byte
}

// NewSource returns a Source reading patch.
func NewSource(patch []byte) *Source { return &Source{patch: patch} }

// Set replaces what the next Patch returns.
func (s *Source) Set(patch []byte) {
	s.mu.Lock()
	s.patch = patch
	s.mu.Unlock()
}

// Patch implements app.PatchSource.
func (s *Source) Patch(context.Context) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.patch, nil
}

// Clock is the suite's deterministic time: a fixed start that advances a
// second at each reading, so order is visible and values compare exactly.
func Clock() func() time.Time {
	var n atomic.Int64
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	return func() time.Time { return start.Add(time.Duration(n.Add(1)) * time.Second) }
}

// IDs numbers ids with prefix.
func IDs(prefix string) func() string {
	var n atomic.Int64
	return func() string { return fmt.Sprintf("%s%d", prefix, n.Add(1)) }
}

// Run runs every behaviour of the suite against open, each as a subtest
// with an Env of its own: fresh stores under t.TempDir, a Source reading V1.
func Run(t *testing.T, open Factory) {
	for _, b := range behaviours {
		t.Run(b.name, func(t *testing.T) {
			b.run(t, newHarness(t, open))
		})
	}
}

type behaviour struct {
	name string
	run  func(t *testing.T, h *harness)
}

// behaviours lists the suite; each file of this package adds its own.
var behaviours []behaviour

func register(name string, run func(t *testing.T, h *harness)) {
	behaviours = append(behaviours, behaviour{name, run})
}

// harness is one behaviour's review: its Env, its Factory and the surfaces
// of the first opening.
type harness struct {
	t    *testing.T
	ctx  context.Context
	env  Env
	open Factory
	Surfaces
}

var ref20 = app.LineRef{Path: "calc.go", Side: changeset.SideNew, Start: 20}

const (
	human = session.ActorHuman
	agent = session.ActorAgent
)
