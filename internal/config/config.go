// Package config assembles leanreview's settings from three layers, each
// overriding the one before: built-in defaults, the TOML config file
// ($XDG_CONFIG_HOME/leanreview/config.toml), and the environment.
//
// It is the only package that reads environment variables: Load captures
// every variable leanreview cares about into Config.Env, and everything
// else receives values from there through constructors.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// FileName is the config file's name inside ConfigDir.
const FileName = "config.toml"

// Config is the merged configuration. Load returns a fresh value the caller
// owns; nothing in it refers to shared state.
type Config struct {
	// File is the config file that was consulted, absolute. It may not exist:
	// FileFound says whether it did.
	File      string
	FileFound bool

	Paths Paths

	// Editor is the `editor` key of the config file, a shell-quoted command
	// line, or "" when unset. LEANREVIEW_EDITOR (Env.LeanreviewEditor)
	// overrides it; internal/editor's Resolve applies that order together
	// with the rest of the editor chain, so it sees both values.
	Editor string

	// Keys maps a UI action name to the keys that trigger it, as written in
	// the [keys] table. It holds only the actions the file remaps (nil when
	// none); an empty list unbinds the action. The UI owns the defaults.
	Keys map[string][]string

	Theme  Theme
	Colors map[ColorSlot]Color // overrides on top of Theme; nil when none

	TabWidth int  // columns a tab advances to; 1..16, default 8
	Wrap     bool // wrap long lines instead of cutting them; default true
	View     View // the diff view a session starts in; default ViewUnified

	// NoColor is true when NO_COLOR is set to a non-empty value: the UI
	// then uses no colour at all, whatever Theme and Colors say.
	NoColor bool

	// Hosts maps a lower-case host name ("github.com", "git.example.com:8443")
	// to its forge kind and API base URL: the built-in github.com and
	// gitlab.com, then the config file's [hosts] entries, then the
	// LEANREVIEW_GITHUB_API / LEANREVIEW_GITLAB_API overrides. Use Host to
	// look one up.
	Hosts map[string]Host

	Env Env
}

// Paths are leanreview's directories, all absolute. Load computes them and
// creates none: the package that writes into a directory creates it with
// the mode it needs (RuntimeDir must be 0700 and owned by the user, as its
// fallback lives in a shared temporary directory).
type Paths struct {
	ConfigDir  string // $XDG_CONFIG_HOME/leanreview, default ~/.config/leanreview
	StateDir   string // $XDG_STATE_HOME/leanreview, default ~/.local/state/leanreview
	CacheDir   string // $XDG_CACHE_HOME/leanreview, default ~/.cache/leanreview
	RuntimeDir string // $XDG_RUNTIME_DIR/leanreview, default $TMPDIR/leanreview-<uid>
}

// Sources is what Load reads besides the config file.
type Sources struct {
	// Environ holds "KEY=value" entries as from os.Environ; when a key
	// appears twice the later entry wins, as with os/exec.
	Environ []string

	// UID names the runtime directory fallback when XDG_RUNTIME_DIR is unset.
	UID int

	// ConfigFile, when not empty, replaces the default config file path
	// (for a --config flag); unlike the default file it must exist.
	ConfigFile string

	// Actions lists the UI action names the [keys] table may remap. A nil
	// Actions skips that check; an empty one rejects every entry.
	Actions []string
}

// Process returns the Sources of the running process: its environment and
// user id.
func Process() Sources {
	return Sources{Environ: os.Environ(), UID: os.Getuid()}
}

// Defaults returns the built-in settings with no paths and an empty Env:
// what Load produces for an empty config file before paths and environment
// are applied. Tests of other packages use it as a starting point. Wrap is
// on because a cut-off line hides code from the person reviewing it.
func Defaults() *Config {
	return &Config{
		Theme:    ThemeAuto,
		TabWidth: DefaultTabWidth,
		Wrap:     true,
		View:     ViewUnified,
		Hosts:    builtinHosts(),
	}
}

// DefaultTabWidth is 8 because that is what git, less and a terminal show
// and what GitHub and GitLab render by default: the columns a reviewer sees
// then line up the way the author and the forge see them.
const DefaultTabWidth = 8

// Load builds the configuration: defaults, then the config file, then the
// environment. A missing default config file is not an error; an unreadable
// or invalid one is, and a *FileError names the file, the key and, where
// known, the line. An invalid environment value is an error naming the
// variable.
func Load(src Sources) (*Config, error) {
	env := captureEnv(src.Environ)
	paths, err := resolvePaths(env, src.UID)
	if err != nil {
		return nil, err
	}
	c := Defaults()
	c.Paths = paths
	c.Env = env
	c.File = filepath.Join(paths.ConfigDir, FileName)
	if src.ConfigFile != "" {
		if c.File, err = filepath.Abs(src.ConfigFile); err != nil {
			return nil, fmt.Errorf("config file %s: %w", src.ConfigFile, err)
		}
	}

	data, err := os.ReadFile(c.File)
	switch {
	case err == nil:
		c.FileFound = true
		if err := applyFile(c, data, src.Actions); err != nil {
			return nil, err
		}
	case errors.Is(err, fs.ErrNotExist) && src.ConfigFile == "":
		// No file: the defaults stand.
	default:
		return nil, fmt.Errorf("read config %s: %w", c.File, err)
	}

	if err := applyEnv(c); err != nil {
		return nil, err
	}
	return c, nil
}

// resolvePaths applies the XDG Base Directory rules: a variable that is
// unset, empty or relative is ignored and the default under HOME is used.
func resolvePaths(env Env, uid int) (Paths, error) {
	var p Paths
	var err error
	if p.ConfigDir, err = xdgDir(env.XDGConfigHome, env.Home, "XDG_CONFIG_HOME", ".config"); err != nil {
		return p, err
	}
	if p.StateDir, err = xdgDir(env.XDGStateHome, env.Home, "XDG_STATE_HOME", ".local/state"); err != nil {
		return p, err
	}
	if p.CacheDir, err = xdgDir(env.XDGCacheHome, env.Home, "XDG_CACHE_HOME", ".cache"); err != nil {
		return p, err
	}
	if filepath.IsAbs(env.XDGRuntimeDir) {
		p.RuntimeDir = filepath.Join(env.XDGRuntimeDir, "leanreview")
	} else {
		tmp := env.TmpDir
		if !filepath.IsAbs(tmp) {
			tmp = "/tmp"
		}
		p.RuntimeDir = filepath.Join(tmp, fmt.Sprintf("leanreview-%d", uid))
	}
	return p, nil
}

func xdgDir(xdg, home, name, fallback string) (string, error) {
	if filepath.IsAbs(xdg) {
		return filepath.Join(xdg, "leanreview"), nil
	}
	if home == "" {
		return "", fmt.Errorf("locate leanreview's directories: neither %s nor HOME is set", name)
	}
	if !filepath.IsAbs(home) {
		return "", fmt.Errorf("locate leanreview's directories: HOME=%q is not an absolute path", home)
	}
	return filepath.Join(home, fallback, "leanreview"), nil
}

// Host returns the forge settings for a host name such as "github.com";
// the lookup ignores case. ok is false for a host leanreview does not know.
func (c *Config) Host(name string) (h Host, ok bool) {
	h, ok = c.Hosts[strings.ToLower(name)]
	return h, ok
}

// GitHubToken returns the GitHub token from the environment and the
// variable it came from: GH_TOKEN, then GITHUB_TOKEN (gh's order, so a
// GH_TOKEN set by hand beats the GITHUB_TOKEN a CI runner injects). Both
// are "" when neither is set.
func (c *Config) GitHubToken() (token, from string) {
	switch {
	case c.Env.GHToken != "":
		return c.Env.GHToken, "GH_TOKEN"
	case c.Env.GitHubToken != "":
		return c.Env.GitHubToken, "GITHUB_TOKEN"
	}
	return "", ""
}

// GitLabToken returns GITLAB_TOKEN and its name, or "", "" when unset.
func (c *Config) GitLabToken() (token, from string) {
	if c.Env.GitLabToken != "" {
		return c.Env.GitLabToken, "GITLAB_TOKEN"
	}
	return "", ""
}
