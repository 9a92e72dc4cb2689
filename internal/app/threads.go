package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
	"github.com/leanreview/leanreview/internal/session"
)

// ConversationDeps are what a Conversation is built from. All are
// required.
type ConversationDeps struct {
	Forge  forge.Forge
	Ref    forge.Ref
	Source SourceInfo
	// Seen holds the seen-thread watermark, one document per source.
	Seen Documents
	// Drafts holds the drafts books, as Deps.Documents: staged replies are
	// drafts.
	Drafts Documents
	Now    func() time.Time
	NewID  func() string
}

// Conversation is the host's side of one pull or merge request review:
// its threads placed on the changeset, replies staged as drafts, and the
// watermark of what the reader has had on screen. It holds no state between
// calls; safe for concurrent use when its Documents are.
type Conversation struct {
	deps ConversationDeps
}

// NewConversation returns the Conversation of deps.Ref.
func NewConversation(deps ConversationDeps) *Conversation { return &Conversation{deps: deps} }

// PlacedThread is a thread with the hunk it sits on in the changeset shown
// and whether the reader has seen all of it.
type PlacedThread struct {
	forge.Thread
	// Hunk is the index of the hunk of Path's file holding the thread's
	// line, -1 when none does (a conversation comment, an outdated thread,
	// a line outside the diff).
	Hunk int `json:"hunk"`
	// New reports a comment by someone else the reader has not had on
	// screen (see MarkThreadsSeen).
	New bool `json:"new"`
}

// Threads fetches every thread of the change and places each on cs (which
// may be nil: nothing is placed). The result keeps the host's order. It
// does not mark anything seen: a surface calls MarkThreadsSeen with what it
// actually shows.
func (c *Conversation) Threads(ctx context.Context, cs *changeset.Changeset) ([]PlacedThread, error) {
	threads, err := c.deps.Forge.Threads(ctx, c.deps.Ref)
	if err != nil {
		return nil, err
	}
	seen, _, err := c.LoadSeenThreads(ctx)
	if err != nil {
		return nil, err
	}
	return placeThreads(cs, threads, seen), nil
}

func placeThreads(cs *changeset.Changeset, threads []forge.Thread, seen SeenThreads) []PlacedThread {
	pos := make([]changeset.ThreadPosition, len(threads))
	for i, t := range threads {
		pos[i] = changeset.ThreadPosition{Path: t.Path, Side: t.Side, Line: t.Line}
		if t.Side == changeset.SideOld && t.OldPath != "" {
			pos[i].Path = t.OldPath
		}
	}
	var files []changeset.File
	if cs != nil {
		files = cs.Files
	}
	placed := changeset.PlaceThreads(files, pos)
	out := make([]PlacedThread, len(threads))
	for i, t := range threads {
		out[i] = PlacedThread{Thread: t, Hunk: placed[i].Hunk, New: seen.IsNew(t)}
	}
	return out
}

// SeenThreads is the watermark: every comment the reader has had on
// screen, by thread, and the markers of what the reader sent. The zero
// value has seen nothing.
type SeenThreads struct {
	comments map[string]bool // seenKey(thread, comment)
	sent     map[string]bool // marker ids
}

func seenKey(thread, comment string) string { return thread + "/" + comment }

// IsNew reports whether t has a comment the reader has not seen. The
// reader's own comments, known by the markers they were sent with, never
// count; another leanreview user's markers are not the reader's and do.
func (s SeenThreads) IsNew(t forge.Thread) bool {
	for _, cm := range t.Comments {
		if (cm.Marker == "" || !s.sent[cm.Marker]) && !s.comments[seenKey(t.ID, cm.ID)] {
			return true
		}
	}
	return false
}

// NewThreads returns the threads of threads that IsNew, in order.
func (s SeenThreads) NewThreads(threads []forge.Thread) []forge.Thread {
	var out []forge.Thread
	for _, t := range threads {
		if s.IsNew(t) {
			out = append(out, t)
		}
	}
	return out
}

// seenSchema is the version of seenDoc written to disk.
const seenSchema = 1

// seenDoc is one source's watermark file.
type seenDoc struct {
	Schema int        `json:"schema"`
	Source SourceInfo `json:"source"`
	// Comments are "thread/comment" ids, sorted.
	Comments []string `json:"comments"`
	// Sent are the marker ids of what the reader sent, sorted.
	Sent    []string  `json:"sent,omitempty"`
	Updated time.Time `json:"updated"`
}

// LoadSeenThreads reads the watermark without fetching anything. A missing
// file has seen nothing; a damaged one is set aside, reported, and has
// seen nothing.
func (c *Conversation) LoadSeenThreads(ctx context.Context) (SeenThreads, []Notice, error) {
	s := SeenThreads{comments: map[string]bool{}, sent: map[string]bool{}}
	var doc seenDoc
	err := c.deps.Seen.Read(ctx, c.deps.Source.Key, &doc)
	switch {
	case err == nil:
		for _, k := range doc.Comments {
			s.comments[k] = true
		}
		for _, m := range doc.Sent {
			s.sent[m] = true
		}
	case errors.Is(err, fs.ErrNotExist):
	case isCorrupt(err):
		return s, []Notice{Notice(fmt.Sprintf("the record of the threads you have seen could not be read: %v", err))}, nil
	default:
		return s, nil, fmt.Errorf("load seen threads %s: %w", c.deps.Source.Key, err)
	}
	return s, nil, nil
}

// MarkThreadsSeen records that the reader has had threads on screen, every
// comment of each. Additive and idempotent: a comment never becomes unseen,
// and marks made by another process at the same time are kept. A surface
// calls it when it shows threads; listing commands do not.
func (c *Conversation) MarkThreadsSeen(ctx context.Context, threads []forge.Thread) error {
	var keys []string
	for _, t := range threads {
		for _, cm := range t.Comments {
			keys = append(keys, seenKey(t.ID, cm.ID))
		}
	}
	if err := addSeen(ctx, c.deps.Seen, c.deps.Source, c.deps.Now, keys, nil); err != nil {
		return fmt.Errorf("mark threads seen on %s: %w", c.deps.Source.Label, err)
	}
	return nil
}

// addSeen merges comment keys and sent markers into source's watermark
// under its lock. Nothing to add writes nothing.
func addSeen(ctx context.Context, docs Documents, source SourceInfo, now func() time.Time, keys, sent []string) error {
	if len(keys) == 0 && len(sent) == 0 {
		return nil
	}
	var doc seenDoc
	return docs.Update(ctx, source.Key, &doc, func(bool) error {
		doc = seenDoc{Schema: seenSchema, Source: source, Updated: now(),
			Comments: union(doc.Comments, keys), Sent: union(doc.Sent, sent)}
		return nil
	})
}

// union returns the sorted set of a and b.
func union(a, b []string) []string {
	set := make(map[string]bool, len(a)+len(b))
	for _, s := range a {
		set[s] = true
	}
	for _, s := range b {
		set[s] = true
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// CheckResult is what CheckReview found.
type CheckResult struct {
	// Total is how many threads the change has.
	Total int
	// New are the threads with comments the reader has not had on screen,
	// in the host's order.
	New     []forge.Thread
	Notices []Notice
}

// CheckReview lists the threads that are new since the reader last had
// them on screen. It reads the threads and the watermark only: no diff, no
// drafts, no session, and it marks nothing seen, so a cron job or a status
// bar can ask as often as it likes.
func (c *Conversation) CheckReview(ctx context.Context) (CheckResult, error) {
	threads, err := c.deps.Forge.Threads(ctx, c.deps.Ref)
	if err != nil {
		return CheckResult{}, err
	}
	seen, notices, err := c.LoadSeenThreads(ctx)
	if err != nil {
		return CheckResult{}, err
	}
	return CheckResult{Total: len(threads), New: seen.NewThreads(threads), Notices: notices}, nil
}

// StageReply saves the human's reply to t as a draft; Submit posts it after
// the review. A thread the host takes no replies to (a GitHub conversation
// comment) is refused with ErrInvalid, an empty body too.
func (c *Conversation) StageReply(ctx context.Context, t forge.Thread, body string) (session.Draft, error) {
	switch {
	case strings.TrimSpace(body) == "":
		return session.Draft{}, fmt.Errorf("the reply is empty; nothing was saved: %w", ErrInvalid)
	case t.ReplyTo == "":
		return session.Draft{}, fmt.Errorf("thread %s takes no replies on %s; comment on the change instead: %w", t.ID, c.deps.Ref.Kind.Title(), ErrInvalid)
	}
	book, _, err := LoadDraftBook(ctx, c.deps.Drafts, c.deps.Source, c.deps.Now)
	if err != nil {
		return session.Draft{}, err
	}
	now := c.deps.Now()
	// A reply has no anchor of its own (it is shown under its thread, found
	// by ReplyTo), but a zero Side cannot be written to the drafts file.
	d := session.Draft{ID: c.deps.NewID(), Anchor: changeset.Anchor{Side: changeset.SideNew}, ReplyTo: t.ReplyTo, Body: body,
		Author: session.ActorHuman, Created: now, Updated: now}
	return d, book.Put(ctx, d)
}

// FindThread returns the thread of threads whose ID is id.
func FindThread(threads []forge.Thread, id string) (forge.Thread, error) {
	for _, t := range threads {
		if t.ID == id {
			return t, nil
		}
	}
	return forge.Thread{}, fmt.Errorf("thread %s: %w", id, ErrNotFound)
}
