package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
	"github.com/leanreview/leanreview/internal/store"
	"github.com/leanreview/leanreview/internal/store/storetest"
	"github.com/leanreview/leanreview/internal/tui/tuitest"
)

// TestExport_UnsavedDraftsAreFlaggedAndExported: with a state directory
// that refuses writes, a comment lives in memory only; the status line says
// so until it is saved, and E writes every draft to a Markdown file.
func TestExport_UnsavedDraftsAreFlaggedAndExported(t *testing.T) {
	patch, err := os.ReadFile(filepath.Join("testdata", "review.patch"))
	if err != nil {
		t.Fatal(err)
	}
	faults := storetest.New(store.OS{})
	faults.Fail(storetest.OpCreateTemp, syscall.EROFS)
	drafts, _ := store.New(t.TempDir(), 1, store.WithFS(faults))
	n := 0
	svc, err := app.NewLocal(context.Background(), app.LocalDeps{
		Deps: app.Deps{Documents: drafts, Now: time.Now, NewID: func() string { n++; return fmt.Sprint("d", n) }},
		Info: app.SourceInfo{Kind: "file", Key: "k", Label: "review.patch"}, Source: tuitest.Patch(patch),
	})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, harnessOpts{width: 120, height: 24, svc: svc})
	out := t.TempDir()
	h.m.opts.ExportDir = out

	snap, _ := svc.Snapshot(context.Background())
	var f changeset.File
	for _, f = range snap.Changeset.Files {
		if len(f.Hunks) > 0 {
			break
		}
	}
	var line int
	for _, r := range f.Hunks[0].Rows {
		if r.NewLine != nil {
			line = *r.NewLine
			break
		}
	}
	_, err = svc.Comment(context.Background(), session.ActorHuman, app.CommentRequest{
		Ref: app.LineRef{Path: f.Path, Side: changeset.SideNew, Start: line}, Body: "kept in memory only",
	})
	if err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("comment on a read-only store: err = %v", err)
	}
	h.changed()
	if !strings.Contains(h.screen(), "DRAFTS NOT SAVED (E exports)") {
		t.Fatalf("status line does not flag unsaved drafts:\n%s", h.screen())
	}
	h.keys("E")
	files, _ := filepath.Glob(filepath.Join(out, "leanreview-drafts-*.md"))
	if len(files) != 1 {
		t.Fatalf("exported files: %v\n%s", files, h.screen())
	}
	b, _ := os.ReadFile(files[0])
	if !strings.Contains(string(b), "kept in memory only") || !strings.Contains(h.screen(), "exported 1 drafts to") {
		t.Errorf("export holds %q; screen:\n%s", b, h.screen())
	}
}
