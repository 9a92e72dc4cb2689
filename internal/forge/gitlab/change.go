package gitlab

import (
	"context"
	"fmt"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/leanreview/leanreview/internal/forge"
)

// Change implements forge.Forge: the merge request with its diff_refs, and
// its diff read page by page from .../diffs and rebuilt as a git patch.
// Files GitLab collapsed or found too large (200 KB a file by default)
// come with headers only and are named in Missing.
func (c *Client) Change(ctx context.Context, ref forge.Ref) (forge.Change, error) {
	mr, err := c.mergeRequest(ctx, ref)
	if err != nil {
		return forge.Change{}, err
	}
	ch := forge.Change{Ref: ref, Title: mr.Title, URL: mr.WebURL, State: state(mr),
		BaseSHA: mr.DiffRefs.BaseSha, StartSHA: mr.DiffRefs.StartSha, HeadSHA: mr.DiffRefs.HeadSha}
	if mr.Author != nil {
		ch.Author = mr.Author.Username
	}
	diffs, err := listAll(ctx, c, "read the diff of "+subject(ref), func(lo gl.ListOptions, opt gl.RequestOptionFunc) ([]*gl.MergeRequestDiff, *gl.Response, error) {
		return c.gl.MergeRequests.ListMergeRequestDiffs(ref.Repo, int64(ref.Number), &gl.ListMergeRequestDiffsOptions{ListOptions: lo}, opt)
	})
	if err != nil {
		return forge.Change{}, err
	}
	var b strings.Builder
	for _, d := range diffs {
		if !writeFile(&b, d) {
			ch.Missing = append(ch.Missing, forge.MissingFile{Path: d.NewPath, Reason: "GitLab gives no diff text for it (too large or collapsed)"})
		}
	}
	ch.Patch = []byte(b.String())
	return ch, nil
}

func (c *Client) mergeRequest(ctx context.Context, ref forge.Ref) (*gl.MergeRequest, error) {
	var mr *gl.MergeRequest
	err := c.read(ctx, "read merge request "+subject(ref), func(opt gl.RequestOptionFunc) (resp *gl.Response, err error) {
		mr, resp, err = c.gl.MergeRequests.GetMergeRequest(ref.Repo, int64(ref.Number), nil, opt)
		return resp, err
	})
	return mr, err
}

func state(mr *gl.MergeRequest) forge.State {
	switch mr.State {
	case "merged":
		return forge.StateMerged
	case "closed", "locked":
		return forge.StateClosed
	}
	if mr.Draft {
		return forge.StateDraft
	}
	return forge.StateOpen
}

// writeFile writes one file's git headers and hunks, and reports whether
// its diff text was there.
func writeFile(b *strings.Builder, d *gl.MergeRequestDiff) bool {
	fmt.Fprintf(b, "diff --git a/%s b/%s\n", d.OldPath, d.NewPath)
	from, to := "a/"+d.OldPath, "b/"+d.NewPath
	switch {
	case d.NewFile:
		fmt.Fprintf(b, "new file mode %s\n", d.BMode)
		from = "/dev/null"
	case d.DeletedFile:
		fmt.Fprintf(b, "deleted file mode %s\n", d.AMode)
		to = "/dev/null"
	case d.AMode != d.BMode && d.AMode != "" && d.BMode != "":
		fmt.Fprintf(b, "old mode %s\nnew mode %s\n", d.AMode, d.BMode)
	}
	if d.RenamedFile {
		fmt.Fprintf(b, "rename from %s\nrename to %s\n", d.OldPath, d.NewPath)
	}
	switch {
	case d.TooLarge || d.Collapsed:
		return false
	case strings.HasPrefix(d.Diff, "Binary files"):
		b.WriteString(strings.TrimSuffix(d.Diff, "\n") + "\n")
	case d.Diff != "":
		fmt.Fprintf(b, "--- %s\n+++ %s\n%s\n", from, to, strings.TrimSuffix(d.Diff, "\n"))
	}
	return true
}
