package gitlab

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/forge"
)

// Threads implements forge.Forge: every discussion, system notes left out.
// A diff discussion is a line thread; it is outdated when GitLab could not
// carry its position to the current head. A context line, which GitLab
// anchors on both sides, reads as the new side.
func (c *Client) Threads(ctx context.Context, ref forge.Ref) ([]forge.Thread, error) {
	mr, err := c.mergeRequest(ctx, ref)
	if err != nil {
		return nil, err
	}
	discussions, err := c.discussions(ctx, ref)
	if err != nil {
		return nil, err
	}
	var threads []forge.Thread
	for _, d := range discussions {
		var notes []*gl.Note
		for _, n := range d.Notes {
			if !n.System {
				notes = append(notes, n)
			}
		}
		if len(notes) == 0 {
			continue
		}
		t := forge.Thread{ID: d.ID, ReplyTo: d.ID, Resolved: notes[0].Resolved}
		if p := notes[0].Position; p != nil {
			t.Path, t.Side, t.Line = p.NewPath, changeset.SideNew, int(p.NewLine)
			if p.OldPath != p.NewPath {
				t.OldPath = p.OldPath
			}
			if p.NewLine == 0 {
				t.Side, t.Line = changeset.SideOld, int(p.OldLine)
			}
			if r := p.LineRange; r != nil && r.StartRange != nil && *r.StartRange != *r.EndRange {
				t.StartLine = int(r.StartRange.NewLine)
				if r.StartRange.Type == "old" {
					t.StartLine = int(r.StartRange.OldLine)
				}
			}
			t.Outdated = p.HeadSHA != mr.DiffRefs.HeadSha
		}
		for _, n := range notes {
			created := n.CreatedAt
			tc := forge.ThreadComment{ID: strconv.FormatInt(n.ID, 10), Author: n.Author.Username, Body: forge.StripMarker(n.Body), Marker: forge.MarkerOf(n.Body)}
			if created != nil {
				tc.Created = *created
			}
			t.Comments = append(t.Comments, tc)
		}
		threads = append(threads, t)
	}
	return threads, nil
}

func (c *Client) discussions(ctx context.Context, ref forge.Ref) ([]*gl.Discussion, error) {
	return listAll(ctx, c, "list the discussions of "+subject(ref), func(lo gl.ListOptions, opt gl.RequestOptionFunc) ([]*gl.Discussion, *gl.Response, error) {
		return c.gl.Discussions.ListMergeRequestDiscussions(ref.Repo, int64(ref.Number), &gl.ListMergeRequestDiscussionsOptions{ListOptions: lo}, opt)
	})
}

// hostState is what Submit needs to know of the host before sending.
type hostState struct {
	held map[string]forge.Posted
	// drafts maps our unpublished draft notes' markers to their ids.
	drafts map[string]int64
	// draftNotes: the server offers draft notes; foreignDrafts: the user has
	// drafts of their own making, which a bulk publish would send too.
	draftNotes, foreignDrafts bool
}

// Reconcile implements forge.Forge: the token user's notes that end with a
// marker, and their draft notes (Pending) where the server has them.
func (c *Client) Reconcile(ctx context.Context, ref forge.Ref) ([]forge.Posted, error) {
	st, err := c.scan(ctx, ref)
	if err != nil {
		return nil, err
	}
	out := make([]forge.Posted, 0, len(st.held))
	for _, p := range st.held {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b forge.Posted) int { return strings.Compare(a.MarkerID, b.MarkerID) })
	return out, nil
}

func (c *Client) scan(ctx context.Context, ref forge.Ref) (*hostState, error) {
	me, err := c.me(ctx)
	if err != nil {
		return nil, err
	}
	discussions, err := c.discussions(ctx, ref)
	if err != nil {
		return nil, err
	}
	st := &hostState{held: map[string]forge.Posted{}, drafts: map[string]int64{}}
	for _, d := range discussions {
		for i, n := range d.Notes {
			m := forge.MarkerOf(n.Body)
			if m == "" || n.Author.Username != me {
				continue
			}
			p := forge.Posted{MarkerID: m, Kind: forge.PostedReply, ThreadID: d.ID, CommentID: strconv.FormatInt(n.ID, 10)}
			switch {
			case i == 0 && n.Position != nil:
				p.Kind = forge.PostedLineComment
			case i == 0:
				p.Kind, p.ThreadID = forge.PostedReview, ""
			}
			st.held[m] = p
		}
	}
	drafts, err := listAll(ctx, c, "list the draft notes of "+subject(ref), func(lo gl.ListOptions, opt gl.RequestOptionFunc) ([]*gl.DraftNote, *gl.Response, error) {
		return c.gl.DraftNotes.ListDraftNotes(ref.Repo, int64(ref.Number), &gl.ListDraftNotesOptions{ListOptions: lo}, opt)
	})
	if errors.Is(err, forge.ErrNotFound) {
		return st, nil // a GitLab without draft notes
	}
	if err != nil {
		return nil, err
	}
	st.draftNotes = true
	for _, d := range drafts {
		m := forge.MarkerOf(d.Note)
		if m == "" {
			st.foreignDrafts = true
			continue
		}
		if _, published := st.held[m]; published {
			continue
		}
		p := forge.Posted{MarkerID: m, Kind: forge.PostedReview, CommentID: strconv.FormatInt(d.ID, 10), Pending: true}
		switch {
		case d.DiscussionID != "":
			p.Kind, p.ThreadID = forge.PostedReply, d.DiscussionID
		case d.Position != nil:
			p.Kind = forge.PostedLineComment
		}
		st.held[m], st.drafts[m] = p, d.ID
	}
	return st, nil
}
