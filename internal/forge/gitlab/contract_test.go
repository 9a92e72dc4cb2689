package gitlab_test

import (
	"flag"
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

var schedules = flag.Int("schedules", 0, "seeded fault schedules to run on top of the contract's 30")

func TestGitLab_SurvivesManySeededFaultSchedules(t *testing.T) {
	if *schedules == 0 {
		t.Skip("run with -schedules N")
	}
	forgetest.RunFaultSchedules(t, contract(forgetest.GitLabOptions{}), 1000, *schedules)
	forgetest.RunFaultSchedules(t, contract(forgetest.GitLabOptions{NoDraftNotes: true}), 1000, *schedules)
}
