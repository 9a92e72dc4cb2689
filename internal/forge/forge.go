// Package forge is the port through which leanreview reads pull requests and
// merge requests from a code host and submits reviews to it, plus the
// host-neutral types that cross it. The adapters live in forge/github and
// forge/gitlab; forge/forgetest holds fake hosts and the contract suite every
// adapter passes.
//
// The package is pure: it imports nothing of ours but changeset and does no
// I/O. Tokens, base URLs, HTTP clients and the sleeper reach the adapters
// through their constructors.
//
// Coordinates used in this package:
//   - Line and StartLine are 1-based absolute line numbers in the file named
//     by Side: the old file (OldPath) for changeset.SideOld, the new file
//     (Path) for changeset.SideNew. This is GitHub's line/side model.
//   - Row coordinates (Position) carry both counters of a diff row, the way
//     GitLab's line codes and old_line/new_line want them; Locate derives
//     them from the parsed diff, so a caller never computes them itself.
//   - GitHub's legacy diff "position" is never used.
package forge

import (
	"context"
	"time"

	"github.com/leanreview/leanreview/internal/changeset"
)

// Forge is one code host as the review use cases need it. Implementations
// are safe for concurrent use by several goroutines; every method honours
// ctx cancellation, including while it waits between retries.
type Forge interface {
	// Change fetches a pull or merge request: its metadata and its whole diff.
	Change(ctx context.Context, ref Ref) (Change, error)
	// Threads lists every review thread and conversation comment of the
	// change, reading all pages, in the host's order (oldest first).
	Threads(ctx context.Context, ref Ref) ([]Thread, error)
	// Submit sends a review: line comments, the event with its body, then the
	// replies. It first checks that review.CommitID is still the head
	// (ErrHeadMoved otherwise) and checks every comment against review.Diff,
	// reporting the ones that are not part of the diff in Result.Rejected
	// without sending them. Whatever the host already holds under a marker
	// (see Reconcile) is not sent again and counts as accepted.
	//
	// The result is meaningful even when err is not nil: Accepted lists what
	// the host holds now, so a caller can clear exactly those drafts.
	Submit(ctx context.Context, ref Ref, review Review) (SubmitResult, error)
	// Reply posts one reply to a thread; the body gets reply.MarkerID's
	// marker. An answer lost after the host committed is reconciled, never
	// posted twice.
	Reply(ctx context.Context, ref Ref, reply Reply) (Posted, error)
	// Reconcile lists what the host already holds that carries a leanreview
	// marker (see Marker), including GitLab draft notes not yet published
	// (Posted.Pending). The caller clears those drafts before offering to
	// send the rest.
	Reconcile(ctx context.Context, ref Ref) ([]Posted, error)
}

// Change is a pull or merge request as read from its host.
type Change struct {
	Ref    Ref
	Title  string
	Author string
	State  State
	// URL is the page a person opens in a browser.
	URL     string
	BaseSHA string
	HeadSHA string
	// StartSHA is GitLab's diff_refs.start_sha (the target branch tip the
	// diff was computed against); equal to BaseSHA on GitHub.
	StartSHA string
	// Patch is the whole diff as a unified git patch, in the host's file
	// order.
	Patch []byte
	// Missing names the files whose text the host would not give (binary,
	// or past its size limits): they appear in Patch with headers only, and
	// a line comment on them is rejected before sending. Nil when complete.
	Missing []MissingFile
}

// MissingFile is a file of a change whose diff text could not be had.
// Path is empty when the host does not even name the files (GitHub lists
// at most 3,000).
type MissingFile struct {
	Path   string
	Reason string
}

// State is where a change is in its life. The zero State is unknown.
type State uint8

const (
	StateOpen State = iota + 1
	StateClosed
	StateMerged
	// StateDraft is an open change its author marked as not ready.
	StateDraft
)

func (s State) String() string {
	switch s {
	case StateOpen:
		return "open"
	case StateClosed:
		return "closed"
	case StateMerged:
		return "merged"
	case StateDraft:
		return "draft"
	}
	return "unknown"
}

// Thread is one conversation on a change: a line thread when Path is set,
// otherwise a general comment on the change as a whole.
type Thread struct {
	// ID is the host's identity of the thread: GitHub's root review comment
	// id (or the issue comment id for a general comment), GitLab's
	// discussion id. Stable across fetches.
	ID      string
	Path    string
	OldPath string
	// Side and Line locate the last line of the thread's range; StartLine is
	// its first line, 0 for a single line. Line is 0 when the host no
	// longer places the thread on the current diff.
	Side      changeset.Side
	Line      int
	StartLine int
	Resolved  bool
	// Outdated reports that the code under the thread changed after it was
	// written, so the host shows it against an older diff.
	Outdated bool
	Comments []ThreadComment
	// ReplyTo is what Reply takes as Reply.ThreadID; empty when the host
	// offers no replies to this thread (a GitHub issue comment).
	ReplyTo string
}

// ThreadComment is one comment of a thread, oldest first.
type ThreadComment struct {
	ID      string
	Author  string
	Body    string
	Created time.Time
	// Marker is the leanreview marker id the body carries, "" when none.
	Marker string
}

// Event is what a review says about the change as a whole. The zero Event
// is invalid.
type Event uint8

const (
	EventComment Event = iota + 1
	EventApprove
	EventRequestChanges
)

func (e Event) String() string {
	switch e {
	case EventComment:
		return "comment"
	case EventApprove:
		return "approve"
	case EventRequestChanges:
		return "request-changes"
	}
	return "invalid"
}

// ParseEvent reads "comment", "approve" or "request-changes".
func ParseEvent(s string) (Event, error) {
	for _, e := range []Event{EventComment, EventApprove, EventRequestChanges} {
		if e.String() == s {
			return e, nil
		}
	}
	return 0, &InputError{Field: "event", Reason: "want comment, approve or request-changes, got " + quote(s)}
}

// Review is everything one submission sends.
type Review struct {
	// MarkerID identifies the submission itself: its body (and on GitLab the
	// approval note) carries this marker, so a lost answer can be
	// reconciled. Required.
	MarkerID string
	// CommitID is the head the comments were anchored against. Submit
	// refuses with ErrHeadMoved when the change's head is another commit.
	CommitID string
	Event    Event
	// Body is the summary; GitHub requires one for EventComment and
	// EventRequestChanges, so an empty one is sent as the marker alone.
	Body     string
	Comments []Comment
	// Replies are posted after the review, in order.
	Replies []Reply
	// Diff is the parsed diff at CommitID the comments were anchored
	// against; Submit checks every comment against it. Required when
	// Comments is not empty.
	Diff []changeset.File
}

// Comment is one new line comment of a review.
type Comment struct {
	// MarkerID is the draft's id; the body sent ends with Marker(MarkerID).
	MarkerID string
	// Path is the file's new path; OldPath its old one for a rename (empty
	// otherwise). A comment on a deleted file names the old path in Path.
	Path    string
	OldPath string
	// Side, Line: the last line of the comment, numbered in the file of that
	// side. StartSide, StartLine: the first line of a multi-line comment;
	// StartLine 0 means a single line, and a zero StartSide means Side.
	Side      changeset.Side
	Line      int
	StartSide changeset.Side
	StartLine int
	Body      string
}

// Multiline reports whether c spans more than one line.
func (c Comment) Multiline() bool {
	return c.StartLine != 0 && !(c.StartLine == c.Line && c.startSide() == c.Side)
}

func (c Comment) startSide() changeset.Side {
	if c.StartSide == 0 {
		return c.Side
	}
	return c.StartSide
}

// Reply is one new comment in an existing thread.
type Reply struct {
	MarkerID string
	// ThreadID is Thread.ReplyTo of the thread answered.
	ThreadID string
	Body     string
}

// SubmitResult is what one Submit achieved.
type SubmitResult struct {
	// Accepted lists the marker ids the host holds now, the review's own
	// MarkerID included once its event and body are in: sent by this call
	// or found already there. In submission order.
	Accepted []string
	// Rejected lists the comments that were not sent because they are not
	// part of the diff (or the host would not take them, on GitLab where
	// each comment stands alone). They stay drafts.
	Rejected []Rejection
	// Posted describes each accepted item as the host holds it.
	Posted []Posted
}

// Rejection says why one comment was not sent.
type Rejection struct {
	MarkerID string
	Reason   string
}

// Posted is one item the host holds that carries a leanreview marker.
type Posted struct {
	MarkerID string
	Kind     PostedKind
	// ThreadID is the thread the item belongs to (for a new line comment,
	// the thread it opened); empty for a review body or event.
	ThreadID  string
	CommentID string
	// Pending reports an item the host holds but has not published: a
	// GitLab draft note, or a comment of a GitHub review left PENDING.
	Pending bool
}

// PostedKind is what sort of item a Posted is. The zero value is invalid.
type PostedKind uint8

const (
	PostedLineComment PostedKind = iota + 1
	PostedReply
	// PostedReview is a review's own body and event (GitHub review, GitLab
	// approval note or summary note).
	PostedReview
)

func (k PostedKind) String() string {
	switch k {
	case PostedLineComment:
		return "line-comment"
	case PostedReply:
		return "reply"
	case PostedReview:
		return "review"
	}
	return "invalid"
}

// Sleeper waits for d or until ctx is done, whichever comes first, and
// returns ctx.Err() in the latter case. Adapters take one so that tests can
// retry without really sleeping.
type Sleeper interface {
	Sleep(ctx context.Context, d time.Duration) error
}

// RetryPolicy bounds the retries of one host call. Attempts counts every
// try, the first included; a zero policy means DefaultRetry.
type RetryPolicy struct {
	Attempts int
	// Base is the first backoff; each next one doubles, up to Max. A host's
	// own retry-after or rate-limit reset replaces the backoff when it is
	// longer, and is honoured up to MaxWait; past MaxWait the call fails
	// with ErrRateLimited at once, naming when to try again.
	Base    time.Duration
	Max     time.Duration
	MaxWait time.Duration
}

// DefaultRetry is the policy an adapter uses when given a zero one: four
// tries, backoff 0.5 s doubling to 8 s, a host-named wait honoured up to two
// minutes.
func DefaultRetry() RetryPolicy {
	return RetryPolicy{Attempts: 4, Base: 500 * time.Millisecond, Max: 8 * time.Second, MaxWait: 2 * time.Minute}
}

// Backoff is the wait before try number attempt+1 (attempt counts from 1)
// when the host named no time of its own.
func (p RetryPolicy) Backoff(attempt int) time.Duration {
	d := p.Base
	for i := 1; i < attempt && d < p.Max; i++ {
		d *= 2
	}
	return min(d, p.Max)
}

// OrDefault returns p, or DefaultRetry() when p is the zero policy.
func (p RetryPolicy) OrDefault() RetryPolicy {
	if p == (RetryPolicy{}) {
		return DefaultRetry()
	}
	return p
}

// Validate checks what Submit needs before anything is sent: a marker id
// for the review, each comment and each reply, a known event, the anchored
// commit, and the diff when there are comments. Comment positions are
// checked separately by Check, per comment.
func (r Review) Validate() error {
	if !ValidMarkerID(r.MarkerID) {
		return &InputError{Field: "review marker", Reason: "marker id " + quote(r.MarkerID) + " is not 1-64 characters of [A-Za-z0-9._-]"}
	}
	if r.Event < EventComment || r.Event > EventRequestChanges {
		return &InputError{Field: "event", Reason: "the review names no event"}
	}
	if r.CommitID == "" {
		return &InputError{Field: "commit", Reason: "the review names no commit to pin its comments to"}
	}
	if len(r.Comments) > 0 && r.Diff == nil {
		return &InputError{Field: "diff", Reason: "the review has comments but no diff to check them against"}
	}
	seen := map[string]bool{r.MarkerID: true}
	for _, c := range r.Comments {
		if seen[c.MarkerID] && c.MarkerID != "" {
			return &InputError{Field: "comment marker", Reason: "marker id " + quote(c.MarkerID) + " is used twice"}
		}
		seen[c.MarkerID] = true
	}
	for _, p := range r.Replies {
		if !ValidMarkerID(p.MarkerID) || seen[p.MarkerID] {
			return &InputError{Field: "reply marker", Reason: "marker id " + quote(p.MarkerID) + " is invalid or used twice"}
		}
		seen[p.MarkerID] = true
		if p.ThreadID == "" {
			return &InputError{Field: "reply", Reason: "reply " + p.MarkerID + " names no thread"}
		}
	}
	return nil
}
