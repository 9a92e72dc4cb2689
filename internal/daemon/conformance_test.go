package daemon_test

import (
	"context"
	"testing"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/app/apptest"
	"github.com/leanreview/leanreview/internal/daemon"
	"github.com/leanreview/leanreview/internal/session"
)

// TestHTTPClient_Conformance runs the Service suite against the httpapi
// client talking to a real daemon on loopback (the human's surface) and
// the daemon's own session bound to the agent (as the MCP surface gets it).
// internal/app runs the same suite against app.Local.
func TestHTTPClient_Conformance(t *testing.T) {
	apptest.Run(t, func(t *testing.T, env apptest.Env) apptest.Surfaces {
		reg := registry(t, env.StateDir, env.Deps, fixedOpener{app.OpenedSource{Info: env.Info, Source: env.Source}})
		d := start(t, daemon.Options{Sessions: reg})
		human, err := d.client(t).Open(context.Background(), app.OpenRequest{Args: []string{"calc.diff"}, Dir: "/"})
		if err != nil {
			t.Fatal(err)
		}
		_, local, err := reg.Open(context.Background(), app.OpenRequest{Args: []string{"calc.diff"}, Dir: "/"})
		if err != nil {
			t.Fatal(err)
		}
		return apptest.Surfaces{Human: human, Agent: app.ActingAs(local, session.ActorAgent)}
	})
}
