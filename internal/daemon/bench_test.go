package daemon_test

import (
	"context"
	"testing"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/daemon"
	"github.com/leanreview/leanreview/internal/session"
)

// BenchmarkClient_SetCursor measures one authenticated write round trip
// through the Go client and the daemon's checks, with nothing written to
// disk: the API's own cost, apart from the drafts file.
//
//	go test ./internal/daemon -run '^$' -bench SetCursor
func BenchmarkClient_SetCursor(b *testing.B) {
	f := newFixture(b, daemon.Options{})
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		if err := f.human.SetCursor(ctx, session.ActorHuman, app.Cursor{Path: "calc.go", Line: i, Hunk: -1}); err != nil {
			b.Fatal(err)
		}
	}
}
