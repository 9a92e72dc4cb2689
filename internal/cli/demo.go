package cli

import (
	"context"
	_ "embed"

	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
)

// demoPatch is a small, realistic change to show what the UI does: a Go
// fix across two files, a renamed document, a binary image, a script made
// executable, a new test, and a line carrying bidirectional controls (a
// Trojan Source pattern) for the UI to expose. Made with `git diff -M` in a
// scratch repository; see testdata/README.md.
//
//go:embed testdata/demo.patch
var demoPatch []byte

// demoSource is the embedded sample change. Its key is the patch digest,
// like any patch file, so drafts written in the demo come back next time.
func demoSource() (app.SourceInfo, app.PatchSource) {
	info := app.SourceInfo{Kind: "demo", Key: "demo-" + changeset.PatchDigest(string(demoPatch)), Label: "the demo change"}
	return info, demoBytes(demoPatch)
}

type demoBytes []byte

func (d demoBytes) Patch(context.Context) ([]byte, error) { return d, nil }
