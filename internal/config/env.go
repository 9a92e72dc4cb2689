package config

import (
	"fmt"
	"net/url"
	"strings"
)

// Env is every environment variable leanreview reads, captured once by
// Load. An unset variable and one set to "" both read as "".
type Env struct {
	LeanreviewEditor string // LEANREVIEW_EDITOR
	GitEditor        string // GIT_EDITOR
	Visual           string // VISUAL
	Editor           string // EDITOR

	NoColor string // NO_COLOR; any non-empty value disables colour
	Term    string // TERM

	GitHubAPI   string // LEANREVIEW_GITHUB_API: API base URL for every GitHub host
	GitLabAPI   string // LEANREVIEW_GITLAB_API: API base URL for every GitLab host
	GitHubToken string // GITHUB_TOKEN
	GHToken     string // GH_TOKEN
	GitLabToken string // GITLAB_TOKEN

	Home          string // HOME
	TmpDir        string // TMPDIR
	XDGConfigHome string // XDG_CONFIG_HOME
	XDGStateHome  string // XDG_STATE_HOME
	XDGCacheHome  string // XDG_CACHE_HOME
	XDGRuntimeDir string // XDG_RUNTIME_DIR
}

// captureEnv reads the variables of Env out of "KEY=value" entries; a later
// entry for the same key wins.
func captureEnv(environ []string) Env {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return Env{
		LeanreviewEditor: m["LEANREVIEW_EDITOR"],
		GitEditor:        m["GIT_EDITOR"],
		Visual:           m["VISUAL"],
		Editor:           m["EDITOR"],
		NoColor:          m["NO_COLOR"],
		Term:             m["TERM"],
		GitHubAPI:        m["LEANREVIEW_GITHUB_API"],
		GitLabAPI:        m["LEANREVIEW_GITLAB_API"],
		GitHubToken:      m["GITHUB_TOKEN"],
		GHToken:          m["GH_TOKEN"],
		GitLabToken:      m["GITLAB_TOKEN"],
		Home:             m["HOME"],
		TmpDir:           m["TMPDIR"],
		XDGConfigHome:    m["XDG_CONFIG_HOME"],
		XDGStateHome:     m["XDG_STATE_HOME"],
		XDGCacheHome:     m["XDG_CACHE_HOME"],
		XDGRuntimeDir:    m["XDG_RUNTIME_DIR"],
	}
}

// applyEnv lays the environment over the file's settings.
func applyEnv(c *Config) error {
	c.NoColor = c.Env.NoColor != ""
	overrides := []struct {
		name, value string
		kind        ForgeKind
	}{
		{"LEANREVIEW_GITHUB_API", c.Env.GitHubAPI, ForgeGitHub},
		{"LEANREVIEW_GITLAB_API", c.Env.GitLabAPI, ForgeGitLab},
	}
	for _, o := range overrides {
		if o.value == "" {
			continue
		}
		api, err := parseAPI(o.value)
		if err != nil {
			return fmt.Errorf("environment variable %s: %w", o.name, err)
		}
		for name, h := range c.Hosts {
			if h.Kind == o.kind {
				h.API = api
				c.Hosts[name] = h
			}
		}
	}
	return nil
}

// parseAPI checks an API base URL: absolute, http or https, with a host.
// It returns the URL without a trailing slash.
func parseAPI(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("API base URL %q: %w", raw, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("API base URL %q: want an absolute http or https URL", raw)
	}
	return strings.TrimRight(raw, "/"), nil
}
