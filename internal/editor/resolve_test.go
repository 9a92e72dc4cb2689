package editor

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/config"
)

// gitVarFake answers like `git var GIT_EDITOR` and counts its calls, so a
// test can tell a rung that was never consulted from one that was.
type gitVarFake struct {
	out   string
	err   error
	calls int
}

func (g *gitVarFake) run(context.Context) (string, error) {
	g.calls++
	return g.out, g.err
}

// TestResolve_WalksTheWholeChain sets each rung present or absent and
// checks which one chooses the editor, and that git is asked only when
// every variable before it is unset.
func TestResolve_WalksTheWholeChain(t *testing.T) {
	const cfgPath = "/home/ann/.config/leanreview/config.toml"
	all := Settings{
		LeanreviewEditor: "lr-env",
		ConfigEditor:     "lr-file",
		ConfigPath:       cfgPath,
		GitEditor:        "git-editor",
		Visual:           "visual",
		Editor:           "editor",
	}
	without := func(s Settings, drop int) Settings {
		fields := []*string{&s.LeanreviewEditor, &s.ConfigEditor, &s.GitEditor, &s.Visual, &s.Editor}
		for i := range drop {
			*fields[i] = ""
		}
		return s
	}
	tests := []struct {
		name      string
		settings  Settings
		gitVar    *gitVarFake
		want      Command
		wantCalls int
	}{
		{"LEANREVIEW_EDITOR beats the config file", without(all, 0), &gitVarFake{out: "core"},
			Command{"lr-env", []string{"lr-env"}, SourceLeanreviewEditor, "LEANREVIEW_EDITOR"}, 0},
		{"config file", without(all, 1), &gitVarFake{out: "core"},
			Command{"lr-file", []string{"lr-file"}, SourceConfigFile, "the editor setting in " + cfgPath}, 0},
		{"GIT_EDITOR", without(all, 2), &gitVarFake{out: "core"},
			Command{"git-editor", []string{"git-editor"}, SourceGitEditor, "GIT_EDITOR"}, 0},
		{"VISUAL", without(all, 3), &gitVarFake{out: "core"},
			Command{"visual", []string{"visual"}, SourceVisual, "VISUAL"}, 0},
		{"EDITOR", without(all, 4), &gitVarFake{out: "core"},
			Command{"editor", []string{"editor"}, SourceEditor, "EDITOR"}, 0},
		{"git var (core.editor)", without(all, 5), &gitVarFake{out: "code --wait\n"},
			Command{"code --wait", []string{"code", "--wait"}, SourceGitVar, "git var GIT_EDITOR"}, 1},
		{"git var failing falls back to vi", without(all, 5), &gitVarFake{err: errors.New("exit status 128")},
			Command{"vi", []string{"vi"}, SourceDefault, "the built-in default"}, 1},
		{"git var answering nothing falls back to vi", without(all, 5), &gitVarFake{out: "\n"},
			Command{"vi", []string{"vi"}, SourceDefault, "the built-in default"}, 1},
		{"no git var function", without(all, 5), nil,
			Command{"vi", []string{"vi"}, SourceDefault, "the built-in default"}, 0},
		{"blank values count as unset", Settings{LeanreviewEditor: "  ", ConfigEditor: "\t", Visual: "nano"}, &gitVarFake{},
			Command{"nano", []string{"nano"}, SourceVisual, "VISUAL"}, 0},
		{"config file named generically without its path", Settings{ConfigEditor: "ed"}, nil,
			Command{"ed", []string{"ed"}, SourceConfigFile, "the editor setting in the config file"}, 0},
		{"quoted path with spaces", Settings{Editor: `"/opt/My Editor/bin/ed" -w`}, nil,
			Command{`"/opt/My Editor/bin/ed" -w`, []string{"/opt/My Editor/bin/ed", "-w"}, SourceEditor, "EDITOR"}, 0},
		{"single quotes and escapes", Settings{GitEditor: `'/opt/My Editor/ed' -c set\ tw=72`}, nil,
			Command{`'/opt/My Editor/ed' -c set\ tw=72`, []string{"/opt/My Editor/ed", "-c", "set tw=72"}, SourceGitEditor, "GIT_EDITOR"}, 0},
		{"git var output is split too", Settings{}, &gitVarFake{out: "'/opt/My Editor/ed' -w\n"},
			Command{"'/opt/My Editor/ed' -w", []string{"/opt/My Editor/ed", "-w"}, SourceGitVar, "git var GIT_EDITOR"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.settings
			if tt.gitVar != nil {
				s.GitVar = tt.gitVar.run
			}
			got, err := Resolve(context.Background(), s)
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Resolve (-want +got):\n%s", diff)
			}
			if tt.gitVar != nil && tt.gitVar.calls != tt.wantCalls {
				t.Errorf("git var ran %d times, want %d", tt.gitVar.calls, tt.wantCalls)
			}
		})
	}
}

func TestResolve_BadValueIsAnErrorNamingItsSetting(t *testing.T) {
	tests := []struct {
		name     string
		settings Settings
		want     string
	}{
		{"unterminated quote in VISUAL", Settings{Visual: `"/opt/My Editor/ed`, Editor: "vi"},
			`editor command "\"/opt/My Editor/ed" from VISUAL: unterminated double quote at byte 0`},
		{"shell syntax in the config file", Settings{ConfigEditor: "ed | cat", ConfigPath: "/c/config.toml"},
			`editor command "ed | cat" from the editor setting in /c/config.toml: shell syntax is not supported: unquoted '|' at byte 3`},
		{"empty program name", Settings{LeanreviewEditor: `'' -w`},
			`editor command "'' -w" from LEANREVIEW_EDITOR: empty program name`},
		{"shell syntax from core.editor", Settings{GitVar: (&gitVarFake{out: "f() { ed; }; f"}).run},
			`editor command "f() { ed; }; f" from git var GIT_EDITOR: shell syntax is not supported: unquoted '(' at byte 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Resolve(context.Background(), tt.settings)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Resolve error = %v\nwant %s", err, tt.want)
			}
		})
	}
}

func TestResolve_CancelledWhileAskingGitIsAnError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := Settings{GitVar: func(context.Context) (string, error) {
		cancel()
		return "", context.Canceled
	}}
	if _, err := Resolve(ctx, s); !errors.Is(err, context.Canceled) {
		t.Errorf("Resolve error = %v, want context.Canceled", err)
	}
}

func TestSettingsFrom_TakesEveryRungFromConfig(t *testing.T) {
	dir := t.TempDir()
	cfgDir := filepath.Join(dir, "leanreview")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(`editor = "nvim -f"`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(config.Sources{Environ: []string{
		"HOME=" + dir, "XDG_CONFIG_HOME=" + dir,
		"LEANREVIEW_EDITOR=code --wait", "GIT_EDITOR=ge", "VISUAL=vis", "EDITOR=ed",
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := SettingsFrom(c, nil)
	want := Settings{
		LeanreviewEditor: "code --wait", ConfigEditor: "nvim -f", ConfigPath: filepath.Join(cfgDir, "config.toml"),
		GitEditor: "ge", Visual: "vis", Editor: "ed",
	}
	if diff := cmp.Diff(want, got, cmp.FilterPath(func(p cmp.Path) bool { return p.String() == "GitVar" }, cmp.Ignore())); diff != "" {
		t.Errorf("SettingsFrom (-want +got):\n%s", diff)
	}
}

// TestGitVar_ReportsCoreEditor runs the real git in a scratch repository
// whose core.editor is set, with no editor variables in its environment.
func TestGitVar_ReportsCoreEditor(t *testing.T) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	env := []string{"HOME=" + dir, "PATH=" + filepath.Dir(gitPath), "GIT_CONFIG_NOSYSTEM=1", "TERM=xterm"}
	for _, args := range [][]string{{"init", "-q"}, {"config", "core.editor", `"/opt/My Editor/ed" -w`}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	got, err := Resolve(context.Background(), Settings{GitVar: GitVar(dir, env)})
	if err != nil {
		t.Fatal(err)
	}
	want := Command{`"/opt/My Editor/ed" -w`, []string{"/opt/My Editor/ed", "-w"}, SourceGitVar, "git var GIT_EDITOR"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Resolve (-want +got):\n%s", diff)
	}

	// Outside a repository with TERM=dumb and no EDITOR, git var fails and
	// the chain ends at vi.
	dumb := []string{"HOME=" + dir, "PATH=" + filepath.Dir(gitPath), "GIT_CONFIG_NOSYSTEM=1", "TERM=dumb"}
	if _, err := GitVar(t.TempDir(), dumb)(context.Background()); err == nil {
		t.Fatal("git var GIT_EDITOR with TERM=dumb succeeded; want an error")
	}
	got, err = Resolve(context.Background(), Settings{GitVar: GitVar(t.TempDir(), dumb)})
	if err != nil || got.Source != SourceDefault {
		t.Errorf("Resolve with failing git var = %+v, %v; want the default", got, err)
	}
}
