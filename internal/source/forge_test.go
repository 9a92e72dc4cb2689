package source_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/gitrepo"
	"github.com/leanreview/leanreview/internal/gitrepo/gitrepotest"
	"github.com/leanreview/leanreview/internal/source"
)

// fetcher is a Fetcher that answers with a fixed patch and records which
// changes it was asked for.
type fetcher struct {
	patch string
	asked []forge.Ref
}

func (f *fetcher) Change(_ context.Context, ref forge.Ref) (forge.Change, error) {
	f.asked = append(f.asked, ref)
	return forge.Change{Ref: ref, HeadSHA: "abc", Patch: []byte(f.patch)}, nil
}

// forgeOptions answers every host with fetch and records the refs it was
// asked to build a fetcher for.
func forgeOptions(dir string, git gitrepo.Runner, fetch *fetcher, built *[]forge.Ref) source.Options {
	return source.Options{Dir: dir, Git: git,
		Hosts: forge.Hosts{"github.com": forge.KindGitHub, "gitlab.com": forge.KindGitLab, "git.example.com": forge.KindGitLab},
		Forge: func(ref forge.Ref) (source.Fetcher, error) {
			*built = append(*built, ref)
			return fetch, nil
		}}
}

func TestOpen_PullAndMergeRequestReferences(t *testing.T) {
	for _, tc := range []struct {
		arg   string
		kind  source.Kind
		ref   forge.Ref
		label string
	}{
		{"https://github.com/acme/greeter/pull/7", source.KindGitHub,
			forge.Ref{Host: "github.com", Kind: forge.KindGitHub, Repo: "acme/greeter", Number: 7}, "github.com/acme/greeter#7"},
		{"https://github.com/acme/greeter/pull/7/files#diff-1", source.KindGitHub,
			forge.Ref{Host: "github.com", Kind: forge.KindGitHub, Repo: "acme/greeter", Number: 7}, "github.com/acme/greeter#7"},
		{"acme/greeter#7", source.KindGitHub,
			forge.Ref{Host: "github.com", Kind: forge.KindGitHub, Repo: "acme/greeter", Number: 7}, "github.com/acme/greeter#7"},
		{"https://gitlab.com/acme/tools/greeter/-/merge_requests/3", source.KindGitLab,
			forge.Ref{Host: "gitlab.com", Kind: forge.KindGitLab, Repo: "acme/tools/greeter", Number: 3}, "gitlab.com/acme/tools/greeter!3"},
		{"acme/tools/greeter!3", source.KindGitLab,
			forge.Ref{Host: "gitlab.com", Kind: forge.KindGitLab, Repo: "acme/tools/greeter", Number: 3}, "gitlab.com/acme/tools/greeter!3"},
		{"https://git.example.com/team/app/-/merge_requests/12", source.KindGitLab,
			forge.Ref{Host: "git.example.com", Kind: forge.KindGitLab, Repo: "team/app", Number: 12}, "git.example.com/team/app!12"},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			fetch := &fetcher{patch: "diff --git a/x b/x\n"}
			var built []forge.Ref
			src, err := source.Open(context.Background(), []string{tc.arg}, forgeOptions(t.TempDir(), nil, fetch, &built))
			if err != nil {
				t.Fatal(err)
			}
			got := []any{src.Kind, src.Ref, src.Label, src.Spec, src.Root}
			want := []any{tc.kind, tc.ref, tc.label, tc.label, ""}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("source (-want +got):\n%s", d)
			}
			if !strings.HasPrefix(src.Key, tc.kind.String()+"-") || len(src.Key) != len(tc.kind.String())+1+32 {
				t.Errorf("key %q is not %s- and 32 hex digits", src.Key, tc.kind)
			}
			if len(built) != 1 || built[0] != tc.ref {
				t.Errorf("fetchers built for %v, want one for %v", built, tc.ref)
			}
			if len(fetch.asked) != 0 {
				t.Error("Open fetched the change; only Patch should")
			}
			patch, err := src.Patch(context.Background())
			if err != nil || string(patch) != fetch.patch || len(fetch.asked) != 1 {
				t.Errorf("Patch = %q, %v after %d fetches", patch, err, len(fetch.asked))
			}
		})
	}
}

func TestOpen_ChangeKeyIsHostRepoNumberWhateverTheSpelling(t *testing.T) {
	key := func(arg string) string {
		t.Helper()
		var built []forge.Ref
		src, err := source.Open(context.Background(), []string{arg}, forgeOptions(t.TempDir(), nil, &fetcher{}, &built))
		if err != nil {
			t.Fatal(err)
		}
		return src.Key
	}
	same := []string{"https://github.com/acme/greeter/pull/7", "acme/greeter#7", "https://GitHub.com/Acme/Greeter/pull/7/commits"}
	for _, arg := range same[1:] {
		if key(arg) != key(same[0]) {
			t.Errorf("%s and %s have different keys", arg, same[0])
		}
	}
	for _, other := range []string{"acme/greeter#8", "acme/greeter2#7", "acme/greeter!7"} {
		if key(other) == key(same[0]) {
			t.Errorf("%s shares the key of %s", other, same[0])
		}
	}
}

// remoteCalls expects the repository lookup and the remote reads.
func remoteCalls(git *gitrepotest.Fake, origin, upstream string) {
	git.Expect(gitrepo.Invocation{Dir: "/src/repo", Args: []string{"rev-parse", "--show-toplevel"}}).Returns("/src/repo\n")
	o := git.Expect(inRepo("remote", "get-url", "origin"))
	if origin == "" {
		o.Fails(2, "error: No such remote 'origin'")
	} else {
		o.Returns(origin + "\n")
	}
	if origin != "" && !strings.Contains(origin, "unknown") {
		return
	}
	u := git.Expect(inRepo("remote", "get-url", "upstream"))
	if upstream == "" {
		u.Fails(2, "error: No such remote 'upstream'")
	} else {
		u.Returns(upstream + "\n")
	}
}

func TestOpen_ShortReferencesUseTheCheckoutsRemote(t *testing.T) {
	for _, tc := range []struct {
		name, arg, origin, upstream string
		want                        forge.Ref
		wantErr                     string
	}{
		{"#N on an ssh origin", "#12", "git@github.com:acme/greeter.git", "",
			forge.Ref{Host: "github.com", Kind: forge.KindGitHub, Repo: "acme/greeter", Number: 12}, ""},
		{"N on an https origin", "12", "https://github.com/acme/greeter", "",
			forge.Ref{Host: "github.com", Kind: forge.KindGitHub, Repo: "acme/greeter", Number: 12}, ""},
		{"!N on a GitLab origin", "!4", "https://gitlab.com/acme/tools/greeter.git", "",
			forge.Ref{Host: "gitlab.com", Kind: forge.KindGitLab, Repo: "acme/tools/greeter", Number: 4}, ""},
		{"upstream when origin is on an unknown host", "#5", "https://unknown.example.org/me/fork.git", "git@github.com:acme/greeter.git",
			forge.Ref{Host: "github.com", Kind: forge.KindGitHub, Repo: "acme/greeter", Number: 5}, ""},
		{"upstream when there is no origin", "!5", "", "ssh://git@git.example.com/team/app.git",
			forge.Ref{Host: "git.example.com", Kind: forge.KindGitLab, Repo: "team/app", Number: 5}, ""},
		{"#N on a GitLab remote", "#5", "", "ssh://git@git.example.com/team/app.git",
			forge.Ref{}, `GitLab merge requests are written !N, not "#5"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			git := gitrepotest.NewFake(t)
			remoteCalls(git, tc.origin, tc.upstream)
			var built []forge.Ref
			src, err := source.Open(context.Background(), []string{tc.arg}, forgeOptions("/src/repo", git, &fetcher{}, &built))
			if tc.wantErr != "" {
				assertSourceError(t, err, tc.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if src.Ref != tc.want {
				t.Errorf("ref = %+v, want %+v", src.Ref, tc.want)
			}
		})
	}
}

func TestOpen_BareNumberWithoutAForgeRemoteIsARevision(t *testing.T) {
	git := gitrepotest.NewFake(t)
	remoteCalls(git, "", "")
	git.Expect(gitrepo.Invocation{Dir: "/src/repo", Args: []string{"rev-parse", "--show-toplevel"}}).Returns("/src/repo\n")
	git.Expect(verify("1234")).Returns(shaMain + "\n")
	git.Expect(inRepo("rev-list", "--parents", "--max-count=1", shaMain, "--")).Returns(shaMain + " " + shaBase + "\n")
	var built []forge.Ref
	src, err := source.Open(context.Background(), []string{"1234"}, forgeOptions("/src/repo", git, &fetcher{}, &built))
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != source.KindCommit || len(built) != 0 {
		t.Errorf("kind %v, fetchers %v: want the commit 1234", src.Kind, built)
	}
}

func TestOpen_ChangeReferenceMistakesAreSourceErrors(t *testing.T) {
	t.Run("#N without any remote", func(t *testing.T) {
		git := gitrepotest.NewFake(t)
		remoteCalls(git, "", "")
		var built []forge.Ref
		_, err := source.Open(context.Background(), []string{"#3"}, forgeOptions("/src/repo", git, &fetcher{}, &built))
		assertSourceError(t, err, "#3 needs this checkout's origin or upstream remote to be on a known GitHub or GitLab host (no origin remote; no upstream remote); give OWNER/REPO#N, GROUP/PROJECT!N or a URL instead")
	})
	t.Run("!N on a GitHub remote", func(t *testing.T) {
		git := gitrepotest.NewFake(t)
		remoteCalls(git, "git@github.com:acme/greeter.git", "")
		var built []forge.Ref
		_, err := source.Open(context.Background(), []string{"!3"}, forgeOptions("/src/repo", git, &fetcher{}, &built))
		assertSourceError(t, err, `GitHub pull requests are written #N, not "!3"`)
	})
	t.Run("URL of an unknown host", func(t *testing.T) {
		var built []forge.Ref
		_, err := source.Open(context.Background(), []string{"https://example.org/a/b"}, forgeOptions(t.TempDir(), nil, &fetcher{}, &built))
		assertSourceError(t, err, `unknown host "example.org": add it to the config file with its kind (github or gitlab)`)
	})
	t.Run("no forge configured", func(t *testing.T) {
		_, err := source.Open(context.Background(), []string{"acme/greeter#7"}, source.Options{Dir: t.TempDir()})
		assertSourceError(t, err, "github.com/acme/greeter#7 is a GitHub pull request, which this command cannot read")
	})
	t.Run("the forge cannot be built", func(t *testing.T) {
		noToken := errors.New("no GitHub token: set GITHUB_TOKEN")
		opts := source.Options{Dir: t.TempDir(), Forge: func(forge.Ref) (source.Fetcher, error) { return nil, noToken }}
		_, err := source.Open(context.Background(), []string{"acme/greeter#7"}, opts)
		if !errors.Is(err, noToken) {
			t.Errorf("err = %v, want the forge's own error", err)
		}
	})
}

func TestOpen_FileNamedLikeAChangeIsAFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "12"), []byte("diff --git a/x b/x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var built []forge.Ref
	src, err := source.Open(context.Background(), []string{"12"}, forgeOptions(dir, nil, &fetcher{}, &built))
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != source.KindFile || len(built) != 0 {
		t.Errorf("kind %v, fetchers %v: want the file", src.Kind, built)
	}
}
