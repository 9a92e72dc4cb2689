package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"time"
)

// ConnectOptions say which daemon to reach and how to start one.
type ConnectOptions struct {
	RuntimeDir string
	// Version is the caller's version: a daemon of another version is
	// asked to stop and replaced.
	Version string
	// Start launches a daemon in the background (typically
	// `leanreview serve` detached, see StartProcess); nil makes Connect
	// fail when none is running.
	Start func() error
	// Timeout bounds the wait for a daemon to stop or to come up; 0 is
	// ten seconds.
	Timeout time.Duration
	// HTTP makes the probes; nil is a client with a two-second timeout.
	HTTP *http.Client
}

// Connect returns the discovery of a running daemon of opts.Version,
// starting one if none is running and replacing one of another version.
func Connect(ctx context.Context, opts ConnectOptions) (Discovery, error) {
	opts = opts.withDefaults()
	d, running, err := probe(ctx, opts)
	if err != nil {
		return Discovery{}, err
	}
	if running && d.Version == opts.Version {
		return d, nil
	}
	if running {
		if err := stopDaemon(ctx, opts, d); err != nil {
			return Discovery{}, err
		}
	}
	if opts.Start == nil {
		return Discovery{}, ErrNoDaemon
	}
	if err := opts.Start(); err != nil {
		return Discovery{}, fmt.Errorf("start the daemon: %w", err)
	}
	return waitFor(ctx, opts, func(d Discovery, running bool) bool { return running && d.Version == opts.Version })
}

// Replace makes way for a new daemon of opts.Version: a running daemon of
// another version is asked to stop and waited for; one of the same version
// is an error saying where it runs. `leanreview serve` calls it before New.
func Replace(ctx context.Context, opts ConnectOptions) error {
	opts = opts.withDefaults()
	d, running, err := probe(ctx, opts)
	if err != nil || !running {
		return err
	}
	if d.Version == opts.Version {
		return fmt.Errorf("a leanreview daemon (pid %d) already serves %s: %w", d.PID, d.BaseURL(), errLocked)
	}
	return stopDaemon(ctx, opts, d)
}

func (o ConnectOptions) withDefaults() ConnectOptions {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.HTTP == nil {
		o.HTTP = &http.Client{Timeout: 2 * time.Second}
	}
	return o
}

// probe reads the discovery file and asks the daemon it names for its
// version. A file naming a daemon that does not answer is left over from
// one that died: running is false.
func probe(ctx context.Context, opts ConnectOptions) (d Discovery, running bool, err error) {
	d, err = ReadDiscovery(opts.RuntimeDir)
	if errors.Is(err, ErrNoDaemon) {
		return d, false, nil
	}
	if err != nil {
		return d, false, err
	}
	var v VersionInfo
	if err := call(ctx, opts.HTTP, d, http.MethodGet, "/api/v1/version", &v); err != nil {
		return d, false, nil
	}
	d.Version = v.Version
	return d, true, nil
}

// stopDaemon asks d to stop and waits until it no longer answers.
func stopDaemon(ctx context.Context, opts ConnectOptions, d Discovery) error {
	if err := call(ctx, opts.HTTP, d, http.MethodPost, "/api/v1/shutdown", nil); err != nil {
		return fmt.Errorf("ask the daemon of version %s (pid %d) to stop: %w", d.Version, d.PID, err)
	}
	// Gone means its lock is free: it stops answering before it has
	// released the lock, and a successor started earlier would fail.
	_, err := waitFor(ctx, opts, func(Discovery, bool) bool { return lockFree(opts.RuntimeDir) })
	if err != nil {
		return fmt.Errorf("the daemon of version %s (pid %d) did not stop: %w", d.Version, d.PID, err)
	}
	return nil
}

// lockFree reports whether no daemon holds the lock in dir.
func lockFree(dir string) bool {
	f, err := lockFile(filepath.Join(dir, lockName))
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// waitFor polls the discovery file until ok, ctx ends or opts.Timeout.
func waitFor(ctx context.Context, opts ConnectOptions, ok func(Discovery, bool) bool) (Discovery, error) {
	deadline := time.Now().Add(opts.Timeout)
	for {
		d, running, err := probe(ctx, opts)
		if err == nil && ok(d, running) {
			return d, nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = fmt.Errorf("no answer within %v", opts.Timeout)
			}
			return Discovery{}, err
		}
		select {
		case <-ctx.Done():
			return Discovery{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// call makes an authenticated request to d and decodes a 2xx answer into
// out (nil: ignore it).
func call(ctx context.Context, hc *http.Client, d Discovery, method, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, d.BaseURL()+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+d.Token)
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
