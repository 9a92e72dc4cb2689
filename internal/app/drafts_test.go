package app_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
	"github.com/leanreview/leanreview/internal/store"
	"github.com/leanreview/leanreview/internal/store/storetest"
)

type patchBytes []byte

func (p patchBytes) Patch(context.Context) ([]byte, error) { return p, nil }

func testPatch(t *testing.T) patchBytes {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "cli", "testdata", "calc-v1.diff"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ids numbers drafts across every service a test opens, as random ids would
// be distinct across processes.
var ids atomic.Int64

func deps(docs app.Documents) app.Deps {
	return app.Deps{
		Documents: docs,
		Now:       func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
		NewID:     func() string { return fmt.Sprintf("d%d", ids.Add(1)) },
	}
}

var info = app.SourceInfo{Kind: "file", Key: "patch-test", Label: "calc.diff"}

// TestDraftBook_WriteFailuresKeepDraftsInMemoryUntilSaved covers a
// read-only directory and a full disk: the comment is refused by the disk,
// kept in memory, reported with the store's words, and saved once the disk
// recovers.
func TestDraftBook_WriteFailuresKeepDraftsInMemoryUntilSaved(t *testing.T) {
	t.Run("flush", func(t *testing.T) { testWriteFailure(t, true) })
	t.Run("next write", func(t *testing.T) { testWriteFailure(t, false) })
}

func testWriteFailure(t *testing.T, flush bool) {
	for _, tc := range []struct {
		name  string
		op    storetest.Op
		errno error
		words string
	}{
		{"read-only directory", storetest.OpCreateTemp, syscall.EROFS, "read-only or not writable"},
		{"permission denied", storetest.OpCreateTemp, syscall.EACCES, "read-only or not writable"},
		{"full disk", storetest.OpWrite, syscall.ENOSPC, "no space left"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			healthy, _ := store.New(dir, 1)
			r, _, err := app.OpenReview(ctx, info, testPatch(t), deps(healthy))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Comment(ctx, app.LineRef{Path: "calc.go", Side: changeset.SideNew, Start: 20}, "saved before the trouble"); err != nil {
				t.Fatal(err)
			}

			faults := storetest.New(store.OS{})
			faults.Fail(tc.op, tc.errno)
			broken, _ := store.New(dir, 1, store.WithFS(faults))
			r, _, err = app.OpenReview(ctx, info, testPatch(t), deps(broken))
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.Comment(ctx, app.LineRef{Path: "calc.go", Side: changeset.SideNew, Start: 80}, "written while the disk refused")
			if !errors.Is(err, app.ErrNotSaved) || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("Comment error = %v, want ErrNotSaved saying %q", err, tc.words)
			}
			if !r.Drafts.Unsaved() || len(r.Drafts.Drafts()) != 2 {
				t.Fatalf("in memory: unsaved=%v drafts=%d, want both drafts held", r.Drafts.Unsaved(), len(r.Drafts.Drafts()))
			}
			onDisk, _, _ := app.LoadDraftBook(ctx, healthy, info, time.Now)
			if got := len(onDisk.Drafts()); got != 1 {
				t.Fatalf("on disk during the failure: %d drafts, want the 1 saved before", got)
			}

			faults.Heal()
			if flush {
				if err := r.Drafts.Flush(ctx); err != nil {
					t.Fatalf("Flush after healing: %v", err)
				}
			}
			// The next write after recovery carries the held draft with it.
			if _, err := r.Comment(ctx, app.LineRef{Path: "calc.go", Side: changeset.SideNew, Start: 20}, "written after recovery"); err != nil {
				t.Fatalf("comment after healing: %v", err)
			}
			onDisk, _, _ = app.LoadDraftBook(ctx, healthy, info, time.Now)
			if got := len(onDisk.Drafts()); got != 3 || len(r.Drafts.Drafts()) != 3 || r.Drafts.Unsaved() {
				t.Errorf("after recovery: %d drafts on disk, %d in memory, unsaved=%v; want 3, 3, false", got, len(r.Drafts.Drafts()), r.Drafts.Unsaved())
			}
		})
	}
}

func TestLocal_AgentCannotActAsTheHuman(t *testing.T) {
	ctx := context.Background()
	docs, _ := store.New(t.TempDir(), 1)
	l, err := app.NewLocal(ctx, app.LocalDeps{Deps: deps(docs), Info: info, Source: testPatch(t)})
	if err != nil {
		t.Fatal(err)
	}
	ref := app.LineRef{Path: "calc.go", Side: changeset.SideNew, Start: 20}
	human, err := l.Comment(ctx, session.ActorHuman, app.CommentRequest{Ref: ref, Body: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	agent, err := l.Comment(ctx, session.ActorAgent, app.CommentRequest{Ref: ref, Body: "the agent's"})
	if err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"move the cursor":       l.SetCursor(ctx, session.ActorAgent, app.Cursor{Path: "calc.go", Line: 20}),
		"edit the human's":      l.EditComment(ctx, session.ActorAgent, human.ID, "rewritten"),
		"answer a suggestion":   l.AnswerSuggestion(ctx, session.ActorAgent, "x", true),
		"delete the human's":    func() error { _, err := l.DeleteComment(ctx, session.ActorAgent, human.ID); return err }(),
		"mark a hunk as viewed": func() error { _, err := l.MarkViewed(ctx, session.ActorAgent, "d", true); return err }(),
	} {
		if !app.IsForbidden(err) {
			t.Errorf("agent may %s: err = %v", name, err)
		}
	}
	if err := l.ResolveComment(ctx, session.ActorAgent, human.ID, true); err != nil {
		t.Errorf("agent resolving a comment: %v", err)
	}
	sug, err := l.Suggest(ctx, session.ActorAgent, app.SuggestionRequest{Path: "calc.go", Line: 80, Hunk: 1, Reason: "look here"})
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := l.Snapshot(ctx)
	if snap.Cursor.Line == 80 {
		t.Fatal("a suggestion moved the cursor")
	}
	if err := l.AnswerSuggestion(ctx, session.ActorHuman, sug.ID, true); err != nil {
		t.Fatal(err)
	}
	snap, _ = l.Snapshot(ctx)
	if snap.Cursor.Path != "calc.go" || snap.Cursor.Line != 80 || snap.Suggestions[0].State != app.SuggestionAccepted {
		t.Errorf("after accepting: cursor %+v, suggestion %+v", snap.Cursor, snap.Suggestions[0])
	}
	if len(snap.Drafts) != 2 || snap.Drafts[1].ID != agent.ID || snap.Drafts[1].Author != session.ActorAgent {
		t.Errorf("drafts %+v", snap.Drafts)
	}
	// The agent's remark is ephemeral: a new service over the same store
	// has only the human's.
	l2, _ := app.NewLocal(ctx, app.LocalDeps{Deps: deps(docs), Info: info, Source: testPatch(t)})
	snap, _ = l2.Snapshot(ctx)
	if len(snap.Drafts) != 1 || snap.Drafts[0].ID != human.ID || !snap.Drafts[0].Resolved {
		t.Errorf("after restart: %+v", snap.Drafts)
	}
}

func TestLocal_ViewedMarkPersistsAndReportsTheFileItFinished(t *testing.T) {
	ctx := context.Background()
	drafts, _ := store.New(t.TempDir(), 1)
	viewed, _ := store.New(t.TempDir(), 1)
	open := func() *app.Local {
		l, err := app.NewLocal(ctx, app.LocalDeps{Deps: deps(drafts), Info: info, Source: testPatch(t), Viewed: viewed})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	l := open()
	snap, _ := l.Snapshot(ctx)
	calc := snap.Changeset.Files[0]
	if finished, err := l.MarkViewed(ctx, session.ActorHuman, calc.Hunks[0].Digest, true); err != nil || finished != "" {
		t.Fatalf("first hunk: finished %q err %v", finished, err)
	}
	if finished, err := l.MarkViewed(ctx, session.ActorHuman, calc.Hunks[1].Digest, true); err != nil || finished != "calc.go" {
		t.Fatalf("last hunk: finished %q err %v, want calc.go", finished, err)
	}
	snap, _ = open().Snapshot(ctx)
	if !snap.Viewed[calc.Hunks[0].Digest] || !snap.Viewed[calc.Hunks[1].Digest] {
		t.Errorf("after reopening, viewed = %v", snap.Viewed)
	}
}
