package daemon

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/gitrepo"
	"github.com/leanreview/leanreview/internal/source"
)

// SourceOpener resolves a request with the source package, as the command
// line does, from the directory the request names. It implements
// app.Opener.
type SourceOpener struct {
	Git gitrepo.Runner
}

var _ app.Opener = SourceOpener{}

// OpenSource implements app.Opener. Standard input is refused: the daemon
// has none of the caller's; share a file or a git comparison instead.
func (o SourceOpener) OpenSource(ctx context.Context, req app.OpenRequest) (app.OpenedSource, error) {
	if !filepath.IsAbs(req.Dir) {
		return app.OpenedSource{}, fmt.Errorf("open a source from %q: the directory must be absolute: %w", req.Dir, app.ErrInvalid)
	}
	for _, a := range req.Args {
		if a == "-" {
			return app.OpenedSource{}, fmt.Errorf("a patch on standard input cannot be shared; save it to a file: %w", app.ErrInvalid)
		}
	}
	src, err := source.Open(ctx, req.Args, source.Options{Dir: req.Dir, Staged: req.Staged, Base: req.Base, Git: o.Git})
	var se *source.Error
	if errors.As(err, &se) {
		return app.OpenedSource{}, fmt.Errorf("%w: %w", err, app.ErrInvalid)
	}
	if err != nil {
		return app.OpenedSource{}, err
	}
	return app.OpenedSource{
		Info:   app.SourceInfo{Kind: src.Kind.String(), Key: src.Key, Label: src.Label},
		Source: src,
		Watch:  src.Root, // "" for a patch file, which cannot move
	}, nil
}
