package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/config"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/github"
	"github.com/leanreview/leanreview/internal/forge/gitlab"
	"github.com/leanreview/leanreview/internal/source"
	"github.com/leanreview/leanreview/internal/store"
	"github.com/spf13/cobra"
)

// Building the forge adapters from the configuration: the host's API base
// URL (config file, then LEANREVIEW_GITHUB_API / LEANREVIEW_GITLAB_API) and
// a token (GH_TOKEN or GITHUB_TOKEN, else `gh auth token`; GITLAB_TOKEN,
// else glab's config file).

// forgeHosts is the config's hosts as the forge package reads references.
func forgeHosts(cfg *config.Config) forge.Hosts {
	hosts := forge.Hosts{}
	for name, h := range cfg.Hosts {
		switch h.Kind {
		case config.ForgeGitHub:
			hosts[name] = forge.KindGitHub
		case config.ForgeGitLab:
			hosts[name] = forge.KindGitLab
		}
	}
	return hosts
}

// apiBase is the REST API root of ref's host: the configured one, else
// the environment's override for its kind, else where GitHub Enterprise
// Server and GitLab serve it.
func apiBase(cfg *config.Config, ref forge.Ref) string {
	if h, ok := cfg.Host(ref.Host); ok && h.API != "" {
		return h.API
	}
	if ref.Kind == forge.KindGitLab {
		if cfg.Env.GitLabAPI != "" {
			return cfg.Env.GitLabAPI
		}
		return "https://" + ref.Host + "/api/v4"
	}
	if cfg.Env.GitHubAPI != "" {
		return cfg.Env.GitHubAPI
	}
	return "https://" + ref.Host + "/api/v3"
}

// Forge builds the adapter for ref's host. A missing token is a usage
// error naming what to set; a token the host rejects is reported when it is
// first used, with where it came from.
func (f *Factory) Forge(ctx context.Context, ref forge.Ref) (forge.Forge, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	token, from, err := f.forgeToken(ctx, cfg, ref)
	if err != nil {
		return nil, err
	}
	base := apiBase(cfg, ref)
	var fg forge.Forge
	switch ref.Kind {
	case forge.KindGitHub:
		fg, err = github.New(github.Options{BaseURL: base, Token: token})
	case forge.KindGitLab:
		fg, err = gitlab.New(gitlab.Options{BaseURL: base, Token: token})
	default:
		return nil, fmt.Errorf("%s: unknown kind of host", ref)
	}
	if err != nil {
		return nil, err
	}
	return tokenNamed{Forge: fg, from: from}, nil
}

// forgeOptions completes opts for pull and merge request sources: the
// configured hosts and the adapter of each. A configuration that does not
// load leaves the public hosts, and is reported only when a change is
// opened, so it never stands in the way of a patch file.
func (f *Factory) forgeOptions(ctx context.Context, opts source.Options) source.Options {
	if cfg, err := f.Config(); err == nil {
		opts.Hosts = forgeHosts(cfg)
	}
	opts.Forge = func(ref forge.Ref) (source.Fetcher, error) { return f.Forge(ctx, ref) }
	return opts
}

// forgeToken finds the token for ref's host and says where it came from.
func (f *Factory) forgeToken(ctx context.Context, cfg *config.Config, ref forge.Ref) (token, from string, err error) {
	switch ref.Kind {
	case forge.KindGitHub:
		if token, from = cfg.GitHubToken(); token != "" {
			return token, from, nil
		}
		if token = f.ghAuthToken(ctx, ref.Host); token != "" {
			return token, "gh auth token", nil
		}
		return "", "", usageError{fmt.Errorf("no GitHub token for %s: set GITHUB_TOKEN or GH_TOKEN to a token with repo scope, or log in with `gh auth login`", ref.Host)}
	default:
		if token, from = cfg.GitLabToken(); token != "" {
			return token, from, nil
		}
		file := glabConfigFile(cfg)
		if token = glabToken(file, ref.Host); token != "" {
			return token, file, nil
		}
		return "", "", usageError{fmt.Errorf("no GitLab token for %s: set GITLAB_TOKEN to a token with api scope, or log in with `glab auth login`", ref.Host)}
	}
}

// ghAuthToken asks the GitHub CLI for its token for host; "" when gh is not
// installed, not logged in to host, or slow to answer.
func (f *Factory) ghAuthToken(ctx context.Context, host string) string {
	gh, err := exec.LookPath("gh")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, gh, "auth", "token", "--hostname", host)
	cmd.Env = f.Sources.Environ
	var out bytes.Buffer
	cmd.Stdout = &out
	if cmd.Run() != nil {
		return ""
	}
	return strings.TrimSpace(out.String())
}

// glabConfigFile is where glab keeps its hosts and tokens:
// $XDG_CONFIG_HOME/glab-cli/config.yml, else ~/.config/glab-cli/config.yml.
func glabConfigFile(cfg *config.Config) string {
	if filepath.IsAbs(cfg.Env.XDGConfigHome) {
		return filepath.Join(cfg.Env.XDGConfigHome, "glab-cli", "config.yml")
	}
	return filepath.Join(cfg.Env.Home, ".config", "glab-cli", "config.yml")
}

// glabToken reads host's token from glab's config file; "" when the file,
// the host or its token is missing, or the file is not YAML.
func glabToken(file, host string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	var doc struct {
		Hosts map[string]struct {
			Token string `yaml:"token"`
		} `yaml:"hosts"`
	}
	if yaml.Unmarshal(data, &doc) != nil {
		return ""
	}
	for name, h := range doc.Hosts {
		if strings.EqualFold(name, host) {
			return strings.TrimSpace(h.Token)
		}
	}
	return ""
}

// tokenNamed is a forge whose refusals of the token say where the token
// came from, so the user knows which one to replace.
type tokenNamed struct {
	forge.Forge
	from string
}

func (t tokenNamed) name(err error) error {
	if errors.Is(err, forge.ErrUnauthorized) {
		return fmt.Errorf("%w (the token came from %s)", err, t.from)
	}
	return err
}

func (t tokenNamed) Change(ctx context.Context, ref forge.Ref) (forge.Change, error) {
	ch, err := t.Forge.Change(ctx, ref)
	return ch, t.name(err)
}

func (t tokenNamed) Threads(ctx context.Context, ref forge.Ref) ([]forge.Thread, error) {
	th, err := t.Forge.Threads(ctx, ref)
	return th, t.name(err)
}

func (t tokenNamed) Submit(ctx context.Context, ref forge.Ref, rv forge.Review) (forge.SubmitResult, error) {
	res, err := t.Forge.Submit(ctx, ref, rv)
	return res, t.name(err)
}

func (t tokenNamed) Reply(ctx context.Context, ref forge.Ref, r forge.Reply) (forge.Posted, error) {
	p, err := t.Forge.Reply(ctx, ref, r)
	return p, t.name(err)
}

func (t tokenNamed) Reconcile(ctx context.Context, ref forge.Ref) ([]forge.Posted, error) {
	p, err := t.Forge.Reconcile(ctx, ref)
	return p, t.name(err)
}

// stateStore opens the named directory of documents under the state
// directory.
func (f *Factory) stateStore(name string) (*store.Dir, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	return store.New(filepath.Join(cfg.Paths.StateDir, name), 1)
}

// changeSource opens args as a pull or merge request; any other kind of
// source is a usage error naming cmd.
func (f *Factory) changeSource(ctx context.Context, args []string, cmd string) (*source.Source, error) {
	src, err := f.OpenSource(ctx, args, sourceFlags{})
	if err != nil {
		return nil, err
	}
	if src.Kind != source.KindGitHub && src.Kind != source.KindGitLab {
		return nil, usageError{fmt.Errorf("%s works on a GitHub pull request or a GitLab merge request, not on %s", cmd, src.Label)}
	}
	return src, nil
}

// conversation is the app's view of src's threads.
func (f *Factory) conversation(ctx context.Context, src *source.Source) (*app.Conversation, error) {
	fg, err := f.Forge(ctx, src.Ref)
	if err != nil {
		return nil, err
	}
	seen, err := f.stateStore("threads")
	if err != nil {
		return nil, err
	}
	docs, err := f.Documents()
	if err != nil {
		return nil, err
	}
	return app.NewConversation(app.ConversationDeps{Forge: fg, Ref: src.Ref, Source: sourceInfo(src), Seen: seen,
		Drafts: docs, Now: f.Now, NewID: f.NewID}), nil
}

// forgeCommands are the commands that talk to a code host, for the root
// command to add.
func forgeCommands(f *Factory) []*cobra.Command {
	return []*cobra.Command{newCmdSubmit(f, nil), newCmdCheckReview(f, nil), newCmdReply(f, nil)}
}
