package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// home returns a fresh HOME directory and an environment pointing at it.
func home(t *testing.T, extra ...string) (string, []string) {
	t.Helper()
	h := t.TempDir()
	return h, append([]string{"HOME=" + h}, extra...)
}

// writeConfig writes body as HOME's default config file.
func writeConfig(t *testing.T, h, body string) string {
	t.Helper()
	dir := filepath.Join(h, ".config", "leanreview")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoad_PathsFollowXDGWithHomeDefaults(t *testing.T) {
	tests := []struct {
		name    string
		environ []string
		uid     int
		want    Paths
	}{
		{
			name:    "home only",
			environ: []string{"HOME=/home/ann"},
			uid:     1000,
			want: Paths{
				ConfigDir:  "/home/ann/.config/leanreview",
				StateDir:   "/home/ann/.local/state/leanreview",
				CacheDir:   "/home/ann/.cache/leanreview",
				RuntimeDir: "/tmp/leanreview-1000",
			},
		},
		{
			name: "xdg variables win",
			environ: []string{"HOME=/home/ann", "XDG_CONFIG_HOME=/cfg", "XDG_STATE_HOME=/st/",
				"XDG_CACHE_HOME=/cache", "XDG_RUNTIME_DIR=/run/user/1000"},
			uid: 1000,
			want: Paths{
				ConfigDir:  "/cfg/leanreview",
				StateDir:   "/st/leanreview",
				CacheDir:   "/cache/leanreview",
				RuntimeDir: "/run/user/1000/leanreview",
			},
		},
		{
			name:    "relative and empty xdg values are ignored",
			environ: []string{"HOME=/home/ann", "XDG_CONFIG_HOME=rel/cfg", "XDG_STATE_HOME=", "XDG_RUNTIME_DIR=run"},
			uid:     7,
			want: Paths{
				ConfigDir:  "/home/ann/.config/leanreview",
				StateDir:   "/home/ann/.local/state/leanreview",
				CacheDir:   "/home/ann/.cache/leanreview",
				RuntimeDir: "/tmp/leanreview-7",
			},
		},
		{
			name:    "runtime fallback uses TMPDIR",
			environ: []string{"HOME=/home/ann", "TMPDIR=/var/tmp/ann"},
			uid:     501,
			want: Paths{
				ConfigDir:  "/home/ann/.config/leanreview",
				StateDir:   "/home/ann/.local/state/leanreview",
				CacheDir:   "/home/ann/.cache/leanreview",
				RuntimeDir: "/var/tmp/ann/leanreview-501",
			},
		},
		{
			name:    "no home needed when every xdg variable is set",
			environ: []string{"XDG_CONFIG_HOME=/c", "XDG_STATE_HOME=/s", "XDG_CACHE_HOME=/k", "XDG_RUNTIME_DIR=/r"},
			want:    Paths{ConfigDir: "/c/leanreview", StateDir: "/s/leanreview", CacheDir: "/k/leanreview", RuntimeDir: "/r/leanreview"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(Sources{Environ: tt.environ, UID: tt.uid})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if diff := cmp.Diff(tt.want, c.Paths); diff != "" {
				t.Errorf("Paths (-want +got):\n%s", diff)
			}
			if want := filepath.Join(tt.want.ConfigDir, FileName); c.File != want || c.FileFound {
				t.Errorf("File = %q found=%v, want %q not found", c.File, c.FileFound, want)
			}
		})
	}
}

func TestLoad_PathErrorsNameTheVariable(t *testing.T) {
	tests := []struct {
		name    string
		environ []string
		want    string
	}{
		{"no home", []string{"XDG_CONFIG_HOME=/c"},
			"locate leanreview's directories: neither XDG_STATE_HOME nor HOME is set"},
		{"relative home", []string{"HOME=ann"},
			`locate leanreview's directories: HOME="ann" is not an absolute path`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(Sources{Environ: tt.environ})
			if err == nil || err.Error() != tt.want {
				t.Errorf("Load error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestLoad_WithoutFileGivesDefaults(t *testing.T) {
	_, environ := home(t)
	c, err := Load(Sources{Environ: environ})
	if err != nil {
		t.Fatal(err)
	}
	want := Defaults()
	want.Paths, want.Env, want.File = c.Paths, c.Env, c.File
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	if c.TabWidth != 8 || !c.Wrap || c.View != ViewUnified || c.Theme != ThemeAuto {
		t.Errorf("defaults = tab %d wrap %v view %v theme %v", c.TabWidth, c.Wrap, c.View, c.Theme)
	}
}

func TestLoad_FileSetsEverySetting(t *testing.T) {
	h, environ := home(t)
	data, err := os.ReadFile("testdata/full.toml")
	if err != nil {
		t.Fatal(err)
	}
	path := writeConfig(t, h, string(data))
	c, err := Load(Sources{Environ: environ, Actions: []string{"down", "up", "toggle_view"}})
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		File:      path,
		FileFound: true,
		Paths:     c.Paths,
		Env:       c.Env,
		Editor:    `"/opt/My Editor/bin/ed" -w`,
		Keys:      map[string][]string{"down": {"j", "down"}, "up": {"k", "up"}, "toggle_view": {}},
		Theme:     ThemeLight,
		Colors:    map[ColorSlot]Color{ColorAdded: "#00aa00", ColorRemoved: "196"},
		TabWidth:  4,
		Wrap:      false,
		View:      ViewSplit,
		Hosts: map[string]Host{
			"github.com":           {Kind: ForgeGitHub, API: "https://api.github.com"},
			"gitlab.com":           {Kind: ForgeGitLab, API: "https://gitlab.com/api/v4"},
			"git.example.com":      {Kind: ForgeGitLab, API: "https://git.example.com/api/v4"},
			"ghe.example.com:8443": {Kind: ForgeGitHub, API: "https://ghe.example.com:8443/api/v3"},
		},
	}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	if h, ok := c.Host("GIT.Example.com"); !ok || h.Kind != ForgeGitLab {
		t.Errorf("Host(GIT.Example.com) = %+v, %v", h, ok)
	}
}

// TestLoad_PrecedenceDefaultThenFileThenEnv shows each layer overriding the
// one before, for every setting that more than one layer can set.
func TestLoad_PrecedenceDefaultThenFileThenEnv(t *testing.T) {
	type got struct {
		GitHubAPI, EnterpriseAPI, GitLabAPI string
		NoColor                             bool
		Theme                               Theme
	}
	read := func(c *Config) got {
		return got{c.Hosts["github.com"].API, c.Hosts["ghe.example.com"].API, c.Hosts["gitlab.com"].API, c.NoColor, c.Theme}
	}
	const file = `theme = "mono"
[hosts."ghe.example.com"]
kind = "github"
api = "https://ghe.example.com/api/v3"
`
	tests := []struct {
		name    string
		file    string
		environ []string
		want    got
	}{
		{"defaults", "", nil,
			got{"https://api.github.com", "", "https://gitlab.com/api/v4", false, ThemeAuto}},
		{"file over defaults", file, nil,
			got{"https://api.github.com", "https://ghe.example.com/api/v3", "https://gitlab.com/api/v4", false, ThemeMono}},
		{"env over file", file,
			[]string{"LEANREVIEW_GITHUB_API=http://127.0.0.1:8080/", "LEANREVIEW_GITLAB_API=http://127.0.0.1:9090/api/v4", "NO_COLOR=1"},
			got{"http://127.0.0.1:8080", "http://127.0.0.1:8080", "http://127.0.0.1:9090/api/v4", true, ThemeMono}},
		{"empty env values change nothing", file,
			[]string{"LEANREVIEW_GITHUB_API=", "NO_COLOR="},
			got{"https://api.github.com", "https://ghe.example.com/api/v3", "https://gitlab.com/api/v4", false, ThemeMono}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, environ := home(t, tt.environ...)
			if tt.file != "" {
				writeConfig(t, h, tt.file)
			}
			c, err := Load(Sources{Environ: environ})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, read(c)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoad_CapturesEveryVariable(t *testing.T) {
	environ := []string{
		"HOME=/home/ann", "TMPDIR=/t", "TERM=xterm-256color", "NO_COLOR=yes",
		"LEANREVIEW_EDITOR=code --wait", "GIT_EDITOR=nvim -f", "VISUAL=emacs", "EDITOR=nano",
		"LEANREVIEW_GITHUB_API=http://127.0.0.1:1", "LEANREVIEW_GITLAB_API=http://127.0.0.1:2",
		"GITHUB_TOKEN=ght", "GH_TOKEN=gh", "GITLAB_TOKEN=glt",
		"XDG_CONFIG_HOME=/c", "XDG_STATE_HOME=/s", "XDG_CACHE_HOME=/k", "XDG_RUNTIME_DIR=/r",
		"EDITOR=vim", // a later duplicate wins, as with os/exec
		"UNRELATED=x",
	}
	c, err := Load(Sources{Environ: environ})
	if err != nil {
		t.Fatal(err)
	}
	want := Env{
		LeanreviewEditor: "code --wait", GitEditor: "nvim -f", Visual: "emacs", Editor: "vim",
		NoColor: "yes", Term: "xterm-256color",
		GitHubAPI: "http://127.0.0.1:1", GitLabAPI: "http://127.0.0.1:2",
		GitHubToken: "ght", GHToken: "gh", GitLabToken: "glt",
		Home: "/home/ann", TmpDir: "/t",
		XDGConfigHome: "/c", XDGStateHome: "/s", XDGCacheHome: "/k", XDGRuntimeDir: "/r",
	}
	if diff := cmp.Diff(want, c.Env); diff != "" {
		t.Errorf("Env (-want +got):\n%s", diff)
	}
}

func TestConfig_TokensFollowGhOrder(t *testing.T) {
	tests := []struct {
		environ            []string
		wantGH, wantGHFrom string
		wantGL, wantGLFrom string
	}{
		{[]string{"HOME=/h"}, "", "", "", ""},
		{[]string{"HOME=/h", "GITHUB_TOKEN=a", "GITLAB_TOKEN=c"}, "a", "GITHUB_TOKEN", "c", "GITLAB_TOKEN"},
		{[]string{"HOME=/h", "GITHUB_TOKEN=a", "GH_TOKEN=b"}, "b", "GH_TOKEN", "", ""},
	}
	for _, tt := range tests {
		c, err := Load(Sources{Environ: tt.environ})
		if err != nil {
			t.Fatal(err)
		}
		gh, ghFrom := c.GitHubToken()
		gl, glFrom := c.GitLabToken()
		if gh != tt.wantGH || ghFrom != tt.wantGHFrom || gl != tt.wantGL || glFrom != tt.wantGLFrom {
			t.Errorf("%v: GitHubToken = %q %q, GitLabToken = %q %q", tt.environ, gh, ghFrom, gl, glFrom)
		}
	}
}
