package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/app/apptest"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/daemon"
	"github.com/leanreview/leanreview/internal/httpapi"
	"github.com/leanreview/leanreview/internal/session"
	"github.com/leanreview/leanreview/internal/store"
)

// loadOps is how many operations each of the three clients issues.
const loadOps = 1000

// TestLoad_ThreeSurfacesLoseNoWrite has a terminal (the Go client), a
// browser (raw HTTP on the session cookie) and an agent (the daemon's
// session as the agent, as MCP reaches it) issue 1,000 operations each,
// concurrently, against one session. Afterwards every write is there, the
// three surfaces read the same state, and the human's drafts are on disk.
//
//	go test ./internal/daemon -run TestLoad -v
func TestLoad_ThreeSurfacesLoseNoWrite(t *testing.T) {
	state := t.TempDir()
	src := apptest.NewSource(apptest.V1)
	info := app.SourceInfo{Kind: "file", Key: "patch-load", Label: "calc-v1.diff"}
	opener := fixedOpener{app.OpenedSource{Info: info, Source: src}}
	reg := registry(t, state, app.Deps{Now: time.Now, NewID: apptest.IDs("d")}, opener)
	f := &fixture{reg: reg, d: start(t, daemon.Options{Sessions: reg}), src: src}
	ctx := context.Background()
	var err error
	if f.human, err = f.d.client(t).Open(ctx, app.OpenRequest{Dir: "/"}); err != nil {
		t.Fatal(err)
	}
	local, _ := reg.Get(f.human.ID())
	agent := app.ActingAs(local, session.ActorAgent)
	browser := &browserClient{f: f, cookie: f.login(t), base: f.d.disc.BaseURL() + "/api/v1/sessions/" + f.human.ID()}

	want := map[string]expectedDraft{} // by draft id
	var wantMu sync.Mutex
	record := func(id string, d expectedDraft) {
		wantMu.Lock()
		want[id] = d
		wantMu.Unlock()
	}
	snap, _ := local.Snapshot(ctx)
	hunks := []string{snap.Changeset.Files[0].Hunks[0].Digest, snap.Changeset.Files[0].Hunks[1].Digest, snap.Changeset.Files[1].Hunks[0].Digest}
	wantViewed := map[string]bool{}

	surfaces := []struct {
		name string
		run  func(i int, last *string) error
	}{
		{"terminal", func(i int, last *string) error {
			switch i % 4 {
			case 0:
				p, err := f.human.Comment(ctx, session.ActorHuman, app.CommentRequest{Ref: lineFor(i), Body: fmt.Sprintf("terminal %d", i)})
				*last = p.ID
				record(p.ID, expectedDraft{session.ActorHuman, p.Body, false})
				return err
			case 1:
				body := fmt.Sprintf("terminal %d edited", i)
				record(*last, expectedDraft{session.ActorHuman, body, false})
				return f.human.EditComment(ctx, session.ActorHuman, *last, body)
			case 2:
				return f.human.SetCursor(ctx, session.ActorHuman, app.Cursor{Path: "calc.go", Side: changeset.SideNew, Line: i, Hunk: -1})
			default:
				d, on := hunks[(i/4)%3], (i/12)%2 == 0
				wantViewed[d] = on
				_, err := f.human.MarkViewed(ctx, session.ActorHuman, d, on)
				return err
			}
		}},
		{"browser", func(i int, last *string) error {
			switch i % 4 {
			case 0:
				id, err := browser.comment(lineFor(i), fmt.Sprintf("browser %d", i))
				*last = id
				record(id, expectedDraft{session.ActorHuman, fmt.Sprintf("browser %d", i), false})
				return err
			case 1:
				body := fmt.Sprintf("browser %d edited", i)
				record(*last, expectedDraft{session.ActorHuman, body, false})
				return browser.send("PATCH", "/comments/"+*last, fmt.Sprintf(`{"body":%q}`, body), http.StatusNoContent, nil)
			case 2:
				record(*last, expectedDraft{session.ActorHuman, fmt.Sprintf("browser %d edited", i-1), true})
				return browser.send("POST", "/comments/"+*last+"/resolve", `{"resolved":true}`, http.StatusNoContent, nil)
			default:
				return browser.send("PUT", "/cursor", fmt.Sprintf(`{"path":"dup.txt","side":"new","line":%d,"hunk":0}`, i), http.StatusNoContent, nil)
			}
		}},
		{"agent", func(i int, last *string) error {
			if i%2 == 0 {
				p, err := agent.Comment(ctx, session.ActorAgent, app.CommentRequest{Ref: lineFor(i), Body: fmt.Sprintf("agent %d", i)})
				record(p.ID, expectedDraft{session.ActorAgent, p.Body, false})
				return err
			}
			_, err := agent.Suggest(ctx, session.ActorAgent, app.SuggestionRequest{Path: "calc.go", Hunk: 1, Reason: fmt.Sprintf("agent %d", i)})
			return err
		}},
	}

	began := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, len(surfaces))
	for _, s := range surfaces {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last string
			for i := range loadOps {
				if err := s.run(i, &last); err != nil {
					errs <- fmt.Errorf("%s operation %d: %w", s.name, i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(began)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	total := len(surfaces) * loadOps
	t.Logf("%d operations (%d per surface, 3 surfaces concurrently) in %v: %.0f ops/s", total, loadOps, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds())

	// Every write is there, and each surface reads the same state.
	viaTerminal, err := f.human.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	viaAgent, _ := agent.Snapshot(ctx)
	var viaBrowser httpapi.State
	if err := browser.send("GET", "/state", "", http.StatusOK, &viaBrowser); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]summary{"terminal": summarize(viaTerminal), "agent": summarize(viaAgent), "browser": summarizeWire(viaBrowser)} {
		if diff := cmp.Diff(want, got.drafts); diff != "" {
			t.Errorf("drafts read by the %s (-written +read):\n%s", name, diff)
		}
		if diff := cmp.Diff(onlyTrue(wantViewed), got.viewed); diff != "" {
			t.Errorf("viewed marks read by the %s (-written +read):\n%s", name, diff)
		}
		if got.suggestions != loadOps/2 || got.cursor != summarize(viaAgent).cursor {
			t.Errorf("the %s reads %d suggestions and cursor %q; the agent %q", name, got.suggestions, got.cursor, summarize(viaAgent).cursor)
		}
	}
	if len(want) != loadOps/4*2+loadOps/2 {
		t.Errorf("%d drafts written, want %d", len(want), loadOps/4*2+loadOps/2)
	}

	// The human's drafts are on disk: a review reopened from the files
	// alone has all of them and none of the agent's.
	drafts, _ := store.New(filepath.Join(state, "drafts"), 1)
	book, _, err := app.LoadDraftBook(ctx, drafts, info, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	onDisk := map[string]expectedDraft{}
	for _, d := range book.Drafts() {
		onDisk[d.ID] = expectedDraft{d.Author, d.Body, d.Resolved}
	}
	humans := map[string]expectedDraft{}
	for id, d := range want {
		if d.Author == session.ActorHuman {
			humans[id] = d
		}
	}
	if diff := cmp.Diff(humans, onDisk); diff != "" {
		t.Errorf("the drafts file (-written +on disk):\n%s", diff)
	}
}

type expectedDraft struct {
	Author   session.Actor
	Body     string
	Resolved bool
}

// summary is what the load test compares across surfaces.
type summary struct {
	drafts      map[string]expectedDraft
	viewed      []string
	cursor      string
	suggestions int
}

func summarize(s *app.Snapshot) summary {
	out := summary{drafts: map[string]expectedDraft{}, suggestions: len(s.Suggestions),
		cursor: fmt.Sprintf("%s:%d:%d", s.Cursor.Path, s.Cursor.Line, s.Cursor.Hunk)}
	for _, d := range s.Drafts {
		out.drafts[d.ID] = expectedDraft{d.Author, d.Body, d.Resolved}
	}
	for d := range s.Viewed {
		out.viewed = append(out.viewed, d)
	}
	sort.Strings(out.viewed)
	return out
}

func summarizeWire(s httpapi.State) summary {
	out := summary{drafts: map[string]expectedDraft{}, suggestions: len(s.Suggestions), viewed: s.Viewed,
		cursor: fmt.Sprintf("%s:%d:%d", s.Cursor.Path, s.Cursor.Line, s.Cursor.Hunk)}
	for _, d := range s.Drafts {
		out.drafts[d.ID] = expectedDraft{d.Author, d.Body, d.Resolved}
	}
	return out
}

func onlyTrue(m map[string]bool) []string {
	var out []string
	for k, v := range m {
		if v {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// lineFor spreads comments over the lines the fixture shows.
func lineFor(i int) app.LineRef {
	refs := []app.LineRef{
		{Path: "calc.go", Side: changeset.SideNew, Start: 20},
		{Path: "calc.go", Side: changeset.SideNew, Start: 80},
		{Path: "dup.txt", Side: changeset.SideNew, Start: 8},
		{Path: "calc.go", Side: changeset.SideOld, Start: 20},
	}
	return refs[i%len(refs)]
}

// browserClient speaks to the API as the page does: the session cookie,
// same-origin headers, JSON by hand.
type browserClient struct {
	f      *fixture
	cookie string
	base   string
}

func (b *browserClient) comment(ref app.LineRef, body string) (string, error) {
	var d httpapi.Draft
	in := fmt.Sprintf(`{"path":%q,"side":%q,"start_line":%d,"body":%q}`, ref.Path, ref.Side, ref.Start, body)
	err := b.send("POST", "/comments", in, http.StatusCreated, &d)
	return d.ID, err
}

func (b *browserClient) send(method, path, body string, want int, out any) error {
	req, err := http.NewRequest(method, b.base+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Cookie", b.cookie)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if method != "GET" {
		req.Header.Set("Origin", "http://"+b.f.d.disc.Addr)
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %s %s", method, path, resp.Status, raw)
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}
