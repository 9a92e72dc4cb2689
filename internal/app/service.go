package app

import (
	"context"
	"time"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// Service is one live review as every surface sees it: the terminal UI, the
// browser page (through the daemon's HTTP API) and the agent (through MCP).
// The in-process implementation is *Local; the daemon's HTTP client is the
// other, and one conformance suite runs against both.
//
// Every write names the Actor it arrives from; the surface stamps it from
// its transport and the session enforces the policy (session.ErrForbidden).
// Writes that name a stale AsOf are refused with ErrStale. Implementations
// are safe for concurrent use.
type Service interface {
	// Snapshot returns the review as it is now. The caller owns the
	// returned value except Changeset, which is shared and must not be
	// modified.
	Snapshot(ctx context.Context) (*Snapshot, error)
	// Reload reads the source again (the working tree or the branch moved)
	// and relocates every draft against it.
	Reload(ctx context.Context) error

	// Comment adds a draft on ref. An empty body is refused.
	Comment(ctx context.Context, actor session.Actor, req CommentRequest) (session.Placed, error)
	// EditComment replaces a draft's body; only its author may.
	EditComment(ctx context.Context, actor session.Actor, id, body string) error
	// DeleteComment removes a draft and returns it, for RestoreComment.
	DeleteComment(ctx context.Context, actor session.Actor, id string) (session.Draft, error)
	// RestoreComment puts back a draft DeleteComment returned (undo).
	RestoreComment(ctx context.Context, actor session.Actor, d session.Draft) error
	// MoveComment re-anchors a draft (typically an orphan) on ref.
	MoveComment(ctx context.Context, actor session.Actor, id string, ref LineRef) error
	// ResolveComment marks a draft resolved or not; either party may.
	ResolveComment(ctx context.Context, actor session.Actor, id string, resolved bool) error

	// MarkViewed adds or removes a hunk (by digest) from the human's read
	// set; finished names the file the mark just completed, or "".
	MarkViewed(ctx context.Context, actor session.Actor, digest string, viewed bool) (finished string, err error)

	// SetCursor records where the human is looking. An agent is refused.
	SetCursor(ctx context.Context, actor session.Actor, c Cursor) error
	// Suggest enqueues an agent's request for the human's attention; it
	// never moves the cursor.
	Suggest(ctx context.Context, actor session.Actor, s SuggestionRequest) (Suggestion, error)
	// AnswerSuggestion records the human's decision; accepting moves the
	// cursor to the suggestion.
	AnswerSuggestion(ctx context.Context, actor session.Actor, id string, accept bool) error

	// Subscribe delivers an Event after every change until ctx ends. A slow
	// reader misses intermediate events, never the latest: each event is a
	// cue to take a new Snapshot.
	Subscribe(ctx context.Context) (<-chan Event, error)
}

// Snapshot is a review at one moment.
type Snapshot struct {
	// AsOf is the PatchDigest of Changeset: writes carrying an older one
	// are refused.
	AsOf      string               `json:"as_of"`
	Source    SourceInfo           `json:"source"`
	Changeset *changeset.Changeset `json:"-"`
	// Drafts are every draft (the human's persisted ones and the agent's
	// ephemeral ones) placed against Changeset, orphans included.
	Drafts []session.Placed `json:"drafts"`
	// Viewed holds the digests of the hunks the human has marked read.
	Viewed      map[string]bool `json:"viewed"`
	Cursor      Cursor          `json:"cursor"`
	Suggestions []Suggestion    `json:"suggestions"`
	// Receipts are the files the human finished reading in this session,
	// in the order they were finished; see Receipt.
	Receipts []Receipt `json:"receipts,omitempty"`
	// Notices are things the human must be told (a damaged drafts file set
	// aside, drafts that could not be saved).
	Notices []Notice `json:"notices,omitempty"`
	// Unsaved reports drafts held in memory only after a failed write.
	Unsaved bool `json:"unsaved,omitempty"`
}

// CommentRequest is a new draft: lines of the current changeset, a body, and
// for a staged reply the forge thread it answers.
type CommentRequest struct {
	Ref     LineRef
	Body    string
	ReplyTo string
}

// Cursor is where the human is looking, in semantic coordinates: a file, a
// side and a line, never a screen row. Hunk is the hunk index within the
// file, -1 when the line is outside every hunk (a file heading).
type Cursor struct {
	Path string         `json:"path"`
	Side changeset.Side `json:"side,omitempty"`
	Line int            `json:"line,omitempty"`
	Hunk int            `json:"hunk"`
}

// SuggestionRequest is an agent's request for attention.
type SuggestionRequest struct {
	Path   string         `json:"path"`
	Side   changeset.Side `json:"side,omitempty"`
	Line   int            `json:"line,omitempty"`
	Hunk   int            `json:"hunk"`
	Reason string         `json:"reason"`
}

// SuggestionState is where a suggestion stands. The zero value is invalid.
type SuggestionState uint8

const (
	SuggestionPending SuggestionState = iota + 1
	SuggestionAccepted
	SuggestionDeclined
)

// Suggestion is a queued request for attention and the human's answer.
type Suggestion struct {
	ID string `json:"id"`
	SuggestionRequest
	State   SuggestionState `json:"state"`
	Created time.Time       `json:"created"`
}

// EventKind says what changed. The zero value is invalid.
type EventKind uint8

const (
	EventChanged  EventKind = iota + 1 // drafts, viewed marks, cursor or suggestions changed
	EventReloaded                      // the changeset was read again
	EventStale                         // the source moved; surfaces should Reload
)

// Event tells a subscriber that the review changed and what it is now.
type Event struct {
	Kind EventKind `json:"kind"`
	AsOf string    `json:"as_of"`
}
