package forgetest

import (
	"net/http"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
)

// Host is what the contract suite needs of a fake host, whichever family:
// seed a change and threads, plan faults, and read back what was posted.
// *GitHub and *GitLab implement it.
type Host interface {
	Kind() forge.Kind
	// URL is the API base URL an adapter is constructed with.
	URL() string
	// Token is the reviewer's token; the seeded changes are by someone else.
	Token() string
	Client() *http.Client
	// Seed puts a change on the host and returns its reference.
	Seed(s ChangeSeed) forge.Ref
	// SeedThread puts a line thread (with replies) by another user on a
	// change and returns the id Thread.ReplyTo will carry.
	SeedThread(ref forge.Ref, s ThreadSeed) string
	// Resolve marks a thread resolved, as a user would in the host's web
	// page; thread is the id SeedThread returned.
	Resolve(ref forge.Ref, thread string)
	// Push moves a change to a new head and diff.
	Push(ref forge.Ref, head string, patch []byte)
	// Posted lists every comment on the change, published or not, oldest
	// first, the seeded ones included.
	Posted(ref forge.Ref) []HostComment
	// Verdicts lists the reviewer's review-level outcomes in order: one per
	// GitHub review, one per GitLab approval or summary note.
	Verdicts(ref forge.Ref) []Verdict
	Inject(fs ...Fault)
	Fired() []Fault
	Requests() []string
}

// ChangeSeed describes a change to seed.
type ChangeSeed struct {
	// Repo is "owner/repo" or "group/sub/project".
	Repo   string
	Number int
	Title  string
	// Base, Start and Head are commit ids; Start defaults to Base (GitLab's
	// start_sha).
	Base, Start, Head string
	Patch             []byte
}

// ThreadSeed describes a line thread to seed, written by the host's author
// user.
type ThreadSeed struct {
	Path    string
	Side    changeset.Side
	Line    int
	Body    string
	Replies []string
}

// HostComment is one comment as the host holds it, host-neutral.
type HostComment struct {
	ID     string
	Thread string
	Author string
	// Path is empty for a comment on the change as a whole.
	Path      string
	OldPath   string
	Side      changeset.Side
	Line      int
	StartLine int
	StartSide changeset.Side
	Body      string
	Reply     bool
	// Pending is a comment the host holds unpublished (a pending GitHub
	// review's comment, a GitLab draft note).
	Pending bool
}

// Verdict is one review-level outcome by the reviewer.
type Verdict struct {
	Event forge.Event
	Body  string
}
