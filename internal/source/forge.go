package source

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/gitrepo"
)

// Fetcher reads a pull or merge request from its code host. forge.Forge
// implements it. The command line supplies one per host through
// Options.Forge, so this package never speaks HTTP itself.
type Fetcher interface {
	Change(ctx context.Context, ref forge.Ref) (forge.Change, error)
}

// Forms of a change reference besides a URL: OWNER/REPO#N or
// GROUP/SUB/PROJECT!N, and the short #N, !N and N that need a remote. A
// bare N has at most six digits: seven or more is read as an abbreviated
// commit name, the length git abbreviates to.
var (
	qualifiedRefRE = regexp.MustCompile(`^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)+[#!][0-9]+$`)
	shortRefRE     = regexp.MustCompile(`^[#!][0-9]+$`)
	numberRE       = regexp.MustCompile(`^[0-9]{1,6}$`)
)

// openChange opens a pull or merge request. remote is the checkout's
// remote, nil when there is none.
func openChange(arg string, remote *forge.Remote, opts Options) (*Source, error) {
	ref, err := forge.ParseRef(arg, opts.hosts(), remote)
	var input *forge.InputError
	if errors.As(err, &input) {
		return nil, errorf(err, "%s", input.Reason)
	}
	if err != nil {
		return nil, err
	}
	if opts.Forge == nil {
		return nil, errorf(nil, "%s is a %s, which this command cannot read", ref, changeNoun(ref.Kind))
	}
	fetch, err := opts.Forge(ref)
	if err != nil {
		return nil, err
	}
	kind := KindGitHub
	if ref.Kind == forge.KindGitLab {
		kind = KindGitLab
	}
	return &Source{Kind: kind, Key: changeKey(kind, ref), Label: ref.String(), Spec: ref.String(), Ref: ref, fetch: fetch}, nil
}

// openNumberedChange opens "#N", "!N" or "N" against the remote of the
// repository dir is in. For a bare number, ok is false when there is no
// remote on a known host: the argument is then a revision after all.
func openNumberedChange(ctx context.Context, arg string, opts Options) (src *Source, ok bool, err error) {
	remote, rerr := checkoutRemote(ctx, opts)
	if remote == nil && numberRE.MatchString(arg) {
		return nil, false, nil
	}
	if remote == nil {
		return nil, true, errorf(rerr, "%s needs this checkout's origin or upstream remote to be on a known GitHub or GitLab host (%v); give OWNER/REPO#N, GROUP/PROJECT!N or a URL instead", arg, rerr)
	}
	src, err = openChange(arg, remote, opts)
	return src, true, err
}

// checkoutRemote resolves the checkout's origin remote, or upstream when
// origin is missing or not on a known host. The error says why neither
// would do.
func checkoutRemote(ctx context.Context, opts Options) (*forge.Remote, error) {
	if opts.Git == nil {
		return nil, errors.New("no git to ask")
	}
	repo, err := gitrepo.Open(ctx, opts.Git, opts.Dir)
	if err != nil {
		return nil, errors.New("not in a git work tree")
	}
	var reasons []string
	for _, name := range []string{"origin", "upstream"} {
		out, err := opts.Git.Run(ctx, gitrepo.Invocation{Dir: repo.Root(), Args: []string{"remote", "get-url", name}})
		if err != nil {
			var exit *gitrepo.ExitError
			if !errors.As(err, &exit) {
				return nil, fmt.Errorf("read remote %s: %w", name, err)
			}
			reasons = append(reasons, "no "+name+" remote")
			continue
		}
		r, err := forge.ParseRemote(strings.TrimSpace(string(out)), opts.hosts())
		if err != nil {
			reasons = append(reasons, name+": "+err.Error())
			continue
		}
		return r, nil
	}
	return nil, errors.New(strings.Join(reasons, "; "))
}

// changeKey is the key of a pull or merge request: the kind's name, "-",
// and the hash of "kind NUL host/repo/number". Host and repository paths
// are case-insensitive on both hosts, so they are lowered first: the same
// change pasted with different capitals keeps its drafts.
func changeKey(kind Kind, ref forge.Ref) string {
	sum := sha256.Sum256([]byte(kind.String() + "\x00" + strings.ToLower(ref.Key())))
	return kind.String() + "-" + hex.EncodeToString(sum[:])[:keyHexDigits]
}

func changeNoun(k forge.Kind) string {
	if k == forge.KindGitLab {
		return "GitLab merge request"
	}
	return "GitHub pull request"
}

// Change fetches the pull or merge request afresh: its metadata and its
// whole diff at the current head. Only for KindGitHub and KindGitLab.
func (s *Source) Change(ctx context.Context) (forge.Change, error) {
	if s.fetch == nil {
		return forge.Change{}, fmt.Errorf("%s is not a pull or merge request", s.Label)
	}
	ch, err := s.fetch.Change(ctx, s.Ref)
	if err != nil {
		return forge.Change{}, fmt.Errorf("read %s: %w", s.Label, err)
	}
	return ch, nil
}

func (o Options) hosts() forge.Hosts {
	if o.Hosts == nil {
		return forge.DefaultHosts()
	}
	return o.Hosts
}
