package web_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

var (
	screenshotFlag = flag.String("screenshot", "", "write a screenshot of the page on testdata/sample.patch to this PNG file (docs/screenshot.png)")
	schemeFlag     = flag.String("scheme", "light", "colour scheme of the screenshot: light or dark")
	splitFlag      = flag.Bool("split", false, "take the screenshot in the split view")
)

// TestScreenshot renders the page on the sample change with drafts by
// both parties and a pending suggestion, as the README shows it. It runs
// only with -screenshot PATH.
func TestScreenshot(t *testing.T) {
	if *screenshotFlag == "" {
		t.Skip("run with -screenshot PATH to write the README's screenshot")
	}
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	s := startServerArgs(t, dir, []string{"sample.patch"})
	ctx := context.Background()
	if _, err := s.human.Comment(ctx, session.ActorHuman, app.CommentRequest{
		Ref:  app.LineRef{Path: "server/handler.go", Side: changeset.SideNew, Start: 22, End: 25},
		Body: "Nice: a 404 no longer leaks the store's error text.\nCould ErrNotFound live next to the Store interface instead?",
	}); err != nil {
		t.Fatal(err)
	}
	agent := s.service(t)
	if _, err := agent.Comment(ctx, session.ActorAgent, app.CommentRequest{
		Ref:  app.LineRef{Path: "server/handler.go", Side: changeset.SideNew, Start: 39},
		Body: "This line carries U+202E and U+2066 (bidi controls): everything after // is a comment, so `|| role == \"owner\"` never runs. It reads as the opposite of what it does.",
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := agent.Suggest(ctx, session.ActorAgent, app.SuggestionRequest{
		Path: "server/handler.go", Side: changeset.SideNew, Line: 39, Hunk: 1,
		Reason: "The isAdmin change hides a bidi override; worth a careful look.",
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.human.SetCursor(ctx, session.ActorHuman, app.Cursor{Path: "server/handler.go", Side: changeset.SideNew, Line: 23, Hunk: 1}); err != nil {
		t.Fatal(err)
	}
	snap := s.snapshot(t)
	for _, f := range snap.Changeset.Files {
		if f.Path == "docs/README.md" || f.Path == "server/accounts.go" {
			for _, h := range f.Hunks {
				if _, err := agent.MarkViewed(ctx, session.ActorHuman, h.Digest, true); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	b := newBrowser(t, s.disc.BaseURL(), 1440, 1400)
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: *schemeFlag}}}); err != nil {
		t.Fatal(err)
	}
	b.login(t, s)
	if *splitFlag {
		b.key(t, "t")
	}
	b.waitJS(t, "the agent's comment", `document.querySelector(".row.comment.agent") !== null`)
	png := b.screenshot(t)
	if err := os.WriteFile(*screenshotFlag, png, 0o644); err != nil {
		t.Fatal(err)
	}
	b.checkClean(t)
}
