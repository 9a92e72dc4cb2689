// Package editor opens the user's editor on a comment: it resolves which
// editor to run, writes a Markdown buffer whose HTML-comment header shows
// the code being commented on, runs the editor attached to the terminal and
// reads the comment back.
package editor

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/leanreview/leanreview/internal/config"
)

// Source is the rung of the resolution chain that chose the editor. The
// zero Source is invalid.
type Source uint8

const (
	SourceLeanreviewEditor Source = iota + 1 // LEANREVIEW_EDITOR
	SourceConfigFile                         // `editor` in the config file
	SourceGitEditor                          // GIT_EDITOR
	SourceVisual                             // VISUAL
	SourceEditor                             // EDITOR
	SourceGitVar                             // `git var GIT_EDITOR`, in practice core.editor
	SourceDefault                            // vi
)

var sourceNames = []string{
	SourceLeanreviewEditor: "LEANREVIEW_EDITOR",
	SourceConfigFile:       "the editor setting in the config file",
	SourceGitEditor:        "GIT_EDITOR",
	SourceVisual:           "VISUAL",
	SourceEditor:           "EDITOR",
	SourceGitVar:           "git var GIT_EDITOR",
	SourceDefault:          "the built-in default",
}

func (s Source) String() string {
	if s != 0 && int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return fmt.Sprintf("Source(%d)", uint8(s))
}

// GitVarFunc runs `git var GIT_EDITOR` and returns its standard output.
type GitVarFunc func(ctx context.Context) (string, error)

// Settings are the values the resolution chain consults, in its order.
// An empty or all-blank value counts as unset.
type Settings struct {
	// LeanreviewEditor (the environment) overrides ConfigEditor (the file),
	// as the environment overrides the config file everywhere else.
	LeanreviewEditor string
	ConfigEditor     string
	ConfigPath       string // the config file, to name it in messages

	GitEditor string
	Visual    string
	Editor    string

	// GitVar is consulted after EDITOR. Git's own answer consults
	// GIT_EDITOR, core.editor, VISUAL and EDITOR, so this rung adds
	// core.editor (and git's built-in default). Nil skips the rung; an
	// error or empty answer falls through to vi.
	GitVar GitVarFunc
}

// SettingsFrom takes the chain's values from a loaded configuration.
func SettingsFrom(c *config.Config, gitVar GitVarFunc) Settings {
	return Settings{
		LeanreviewEditor: c.Env.LeanreviewEditor,
		ConfigEditor:     c.Editor,
		ConfigPath:       c.File,
		GitEditor:        c.Env.GitEditor,
		Visual:           c.Env.Visual,
		Editor:           c.Env.Editor,
		GitVar:           gitVar,
	}
}

// Command is a resolved editor command line.
type Command struct {
	Line    string   // the value as the user wrote it
	Args    []string // Line split into words; Args[0] is the program, never empty
	Source  Source
	Setting string // where Line came from, for messages: "VISUAL", "the editor setting in /home/a/.config/leanreview/config.toml"
}

// String renders the command line as written and where it came from, for
// messages: `code --wait (from VISUAL)`.
func (c Command) String() string { return fmt.Sprintf("%s (from %s)", c.Line, c.Setting) }

// Resolve picks the editor: LEANREVIEW_EDITOR, the config file's editor,
// GIT_EDITOR, VISUAL, EDITOR, `git var GIT_EDITOR`, then vi; the first set
// value wins. A value that Split rejects is an error naming its setting,
// not a reason to try the next rung. A failing GitVar falls through to vi
// unless ctx is done, which returns ctx's error.
func Resolve(ctx context.Context, s Settings) (Command, error) {
	configSetting := SourceConfigFile.String()
	if s.ConfigPath != "" {
		configSetting = "the editor setting in " + s.ConfigPath
	}
	rungs := []struct {
		value, setting string
		source         Source
	}{
		{s.LeanreviewEditor, SourceLeanreviewEditor.String(), SourceLeanreviewEditor},
		{s.ConfigEditor, configSetting, SourceConfigFile},
		{s.GitEditor, SourceGitEditor.String(), SourceGitEditor},
		{s.Visual, SourceVisual.String(), SourceVisual},
		{s.Editor, SourceEditor.String(), SourceEditor},
	}
	for _, r := range rungs {
		if strings.TrimSpace(r.value) != "" {
			return parseCommand(r.value, r.source, r.setting)
		}
	}
	if s.GitVar != nil {
		out, err := s.GitVar(ctx)
		if ctx.Err() != nil {
			return Command{}, fmt.Errorf("resolve editor: %w", ctx.Err())
		}
		if line := strings.TrimSpace(out); err == nil && line != "" {
			return parseCommand(line, SourceGitVar, SourceGitVar.String())
		}
	}
	return Command{Line: "vi", Args: []string{"vi"}, Source: SourceDefault, Setting: SourceDefault.String()}, nil
}

func parseCommand(line string, source Source, setting string) (Command, error) {
	args, err := Split(line)
	if err == nil && args[0] == "" {
		err = fmt.Errorf("empty program name")
	}
	if err != nil {
		return Command{}, fmt.Errorf("editor command %q from %s: %w", line, setting, err)
	}
	return Command{Line: line, Args: args, Source: source, Setting: setting}, nil
}

// GitVar returns a GitVarFunc that runs the git binary in dir (the
// checkout under review; "" for the current directory) with environment
// env (nil inherits the process's).
func GitVar(dir string, env []string) GitVarFunc {
	return func(ctx context.Context) (string, error) {
		cmd := exec.CommandContext(ctx, "git", "var", "GIT_EDITOR")
		cmd.Dir = dir
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("git var GIT_EDITOR: %w: %s", err, strings.TrimSpace(stderr.String()))
		}
		return string(out), nil
	}
}
