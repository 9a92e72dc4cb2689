package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/daemon"
	"github.com/leanreview/leanreview/internal/httpapi"
	"github.com/leanreview/leanreview/internal/mcp"
	"github.com/leanreview/leanreview/internal/web"
	"github.com/spf13/cobra"
)

// ServeOptions are the inputs of `leanreview serve`.
type ServeOptions struct {
	Addr string
	Open bool
	Idle time.Duration
}

// defaultIdle is how long a daemon nobody talks to keeps running.
const defaultIdle = 30 * time.Minute

func newCmdServe(f *Factory, runF func(context.Context, *ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{}
	cmd := &cobra.Command{
		Use:   "serve [--open] [--addr 127.0.0.1:PORT] [--idle DURATION]",
		Short: "Run the review daemon that the terminal, the browser and the agent share",
		Long: `Run leanreview's daemon in the foreground: one per user, on loopback only.
It holds the live reviews, so a comment, a viewed mark or the cursor moved
in one surface is seen at once by the others. Clients find it through a
discovery file (address and token, mode 0600) in the runtime directory.
A daemon of another version is asked to stop and replaced.`,
		Example: `  leanreview serve --open
  leanreview serve --addr 127.0.0.1:7777 --idle 2h`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Idle < 0 {
				return usageError{fmt.Errorf("--idle must not be negative; 0 never stops")}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return serveRun(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Addr, "addr", daemon.DefaultAddr, "loopback `ADDRESS` to listen on")
	cmd.Flags().BoolVar(&opts.Open, "open", false, "print a one-time URL that logs a browser in")
	cmd.Flags().DurationVar(&opts.Idle, "idle", defaultIdle, "stop after this long with no client (0: never)")
	return cmd
}

func serveRun(ctx context.Context, f *Factory, opts *ServeOptions) error {
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(f.IOStreams.ErrOut, nil))
	run := cfg.Paths.RuntimeDir
	if err := daemon.Replace(ctx, daemon.ConnectOptions{RuntimeDir: run, Version: Version}); err != nil {
		return err
	}
	reg, err := f.registry(log)
	if err != nil {
		return err
	}
	defer reg.Close()
	agent := mcp.NewHandler(mcp.PathResolver(reg.Get), mcp.Options{Version: Version, Logger: log})
	d, err := daemon.New(daemon.Options{
		Version: Version, RuntimeDir: run, Addr: opts.Addr, Sessions: reg, IdleTimeout: opts.Idle, Log: log,
		Mounts: map[string]http.Handler{mcp.MountPattern: agent}, Web: web.NewHandler(),
	})
	if errors.Is(err, daemon.ErrNotLoopback) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	disc := d.Discovery()
	fmt.Fprintf(f.IOStreams.Out, "leanreview %s serving on %s (discovery file %s)\n", Version, disc.BaseURL(), filepath.Join(run, daemon.DiscoveryFile))
	if opts.Open {
		fmt.Fprintf(f.IOStreams.Out, "Open this link to log your browser in (once, within 5 minutes):\n  %s\n", d.LoginURL())
	}
	return d.Serve(ctx)
}

// registry builds the daemon's session registry: the same drafts and
// viewed-mark files the terminal uses, sources opened as the command line
// opens them, git work trees watched.
func (f *Factory) registry(log *slog.Logger) (*app.Registry, error) {
	docs, err := f.Documents()
	if err != nil {
		return nil, err
	}
	viewed, err := f.ViewedDocuments()
	if err != nil {
		return nil, err
	}
	return app.NewRegistry(app.RegistryDeps{
		Deps:    app.Deps{Documents: docs, Now: f.Now, NewID: f.NewID},
		Viewed:  viewed,
		Opener:  daemon.SourceOpener{Git: f.Git},
		Watcher: daemon.TreeWatcher{Log: log},
		Log:     log,
	}), nil
}

// SharedService is `leanreview --share SOURCE`: it joins the user's
// daemon (starting `leanreview serve` in the background when none runs,
// replacing one of another version) and opens args' source in it. The
// terminal UI uses the returned session as its app.Service; loginURL logs
// a browser into the same review, once, within five minutes.
func (f *Factory) SharedService(ctx context.Context, args []string, sf sourceFlags) (svc *httpapi.Session, loginURL string, err error) {
	disc, err := f.connectDaemon(ctx)
	if err != nil {
		return nil, "", err
	}
	client, err := httpapi.NewClient(disc.BaseURL(), disc.Token, nil)
	if err != nil {
		return nil, "", err
	}
	svc, err = client.Open(ctx, app.OpenRequest{Args: args, Dir: f.Dir, Staged: sf.Staged, Base: sf.Base})
	if errors.Is(err, app.ErrInvalid) {
		return nil, "", usageError{err}
	}
	if err != nil {
		return nil, "", err
	}
	loginURL, err = client.LoginURL(ctx)
	return svc, loginURL, err
}
