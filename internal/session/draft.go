// Package session is the domain of one review: the drafts a reader writes,
// where they sit in the changeset being shown, and the rules about who may do
// what to them. It does no I/O; callers load and persist.
package session

import (
	"fmt"
	"time"

	"github.com/leanreview/leanreview/internal/changeset"
)

// Actor is who made a write, stamped by the surface it arrived through (the
// terminal and the browser are the human, MCP is the agent), never taken
// from a request body. The zero Actor is invalid.
type Actor uint8

const (
	ActorHuman Actor = iota + 1
	ActorAgent
)

func (a Actor) String() string {
	switch a {
	case ActorHuman:
		return "human"
	case ActorAgent:
		return "agent"
	}
	return fmt.Sprintf("Actor(%d)", uint8(a))
}

// MarshalText writes "human" or "agent".
func (a Actor) MarshalText() ([]byte, error) {
	if a != ActorHuman && a != ActorAgent {
		return nil, fmt.Errorf("invalid actor %d", uint8(a))
	}
	return []byte(a.String()), nil
}

// UnmarshalText reads "human" or "agent".
func (a *Actor) UnmarshalText(b []byte) error {
	switch string(b) {
	case "human":
		*a = ActorHuman
	case "agent":
		*a = ActorAgent
	default:
		return fmt.Errorf("unknown actor %q", b)
	}
	return nil
}

// Draft is a comment written but not sent. Its Anchor is what it was written
// against and never changes unless the human moves the draft; where the draft
// sits in the changeset shown now is computed by Place.
type Draft struct {
	ID     string           `json:"id"`
	Anchor changeset.Anchor `json:"anchor"`
	// Digest is the PatchDigest of the changeset Anchor was captured from.
	Digest string `json:"digest"`
	Body   string `json:"body"`
	Author Actor  `json:"author"`
	// ReplyTo is the forge thread a staged reply answers; empty for a new
	// line comment.
	ReplyTo  string    `json:"reply_to,omitempty"`
	Resolved bool      `json:"resolved,omitempty"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
}

// Placed is a draft together with where it sits in the current changeset.
// Location is the zero value when Rung is RungOrphaned.
type Placed struct {
	Draft
	Rung     changeset.Rung     `json:"status"`
	Location changeset.Location `json:"location"`
}

// Orphaned reports whether the draft could not be placed; an orphan is kept,
// shown with a tag, and never submitted.
func (p Placed) Orphaned() bool { return p.Rung == changeset.RungOrphaned }

// Place locates each draft in cs. A draft captured from cs itself is exact by
// construction; every other draft is relocated from its anchor, with the
// anchored line as the tie-breaker. Replies to forge threads have no anchor
// of their own and are always exact.
func Place(drafts []Draft, cs *changeset.Changeset) []Placed {
	out := make([]Placed, len(drafts))
	var loc *changeset.Locator
	for i, d := range drafts {
		out[i] = Placed{Draft: d}
		switch {
		case d.ReplyTo != "" && d.Anchor.IsZero():
			out[i].Rung = changeset.RungExact
		case cs != nil && d.Digest == cs.Digest && !d.Anchor.IsZero():
			out[i].Rung = changeset.RungExact
			out[i].Location = changeset.Location{Path: d.Anchor.Path, Side: d.Anchor.Side, Start: d.Anchor.Start, End: d.Anchor.End}
		case cs != nil:
			if loc == nil {
				loc = changeset.NewLocator(cs.Files)
			}
			out[i].Location, out[i].Rung = loc.Locate(d.Anchor, d.Anchor.Start)
		default:
			out[i].Rung = changeset.RungOrphaned
		}
	}
	return out
}
