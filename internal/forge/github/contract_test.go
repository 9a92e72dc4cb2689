package github_test

import (
	"flag"
	"testing"
	"time"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
	"github.com/leanreview/leanreview/internal/forge/github"
)

// contract builds the GitHub adapter against the fake GitHub shaped by
// opts (its clock aside).
func contract(opts forgetest.GitHubOptions) forgetest.Contract {
	return forgetest.Contract{
		NewHost: func(t *testing.T, now func() time.Time) forgetest.Host {
			o := opts
			o.Now = now
			return forgetest.NewGitHub(t, o)
		},
		NewHostWithoutResolvedState: func(t *testing.T, now func() time.Time) forgetest.Host {
			o := opts
			o.Now, o.GraphQLStatus = now, 404
			return forgetest.NewGitHub(t, o)
		},
		NewForge: func(t *testing.T, h forgetest.Host, cfg forgetest.ForgeConfig) forge.Forge {
			c, err := github.New(github.Options{BaseURL: h.URL(), Token: cfg.Token, HTTPClient: h.Client(),
				Sleeper: cfg.Sleeper, Now: cfg.Now, Retry: cfg.Retry})
			if err != nil {
				t.Fatal(err)
			}
			return c
		},
	}
}

func TestGitHub_PassesTheForgeContract(t *testing.T) {
	forgetest.RunContract(t, contract(forgetest.GitHubOptions{}))
}

// An Enterprise Server host: REST under /api/v3/, GraphQL at /api/graphql,
// found from the REST root alone.
func TestGitHub_PassesTheForgeContractOnEnterpriseServer(t *testing.T) {
	forgetest.RunContract(t, contract(forgetest.GitHubOptions{Enterprise: true}))
}

var schedules = flag.Int("schedules", 0, "seeded fault schedules to run on top of the contract's 30")

func TestGitHub_SurvivesManySeededFaultSchedules(t *testing.T) {
	if *schedules == 0 {
		t.Skip("run with -schedules N")
	}
	forgetest.RunFaultSchedules(t, contract(forgetest.GitHubOptions{}), 1000, *schedules)
}
