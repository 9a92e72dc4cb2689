package editor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/config"
	"github.com/leanreview/leanreview/internal/iostreams"
)

// fakeEditor writes an executable shell script at path that behaves like
// an editor: it records its arguments, the buffer it was handed and the
// buffer's mode into logDir, says "editing" on stderr, then runs action
// with $f set to the buffer (the last argument).
func fakeEditor(t *testing.T, path, logDir, action string) {
	t.Helper()
	script := `#!/bin/sh
for f; do :; done
printf '%s\n' "$@" > '` + logDir + `/args'
cp "$f" '` + logDir + `/before'
stat -c %a "$f" "$(dirname "$f")" > '` + logDir + `/mode'
echo editing >&2
` + action + "\n"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

func readLog(t *testing.T, logDir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(logDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var sample = Context{
	Path: "internal/app/service.go", Side: changeset.SideNew, StartLine: 12, EndLine: 13,
	Code: []string{"if err != nil {", "\treturn err"},
}

const (
	actSave    = `printf 'Looks good.\n\nBut wrap the error.   \n\n' >> "$f"`
	actNothing = `:`
	actClear   = `awk '{print} /^-->$/{exit}' "$f" > "$f.tmp" && mv "$f.tmp" "$f"`
	actRevise  = `sed 's/original/revised/' "$f" > "$f.tmp" && mv "$f.tmp" "$f"`
	actFail    = `printf 'half-written\n' >> "$f"; exit 3`
)

// TestEdit_WithScriptedEditor runs Edit end to end against a fake editor
// for each thing a user can do in the editor.
func TestEdit_WithScriptedEditor(t *testing.T) {
	tests := []struct {
		name       string
		action     string
		ctx        Context
		body       string // the comment being edited; "" for a new one
		want       Result
		wantErr    string // "" for success
		wantFailed bool   // errors.Is(err, ErrEditorFailed)
	}{
		{name: "save a new comment", action: actSave, ctx: sample,
			want: Result{Outcome: OutcomeSaved, Body: "Looks good.\n\nBut wrap the error.", Changed: true}},
		{name: "write nothing discards a new comment", action: actNothing, ctx: sample,
			want: Result{Outcome: OutcomeDiscarded}},
		{name: "empty an existing comment discards it", action: actClear, ctx: sample, body: "original text",
			want: Result{Outcome: OutcomeDiscarded, Changed: true}},
		{name: "revise an existing comment", action: actRevise, ctx: sample, body: "original text\n",
			want: Result{Outcome: OutcomeSaved, Body: "revised text", Changed: true}},
		{name: "save an existing comment untouched", action: actNothing, ctx: sample, body: "original text",
			want: Result{Outcome: OutcomeSaved, Body: "original text", Changed: false}},
		{name: "non-zero exit changes nothing", action: actFail, ctx: sample, body: "original text",
			wantErr: `editor "FAKE" -w (from EDITOR) exited with status 3; the comment is unchanged`, wantFailed: true},
		{name: "killed editor changes nothing", action: `kill -9 $$`, ctx: sample, body: "original text",
			wantErr: `editor "FAKE" -w (from EDITOR) was stopped (signal: killed); the comment is unchanged`, wantFailed: true},
		{name: "comment terminators in quoted code", action: `printf 'Do not emit --> here.\n' >> "$f"`,
			ctx: Context{Path: "t.html", Side: changeset.SideOld, StartLine: 3, EndLine: 4,
				Code: []string{`<!-- start -->`, `x--; y --!> z`}},
			want: Result{Outcome: OutcomeSaved, Body: "Do not emit --> here.", Changed: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, logDir := t.TempDir(), t.TempDir()
			script := filepath.Join(dir, "My Editor", "bin", "ed") // a path with a space
			fakeEditor(t, script, logDir, tt.action)
			cmd, err := Resolve(context.Background(), Settings{Editor: `"` + script + `" -w`})
			if err != nil {
				t.Fatal(err)
			}
			ios, _, errOut := iostreams.Test("")
			tmp := t.TempDir()
			e := &Editor{Command: cmd, IO: ios, TempDir: tmp}

			draft := tt.body // what a caller keeps: replaced only on success
			got, err := e.Edit(context.Background(), Request{Context: tt.ctx, Body: tt.body})
			if err == nil && got.Outcome == OutcomeSaved {
				draft = got.Body
			}

			if tt.wantErr != "" {
				msg := ""
				if err != nil {
					msg = strings.ReplaceAll(err.Error(), script, "FAKE")
				}
				if msg != tt.wantErr {
					t.Errorf("Edit error = %q, want %q", msg, tt.wantErr)
				}
				if errors.Is(err, ErrEditorFailed) != tt.wantFailed {
					t.Errorf("errors.Is(err, ErrEditorFailed) = %v, want %v", !tt.wantFailed, tt.wantFailed)
				}
				if draft != tt.body || got != (Result{}) {
					t.Errorf("after a failed edit: draft %q, result %+v; want %q and a zero result", draft, got, tt.body)
				}
			} else {
				if err != nil {
					t.Fatalf("Edit: %v", err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("Result (-want +got):\n%s", diff)
				}
			}

			// The editor got its flag and then the buffer, a private .md file
			// holding exactly the rendered header and body.
			args := strings.Split(strings.TrimSuffix(readLog(t, logDir, "args"), "\n"), "\n")
			if len(args) != 2 || args[0] != "-w" || filepath.Base(args[1]) != BufferName || !strings.HasPrefix(args[1], tmp+"/") {
				t.Errorf("editor arguments = %q, want -w and %s under %s", args, BufferName, tmp)
			}
			if got, want := readLog(t, logDir, "before"), renderBuffer(tt.ctx, tt.body); got != want {
				t.Errorf("buffer handed to the editor:\n%s\nwant:\n%s", got, want)
			}
			if got := readLog(t, logDir, "mode"); got != "600\n700\n" {
				t.Errorf("buffer file and directory modes = %q, want 600 and 700", got)
			}
			if errOut.String() != "editing\n" {
				t.Errorf("editor stderr reached %q, want the caller's ErrOut", errOut.String())
			}
			if _, err := os.Stat(filepath.Dir(args[1])); !os.IsNotExist(err) {
				t.Errorf("buffer directory still exists after Edit (stat: %v)", err)
			}
		})
	}
}

func TestEdit_UnstartableEditorNamesCommandAndSetting(t *testing.T) {
	tests := []struct {
		settings Settings
		want     string
	}{
		{Settings{Visual: "/nonexistent/ed --wait"},
			`cannot start editor /nonexistent/ed --wait (from VISUAL): fork/exec /nonexistent/ed: no such file or directory`},
		{Settings{ConfigEditor: "no-such-editor-anywhere", ConfigPath: "/c/config.toml"},
			`cannot start editor no-such-editor-anywhere (from the editor setting in /c/config.toml): exec: "no-such-editor-anywhere": executable file not found in $PATH`},
	}
	for _, tt := range tests {
		cmd, err := Resolve(context.Background(), tt.settings)
		if err != nil {
			t.Fatal(err)
		}
		ios, _, _ := iostreams.Test("")
		tmp := t.TempDir()
		_, err = (&Editor{Command: cmd, IO: ios, TempDir: tmp}).Edit(context.Background(), Request{Context: sample})
		var start *StartError
		if !errors.As(err, &start) || errors.Is(err, ErrEditorFailed) {
			t.Fatalf("Edit error = %v (%T), want a *StartError only", err, err)
		}
		if err.Error() != tt.want {
			t.Errorf("Edit error:\n got %s\nwant %s", err, tt.want)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("buffer left behind: %v", left)
		}
	}
}

func TestEdit_CancelledContextStopsTheEditor(t *testing.T) {
	dir, logDir := t.TempDir(), t.TempDir()
	script := filepath.Join(dir, "ed")
	fakeEditor(t, script, logDir, "exec sleep 30")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	ios, _, _ := iostreams.Test("")
	e := &Editor{Command: Command{Line: script, Args: []string{script}, Source: SourceEditor, Setting: "EDITOR"}, IO: ios, TempDir: t.TempDir()}
	start := time.Now()
	_, err := e.Edit(ctx, Request{Context: sample, Body: "original"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Edit error = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Edit returned after %v; the editor was not stopped", d)
	}
}

// TestPrepare_GivesAFullScreenUITheCommandAndReadsBack follows the path a
// Bubble Tea UI takes: Prepare, run Cmd itself, then Finish.
func TestPrepare_GivesAFullScreenUITheCommandAndReadsBack(t *testing.T) {
	dir, logDir := t.TempDir(), t.TempDir()
	script := filepath.Join(dir, "ed")
	fakeEditor(t, script, logDir, actSave)
	e := &Editor{Command: Command{Line: script + " -w", Args: []string{script, "-w"}, Source: SourceEditor, Setting: "EDITOR"}, TempDir: t.TempDir()}
	b, err := e.Prepare(context.Background(), Request{Context: sample})
	if err != nil {
		t.Fatal(err)
	}
	cmd := b.Cmd()
	if cmd.Stdin != nil || cmd.Stdout != nil || cmd.Stderr != nil {
		t.Errorf("Cmd streams are set; tea.ExecProcess must be free to attach the terminal")
	}
	if diff := cmp.Diff([]string{script, "-w", b.Path()}, cmd.Args); diff != "" {
		t.Errorf("Cmd.Args (-want +got):\n%s", diff)
	}
	res, err := b.Finish(cmd.Run())
	if err != nil {
		t.Fatal(err)
	}
	if want := (Result{Outcome: OutcomeSaved, Body: "Looks good.\n\nBut wrap the error.", Changed: true}); res != want {
		t.Errorf("Finish = %+v, want %+v", res, want)
	}
	if _, err := os.Stat(b.Path()); !os.IsNotExist(err) {
		t.Errorf("buffer still exists after Finish (stat: %v)", err)
	}
	b.Discard() // a second removal is harmless
}

// TestEdit_FromConfigFileThroughResolve goes from a config file naming an
// editor with a quoted path to the saved comment.
func TestEdit_FromConfigFileThroughResolve(t *testing.T) {
	home, logDir := t.TempDir(), t.TempDir()
	script := filepath.Join(home, "My Tools", "ed")
	fakeEditor(t, script, logDir, actSave)
	cfgDir := filepath.Join(home, ".config", "leanreview")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "editor = '''\"" + script + "\" --wait'''\n"
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(config.Sources{Environ: []string{"HOME=" + home, "EDITOR=should-not-run"}})
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := Resolve(context.Background(), SettingsFrom(c, func(context.Context) (string, error) {
		t.Error("git var consulted although the config file names an editor")
		return "", nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if cmd.Source != SourceConfigFile {
		t.Errorf("Source = %v, want %v", cmd.Source, SourceConfigFile)
	}
	ios, _, _ := iostreams.Test("")
	res, err := (&Editor{Command: cmd, IO: ios, TempDir: t.TempDir()}).Edit(context.Background(), Request{Context: sample})
	if err != nil {
		t.Fatal(err)
	}
	if res.Body != "Looks good.\n\nBut wrap the error." {
		t.Errorf("Body = %q", res.Body)
	}
	if got := readLog(t, logDir, "args"); !strings.HasPrefix(got, "--wait\n") {
		t.Errorf("editor arguments = %q, want --wait first", got)
	}
}
