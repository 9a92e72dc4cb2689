package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoad_FileErrorsNameFileKeyAndLine pins the message of every way a
// config file can be wrong. "FILE" stands for the file's path.
func TestLoad_FileErrorsNameFileKeyAndLine(t *testing.T) {
	tests := []struct {
		name, file, want string
	}{
		{"syntax", "tab_width = \n",
			"config FILE:1:13: unexpected character U+000A at start of value"},
		{"duplicate key", "wrap = true\nwrap = false\n",
			"config FILE:2:1: wrap: key wrap is already defined"},
		{"unknown top-level key", "wrap = true\ncolour = \"x\"\n",
			"config FILE:2:1: colour: unknown key"},
		{"unknown host key", "[hosts.\"a.example\"]\nkind = \"github\"\napi_url = \"https://a.example\"\n",
			"config FILE:3:1: hosts.a.example.api_url: unknown key"},
		{"tab width not an integer", "tab_width = \"4\"\n",
			"config FILE:1:13: tab_width: wrong type: got a TOML string, want an integer"},
		{"wrap not a boolean", "wrap = \"yes\"\n",
			"config FILE:1:8: wrap: wrong type: got a TOML string, want true or false"},
		{"editor not a string", "editor = [\"vim\"]\n",
			"config FILE:1:10: editor: wrong type: got a TOML array, want a string"},
		{"theme not a string", "theme = 2\n",
			"config FILE:1:9: theme: wrong type: got a TOML integer, want a string"},
		{"keys entry not an array", "[keys]\ndown = \"j\"\n",
			"config FILE:2:8: keys.down: wrong type: got a TOML string, want an array of strings"},
		{"keys element not a string", "[keys]\ndown = [\"j\", 3]\n",
			"config FILE:2:14: keys.down: wrong type: got a TOML integer, want a string"},
		{"hosts not a table", "hosts = 1\n",
			"config FILE:1:9: hosts: wrong type: got a TOML integer, want a table"},
		{"unknown theme", "theme = \"solarized\"\n",
			`config FILE:1:1: theme: unknown theme "solarized" (want auto, dark, light, mono)`},
		{"unknown view", "view = \"side-by-side\"\n",
			`config FILE:1:1: view: unknown view "side-by-side" (want unified, split)`},
		{"bad colour", "[colors]\nadded = \"green\"\n",
			`config FILE:2:1: colors.added: colour "green": want #rgb, #rrggbb or an ANSI index 0-255`},
		{"colour index out of range", "[colors]\nadded = \"256\"\n",
			`config FILE:2:1: colors.added: colour "256": want #rgb, #rrggbb or an ANSI index 0-255`},
		{"unknown colour slot", "[colors]\nbackground = \"#000\"\n",
			`config FILE:2:1: colors.background: unknown colour slot "background" (want added, removed, added_word, removed_word, context, line_number, hunk_header, cursor, selection, comment, orphaned, escaped, search_match, status_bar, sidebar)`},
		{"tab width too small", "tab_width = 0\n",
			"config FILE:1:1: tab_width: 0 is out of range (want 1 to 16)"},
		{"tab width too large", "tab_width = 17\n",
			"config FILE:1:1: tab_width: 17 is out of range (want 1 to 16)"},
		{"empty editor", "editor = \"  \"\n",
			"config FILE:1:1: editor: empty command; remove the key to use the default chain"},
		{"unknown action", "[keys]\ndwon = [\"j\"]\n",
			"config FILE:2:1: keys.dwon: unknown action (known: down, up)"},
		{"key bound twice", "[keys]\ndown = [\"j\"]\nup = [\"j\"]\n",
			`config FILE:3:1: keys.up: key "j" is also bound to down`},
		{"empty key name", "[keys]\ndown = [\"\"]\n",
			"config FILE:2:1: keys.down: empty key name"},
		{"host with scheme", "[hosts.\"https://git.example.com\"]\nkind = \"gitlab\"\n",
			`config FILE:1:2: hosts.https://git.example.com: want a bare host name such as "git.example.com" (no scheme or path)`},
		{"host without kind", "[hosts.\"git.example.com\"]\napi = \"https://git.example.com/api/v4\"\n",
			"config FILE:1:2: hosts.git.example.com.kind: missing (want github or gitlab)"},
		{"unknown forge kind", "[hosts.\"git.example.com\"]\nkind = \"gitea\"\n",
			`config FILE:2:1: hosts.git.example.com.kind: unknown forge kind "gitea" (want github, gitlab)`},
		{"dotted key form", "wrap = true\nhosts.\"git.example.com\".kind = \"gitea\"\n",
			`config FILE:2:1: hosts.git.example.com.kind: unknown forge kind "gitea" (want github, gitlab)`},
		{"relative api", "[hosts.\"git.example.com\"]\nkind = \"gitlab\"\napi = \"/api/v4\"\n",
			`config FILE:3:1: hosts.git.example.com.api: API base URL "/api/v4": want an absolute http or https URL`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, environ := home(t)
			path := writeConfig(t, h, tt.file)
			_, err := Load(Sources{Environ: environ, Actions: []string{"down", "up"}})
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("Load error = %v (%T), want a *FileError", err, err)
			}
			if fe.Path != path {
				t.Errorf("FileError.Path = %q, want %q", fe.Path, path)
			}
			if got := strings.ReplaceAll(err.Error(), path, "FILE"); got != tt.want {
				t.Errorf("error:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestLoad_OtherErrorsNameTheirSource(t *testing.T) {
	t.Run("explicit config file missing", func(t *testing.T) {
		_, environ := home(t)
		missing := filepath.Join(t.TempDir(), "nope.toml")
		_, err := Load(Sources{Environ: environ, ConfigFile: missing})
		if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.HasPrefix(err.Error(), "read config "+missing+": ") {
			t.Errorf("Load error = %v, want a not-exist error naming %s", err, missing)
		}
	})
	t.Run("config file is a directory", func(t *testing.T) {
		h, environ := home(t)
		dir := filepath.Join(h, ".config", "leanreview", FileName)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		_, err := Load(Sources{Environ: environ})
		if err == nil || !strings.HasPrefix(err.Error(), "read config "+dir+": ") {
			t.Errorf("Load error = %v, want one naming %s", err, dir)
		}
	})
	t.Run("bad api override", func(t *testing.T) {
		_, environ := home(t, "LEANREVIEW_GITLAB_API=localhost:8080")
		_, err := Load(Sources{Environ: environ})
		want := `environment variable LEANREVIEW_GITLAB_API: API base URL "localhost:8080": want an absolute http or https URL`
		if err == nil || err.Error() != want {
			t.Errorf("Load error = %v, want %q", err, want)
		}
	})
}

func TestLoad_ExplicitConfigFileReplacesDefault(t *testing.T) {
	h, environ := home(t)
	writeConfig(t, h, "tab_width = 2\n")
	other := filepath.Join(t.TempDir(), "other.toml")
	if err := os.WriteFile(other, []byte("tab_width = 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(Sources{Environ: environ, ConfigFile: other})
	if err != nil {
		t.Fatal(err)
	}
	if c.TabWidth != 3 || c.File != other || !c.FileFound {
		t.Errorf("TabWidth = %d, File = %q (found %v); want 3 from %s", c.TabWidth, c.File, c.FileFound, other)
	}
}

func TestLoad_NilActionsAcceptsAnyActionName(t *testing.T) {
	h, environ := home(t)
	writeConfig(t, h, "[keys]\nwhatever = [\"x\"]\n")
	c, err := Load(Sources{Environ: environ})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Keys["whatever"]; len(got) != 1 || got[0] != "x" {
		t.Errorf("Keys[whatever] = %q", got)
	}
}
