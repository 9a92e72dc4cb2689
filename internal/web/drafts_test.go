package web_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// TestBrowser_DraftsRangeEditResolveDeleteUndoAndOrphans works the
// human's drafts from the page: a range by shift-click, edited, resolved,
// deleted and put back with Undo; it lists an orphan with its tag; and the
// split view shows the same draft under the same line.
func TestBrowser_DraftsRangeEditResolveDeleteUndoAndOrphans(t *testing.T) {
	s := startServer(t, "testdata/sample.patch")
	now := time.Now()
	orphan := session.Draft{
		ID: "orphan1", Author: session.ActorHuman, Body: "About code that is gone.", Digest: "0000", Created: now, Updated: now,
		Anchor: changeset.Anchor{Path: "server/gone.go", OldPath: "server/gone.go", Side: changeset.SideNew, Start: 3, End: 3, Lines: []string{"func gone() {}"}},
	}
	if err := s.service(t).RestoreComment(context.Background(), session.ActorHuman, orphan); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, s.disc.BaseURL(), 1280, 900)
	b.login(t, s)
	b.waitJS(t, "the orphan listed with its tag",
		`(e => e !== null && e.querySelector(".tag.orphaned").textContent === "orphaned" && e.querySelector(".obody").textContent === "About code that is gone.")(document.querySelector('.orphan[data-draft="orphan1"]'))`)

	// A range: click new line 18, shift-click the + of new line 21.
	line := func(n string) string { return `.row.line[data-path="server/handler.go"][data-new="` + n + `"]` }
	b.click(t, "open handler.go", `.file-entry[data-path="server/handler.go"]`, false)
	b.click(t, "click new line 18", line("18")+" .code", false)
	b.click(t, "shift-click the + of new line 21", line("21")+" .add-comment", true)
	b.waitJS(t, "the editor on the range", `(e => e !== null && e.textContent.includes("new lines 18–21"))(document.querySelector(".row.editor .hint"))`)
	b.key(t, "Guard against an empty id first.")
	b.do(t, "save with Ctrl+Enter", chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	sn := waitSnapshot(t, s, "the range draft", func(sn *app.Snapshot) bool { return len(sn.Drafts) == 2 })
	var id string
	for _, d := range sn.Drafts {
		if d.ID != "orphan1" {
			id = d.ID
			if d.Location.Start != 18 || d.Location.End != 21 || d.Location.Side != changeset.SideNew {
				t.Errorf("the range draft sits at %+v, want new 18-21", d.Location)
			}
		}
	}
	comment := `.row.comment[data-draft="` + id + `"]`
	b.waitJS(t, "the draft under line 21", `document.querySelector('`+comment+`') !== null`)

	// Edit it.
	b.click(t, "edit", comment+` button:nth-of-type(1)`, false)
	b.waitJS(t, "the editor holding the body", `document.activeElement && document.activeElement.value === "Guard against an empty id first."`)
	b.do(t, "clear it", chromedp.Evaluate[chromedp.Void](`document.activeElement.select()`))
	b.key(t, "Reject an empty id with 400.")
	b.click(t, "save", `.row.editor button.primary`, false)
	waitSnapshot(t, s, "the edit", func(sn *app.Snapshot) bool { return draftBody(sn, id) == "Reject an empty id with 400." })

	// Resolve, then delete and undo.
	b.waitJS(t, "the edited draft", `(e => e !== null && e.textContent === "Reject an empty id with 400.")(document.querySelector('`+comment+` .cbody'))`)
	b.click(t, "resolve", comment+` button:nth-of-type(3)`, false)
	waitSnapshot(t, s, "resolved", func(sn *app.Snapshot) bool { return draftResolved(sn, id) })
	b.waitJS(t, "the resolved tag", `document.querySelector('`+comment+`.resolved') !== null`)
	b.click(t, "delete", comment+` button:nth-of-type(2)`, false)
	waitSnapshot(t, s, "deleted", func(sn *app.Snapshot) bool { return draftBody(sn, id) == "" })
	b.click(t, "undo", `.toast button`, false)
	waitSnapshot(t, s, "restored", func(sn *app.Snapshot) bool { return draftBody(sn, id) == "Reject an empty id with 400." })

	// The split view: the draft under the right-hand new line 21.
	b.key(t, "t")
	b.waitJS(t, "the split view with the draft", `document.querySelector(".row.line.split") !== null && document.querySelector('`+comment+`') !== null`)
	if got := evalJS[string](t, b, `document.querySelector('.row.line.split[data-new="21"] .half.right .text').textContent`); got != "\t}" {
		t.Errorf("split view, new line 21 reads %q", got)
	}
	b.checkClean(t)
}

func draftBody(sn *app.Snapshot, id string) string {
	for _, d := range sn.Drafts {
		if d.ID == id {
			return d.Body
		}
	}
	return ""
}

func draftResolved(sn *app.Snapshot, id string) bool {
	for _, d := range sn.Drafts {
		if d.ID == id {
			return d.Resolved
		}
	}
	return false
}

// TestBrowser_StalePageSaysSoAndReloads reviews a git work tree, changes
// it and reloads the session as the daemon's watcher would: the page says
// it is out of date, a write from it is refused rather than landing on the
// wrong lines, and Reload shows the change as it is now.
func TestBrowser_StalePageSaysSoAndReloads(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo, "main.go"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("package main\n\nfunc main() {\n\tprintln(\"one\")\n}\n")
	git("add", ".")
	git("commit", "-q", "-m", "one")
	write("package main\n\nfunc main() {\n\tprintln(\"two\")\n}\n")

	s := startServerArgs(t, repo, nil)
	b := newBrowser(t, s.disc.BaseURL(), 1200, 800)
	b.login(t, s)
	b.waitJS(t, "the first version", `[...document.querySelectorAll(".row.line .text")].some(e => e.textContent.includes('"two"'))`)

	write("package main\n\nfunc main() {\n\tprintln(\"three\")\n}\n")
	if err := s.service(t).Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	b.waitJS(t, "the stale banner", `(e => !e.hidden && e.textContent.includes("out of date"))(document.getElementById("banner"))`)
	before := len(s.snapshot(t).Viewed)
	b.click(t, "try to mark viewed", `.row.hunk .viewed-toggle`, false)
	time.Sleep(300 * time.Millisecond)
	if after := len(s.snapshot(t).Viewed); after != before {
		t.Errorf("a stale page marked a hunk viewed (%d marks, was %d)", after, before)
	}
	b.click(t, "reload", `#banner button`, false)
	b.waitJS(t, "the new version without the banner",
		`document.getElementById("banner").hidden && [...document.querySelectorAll(".row.line .text")].some(e => e.textContent.includes('"three"'))`)
	b.click(t, "mark viewed", `.row.hunk .viewed-toggle`, false)
	waitSnapshot(t, s, "the mark after the reload", func(sn *app.Snapshot) bool { return len(sn.Viewed) == before+1 })
	b.checkClean(t)
}
