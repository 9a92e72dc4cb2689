package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"sync"
)

// OpenRequest names a review source the way the command line does, with
// relative paths and the repository resolved from Dir.
type OpenRequest struct {
	Args   []string
	Dir    string
	Staged bool
	Base   string
}

// OpenedSource is a source an Opener resolved.
type OpenedSource struct {
	Info   SourceInfo
	Source PatchSource
	// Watch is the directory tree whose changes can move the patch (the
	// repository's work tree for a git comparison), or "" for a source
	// that cannot move (a patch file).
	Watch string
}

// Opener resolves an OpenRequest into a source with its identity key. A
// request the user can fix (no such file, an unknown revision) is an error
// wrapping ErrInvalid. The command wiring provides it.
type Opener interface {
	OpenSource(ctx context.Context, req OpenRequest) (OpenedSource, error)
}

// Watcher reports changes under a directory tree: Watch calls changed, from
// any goroutine and coalescing bursts as it sees fit, until ctx ends, and
// returns when it does. An error means the tree cannot be watched.
type Watcher interface {
	Watch(ctx context.Context, root string, changed func()) error
}

// RegistryDeps are what a Registry is built from.
type RegistryDeps struct {
	// Deps persist the human's drafts and stamp time and ids.
	Deps
	// Viewed persists read marks; nil keeps them in memory.
	Viewed Documents
	Opener Opener
	// Watcher, when not nil, watches each session's Watch tree and reloads
	// the session on every change it reports.
	Watcher Watcher
	// Log receives what cannot be returned to a caller (a reload that
	// failed after a change on disk); nil discards it.
	Log *slog.Logger
}

// Registry holds the live reviews of one daemon, one per source identity
// key: opening a source that is already open joins it, so every surface
// attached to a source shares one cursor, one suggestion queue and one set
// of drafts. A Registry is safe for concurrent use.
type Registry struct {
	deps   RegistryDeps
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	sessions map[string]*liveEntry
	wg       sync.WaitGroup
}

// liveEntry is one session, ready once ready is closed; then svc or err is
// set and never changes.
type liveEntry struct {
	ready chan struct{}
	info  SourceInfo
	svc   *Local
	err   error
}

// NewRegistry returns an empty Registry. Close stops its watchers.
func NewRegistry(deps RegistryDeps) *Registry {
	if deps.Log == nil {
		deps.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Registry{deps: deps, ctx: ctx, cancel: cancel, sessions: map[string]*liveEntry{}}
}

// Open returns the session for req's source, opening it (reading the source
// and its drafts and marks) on first use and joining it afterwards. Two
// concurrent Opens of one source open it once.
func (r *Registry) Open(ctx context.Context, req OpenRequest) (SourceInfo, Service, error) {
	src, err := r.deps.Opener.OpenSource(ctx, req)
	if err != nil {
		return SourceInfo{}, nil, err
	}
	key := src.Info.Key
	r.mu.Lock()
	if r.ctx.Err() != nil {
		r.mu.Unlock()
		return SourceInfo{}, nil, fmt.Errorf("open %s: the daemon is shutting down", src.Info.Label)
	}
	e, ok := r.sessions[key]
	if !ok {
		e = &liveEntry{ready: make(chan struct{}), info: src.Info}
		r.sessions[key] = e
	}
	r.mu.Unlock()
	if ok {
		select {
		case <-e.ready:
		case <-ctx.Done():
			return SourceInfo{}, nil, ctx.Err()
		}
		if e.err != nil {
			return SourceInfo{}, nil, e.err
		}
		if src.Watch != "" {
			// A joiner must not be served a frozen copy if the watcher
			// missed a change (or could not watch): one diff settles it.
			if err := e.svc.Reload(ctx); err != nil {
				r.deps.Log.Warn("reload on join failed", "session", key, "err", err)
			}
		}
		return e.info, e.svc, nil
	}
	e.svc, e.err = NewLocal(ctx, LocalDeps{Deps: r.deps.Deps, Info: src.Info, Source: src.Source, Viewed: r.deps.Viewed})
	if e.err != nil {
		r.mu.Lock()
		delete(r.sessions, key)
		r.mu.Unlock()
		close(e.ready)
		return SourceInfo{}, nil, e.err
	}
	close(e.ready)
	if src.Watch != "" && r.deps.Watcher != nil {
		r.watch(key, src.Watch, e.svc)
	}
	return e.info, e.svc, nil
}

// watch reloads svc whenever the watcher reports a change under root.
func (r *Registry) watch(key, root string, svc *Local) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		err := r.deps.Watcher.Watch(r.ctx, root, func() {
			if err := svc.Reload(r.ctx); err != nil && r.ctx.Err() == nil {
				r.deps.Log.Warn("reload after a change on disk failed", "session", key, "err", err)
			}
		})
		if err != nil && r.ctx.Err() == nil {
			r.deps.Log.Warn("cannot watch the source; surfaces must reload by hand", "session", key, "root", root, "err", err)
		}
	}()
}

// Get returns the open session with key, false when there is none (or it
// is still opening).
func (r *Registry) Get(key string) (Service, bool) {
	r.mu.Lock()
	e := r.sessions[key]
	r.mu.Unlock()
	if e == nil {
		return nil, false
	}
	select {
	case <-e.ready:
		if e.err != nil {
			return nil, false
		}
		return e.svc, true
	default:
		return nil, false
	}
}

// List returns the open sessions' sources, ordered by key.
func (r *Registry) List() []SourceInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]SourceInfo, 0, len(r.sessions))
	for _, e := range r.sessions {
		select {
		case <-e.ready:
			if e.err == nil {
				out = append(out, e.info)
			}
		default:
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Close stops every watcher and waits for them; Open fails afterwards.
// Sessions stay readable: their drafts and marks are already on disk.
func (r *Registry) Close() {
	r.mu.Lock()
	r.cancel()
	r.mu.Unlock()
	r.wg.Wait()
}
