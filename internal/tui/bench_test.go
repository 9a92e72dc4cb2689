package tui

import (
	"context"
	"flag"
	"os"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/tui/tuitest"
)

var bigDiff = flag.String("bigdiff", "", "a large patch for BenchmarkKeys (../shared/bench/big-patch.sh's large.diff)")

// BenchmarkKeys measures Update plus View for each measured key on
// -bigdiff, in process: what a keypress costs the UI itself, without the
// terminal.
func BenchmarkKeys(b *testing.B) {
	if *bigDiff == "" {
		b.Skip("pass -bigdiff PATH")
	}
	patch, err := os.ReadFile(*bigDiff)
	if err != nil {
		b.Fatal(err)
	}
	svc := tuitest.NoEvents{Service: tuitest.Open(b, patch, b.TempDir())}
	t0 := time.Now()
	m := New(context.Background(), Options{Open: func(context.Context) (app.Service, error) { return svc, nil }, Settings: Settings{TabWidth: 8, Wrap: true}})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	msg := m.openCmd()()
	m.Update(msg)
	_ = m.View()
	b.Logf("layout and first view: %v", time.Since(t0))
	for _, k := range []string{"j", "pgdown", "G", "g", "t", "z"} {
		b.Run(k, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				switch k {
				case "g":
					m.Update(keyMsg("g"))
					m.Update(keyMsg("g"))
				case "z":
					m.Update(keyMsg("z"))
					m.Update(keyMsg("a"))
				default:
					m.Update(keyMsg(k))
				}
				_ = m.View()
			}
		})
	}
}
