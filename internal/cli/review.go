package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/config"
	"github.com/leanreview/leanreview/internal/editor"
	"github.com/leanreview/leanreview/internal/store"
	"github.com/leanreview/leanreview/internal/tui"
)

// reviewRun opens SOURCE (or, when demo is set by --demo, the sample
// change built into the binary) in the terminal UI. The source is resolved first, so a
// mistake in the arguments is reported before the UI takes the screen;
// reading and parsing the patch happen inside the UI, which shows
// progress meanwhile.
func reviewRun(ctx context.Context, f *Factory, opts *RootOptions, demo bool) error {
	if !f.IOStreams.OutTTY {
		return usageError{errors.New("the review UI needs a terminal; to print a change use `leanreview inspect`")}
	}
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	km, err := tui.NewKeymap(cfg.Keys)
	if err != nil {
		return usageError{fmt.Errorf("%s: %w", cfg.File, err)}
	}
	var info app.SourceInfo
	var src app.PatchSource
	if demo {
		info, src = demoSource()
	} else {
		s, err := f.OpenSource(ctx, opts.Args, opts.Source)
		if err != nil {
			return err
		}
		info, src = sourceInfo(s), s
	}
	open := func(ctx context.Context) (app.Service, error) {
		return f.openLocal(ctx, cfg, info, src)
	}
	ed := &lazyEditor{settings: editor.SettingsFrom(cfg, editor.GitVar(f.Dir, f.Sources.Environ))}
	return tui.Run(ctx, tui.Options{
		Open:     open,
		Label:    info.Label,
		Editor:   ed,
		Keymap:   km,
		Settings: tui.SettingsFrom(cfg),
	}, f.IOStreams, f.Sources.Environ)
}

// openLocal reads and parses src and loads its drafts and read marks into
// an in-process review service.
func (f *Factory) openLocal(ctx context.Context, cfg *config.Config, info app.SourceInfo, src app.PatchSource) (app.Service, error) {
	docs, err := f.Documents()
	if err != nil {
		return nil, err
	}
	viewed, err := store.New(filepath.Join(cfg.Paths.StateDir, "viewed"), 1)
	if err != nil {
		return nil, err
	}
	svc, err := app.NewLocal(ctx, app.LocalDeps{
		Deps:   app.Deps{Documents: docs, Now: f.Now, NewID: f.NewID},
		Info:   info,
		Source: src,
		Viewed: viewed,
	})
	if err != nil {
		return nil, parseFailure(err)
	}
	return svc, nil
}

// lazyEditor resolves the editor the first time a comment is written, so
// starting the UI never waits for `git var GIT_EDITOR`, and a bad editor
// setting is reported when it matters rather than refusing to start.
type lazyEditor struct {
	settings editor.Settings
	once     sync.Once
	ed       *editor.Editor
	err      error
}

// Prepare implements tui.CommentEditor.
func (l *lazyEditor) Prepare(ctx context.Context, req editor.Request) (*editor.Buffer, error) {
	l.once.Do(func() {
		cmd, err := editor.Resolve(ctx, l.settings)
		l.ed, l.err = &editor.Editor{Command: cmd}, err
	})
	if l.err != nil {
		return nil, l.err
	}
	return l.ed.Prepare(ctx, req)
}
