package daemon

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/leanreview/leanreview/internal/app"
)

// TreeWatcher implements app.Watcher with fsnotify over a git work tree:
// every directory of the tree, plus the repository's .git directory itself
// (HEAD, the index, packed-refs) and .git/refs (branches moving), but not
// the object store. Bursts are coalesced: changed is called once the tree
// has been quiet for Quiet, and at least every MaxDelay while it keeps
// changing. The zero value is ready to use.
type TreeWatcher struct {
	Quiet    time.Duration // 0 is 150ms
	MaxDelay time.Duration // 0 is 2s
	// MaxDirs bounds the directories watched (each costs a kernel watch);
	// 0 is 8192. Past it, changes in the rest of the tree go unseen until a
	// surface reloads by hand, and Log says so.
	MaxDirs int
	Log     *slog.Logger
}

var _ app.Watcher = TreeWatcher{}

// Watch implements app.Watcher.
func (tw TreeWatcher) Watch(ctx context.Context, root string, changed func()) error {
	tw = tw.withDefaults()
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch %s: %w", root, err)
	}
	defer w.Close()
	dirs := 0
	if err := tw.addTree(w, root, &dirs); err != nil {
		return fmt.Errorf("watch %s: %w", root, err)
	}
	var (
		timer *time.Timer
		fire  <-chan time.Time
		first time.Time
	)
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if ev.Op == fsnotify.Chmod {
				continue
			}
			if ev.Has(fsnotify.Create) {
				if info, err := os.Lstat(ev.Name); err == nil && info.IsDir() && filepath.Base(ev.Name) != ".git" {
					_ = tw.addTree(w, ev.Name, &dirs)
				}
			}
			now := time.Now()
			if first.IsZero() {
				first = now
			}
			wait := min(tw.Quiet, max(first.Add(tw.MaxDelay).Sub(now), 0))
			if timer == nil {
				timer = time.NewTimer(wait)
			} else {
				timer.Reset(wait)
			}
			fire = timer.C
		case <-fire:
			first, fire = time.Time{}, nil
			changed()
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			tw.Log.Warn("watching the work tree", "root", root, "err", err)
		}
	}
}

func (tw TreeWatcher) withDefaults() TreeWatcher {
	if tw.Quiet <= 0 {
		tw.Quiet = 150 * time.Millisecond
	}
	if tw.MaxDelay <= 0 {
		tw.MaxDelay = 2 * time.Second
	}
	if tw.MaxDirs <= 0 {
		tw.MaxDirs = 8192
	}
	if tw.Log == nil {
		tw.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return tw
}

// addTree watches dir and its subdirectories, treating a .git directory as
// described on TreeWatcher.
func (tw TreeWatcher) addTree(w *fsnotify.Watcher, dir string, count *int) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			return nil // vanished or unreadable: nothing to watch
		}
		if !d.IsDir() {
			return nil
		}
		if *count >= tw.MaxDirs {
			tw.Log.Warn("too many directories to watch; changes in the rest go unseen", "limit", tw.MaxDirs, "at", path)
			return filepath.SkipAll
		}
		if d.Name() == ".git" && path != dir {
			tw.addGitDir(w, path, count)
			return filepath.SkipDir
		}
		if err := w.Add(path); err != nil {
			return nil // a directory removed mid-walk
		}
		*count++
		return nil
	})
}

// addGitDir watches a repository's .git directory and its refs.
func (tw TreeWatcher) addGitDir(w *fsnotify.Watcher, git string, count *int) {
	if w.Add(git) == nil {
		*count++
	}
	refs := filepath.Join(git, "refs")
	_ = filepath.WalkDir(refs, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && *count < tw.MaxDirs && w.Add(path) == nil {
			*count++
		}
		return nil
	})
}
