package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/config"
	"github.com/leanreview/leanreview/internal/daemon"
	"github.com/leanreview/leanreview/internal/gitrepo"
	"github.com/leanreview/leanreview/internal/iostreams"
	"github.com/leanreview/leanreview/internal/source"
	"github.com/leanreview/leanreview/internal/store"
	"github.com/spf13/cobra"
)

// Factory builds what commands need, lazily, from the process's
// environment. Tests build one with Test streams and their own Sources.
type Factory struct {
	IOStreams *iostreams.IOStreams
	// Sources is where configuration is read from.
	Sources config.Sources
	// Dir is the working directory sources are resolved from.
	Dir string
	// Git runs the git binary.
	Git gitrepo.Runner
	// Now and NewID are the clock and the draft id generator.
	Now   func() time.Time
	NewID func() string

	cfgOnce sync.Once
	cfg     *config.Config
	cfgErr  error
}

func newFactory(ios *iostreams.IOStreams, src config.Sources, dir string) *Factory {
	return &Factory{
		IOStreams: ios,
		Sources:   src,
		Dir:       dir,
		Git:       &gitrepo.ExecRunner{Env: src.Environ},
		Now:       time.Now,
		NewID:     randomID,
	}
}

// randomID returns 64 random bits in hex: unique enough for the drafts of
// one source, short enough to type.
func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Config loads the configuration once.
func (f *Factory) Config() (*config.Config, error) {
	f.cfgOnce.Do(func() {
		f.cfg, f.cfgErr = config.Load(f.Sources)
		if f.cfgErr != nil {
			f.cfgErr = usageError{f.cfgErr}
		}
	})
	return f.cfg, f.cfgErr
}

// sourceFlags are the flags every command that takes a SOURCE accepts.
type sourceFlags struct {
	Staged bool
	Base   string
}

func (sf *sourceFlags) register(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&sf.Staged, "staged", false, "review the index against HEAD")
	cmd.Flags().StringVar(&sf.Base, "base", "", "review the commits since the branch left `REF` (merge-base of REF and HEAD, to HEAD)")
}

// OpenSource resolves args into a source. Mistakes the user can fix are
// usage errors (exit status 2).
func (f *Factory) OpenSource(ctx context.Context, args []string, sf sourceFlags) (*source.Source, error) {
	src, err := source.Open(ctx, args, f.forgeOptions(ctx, source.Options{
		Dir:    f.Dir,
		Stdin:  f.IOStreams.In,
		Staged: sf.Staged,
		Base:   sf.Base,
		Git:    f.Git,
	}))
	var se *source.Error
	if errors.As(err, &se) {
		return nil, usageError{err}
	}
	return src, err
}

// Documents opens the drafts directory under the state directory.
func (f *Factory) Documents() (*store.Dir, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	return store.New(filepath.Join(cfg.Paths.StateDir, "drafts"), 1)
}

// ViewedDocuments opens the read-marks directory. The terminal's in-process
// review and the daemon must use this same directory, or the two would
// disagree about what has been read.
func (f *Factory) ViewedDocuments() (*store.Dir, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	return store.New(filepath.Join(cfg.Paths.StateDir, "viewed"), 1)
}

// connectDaemon returns the running daemon of this version, starting
// `leanreview serve` in the background when there is none, logging to
// daemon.log in the runtime directory so `leanreview mcp` and
// `--share` find and start the same daemon.
func (f *Factory) connectDaemon(ctx context.Context) (daemon.Discovery, error) {
	cfg, err := f.Config()
	if err != nil {
		return daemon.Discovery{}, err
	}
	run := cfg.Paths.RuntimeDir
	exe, err := os.Executable()
	if err != nil {
		return daemon.Discovery{}, fmt.Errorf("find leanreview to start its daemon: %w", err)
	}
	start := func() error {
		if err := daemon.PrepareRuntimeDir(run); err != nil {
			return err
		}
		return daemon.StartProcess(exe, []string{"serve"}, filepath.Join(run, "daemon.log"))
	}
	return daemon.Connect(ctx, daemon.ConnectOptions{RuntimeDir: run, Version: Version, Start: start})
}

func sourceInfo(src *source.Source) app.SourceInfo {
	return app.SourceInfo{Kind: src.Kind.String(), Key: src.Key, Label: src.Label}
}

// OpenReview reads src and its drafts, telling the user about anything that
// had to be repaired on the way.
func (f *Factory) OpenReview(ctx context.Context, src *source.Source) (*app.Review, error) {
	docs, err := f.Documents()
	if err != nil {
		return nil, err
	}
	r, notices, err := app.OpenReview(ctx, sourceInfo(src), src, app.Deps{Documents: docs, Now: f.Now, NewID: f.NewID})
	if err != nil {
		return nil, parseFailure(err)
	}
	for _, n := range notices {
		fmt.Fprintf(f.IOStreams.ErrOut, "leanreview: %s\n", n)
	}
	return r, nil
}

// ReadChangeset opens args' source, reads its patch and parses it. A patch
// the parser refuses is a usage error, like a source that cannot be opened.
func (f *Factory) ReadChangeset(ctx context.Context, args []string, sf sourceFlags) (*source.Source, *changeset.Changeset, error) {
	src, err := f.OpenSource(ctx, args, sf)
	if err != nil {
		return nil, nil, err
	}
	patch, err := src.Patch(ctx)
	if err != nil {
		return nil, nil, err
	}
	cs, err := changeset.ParseBytes(patch)
	if err != nil {
		return nil, nil, parseFailure(fmt.Errorf("read %s: %w", src.Label, err))
	}
	return src, cs, nil
}

// parseFailure makes a patch the parser refuses a usage error: the input is
// the user's to fix.
func parseFailure(err error) error {
	var pe *changeset.ParseError
	if errors.As(err, &pe) || errors.Is(err, changeset.ErrUnsupportedDialect) {
		return usageError{err}
	}
	return err
}
