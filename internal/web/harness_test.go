package web_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/app/apptest"
	"github.com/leanreview/leanreview/internal/daemon"
	"github.com/leanreview/leanreview/internal/gitrepo"
	"github.com/leanreview/leanreview/internal/httpapi"
	"github.com/leanreview/leanreview/internal/mcp"
	"github.com/leanreview/leanreview/internal/store"
	"github.com/leanreview/leanreview/internal/web"
)

// chromiumPath is the browser the end-to-end tests drive: Debian's
// chromium, which scripts/test installs.
const chromiumPath = "/usr/bin/chromium"

// dirs are the XDG directories one test's daemon and binary share, so the
// built leanreview reads the drafts the daemon wrote.
type dirs struct {
	home, state, runtime, config string
}

func newDirs(t testing.TB) dirs {
	root := t.TempDir()
	d := dirs{home: filepath.Join(root, "home"), state: filepath.Join(root, "state"), runtime: filepath.Join(root, "run"), config: filepath.Join(root, "config")}
	for _, p := range []string{d.home, d.state, d.config} {
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(d.runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	return d
}

// environ is the environment a leanreview process needs to share them.
func (d dirs) environ() []string {
	return []string{"HOME=" + d.home, "XDG_STATE_HOME=" + d.state, "XDG_RUNTIME_DIR=" + d.runtime,
		"XDG_CONFIG_HOME=" + d.config, "PATH=" + os.Getenv("PATH")}
}

// server is a real daemon serving this package's page on loopback, in this
// process, with the agent's MCP endpoint mounted as `leanreview serve`
// mounts it, and one review open.
type server struct {
	dirs dirs
	reg  *app.Registry
	disc daemon.Discovery
	d    *daemon.Daemon
	id   string
	// patch is the patch file served, "" for another source.
	patch string
	// human is the terminal side: the Go HTTP client the terminal UI uses
	// with --share.
	human *httpapi.Session
}

// startServer serves patch (a file path) until the test ends.
func startServer(t testing.TB, patch string) *server {
	t.Helper()
	abs, err := filepath.Abs(patch)
	if err != nil {
		t.Fatal(err)
	}
	s := startServerArgs(t, filepath.Dir(abs), []string{abs})
	s.patch = abs
	return s
}

// startServerArgs serves the source args name from dir, as the command
// line would open it there.
func startServerArgs(t testing.TB, dir string, args []string) *server {
	t.Helper()
	ds := newDirs(t)
	stateDir := filepath.Join(ds.state, "leanreview")
	drafts, err := store.New(filepath.Join(stateDir, "drafts"), 1)
	if err != nil {
		t.Fatal(err)
	}
	viewed, err := store.New(filepath.Join(stateDir, "viewed"), 1)
	if err != nil {
		t.Fatal(err)
	}
	reg := app.NewRegistry(app.RegistryDeps{
		Deps:   app.Deps{Documents: drafts, Now: time.Now, NewID: apptest.IDs("d")},
		Viewed: viewed,
		Opener: daemon.SourceOpener{Git: &gitrepo.ExecRunner{Env: os.Environ()}},
	})
	t.Cleanup(reg.Close)
	agent := mcp.NewHandler(mcp.PathResolver(reg.Get), mcp.Options{Version: "test"})
	run := filepath.Join(ds.runtime, "leanreview")
	d, err := daemon.New(daemon.Options{
		Version: "test", RuntimeDir: run, Addr: "127.0.0.1:0", Sessions: reg,
		Web: web.NewHandler(), Mounts: map[string]http.Handler{mcp.MountPattern: agent},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { _ = d.Serve(ctx); close(stopped) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-stopped:
		case <-time.After(10 * time.Second):
			t.Error("the daemon did not stop within 10s")
		}
	})
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := daemon.ReadDiscovery(run); err == nil {
			break
		} else if !errors.Is(err, daemon.ErrNoDaemon) || time.Now().After(deadline) {
			t.Fatalf("the daemon did not come up: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	disc := d.Discovery()
	client, err := httpapi.NewClient(disc.BaseURL(), disc.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := client.Open(context.Background(), app.OpenRequest{Args: args, Dir: dir})
	if err != nil {
		t.Fatalf("open %v in the daemon: %v", args, err)
	}
	return &server{dirs: ds, reg: reg, disc: disc, d: d, id: sess.ID(), human: sess}
}

// service is the review as the daemon holds it.
func (s *server) service(t testing.TB) app.Service {
	t.Helper()
	svc, ok := s.reg.Get(s.id)
	if !ok {
		t.Fatalf("session %s is not open", s.id)
	}
	return svc
}

func (s *server) snapshot(t testing.TB) *app.Snapshot {
	t.Helper()
	snap, err := s.service(t).Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// browser is one headless Chromium tab and what it reported.
type browser struct {
	ctx  context.Context
	base string

	mu         sync.Mutex
	dialogs    []string
	exceptions []string
	logs       []string
	requests   []string
}

// needChromium skips the test when the browser is not installed.
func needChromium(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err == nil {
		return chromiumPath
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	t.Skipf("chromium is not installed (%s): the browser tests need it; scripts/test installs it with apt-get", chromiumPath)
	return ""
}

// newBrowser starts a fresh headless Chromium (its own profile) with a
// window of w x h CSS pixels, for pages of base.
func newBrowser(t testing.TB, base string, w, h int) *browser {
	t.Helper()
	exe := needChromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // the tests run as root
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(w, h),
		chromedp.Flag("disable-component-update", true),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	b := &browser{ctx: ctx, base: base}
	err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *page.EventJavascriptDialogOpening:
			b.dialogs = append(b.dialogs, string(ev.Type)+": "+ev.Message)
			go func() { _, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{}) }()
		case *runtime.EventExceptionThrown:
			b.exceptions = append(b.exceptions, (&chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails}).Error())
		case *log.EventEntryAdded:
			b.logs = append(b.logs, fmt.Sprintf("%s %s: %s %s", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				b.logs = append(b.logs, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(parts, " ")))
			}
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, ev.Request.URL)
		}
	})
	if err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	for _, enable := range []func() error{
		func() error { _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); return err },
		func() error { _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); return err },
		func() error { _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); return err },
		func() error { _, err := chromedp.Call(ctx, page.Enable, page.EnableParams{}); return err },
	} {
		if err := enable(); err != nil {
			t.Fatalf("start chromium: %v", err)
		}
	}
	return b
}

// login opens the URL the daemon prints for `serve --open` and waits for
// the review page to be ready.
func (b *browser) login(t testing.TB, s *server) {
	t.Helper()
	b.do(t, "open the login URL", chromedp.Navigate(s.d.LoginURL()))
	b.waitReady(t)
}

func (b *browser) waitReady(t testing.TB) {
	t.Helper()
	b.waitJS(t, "the page to be ready", `document.body.dataset.state === "ready"`)
}

// do runs actions, failing the test on an error.
func (b *browser) do(t testing.TB, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v\n%s", what, err, b.report())
	}
}

// click clicks the element sel (CSS) matches, with Shift held when shift
// is set. Rows are re-rendered whenever the review state changes, so a
// node found by the query may be replaced before the click lands; the
// click is then tried again on the new one.
func (b *browser) click(t testing.TB, what, sel string, shift bool) {
	t.Helper()
	var opts []chromedp.MouseOption
	if shift {
		opts = append(opts, chromedp.ButtonModifiers(chromedp.ModifierShift))
	}
	act := chromedp.QueryAfter(chromedp.CSS(sel), func(ctx context.Context, tg *chromedp.Target, nodes []*chromedp.Node) (chromedp.Void, error) {
		return chromedp.MouseClickNode(nodes[0], opts...)(ctx, tg)
	}, chromedp.NodeVisible)
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		_, err = chromedp.Run(ctx, act)
		cancel()
		if err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s (click %s): %v\n%s", what, sel, err, b.report())
}

// evalJS evaluates a JavaScript expression in the page.
func evalJS[T any](t testing.TB, b *browser, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v\n%s", expr, err, b.report())
	}
	return v
}

// waitJS waits up to 10s for expr to be true.
func (b *browser) waitJS(t testing.TB, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			if png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot()); err == nil {
				_ = os.WriteFile("/tmp/fail.png", png, 0o644)
			}
			t.Fatalf("waited 10s for %s (%s): %v\n%s", what, expr, err, b.report())
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// key presses keys on the page, one at a time.
func (b *browser) key(t testing.TB, keys ...string) {
	t.Helper()
	for _, k := range keys {
		b.do(t, "press "+k, chromedp.KeyEvent(k))
	}
}

// screenshot captures the viewport as PNG.
func (b *browser) screenshot(t testing.TB) []byte {
	t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("capture a screenshot: %v", err)
	}
	return png
}

// report lists what the browser said: exceptions, console errors, dialogs.
func (b *browser) report() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var s strings.Builder
	for _, e := range b.exceptions {
		fmt.Fprintf(&s, "exception: %s\n", e)
	}
	for _, l := range b.logs {
		fmt.Fprintf(&s, "log: %s\n", l)
	}
	for _, d := range b.dialogs {
		fmt.Fprintf(&s, "dialog: %s\n", d)
	}
	return s.String()
}

// checkClean fails the test on any script error, console error, policy
// violation, dialog, or request to anywhere but the daemon.
func (b *browser) checkClean(t testing.TB) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.exceptions {
		t.Errorf("the page threw: %s", e)
	}
	for _, l := range b.logs {
		t.Errorf("the browser logged: %s", l)
	}
	for _, d := range b.dialogs {
		t.Errorf("a dialog opened: %s", d)
	}
	for _, u := range b.requests {
		if !strings.HasPrefix(u, b.base+"/") && u != b.base {
			t.Errorf("the page requested %s, outside the daemon %s", u, b.base)
		}
	}
}
