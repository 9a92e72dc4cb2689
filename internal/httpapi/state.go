package httpapi

import (
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/session"
)

// State is the body of GET /sessions/{id}/state: everything about the
// review except the changeset, as of the changeset digest AsOf.
type State struct {
	AsOf   string  `json:"as_of"`
	Source Source  `json:"source"`
	Drafts []Draft `json:"drafts"`
	// Viewed holds the digests of the hunks the human has read, sorted.
	Viewed      []string     `json:"viewed"`
	Cursor      Cursor       `json:"cursor"`
	Suggestions []Suggestion `json:"suggestions"`
	Receipts    []Receipt    `json:"receipts"`
	Notices     []string     `json:"notices"`
	Unsaved     bool         `json:"unsaved"`
}

// Draft is a draft placed in the current changeset. Author is stamped by
// the transport the draft arrived on and is never read from a request.
type Draft struct {
	ID       string        `json:"id"`
	Author   session.Actor `json:"author"`
	Body     string        `json:"body"`
	ReplyTo  string        `json:"reply_to,omitempty"`
	Resolved bool          `json:"resolved"`
	// Status says how well the draft was placed: exact, moved or orphaned.
	Status changeset.Rung `json:"status"`
	// Location is where it sits now; null for an orphan.
	Location *changeset.Location `json:"location"`
	// Anchor is what it was written against, from the changeset Digest.
	Anchor  changeset.Anchor `json:"anchor"`
	Digest  string           `json:"digest"`
	Created time.Time        `json:"created"`
	Updated time.Time        `json:"updated"`
}

// Cursor is where the human is looking: a file, a side and a line, and the
// hunk index within the file (-1 for a file heading).
type Cursor struct {
	Path string         `json:"path"`
	Side changeset.Side `json:"side,omitempty"`
	Line int            `json:"line,omitempty"`
	Hunk int            `json:"hunk"`
}

// Suggestion is an agent's request for attention and the human's answer.
type Suggestion struct {
	ID     string         `json:"id"`
	Path   string         `json:"path"`
	Side   changeset.Side `json:"side,omitempty"`
	Line   int            `json:"line,omitempty"`
	Hunk   int            `json:"hunk"`
	Reason string         `json:"reason"`
	// State is "pending", "accepted" or "declined".
	State   string    `json:"state"`
	Created time.Time `json:"created"`
}

// Receipt is a file the human finished reading in this session, with the
// fingerprint of its change as shown (app.FileFingerprint).
type Receipt struct {
	Path        string    `json:"path"`
	Fingerprint string    `json:"fingerprint"`
	At          time.Time `json:"at"`
}

func (s *Server) getState(w http.ResponseWriter, r *http.Request, _ string, svc app.Service) {
	snap, err := svc.Snapshot(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, stateOf(snap))
}

func stateOf(snap *app.Snapshot) State {
	st := State{
		AsOf: snap.AsOf, Source: sourceOf(snap.Source), Cursor: cursorOf(snap.Cursor), Unsaved: snap.Unsaved,
		Drafts: make([]Draft, 0, len(snap.Drafts)), Viewed: make([]string, 0, len(snap.Viewed)),
		Suggestions: make([]Suggestion, 0, len(snap.Suggestions)), Receipts: make([]Receipt, 0, len(snap.Receipts)),
		Notices: make([]string, 0, len(snap.Notices)),
	}
	for _, p := range snap.Drafts {
		st.Drafts = append(st.Drafts, draftOf(p))
	}
	for d, ok := range snap.Viewed {
		if ok {
			st.Viewed = append(st.Viewed, d)
		}
	}
	sort.Strings(st.Viewed)
	for _, sg := range snap.Suggestions {
		st.Suggestions = append(st.Suggestions, suggestionOf(sg))
	}
	for _, rc := range snap.Receipts {
		st.Receipts = append(st.Receipts, Receipt{Path: rc.Path, Fingerprint: rc.Fingerprint, At: rc.At})
	}
	for _, n := range snap.Notices {
		st.Notices = append(st.Notices, string(n))
	}
	return st
}

// snapshot rebuilds the app's view of st over cs, which must be the
// changeset st is as of.
func (st State) snapshot(cs *changeset.Changeset) (*app.Snapshot, error) {
	snap := &app.Snapshot{
		AsOf: st.AsOf, Source: st.Source.info(), Changeset: cs, Cursor: st.Cursor.app(), Unsaved: st.Unsaved,
		Viewed: make(map[string]bool, len(st.Viewed)),
	}
	for _, d := range st.Drafts {
		snap.Drafts = append(snap.Drafts, d.placed())
	}
	for _, d := range st.Viewed {
		snap.Viewed[d] = true
	}
	for _, sg := range st.Suggestions {
		a, err := sg.app()
		if err != nil {
			return nil, err
		}
		snap.Suggestions = append(snap.Suggestions, a)
	}
	for _, rc := range st.Receipts {
		snap.Receipts = append(snap.Receipts, app.Receipt{Path: rc.Path, Fingerprint: rc.Fingerprint, At: rc.At})
	}
	for _, n := range st.Notices {
		snap.Notices = append(snap.Notices, app.Notice(n))
	}
	return snap, nil
}

func draftOf(p session.Placed) Draft {
	d := Draft{
		ID: p.ID, Author: p.Author, Body: p.Body, ReplyTo: p.ReplyTo, Resolved: p.Resolved,
		Status: p.Rung, Anchor: p.Anchor, Digest: p.Digest, Created: p.Created, Updated: p.Updated,
	}
	if !p.Orphaned() {
		loc := p.Location
		d.Location = &loc
	}
	return d
}

func (d Draft) placed() session.Placed {
	p := session.Placed{
		Draft: session.Draft{ID: d.ID, Anchor: d.Anchor, Digest: d.Digest, Body: d.Body, Author: d.Author,
			ReplyTo: d.ReplyTo, Resolved: d.Resolved, Created: d.Created, Updated: d.Updated},
		Rung: d.Status,
	}
	if d.Location != nil {
		p.Location = *d.Location
	}
	return p
}

func cursorOf(c app.Cursor) Cursor {
	return Cursor{Path: c.Path, Side: c.Side, Line: c.Line, Hunk: c.Hunk}
}

func (c Cursor) app() app.Cursor {
	return app.Cursor{Path: c.Path, Side: c.Side, Line: c.Line, Hunk: c.Hunk}
}

var suggestionStates = map[app.SuggestionState]string{
	app.SuggestionPending:  "pending",
	app.SuggestionAccepted: "accepted",
	app.SuggestionDeclined: "declined",
}

func suggestionOf(s app.Suggestion) Suggestion {
	return Suggestion{ID: s.ID, Path: s.Path, Side: s.Side, Line: s.Line, Hunk: s.Hunk, Reason: s.Reason,
		State: suggestionStates[s.State], Created: s.Created}
}

func (s Suggestion) app() (app.Suggestion, error) {
	out := app.Suggestion{ID: s.ID, Created: s.Created,
		SuggestionRequest: app.SuggestionRequest{Path: s.Path, Side: s.Side, Line: s.Line, Hunk: s.Hunk, Reason: s.Reason}}
	for st, name := range suggestionStates {
		if name == s.State {
			out.State = st
			return out, nil
		}
	}
	return out, fmt.Errorf("suggestion %s: unknown state %q", s.ID, s.State)
}
