package cli

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/config"
	"github.com/leanreview/leanreview/internal/editor"
	"github.com/leanreview/leanreview/internal/source"
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
	var threads tui.ThreadSource
	var submitter tui.Submitter
	if demo {
		info, src = demoSource()
	} else {
		s, err := f.OpenSource(ctx, opts.Args, opts.Source)
		if err != nil {
			return err
		}
		info, src = sourceInfo(s), s
		if s.Kind == source.KindGitHub || s.Kind == source.KindGitLab {
			conv, err := f.conversation(ctx, s)
			if err != nil {
				return err
			}
			sub, err := f.submitter(ctx, s)
			if err != nil {
				return err
			}
			threads, submitter = conv, sub
		}
	}
	open := func(ctx context.Context) (app.Service, error) {
		return f.openLocal(ctx, cfg, info, budgetedSource{src})
	}
	if opts.Share {
		if demo {
			return usageError{errors.New("--share needs a SOURCE the daemon can open; --demo is built into this process")}
		}
		// Join (or start) the daemon before the UI takes the screen, so the
		// browser's login URL is printed where the user can see it.
		svc, loginURL, err := f.SharedService(ctx, opts.Args, opts.Source)
		if err != nil {
			return err
		}
		fmt.Fprintf(f.IOStreams.ErrOut, "leanreview: sharing this review; open it in a browser (once, within 5 minutes): %s\n", loginURL)
		open = func(context.Context) (app.Service, error) { return svc, nil }
	}
	ed := &lazyEditor{settings: editor.SettingsFrom(cfg, editor.GitVar(f.Dir, f.Sources.Environ))}
	return tui.Run(ctx, tui.Options{
		Open:      open,
		Label:     info.Label,
		Editor:    ed,
		Keymap:    km,
		Settings:  tui.SettingsFrom(cfg),
		Threads:   threads,
		Submitter: submitter,
	}, f.IOStreams, f.Sources.Environ)
}

// openLocal reads and parses src and loads its drafts and read marks into
// an in-process review service.
func (f *Factory) openLocal(ctx context.Context, cfg *config.Config, info app.SourceInfo, src app.PatchSource) (app.Service, error) {
	docs, err := f.Documents()
	if err != nil {
		return nil, err
	}
	viewed, err := f.ViewedDocuments()
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

// budgetedSource sets the process's soft memory limit from the size of
// each patch it yields. Go's collector otherwise lets the heap grow to
// twice the live data between collections; a review holds the patch and
// its parse (about 3.5 times the patch), so the default would let a long
// session reach 7 times the patch. The limit keeps the peak near
// memoryBudget, at the price of more frequent collections of small
// per-frame garbage.
type budgetedSource struct{ app.PatchSource }

func (b budgetedSource) Patch(ctx context.Context) ([]byte, error) {
	patch, err := b.PatchSource.Patch(ctx)
	if err == nil {
		debug.SetMemoryLimit(memoryBudget(len(patch)))
	}
	return patch, err
}

// memoryBudget is 4.5 times the patch, and never under 64 MiB, which a
// small patch needs for the runtime, the UI and the syntax highlighter.
func memoryBudget(patchBytes int) int64 {
	return max(int64(patchBytes)*9/2, 64<<20)
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
