package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/mcp"
	"github.com/leanreview/leanreview/internal/session"
)

// TestReadReview_Golden pins every projection's answer for the sample
// change, with one comment from each party, a suggestion and a read hunk,
// so a change to the wire format shows up as a diff to review.
func TestReadReview_Golden(t *testing.T) {
	ctx := context.Background()
	r := newReview(t, readFile(t, "sample.patch"))
	cs := agent(t, r.svc)
	snap, _ := r.svc.Snapshot(ctx)
	handler := app.File(snap.Changeset, "server/handler.go", changeset.SideNew)
	readme := app.File(snap.Changeset, "docs/README.md", changeset.SideNew)
	for _, digest := range []string{handler.Hunks[0].Digest, readme.Hunks[0].Digest} {
		if _, err := r.svc.MarkViewed(ctx, session.ActorHuman, digest, true); err != nil {
			t.Fatal(err)
		}
	}
	human, err := r.svc.Comment(ctx, session.ActorHuman, app.CommentRequest{
		Ref: app.LineRef{Path: "server/handler.go", Side: changeset.SideNew, Start: 5}, Body: "Is log the right logger here?"})
	if err != nil {
		t.Fatal(err)
	}
	call[mcp.CommentView](t, cs, mcp.ToolComment, map[string]any{
		"path": "server/handler.go", "line": 23, "end_line": 26, "body": "ErrNotFound is not declared in this change."})
	call[mcp.SuggestionView](t, cs, mcp.ToolSuggest, map[string]any{
		"path": "server/handler.go", "hunk": 1, "line": 40, "reason": "The last line carries hidden bidi characters."})
	call[mcp.CommentView](t, cs, mcp.ToolResolve, map[string]any{"id": human.ID})

	for _, tc := range []struct {
		name string
		args map[string]any
	}{
		{"summary", map[string]any{}},
		{"summary-one-file", map[string]any{"projection": "summary", "path": "server/accounts.go"}},
		{"full-handler", map[string]any{"projection": "full", "path": "server/handler.go"}},
		{"full-handler-hunk-1", map[string]any{"projection": "full", "path": "server/handler.go", "hunks": []int{1}}},
		{"patch", map[string]any{"projection": "patch"}},
		{"conversation", map[string]any{"projection": "conversation"}},
		{"conversation-other-file", map[string]any{"projection": "conversation", "path": "docs/README.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			golden(t, "read-"+tc.name+".json", call[mcp.ReviewView](t, cs, mcp.ToolRead, tc.args))
			if tc.args["projection"] != "conversation" {
				goldenText(t, "read-"+tc.name+".txt", text(callTool(t, cs, mcp.ToolRead, tc.args)))
			}
		})
	}
	t.Run("focus", func(t *testing.T) {
		golden(t, "focus.json", call[mcp.FocusView](t, cs, mcp.ToolFocus, nil))
	})
}

// TestReadReview_PatchTextIsReadableDiff checks the text block a model
// reads: a unified diff, not an escaped JSON string, with the bidi
// controls escaped and the binary and mode changes said in words.
func TestReadReview_PatchTextIsReadableDiff(t *testing.T) {
	cs := agent(t, newReview(t, readFile(t, "sample.patch")).svc)
	res := callTool(t, cs, mcp.ToolRead, map[string]any{"projection": "patch"})
	got := text(res)
	for _, want := range []string{
		"--- a/server/store.go\n+++ b/server/accounts.go\n# renamed from server/store.go\n@@ -1,8 +1,10 @@",
		"--- a/scripts/deploy.sh\n+++ b/scripts/deploy.sh\n# mode 100644 -> 100755\n",
		"# binary file changed: no text to show\n",
		"+\tif errors.Is(err, ErrNotFound) {\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("patch text lacks %q:\n%s", want, got)
		}
	}
	if strings.ContainsRune(got, '\u202e') {
		t.Errorf("patch text carries a raw U+202E; every surface must show it escaped")
	}
}

// TestReadReview_RefusalsSayWhatIsValid covers what an agent gets wrong:
// each refusal is a tool error whose message lets it correct the call.
func TestReadReview_RefusalsSayWhatIsValid(t *testing.T) {
	cs := agent(t, newReview(t, readFile(t, "sample.patch")).svc)
	for _, tc := range []struct {
		name string
		args map[string]any
		want []string
	}{
		{"misspelt path", map[string]any{"path": "server/handlr.go"},
			[]string{`not_found`, `"server/handlr.go" is not a file of this change`, `did you mean "server/handler.go"`, `5 files`}},
		{"directory-less path", map[string]any{"path": "handler.go"},
			[]string{`did you mean "server/handler.go"`}},
		{"old name of a renamed file", map[string]any{"path": "server/stor.go"},
			[]string{`did you mean "server/accounts.go"`}},
		{"hunk out of range", map[string]any{"projection": "full", "path": "server/handler.go", "hunks": []int{0, 2}},
			[]string{`server/handler.go has 2 hunks, numbered 0 to 1; there is no hunk 2`}},
		{"hunks of a binary file", map[string]any{"projection": "full", "path": "docs/logo.png", "hunks": []int{0}},
			[]string{`docs/logo.png is a binary file: it has no hunks`}},
		{"hunks without a path", map[string]any{"projection": "patch", "hunks": []int{1}},
			[]string{`invalid`, `give its path too`}},
		{"unknown projection", map[string]any{"projection": "everything"},
			[]string{`projection`}},
		{"undeclared argument", map[string]any{"projection": "summary", "limit": 5},
			[]string{`limit`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := callErr(t, cs, mcp.ToolRead, tc.args)
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}

// TestReadReview_OldNameOfARenamedFileReadsTheFile: an agent that knows a
// file by its name before the rename still reaches it.
func TestReadReview_OldNameOfARenamedFileReadsTheFile(t *testing.T) {
	cs := agent(t, newReview(t, readFile(t, "sample.patch")).svc)
	got := call[mcp.ReviewView](t, cs, mcp.ToolRead, map[string]any{"projection": "summary", "path": "server/store.go"})
	if len(got.Files) != 1 || got.Files[0].Path != "server/accounts.go" || got.Files[0].OldPath != "server/store.go" {
		t.Errorf("files = %+v, want server/accounts.go renamed from server/store.go", got.Files)
	}
}

// TestReadReview_BigChangeStopsAtTheBudgetAndSaysWhatItLeftOut reads a
// change of 60 files of 100 lines each: full and patch return about 2000
// lines, list the rest in omitted, and reading an omitted file by path
// returns it whole.
func TestReadReview_BigChangeStopsAtTheBudgetAndSaysWhatItLeftOut(t *testing.T) {
	cs := agent(t, newReview(t, bigPatch(60, 100)).svc)
	full := call[mcp.ReviewView](t, cs, mcp.ToolRead, map[string]any{"projection": "full"})
	rows := 0
	for _, f := range full.Files {
		for _, h := range f.Hunks {
			rows += len(h.Rows)
		}
	}
	if rows != 2000 {
		t.Errorf("full returned %d rows, want the 2000-line budget filled by whole hunks", rows)
	}
	if len(full.Files) != 20 || full.Files[19].Path != "f19.txt" {
		t.Errorf("full listed %d files, want the 20 it returned hunks of", len(full.Files))
	}
	if len(full.Omitted) != 40 || full.Omitted[0] != "f20.txt (whole file)" {
		t.Errorf("omitted = %v, want f20.txt to f59.txt", full.Omitted)
	}
	patch := call[mcp.ReviewView](t, cs, mcp.ToolRead, map[string]any{"projection": "patch"})
	if len(patch.Omitted) != 40 {
		t.Errorf("patch omitted %d files, want 40", len(patch.Omitted))
	}
	one := call[mcp.ReviewView](t, cs, mcp.ToolRead, map[string]any{"projection": "full", "path": "f59.txt"})
	if len(one.Omitted) != 0 || len(one.Files[0].Hunks[0].Rows) != 100 {
		t.Errorf("reading f59.txt by path: omitted %v, hunks %d", one.Omitted, len(one.Files[0].Hunks))
	}
}

// TestReadReview_ThousandsOfFilesAreReadByDirectory: a summary of a change
// with more files than it lists names the rest's directories, a directory
// given as path reads just its files, and an omitted list is cut short.
func TestReadReview_ThousandsOfFilesAreReadByDirectory(t *testing.T) {
	var paths []string
	for _, dir := range []string{"api/v1/", "api/v2/", "cmd/", "docs/"} {
		for i := range 100 {
			paths = append(paths, fmt.Sprintf("%sf%03d.txt", dir, i))
		}
	}
	cs := agent(t, newReview(t, patchOf(paths, 30)).svc)

	sum := call[mcp.ReviewView](t, cs, mcp.ToolRead, map[string]any{"projection": "summary"})
	if sum.Totals.Files != 400 || len(sum.Files) != 300 {
		t.Errorf("summary: %d files in totals, %d listed; want 400 and 300", sum.Totals.Files, len(sum.Files))
	}
	if want := []string{"100 more files: see directories, and read one with path"}; !cmp.Equal(sum.Omitted, want) {
		t.Errorf("summary omitted %q, want %q", sum.Omitted, want)
	}
	wantDirs := []mcp.DirView{
		{Path: "api/v1/", Files: 100, Additions: 3000, Hunks: 100},
		{Path: "api/v2/", Files: 100, Additions: 3000, Hunks: 100},
		{Path: "cmd/", Files: 100, Additions: 3000, Hunks: 100},
		{Path: "docs/", Files: 100, Additions: 3000, Hunks: 100},
	}
	if diff := cmp.Diff(wantDirs, sum.Directories); diff != "" {
		t.Errorf("summary directories (-want +got):\n%s", diff)
	}

	dir := call[mcp.ReviewView](t, cs, mcp.ToolRead, map[string]any{"projection": "summary", "path": "cmd"})
	if len(dir.Files) != 100 || dir.Files[0].Path != "cmd/f000.txt" || len(dir.Omitted) != 0 {
		t.Errorf("summary of cmd: %d files from %q, omitted %v", len(dir.Files), dir.Files[0].Path, dir.Omitted)
	}
	api := call[mcp.ReviewView](t, cs, mcp.ToolRead, map[string]any{"projection": "full", "path": "api/"})
	if len(api.Files) != 66 || api.Files[0].Path != "api/v1/f000.txt" {
		t.Errorf("full of api/: %d files from %q, want the 66 that fill 2000 lines", len(api.Files), api.Files[0].Path)
	}
	if n := len(api.Omitted); n != 41 || api.Omitted[40] != "and 94 more files: read them with path, a file or a directory" {
		t.Errorf("full of api/ omitted %d entries ending %q", n, api.Omitted[n-1])
	}
	if msg := callErr(t, cs, mcp.ToolRead, map[string]any{"projection": "full", "path": "cmd/", "hunks": []int{0}}); !strings.Contains(msg, "cmd/ is a directory of 100 changed files") {
		t.Errorf("hunks of a directory: %q", msg)
	}
}

// bigPatch is a git patch adding files f0.txt ... each of lines lines.
func bigPatch(files, lines int) []byte {
	paths := make([]string, files)
	for i := range paths {
		paths[i] = fmt.Sprintf("f%d.txt", i)
	}
	return patchOf(paths, lines)
}

// patchOf is a git patch adding each of paths with lines lines.
func patchOf(paths []string, lines int) []byte {
	var b strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&b, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", p, p, p, lines)
		for l := range lines {
			fmt.Fprintf(&b, "+line %d of %s\n", l+1, p)
		}
	}
	return []byte(b.String())
}
