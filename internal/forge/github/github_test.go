package github_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	gh "github.com/google/go-github/v93/github"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/forge/forgetest"
	"github.com/leanreview/leanreview/internal/forge/github"
)

func newClient(t *testing.T, g *forgetest.GitHub) *github.Client {
	t.Helper()
	c, err := github.New(github.Options{BaseURL: g.URL(), Token: g.Token(), HTTPClient: g.Client(), Sleeper: forgetest.NewClock(time.Now())})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func seed(t *testing.T, g *forgetest.GitHub) forge.Ref {
	t.Helper()
	return g.AddPull(forgetest.PullSeed{Repo: "acme/greeter", Number: 3, Title: "t", Base: forgetest.FixtureBase, Head: forgetest.FixtureHead, Patch: forgetest.FixturePatch()})
}

func TestChange_NamesTheFilesGitHubGivesNoPatchForPastTheDiffLimit(t *testing.T) {
	g := forgetest.NewGitHub(t, forgetest.GitHubOptions{MaxDiffFiles: 3, MaxFilePatch: 200})
	ref := seed(t, g)
	ch, err := newClient(t, g).Change(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Missing) != 1 || ch.Missing[0].Path != "main.go" {
		t.Fatalf("Missing = %+v, want main.go (its patch is past 200 bytes)", ch.Missing)
	}
	files, err := forgetest.ParseFiles(ch.Patch)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Path)
		if f.Path == "main.go" && len(f.Hunks) != 0 {
			t.Errorf("main.go has hunks although GitHub gave none")
		}
		if f.Path == "logo.png" && !f.Binary {
			t.Errorf("logo.png is not marked binary")
		}
	}
	if got := strings.Join(names, " "); got != "gone.txt logo.png main.go notes.txt version.go" {
		t.Errorf("files = %s", got)
	}
	_, rejected := forge.Check(files, []forge.Comment{{MarkerID: "m", Path: "main.go", Side: changeset.SideNew, Line: 9}})
	if len(rejected) != 1 {
		t.Errorf("a comment on the file without text was not rejected before sending")
	}
}

func TestSubmit_RefusesWhileAPendingReviewFromTheWebPageExists(t *testing.T) {
	g := forgetest.NewGitHub(t, forgetest.GitHubOptions{})
	ref := seed(t, g)
	url := g.URL()
	raw, err := gh.NewClient(gh.WithHTTPClient(g.Client()), gh.WithURLs(&url, &url), gh.WithAuthToken(g.Token()))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := raw.PullRequests.CreateReview(context.Background(), "acme", "greeter", 3, &gh.PullRequestReviewRequest{}); err != nil {
		t.Fatal(err)
	}
	_, err = newClient(t, g).Submit(context.Background(), ref, forge.Review{MarkerID: "r", CommitID: forgetest.FixtureHead, Event: forge.EventApprove})
	if !errors.Is(err, forge.ErrRejected) || !strings.Contains(err.Error(), "pending review") {
		t.Errorf("err = %v, want ErrRejected about the pending review", err)
	}
}

func TestSubmit_AReviewAlreadyInWithoutSomeCommentsAsksForANewMarker(t *testing.T) {
	g := forgetest.NewGitHub(t, forgetest.GitHubOptions{})
	ref := seed(t, g)
	c := newClient(t, g)
	diff, _ := forgetest.ParseFiles(forgetest.FixturePatch())
	rv := forge.Review{MarkerID: "r", CommitID: forgetest.FixtureHead, Event: forge.EventComment, Body: "first", Diff: diff}
	if _, err := c.Submit(context.Background(), ref, rv); err != nil {
		t.Fatal(err)
	}
	rv.Comments = []forge.Comment{{MarkerID: "late", Path: "main.go", Side: changeset.SideNew, Line: 9, Body: "late"}}
	res, err := c.Submit(context.Background(), ref, rv)
	if !errors.Is(err, forge.ErrInput) || len(res.Accepted) != 1 || res.Accepted[0] != "r" {
		t.Errorf("Submit = %v, %v; want ErrInput with only the review accepted", res.Accepted, err)
	}
}
