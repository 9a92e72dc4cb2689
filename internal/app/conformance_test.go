package app_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/app/apptest"
	"github.com/leanreview/leanreview/internal/session"
	"github.com/leanreview/leanreview/internal/store"
)

// TestLocal_Conformance runs the Service suite against the in-process
// Local; internal/daemon runs the same suite against the HTTP client.
func TestLocal_Conformance(t *testing.T) {
	apptest.Run(t, func(t *testing.T, env apptest.Env) apptest.Surfaces {
		drafts, err := store.New(filepath.Join(env.StateDir, "drafts"), 1)
		if err != nil {
			t.Fatal(err)
		}
		viewed, err := store.New(filepath.Join(env.StateDir, "viewed"), 1)
		if err != nil {
			t.Fatal(err)
		}
		deps := env.Deps
		deps.Documents = drafts
		l, err := app.NewLocal(context.Background(), app.LocalDeps{Deps: deps, Info: env.Info, Source: env.Source, Viewed: viewed})
		if err != nil {
			t.Fatal(err)
		}
		return apptest.Surfaces{Human: app.ActingAs(l, session.ActorHuman), Agent: app.ActingAs(l, session.ActorAgent)}
	})
}
