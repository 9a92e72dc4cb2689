package web_test

import (
	"context"
	"strings"
	"testing"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// TestBrowser_HostileTextIsShownNeverRun loads a change whose lines carry
// markup, bidi controls and a terminal escape, writes a comment whose body
// is markup through the page's own editor, and has the agent comment and
// suggest with markup too. Every payload would set window.__pwned and open
// a dialog if it ran: neither happens, no element is made from them, no
// request goes out for them, and each is on screen as the text it is.
func TestBrowser_HostileTextIsShownNeverRun(t *testing.T) {
	s := startServer(t, "testdata/hostile.patch")
	ctx := context.Background()
	agent := s.service(t)
	const (
		agentBody = `<script>window.__pwned=4;alert(4)</script>`
		reason    = `<img src=x onerror="window.__pwned=5;alert(5)">`
		pageBody  = `<img src=x onerror="window.__pwned=3;alert(3)">`
	)
	if _, err := agent.Comment(ctx, session.ActorAgent, app.CommentRequest{Ref: app.LineRef{Path: "web/index.html", Side: changeset.SideNew, Start: 3}, Body: agentBody}); err != nil {
		t.Fatal(err)
	}
	if _, err := agent.Suggest(ctx, session.ActorAgent, app.SuggestionRequest{Path: "web/index.html", Hunk: 0, Reason: reason}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, s.disc.BaseURL(), 1280, 800)
	b.login(t, s)

	b.click(t, "click new line 2", `.row.line[data-path="web/index.html"][data-new="2"] .code`, false)
	b.key(t, "c")
	b.waitJS(t, "the editor", `document.activeElement && document.activeElement.classList.contains("ctext")`)
	b.key(t, pageBody)
	b.key(t, "\r") // a newline in the body; Ctrl+Enter would save
	b.click(t, "save", `.row.editor button.primary`, false)
	waitSnapshot(t, s, "the page's draft", func(sn *app.Snapshot) bool { return len(sn.Drafts) == 2 })
	b.waitJS(t, "both comments on screen", `document.querySelectorAll(".row.comment .cbody").length === 2`)

	shown := func(what, expr, want string) {
		t.Helper()
		if got := evalJS[string](t, b, expr); got != want {
			t.Errorf("%s shows %q, want %q", what, got, want)
		}
	}
	shown("the added <script> line", `document.querySelector('.row.line[data-path="web/index.html"][data-new="2"] .text').textContent`,
		`<script>window.__pwned=1;alert(1)</script>`)
	shown("the added <img> line", `document.querySelector('.row.line[data-path="web/index.html"][data-new="3"] .text').textContent`,
		`<img src=x onerror="window.__pwned=2;alert(2)">`)
	shown("the page's comment", `document.querySelector(".row.comment.mine .cbody").textContent`, pageBody+"\n")
	shown("the agent's comment", `document.querySelector(".row.comment.agent .cbody").textContent`, agentBody)
	shown("the suggestion", `document.querySelector(".suggestion .reason").textContent`, reason)
	shown("the bidi line", `document.querySelector('.row.line[data-path="auth/check.go"][data-new="4"] .text').textContent`,
		"\treturn role == \"admin<U+202E> // only admins<U+2066>\" || true")
	shown("its escapes", `[...document.querySelectorAll('.row.line[data-path="auth/check.go"][data-new="4"] .esc')].map(e => e.textContent).join(" ")`,
		"<U+202E> <U+2066>")
	shown("the terminal escape", `document.querySelector('.row.line[data-path="notes.txt"][data-new="2"] .text').textContent`,
		"<U+001B>]0;pwned<U+0007> set the terminal title")

	if got := evalJS[bool](t, b, `"__pwned" in window`); got {
		t.Errorf("a payload ran: window.__pwned = %v", evalJS[any](t, b, `window.__pwned`))
	}
	if n := evalJS[int](t, b, `document.querySelectorAll("#main script, #main img, #main iframe, #main object").length`); n != 0 {
		t.Errorf("%d elements were made from text", n)
	}
	b.checkClean(t)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, u := range b.requests {
		if strings.HasSuffix(u, "/x") {
			t.Errorf("the page fetched %s, the <img src=x> of a payload", u)
		}
	}
}
