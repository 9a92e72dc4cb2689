package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/leanreview/leanreview/internal/httpapi"
)

// Options configure a Daemon.
type Options struct {
	// Version is this binary's version, written to the discovery file; a
	// daemon of another version is replaced (see Connect and Serve).
	Version string
	// RuntimeDir holds the discovery file and the lock (config's
	// Paths.RuntimeDir).
	RuntimeDir string
	// Addr is the loopback address to listen on; "" is DefaultAddr.
	Addr string
	// Sessions are the live reviews the API serves (an *app.Registry).
	Sessions httpapi.Sessions
	// Web serves "/" and everything not otherwise routed, unauthenticated
	// but Host-checked: the browser page, which authenticates its API calls
	// with the session cookie. Nil serves a placeholder.
	Web http.Handler
	// Mounts are further authenticated handlers by path pattern, such as
	// "/mcp" for the agent's streamable-HTTP transport. Each gets the same
	// Host, token, Origin and body checks as the API.
	Mounts map[string]http.Handler
	// IdleTimeout stops the daemon after this long with no request in
	// flight (an open event stream counts); 0 never does.
	IdleTimeout time.Duration
	// MaxBody caps request bodies; 0 is DefaultMaxBody.
	MaxBody int64
	// Log receives the daemon's own events; nil discards them.
	Log *slog.Logger
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Daemon is the listening process. Build it with New, run it with Serve.
type Daemon struct {
	opts  Options
	ln    net.Listener
	addr  string
	token string
	lock  io.Closer
	// started is when New ran, for the discovery file.
	started time.Time
	guard   *guard
	codes   *loginCodes
	act     *activity
	log     *slog.Logger

	stopOnce sync.Once
	stop     chan struct{} // closed by an authenticated shutdown request
}

var errLocked = errors.New("another leanreview daemon is running")

// lockName is the per-user lock's file in the runtime directory, held by
// the running daemon for its whole life.
const lockName = "daemon.lock"

// New takes the per-user lock, listens on opts.Addr (loopback only) and
// mints the token. It fails with errLocked-wrapped error when another
// daemon holds the lock; Replace asks one of another version to stop.
func New(opts Options) (*Daemon, error) {
	if opts.Addr == "" {
		opts.Addr = DefaultAddr
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Sessions == nil {
		return nil, errors.New("daemon: no sessions to serve")
	}
	if err := PrepareRuntimeDir(opts.RuntimeDir); err != nil {
		return nil, err
	}
	lock, err := lockFile(filepath.Join(opts.RuntimeDir, lockName))
	if err != nil {
		return nil, err
	}
	ln, err := Listen(opts.Addr)
	if err != nil {
		lock.Close()
		return nil, err
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	d := &Daemon{
		opts: opts, ln: ln, addr: ln.Addr().String(), token: newSecret(), lock: lock, log: opts.Log, started: opts.Now(),
		codes: &loginCodes{now: opts.Now, codes: map[string]time.Time{}},
		act:   &activity{now: opts.Now, last: opts.Now()},
		stop:  make(chan struct{}),
	}
	d.guard = &guard{port: port, token: d.token, maxBody: opts.MaxBody, cookies: map[string]bool{}}
	return d, nil
}

// Discovery is what the discovery file says about this daemon.
func (d *Daemon) Discovery() Discovery {
	return Discovery{Version: d.opts.Version, Addr: d.addr, Token: d.token, PID: os.Getpid(), Started: d.started}
}

// LoginURL mints a one-time URL that logs a browser in (five minutes).
func (d *Daemon) LoginURL() string { return d.loginURL() }

// Handler is the daemon's whole HTTP surface with every check applied.
func (d *Daemon) Handler() http.Handler {
	g := d.guard
	api := g.authenticate(httpapi.NewServer(d.opts.Sessions))
	mux := http.NewServeMux()
	mux.Handle(httpapi.Prefix+"/", api)
	mux.Handle("GET "+httpapi.Prefix+"/version", g.authenticate(http.HandlerFunc(d.handleVersion)))
	mux.Handle("POST "+httpapi.Prefix+"/shutdown", g.authenticate(http.HandlerFunc(d.handleShutdown)))
	mux.Handle("POST "+httpapi.Prefix+"/login-url", g.authenticate(http.HandlerFunc(d.handleLoginURL)))
	mux.HandleFunc("POST "+httpapi.Prefix+"/login", d.handleLogin)
	mux.HandleFunc("GET /login", serveLoginPage)
	mux.HandleFunc("GET /login.js", serveLoginScript)
	for pattern, h := range d.opts.Mounts {
		mux.Handle(pattern, g.authenticate(h))
	}
	web := d.opts.Web
	if web == nil {
		web = http.HandlerFunc(placeholder)
	}
	mux.Handle("/", web)
	return d.act.track(g.checkHost(g.capBody(mux)))
}

// Serve writes the discovery file and serves until ctx ends, an
// authenticated shutdown request arrives, or the daemon has been idle for
// IdleTimeout. It then stops accepting, ends open event streams, waits up
// to five seconds for requests in flight, removes the discovery file and
// releases the lock.
func (d *Daemon) Serve(ctx context.Context) error {
	defer d.lock.Close()
	if err := WriteDiscovery(d.opts.RuntimeDir, d.Discovery()); err != nil {
		d.ln.Close()
		return err
	}
	defer removeDiscovery(d.opts.RuntimeDir, d.token)
	base, cancelBase := context.WithCancel(context.Background())
	defer cancelBase()
	srv := &http.Server{
		Handler:           d.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          slog.NewLogLogger(d.log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(d.ln) }()
	d.log.Info("serving", "addr", d.addr, "version", d.opts.Version, "pid", os.Getpid())

	idle := make(chan struct{})
	go func() { d.act.waitIdle(d.opts.IdleTimeout, d.stop); close(idle) }()
	var err error
	select {
	case <-ctx.Done():
		d.log.Info("stopping: interrupted")
	case <-d.stop:
		d.log.Info("stopping: asked to")
	case <-idle:
		d.log.Info("stopping: idle", "for", d.opts.IdleTimeout)
	case err = <-served:
		return fmt.Errorf("serve: %w", err)
	}
	cancelBase() // ends event streams, which would hold Shutdown open
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	d.stopOnce.Do(func() { close(d.stop) })
	return err
}

// VersionInfo is the answer of GET /api/v1/version.
type VersionInfo struct {
	Version string `json:"version"`
	PID     int    `json:"pid"`
}

func (d *Daemon) handleVersion(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, VersionInfo{Version: d.opts.Version, PID: os.Getpid()})
}

// handleShutdown stops the daemon: how a newer version replaces it.
func (d *Daemon) handleShutdown(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusAccepted)
	d.stopOnce.Do(func() { close(d.stop) })
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func decodeJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("read the request body: %w", err)
	}
	return nil
}
