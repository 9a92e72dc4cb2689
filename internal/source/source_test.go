package source_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/gitrepo/gitrepotest"
	"github.com/leanreview/leanreview/internal/source"
)

// history builds, in a sandbox:
//
//	root ── fix (main) ── more (main)
//	          └── feature (topic, HEAD)
//
// and leaves the work tree with a staged edit, an unstaged edit and an
// untracked file.
type history struct {
	s                        *gitrepotest.Sandbox
	root, fix, more, feature string
}

func newHistory(t *testing.T) *history {
	t.Helper()
	s := gitrepotest.NewSandbox(t)
	h := &history{s: s}
	s.WriteFile("a.txt", "alpha\n")
	h.root = s.Commit("root")
	s.WriteFile("a.txt", "alpha fixed\n")
	h.fix = s.Commit("fix")
	s.Git("switch", "--quiet", "--create", "topic")
	s.WriteFile("feature.txt", "feature\n")
	h.feature = s.Commit("feature")
	s.Git("switch", "--quiet", "main")
	s.WriteFile("more.txt", "more\n")
	h.more = s.Commit("more")
	s.Git("switch", "--quiet", "topic")

	s.WriteFile("a.txt", "alpha staged\n")
	s.Git("add", "a.txt")
	s.WriteFile("feature.txt", "feature edited\n")
	s.WriteFile("new file é.txt", "untracked\n")
	return h
}

func (h *history) options() source.Options {
	return source.Options{Dir: h.s.Root, Git: h.s.Runner}
}

// headers lists the "diff --git" lines of a patch: which files it touches.
func headers(patch []byte) []string {
	var out []string
	for line := range strings.SplitSeq(string(patch), "\n") {
		if strings.HasPrefix(line, "diff --git ") {
			out = append(out, line)
		}
	}
	return out
}

func mustOpen(t *testing.T, args []string, opts source.Options) *source.Source {
	t.Helper()
	src, err := source.Open(context.Background(), args, opts)
	if err != nil {
		t.Fatalf("Open(%q): %v", args, err)
	}
	return src
}

func mustPatch(t *testing.T, src *source.Source) []byte {
	t.Helper()
	patch, err := src.Patch(context.Background())
	if err != nil {
		t.Fatalf("Patch(%s): %v", src.Label, err)
	}
	return patch
}

var keyPattern = regexp.MustCompile(`^[a-z]+-[0-9a-f]{32}$`)

func TestOpen_GitArgumentForms(t *testing.T) {
	h := newHistory(t)
	untracked := `diff --git "a/new file \303\251.txt" "b/new file \303\251.txt"`
	for _, tc := range []struct {
		name    string
		args    []string
		staged  bool
		base    string
		kind    source.Kind
		spec    string
		label   string
		headers []string
	}{
		{"no argument is the working tree", nil, false, "", source.KindWorktree, ".", "working tree",
			[]string{"diff --git a/a.txt b/a.txt", "diff --git a/feature.txt b/feature.txt", untracked}},
		{"dot is the working tree", []string{"."}, false, "", source.KindWorktree, ".", "working tree",
			[]string{"diff --git a/a.txt b/a.txt", "diff --git a/feature.txt b/feature.txt", untracked}},
		{"staged", nil, true, "", source.KindStaged, "--staged", "staged changes",
			[]string{"diff --git a/a.txt b/a.txt"}},
		{"base is merge base to HEAD", nil, false, "main", source.KindBase, "--base main", "main...HEAD",
			[]string{"diff --git a/feature.txt b/feature.txt"}},
		{"two revisions", []string{"main", "topic"}, false, "", source.KindRange, "main..topic", "main..topic",
			[]string{"diff --git a/feature.txt b/feature.txt", "diff --git a/more.txt b/more.txt"}},
		{"two dots", []string{"main..topic"}, false, "", source.KindRange, "main..topic", "main..topic",
			[]string{"diff --git a/feature.txt b/feature.txt", "diff --git a/more.txt b/more.txt"}},
		{"two dots, HEAD left out", []string{"main.."}, false, "", source.KindRange, "main..HEAD", "main..HEAD",
			[]string{"diff --git a/feature.txt b/feature.txt", "diff --git a/more.txt b/more.txt"}},
		{"three dots", []string{"main...topic"}, false, "", source.KindRange, "main...topic", "main...topic",
			[]string{"diff --git a/feature.txt b/feature.txt"}},
		{"three dots, HEAD left out", []string{"...main"}, false, "", source.KindRange, "HEAD...main", "HEAD...main",
			[]string{"diff --git a/more.txt b/more.txt"}},
		{"single commit", []string{"main~1"}, false, "", source.KindCommit, "main~1", "commit main~1",
			[]string{"diff --git a/a.txt b/a.txt"}},
		{"root commit", []string{h.root[:12]}, false, "", source.KindCommit, h.root[:12], "commit " + h.root[:12],
			[]string{"diff --git a/a.txt b/a.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := h.options()
			opts.Staged, opts.Base = tc.staged, tc.base
			src := mustOpen(t, tc.args, opts)
			got := struct {
				Kind              source.Kind
				Spec, Label, Root string
			}{src.Kind, src.Spec, src.Label, src.Root}
			want := struct {
				Kind              source.Kind
				Spec, Label, Root string
			}{tc.kind, tc.spec, tc.label, h.s.Root}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("source (-want +got):\n%s", diff)
			}
			if !keyPattern.MatchString(src.Key) || !strings.HasPrefix(src.Key, tc.kind.String()+"-") {
				t.Errorf("Key = %q, want %s-<32 hex digits>", src.Key, tc.kind)
			}
			if diff := cmp.Diff(tc.headers, headers(mustPatch(t, src))); diff != "" {
				t.Errorf("files in patch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOpen_SingleCommitDiffsAgainstItsParentOrTheEmptyTree(t *testing.T) {
	h := newHistory(t)
	fix := string(mustPatch(t, mustOpen(t, []string{h.fix}, h.options())))
	if !strings.Contains(fix, "-alpha\n+alpha fixed\n") {
		t.Errorf("commit fix against its parent:\n%s", fix)
	}
	root := string(mustPatch(t, mustOpen(t, []string{h.root}, h.options())))
	if !strings.Contains(root, "new file mode 100644\n") || !strings.Contains(root, "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+alpha\n") {
		t.Errorf("root commit against the empty tree:\n%s", root)
	}
}

func TestOpen_MergeCommitDiffsAgainstItsFirstParent(t *testing.T) {
	h := newHistory(t)
	h.s.Git("stash", "--include-untracked", "--quiet")
	h.s.Git("switch", "--quiet", "main")
	h.s.Git("merge", "--quiet", "--no-edit", "topic")
	got := headers(mustPatch(t, mustOpen(t, []string{"HEAD"}, h.options())))
	if diff := cmp.Diff([]string{"diff --git a/feature.txt b/feature.txt"}, got); diff != "" {
		t.Errorf("merge against first parent (-want +got):\n%s", diff)
	}
}

func TestOpen_UnbornHead(t *testing.T) {
	s := gitrepotest.NewSandbox(t)
	s.WriteFile("staged.txt", "staged\n")
	s.Git("add", "staged.txt")
	s.WriteFile("untracked.txt", "untracked\n")
	opts := source.Options{Dir: s.Root, Git: s.Runner}

	worktree := headers(mustPatch(t, mustOpen(t, []string{"."}, opts)))
	if diff := cmp.Diff([]string{"diff --git a/staged.txt b/staged.txt", "diff --git a/untracked.txt b/untracked.txt"}, worktree); diff != "" {
		t.Errorf("working tree of a fresh repository (-want +got):\n%s", diff)
	}
	opts.Staged = true
	staged := headers(mustPatch(t, mustOpen(t, nil, opts)))
	if diff := cmp.Diff([]string{"diff --git a/staged.txt b/staged.txt"}, staged); diff != "" {
		t.Errorf("index of a fresh repository (-want +got):\n%s", diff)
	}
}

func TestPatch_WorkingTreeIsReadAfreshEachCall(t *testing.T) {
	h := newHistory(t)
	src := mustOpen(t, []string{"."}, h.options())
	before := mustPatch(t, src)
	h.s.WriteFile("later.txt", "later\n")
	after := mustPatch(t, src)
	if strings.Contains(string(before), "later.txt") || !strings.Contains(string(after), "diff --git a/later.txt b/later.txt\nnew file mode") {
		t.Errorf("second Patch does not show the file written in between:\n%s", after)
	}
}

func TestOpen_PatchFileAndStdinShareTheContentKey(t *testing.T) {
	content, err := os.ReadFile(filepath.Join("testdata", "fix-typo.patch"))
	if err != nil {
		t.Fatal(err)
	}
	file := mustOpen(t, []string{"testdata/fix-typo.patch"}, source.Options{})
	stdin := mustOpen(t, []string{"-"}, source.Options{Stdin: strings.NewReader(string(content))})

	if file.Kind != source.KindFile || file.Label != "testdata/fix-typo.patch" || file.Root != "" || file.Spec != "" {
		t.Errorf("file source = %+v", file)
	}
	if stdin.Kind != source.KindStdin || stdin.Label != "stdin" {
		t.Errorf("stdin source = %+v", stdin)
	}
	const wantKey = "patch-e9c7362a45d7ddd05898f11283bc6ada" // sha256 of testdata/fix-typo.patch, first 32 hex digits
	if file.Key != stdin.Key {
		t.Errorf("file key %q != stdin key %q", file.Key, stdin.Key)
	}
	if file.Key != wantKey {
		t.Errorf("Key = %q, want %q", file.Key, wantKey)
	}
	for _, src := range []*source.Source{file, stdin} {
		if got := mustPatch(t, src); string(got) != string(content) {
			t.Errorf("%s Patch = %q, want the file's bytes", src.Kind, got)
		}
	}
}

func TestOpen_ExistingFileWinsOverRevision(t *testing.T) {
	h := newHistory(t)
	h.s.WriteFile("main", "a file named like the branch\n")
	src := mustOpen(t, []string{"main"}, h.options())
	if src.Kind != source.KindFile {
		t.Errorf("Kind = %v, want file", src.Kind)
	}
	h.s.WriteFile("topic/x.txt", "a directory named like the branch\n")
	if src := mustOpen(t, []string{"topic"}, h.options()); src.Kind != source.KindCommit {
		t.Errorf("directory named like a branch: Kind = %v, want commit", src.Kind)
	}
}

func TestKey_FollowsTheSpecNotTheCommits(t *testing.T) {
	h := newHistory(t)
	open := func(args ...string) string { return mustOpen(t, args, h.options()).Key }
	rangeKey := open("main...topic")
	pairKey := open("main", "topic")
	twoDotKey := open("main..topic")
	worktreeKey := open(".")

	if pairKey != twoDotKey {
		t.Errorf(`"main topic" key %q != "main..topic" key %q`, pairKey, twoDotKey)
	}
	if rangeKey == twoDotKey {
		t.Errorf("main...topic and main..topic share key %q", rangeKey)
	}
	if open() != worktreeKey {
		t.Error(`no argument and "." have different keys`)
	}
	if open(h.feature) == open("topic") {
		t.Error("a commit named two ways shares a key; want the name as given")
	}

	h.s.WriteFile("feature.txt", "feature v2\n")
	h.s.Commit("another commit on topic")
	if got := open("main...topic"); got != rangeKey {
		t.Errorf("key changed with a new commit: %q, was %q", got, rangeKey)
	}

	other := newHistory(t)
	if got := mustOpen(t, []string{"main...topic"}, other.options()).Key; got == rangeKey {
		t.Error("two repositories share a key for main...topic")
	}
	sub := h.options()
	sub.Dir = filepath.Join(h.s.Root, "topic")
	h.s.WriteFile("topic/in-subdir.txt", "x\n")
	if got := mustOpen(t, []string{"main...topic"}, sub).Key; got != rangeKey {
		t.Errorf("key from a subdirectory %q, from the root %q", got, rangeKey)
	}
}
