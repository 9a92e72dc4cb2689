package github

import (
	"context"
	"errors"
	"fmt"
	"strings"

	gh "github.com/google/go-github/v93/github"

	"github.com/leanreview/leanreview/internal/forge"
)

// maxListedFiles is how many files GitHub's files endpoint lists at most.
const maxListedFiles = 3000

// Change implements forge.Forge. Past GitHub's diff limit (406 too_large:
// 300 files or 20,000 lines) the patch is assembled from the paginated
// files endpoint; files it gives no patch for are named in Missing.
func (c *Client) Change(ctx context.Context, ref forge.Ref) (forge.Change, error) {
	pr, err := c.pull(ctx, ref)
	if err != nil {
		return forge.Change{}, err
	}
	ch := forge.Change{Ref: ref, Title: pr.GetTitle(), Author: pr.GetUser().GetLogin(), State: state(pr),
		URL: pr.GetHTMLURL(), BaseSHA: pr.GetBase().GetSHA(), HeadSHA: pr.GetHead().GetSHA()}
	ch.StartSHA = ch.BaseSHA
	var diff string
	err = c.read(ctx, "read the diff of "+subject(ref), func(ctx context.Context) (resp *gh.Response, err error) {
		diff, resp, err = c.gh.PullRequests.GetRaw(ctx, ref.Owner(), ref.Name(), ref.Number, gh.RawOptions{Type: gh.Diff})
		return resp, err
	})
	if tooLarge(err) {
		ch.Patch, ch.Missing, err = c.patchFromFiles(ctx, ref, pr.GetChangedFiles())
		return ch, err
	}
	if err != nil {
		return forge.Change{}, err
	}
	ch.Patch = []byte(diff)
	return ch, nil
}

func (c *Client) pull(ctx context.Context, ref forge.Ref) (*gh.PullRequest, error) {
	var pr *gh.PullRequest
	err := c.read(ctx, "read pull request "+subject(ref), func(ctx context.Context) (resp *gh.Response, err error) {
		pr, resp, err = c.gh.PullRequests.Get(ctx, ref.Owner(), ref.Name(), ref.Number)
		return resp, err
	})
	return pr, err
}

func state(pr *gh.PullRequest) forge.State {
	switch {
	case pr.GetMerged():
		return forge.StateMerged
	case pr.GetState() == "closed":
		return forge.StateClosed
	case pr.GetDraft():
		return forge.StateDraft
	}
	return forge.StateOpen
}

// tooLarge recognises GitHub's 406 for a diff past its limits.
func tooLarge(err error) bool {
	var he *forge.HostError
	return errors.As(err, &he) && he.Status == 406 && strings.Contains(he.Reason, "too_large")
}

// patchFromFiles rebuilds a git patch from the files endpoint. GitHub gives
// each file's hunks as "patch", no modes, and no patch for binaries (written
// as git does) or for files too large to show (headers only, and a
// MissingFile).
func (c *Client) patchFromFiles(ctx context.Context, ref forge.Ref, changed int) ([]byte, []forge.MissingFile, error) {
	files, err := listAll(ctx, c, "list the files of "+subject(ref), func(ctx context.Context, opt gh.ListOptions) ([]*gh.CommitFile, *gh.Response, error) {
		return c.gh.PullRequests.ListFiles(ctx, ref.Owner(), ref.Name(), ref.Number, &opt)
	})
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	var missing []forge.MissingFile
	for _, f := range files {
		if !writeFile(&b, f) {
			missing = append(missing, forge.MissingFile{Path: f.GetFilename(), Reason: "GitHub gives no diff text for it (binary, or too large)"})
		}
	}
	if changed > len(files) {
		missing = append(missing, forge.MissingFile{Reason: fmt.Sprintf("GitHub lists only the first %d of %d changed files", maxListedFiles, changed)})
	}
	return []byte(b.String()), missing, nil
}

// writeFile writes one file's git headers and hunks, and reports whether
// its diff text was there.
func writeFile(b *strings.Builder, f *gh.CommitFile) bool {
	name, old := f.GetFilename(), f.GetPreviousFilename()
	if old == "" {
		old = name
	}
	fmt.Fprintf(b, "diff --git a/%s b/%s\n", old, name)
	from, to := "a/"+old, "b/"+name
	switch f.GetStatus() {
	case "added":
		b.WriteString("new file mode 100644\n")
		from = "/dev/null"
	case "removed":
		b.WriteString("deleted file mode 100644\n")
		to = "/dev/null"
	case "renamed":
		fmt.Fprintf(b, "rename from %s\nrename to %s\n", old, name)
	}
	patch := f.GetPatch()
	switch {
	case patch == "" && f.GetChanges() > 0:
		return false
	case patch == "" && f.GetStatus() == "renamed":
		return true
	case patch == "":
		// No lines changed and no text: what GitHub shows for a binary.
		fmt.Fprintf(b, "Binary files %s and %s differ\n", from, to)
		return true
	}
	fmt.Fprintf(b, "--- %s\n+++ %s\n%s\n", from, to, strings.TrimSuffix(patch, "\n"))
	return true
}
