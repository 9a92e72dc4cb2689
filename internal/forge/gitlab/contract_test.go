package gitlab_test

import (
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
	"github.com/leanreview/leanreview/internal/forge/gitlab"
)

// contract builds the GitLab adapter against the fake GitLab; opts picks
// the server's features.
func contract(opts forgetest.GitLabOptions) forgetest.Contract {
	return forgetest.Contract{
		NewHost: func(t *testing.T, now func() time.Time) forgetest.Host {
			o := opts
			o.Now = now
			return forgetest.NewGitLab(t, o)
		},
		NewForge: func(t *testing.T, h forgetest.Host, cfg forgetest.ForgeConfig) forge.Forge {
			c, err := gitlab.New(gitlab.Options{BaseURL: h.URL(), Token: cfg.Token, HTTPClient: h.Client(),
				Sleeper: cfg.Sleeper, Now: cfg.Now, Retry: cfg.Retry})
			if err != nil {
				t.Fatal(err)
			}
			return c
		},
	}
}

func TestGitLab_PassesTheForgeContractWithDraftNotes(t *testing.T) {
	forgetest.RunContract(t, contract(forgetest.GitLabOptions{}))
}

func TestGitLab_PassesTheForgeContractWithoutDraftNotes(t *testing.T) {
	forgetest.RunContract(t, contract(forgetest.GitLabOptions{NoDraftNotes: true}))
}
