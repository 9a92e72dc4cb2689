package forge

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Kind is which family of code host a host is. The zero Kind is unknown.
type Kind uint8

const (
	KindGitHub Kind = iota + 1
	KindGitLab
)

func (k Kind) String() string {
	switch k {
	case KindGitHub:
		return "github"
	case KindGitLab:
		return "gitlab"
	}
	return "unknown"
}

// Title is the host family's proper name, for messages: "GitHub", "GitLab".
func (k Kind) Title() string {
	switch k {
	case KindGitHub:
		return "GitHub"
	case KindGitLab:
		return "GitLab"
	}
	return "the code host"
}

// ParseKind reads "github" or "gitlab".
func ParseKind(s string) (Kind, error) {
	switch strings.ToLower(s) {
	case "github":
		return KindGitHub, nil
	case "gitlab":
		return KindGitLab, nil
	}
	return 0, &InputError{Field: "kind", Reason: "want github or gitlab, got " + quote(s)}
}

// Ref names one pull or merge request. Its Key is the identity drafts are
// stored under, so it survives new pushes to the change.
type Ref struct {
	// Host is the web host, lower case, with a port when one was given:
	// "github.com", "gitlab.example.com:8443".
	Host string
	Kind Kind
	// Repo is "owner/repo" on GitHub, the full "group/sub/project" path on
	// GitLab.
	Repo   string
	Number int
}

// Key is "host/repo/number": stable, and distinct for distinct changes.
func (r Ref) Key() string { return r.Host + "/" + r.Repo + "/" + strconv.Itoa(r.Number) }

// String is how the host family writes a reference: "github.com/o/r#12",
// "gitlab.com/g/p!3".
func (r Ref) String() string {
	sep := "#"
	if r.Kind == KindGitLab {
		sep = "!"
	}
	return r.Host + "/" + r.Repo + sep + strconv.Itoa(r.Number)
}

// Owner and Name split a GitHub Repo: "owner", "repo".
func (r Ref) Owner() string { o, _, _ := strings.Cut(r.Repo, "/"); return o }

// Name is the last element of Repo.
func (r Ref) Name() string { return r.Repo[strings.LastIndex(r.Repo, "/")+1:] }

// Hosts maps a web host to its kind. DefaultHosts covers the public hosts;
// enterprise and self-hosted ones come from the config file.
type Hosts map[string]Kind

// DefaultHosts returns a fresh map of the public hosts.
func DefaultHosts() Hosts { return Hosts{"github.com": KindGitHub, "gitlab.com": KindGitLab} }

// kindOf looks a host up, ignoring case.
func (h Hosts) kindOf(host string) (Kind, bool) {
	k, ok := h[strings.ToLower(host)]
	return k, ok
}

// defaultHost is the host a short reference of kind means: the remote's
// host when the remote is of that kind, else the first public host.
func (h Hosts) defaultHost(kind Kind, remote *Remote) string {
	if remote != nil && remote.Kind == kind {
		return remote.Host
	}
	if kind == KindGitLab {
		return "gitlab.com"
	}
	return "github.com"
}

// ParseRef reads a change reference in any of the forms people paste:
//
//	https://github.com/OWNER/REPO/pull/N        (any trailing /files, #anchor)
//	https://gitlab.com/GROUP/SUB/PROJECT/-/merge_requests/N
//	OWNER/REPO#N                                (GitHub)
//	GROUP/PROJECT!N                             (GitLab)
//	#N, N                                       (the remote's GitHub PR or GitLab MR)
//	!N                                          (the remote's GitLab MR)
//
// remote is the checkout's origin (or upstream) remote, nil when there is
// none; the short forms need it. hosts decides the kind of a URL's host.
func ParseRef(s string, hosts Hosts, remote *Remote) (Ref, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "://") {
		return parseRefURL(s, hosts)
	}
	if i := strings.LastIndexAny(s, "#!"); i > 0 {
		kind := KindGitHub
		if s[i] == '!' {
			kind = KindGitLab
		}
		n, err := parseNumber(s[i+1:], s)
		if err != nil {
			return Ref{}, err
		}
		repo := strings.Trim(s[:i], "/")
		if !validRepo(repo, kind) {
			return Ref{}, &InputError{Field: "reference", Reason: quote(s) + " does not name a repository (want OWNER/REPO#N or GROUP/PROJECT!N)"}
		}
		return Ref{Host: hosts.defaultHost(kind, remote), Kind: kind, Repo: repo, Number: n}, nil
	}
	return parseShortRef(s, remote)
}

// parseShortRef reads "N", "#N" and "!N" against the remote.
func parseShortRef(s string, remote *Remote) (Ref, error) {
	digits := strings.TrimLeft(s, "#!")
	n, err := parseNumber(digits, s)
	if err != nil {
		return Ref{}, err
	}
	if remote == nil {
		return Ref{}, &InputError{Field: "reference", Reason: quote(s) + " needs a git remote (origin or upstream) on a known host; give OWNER/REPO#N or a URL instead"}
	}
	switch {
	case strings.HasPrefix(s, "#") && remote.Kind == KindGitLab:
		return Ref{}, &InputError{Field: "reference", Reason: "GitLab merge requests are written !N, not " + quote(s)}
	case strings.HasPrefix(s, "!") && remote.Kind == KindGitHub:
		return Ref{}, &InputError{Field: "reference", Reason: "GitHub pull requests are written #N, not " + quote(s)}
	}
	return Ref{Host: remote.Host, Kind: remote.Kind, Repo: remote.Repo, Number: n}, nil
}

func parseRefURL(s string, hosts Hosts) (Ref, error) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return Ref{}, &InputError{Field: "reference", Reason: quote(s) + " is not a URL"}
	}
	host := strings.ToLower(u.Host)
	kind, ok := hosts.kindOf(host)
	path := strings.Trim(u.Path, "/")
	if !ok {
		// An unconfigured host is still recognisable by the shape of its path.
		switch {
		case strings.Contains(path, "/-/merge_requests/"):
			kind = KindGitLab
		case strings.Contains(path, "/pull/"):
			kind = KindGitHub
		default:
			return Ref{}, &InputError{Field: "reference", Reason: "unknown host " + quote(host) + ": add it to the config file with its kind (github or gitlab)"}
		}
	}
	var repo, rest string
	var found bool
	if kind == KindGitLab {
		repo, rest, found = strings.Cut(path, "/-/merge_requests/")
	} else {
		repo, rest, found = cutPull(path)
	}
	if !found || !validRepo(repo, kind) {
		return Ref{}, &InputError{Field: "reference", Reason: quote(s) + " is not a " + kind.Title() + " " + changeNoun(kind) + " URL"}
	}
	num, _, _ := strings.Cut(rest, "/")
	n, err := parseNumber(num, s)
	if err != nil {
		return Ref{}, err
	}
	return Ref{Host: host, Kind: kind, Repo: repo, Number: n}, nil
}

// cutPull splits "owner/repo/pull/12/files" at its /pull/ element.
func cutPull(path string) (repo, rest string, found bool) {
	parts := strings.Split(path, "/")
	if len(parts) < 4 || parts[2] != "pull" {
		return "", "", false
	}
	return parts[0] + "/" + parts[1], strings.Join(parts[3:], "/"), true
}

func changeNoun(k Kind) string {
	if k == KindGitLab {
		return "merge request"
	}
	return "pull request"
}

func validRepo(repo string, kind Kind) bool {
	parts := strings.Split(repo, "/")
	if kind == KindGitHub && len(parts) != 2 {
		return false
	}
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || p == "." || p == ".." || strings.ContainsAny(p, " #!?") {
			return false
		}
	}
	return true
}

func parseNumber(digits, whole string) (int, error) {
	n, err := strconv.Atoi(digits)
	if err != nil || n <= 0 {
		return 0, &InputError{Field: "reference", Reason: quote(whole) + " does not end in a change number"}
	}
	return n, nil
}

// Remote is a git remote resolved to a known host.
type Remote struct {
	Host string
	Kind Kind
	Repo string
}

// ParseRemote reads a git remote URL in its https, ssh:// and scp-like
// (git@host:owner/repo.git) forms and resolves its host through hosts.
func ParseRemote(remoteURL string, hosts Hosts) (*Remote, error) {
	s := strings.TrimSpace(remoteURL)
	var host, path string
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			return nil, &InputError{Field: "remote", Reason: quote(s) + " is not a URL"}
		}
		host, path = u.Hostname(), u.Path
		if u.Scheme == "https" || u.Scheme == "http" {
			host = u.Host
		}
	} else if at, rest, ok := strings.Cut(s, ":"); ok && !strings.Contains(at, "/") {
		_, host, _ = strings.Cut(at, "@")
		if host == "" {
			host = at
		}
		path = rest
	} else {
		return nil, &InputError{Field: "remote", Reason: quote(s) + " is not a remote URL"}
	}
	host = strings.ToLower(host)
	kind, ok := hosts.kindOf(host)
	if !ok {
		return nil, &InputError{Field: "remote", Reason: fmt.Sprintf("the remote's host %q is not a known GitHub or GitLab host: add it to the config file", host)}
	}
	repo := strings.TrimSuffix(strings.Trim(path, "/"), ".git")
	if !validRepo(repo, kind) {
		return nil, &InputError{Field: "remote", Reason: quote(s) + " does not name a repository"}
	}
	return &Remote{Host: host, Kind: kind, Repo: repo}, nil
}

func quote(s string) string { return strconv.Quote(s) }
