package changeset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fileSummary is what the dialect table checks of each parsed file.
type fileSummary struct {
	Path, OldPath    string
	Status           Status
	Add, Del         int
	Binary           bool
	OldMode, NewMode string
	Hunks            int
}

func summarize(c *Changeset) []fileSummary {
	var out []fileSummary
	for _, f := range c.Files {
		out = append(out, fileSummary{f.Path, f.OldPath, f.Status, f.Additions, f.Deletions, f.Binary, f.OldMode, f.NewMode, len(f.Hunks)})
	}
	return out
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustParse(t testing.TB, name string) *Changeset {
	t.Helper()
	c, err := ParseBytes(readTestdata(t, name))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	checkInvariants(t, c)
	return c
}

func TestParse_ReadsEveryDialectIntoFiles(t *testing.T) {
	const (
		A, D, M, R, C = StatusAdded, StatusDeleted, StatusModified, StatusRenamed, StatusCopied
	)
	mainGo := fileSummary{"main.go", "main.go", M, 4, 3, false, "", "", 2}
	naur := []fileSummary{
		{"doc/fresh.txt", "doc/fresh.txt", A, 2, 0, false, "", "", 1},
		{"doc/gone.txt", "doc/gone.txt", D, 0, 1, false, "", "", 1},
		{"only-old.txt", "only-old.txt", D, 0, 1, false, "", "", 1},
		{"src/greek.txt", "src/greek.txt", M, 2, 1, false, "", "", 1},
	}
	tests := []struct {
		file string
		want []fileSummary
	}{
		{"git-extended-headers.diff", []fileSummary{
			{"added.txt", "added.txt", A, 2, 0, false, "", "100644", 1},
			{"blob.bin", "blob.bin", M, 0, 0, true, "", "", 0},
			{"café.txt", "café.txt", M, 1, 1, false, "", "", 1},
			{"copied.txt", "source.txt", C, 1, 1, false, "", "", 1},
			{"crlf.txt", "crlf.txt", M, 1, 1, false, "", "", 1},
			{"deleted.txt", "deleted.txt", D, 0, 1, false, "100644", "", 1},
			{"dir b/file b/x.txt", "dir b/file b/x.txt", M, 1, 1, false, "", "", 1},
			mainGo,
			{"new.bin", "new.bin", A, 0, 0, true, "", "100644", 0},
			{"noeol.txt", "noeol.txt", M, 2, 1, false, "", "", 1},
			{`quote"d.txt`, `quote"d.txt`, M, 1, 1, false, "", "", 1},
			{"renamed.txt", "moved.txt", R, 1, 1, false, "", "", 1},
			{"run.sh", "run.sh", M, 0, 0, false, "100644", "100755", 0},
			{"tab\there.txt", "tab\there.txt", M, 1, 1, false, "", "", 1},
			{"with space.txt", "with space.txt", M, 1, 1, false, "", "", 1},
		}},
		{"git-binary-patch.diff", []fileSummary{
			{"blob.bin", "blob.bin", M, 0, 0, true, "", "", 0},
			mainGo,
			{"new.bin", "new.bin", A, 0, 0, true, "", "100644", 0},
		}},
		{"git-no-prefix.diff", []fileSummary{mainGo, {"with space.txt", "with space.txt", M, 1, 1, false, "", "", 1}}},
		{"git-pure-rename.diff", []fileSummary{{"purely-renamed.txt", "renamed.txt", R, 0, 0, false, "", "", 0}}},
		{"git-dissimilarity.diff", []fileSummary{{"notes.txt", "notes.txt", M, 2, 2, false, "", "", 1}}},
		{"git-u0-counts-omitted.diff", []fileSummary{{"main.go", "main.go", M, 4, 3, false, "", "", 3}}},
		{"git-t4135-damaged-tz.diff", []fileSummary{{"post image.txt", "post image.txt", A, 1, 0, false, "", "", 1}}},
		{"git-t4135-add-with-tab.diff", []fileSummary{{"post\timage.txt", "post\timage.txt", A, 1, 0, false, "", "", 1}}},
		{"format-patch.mbox", []fileSummary{
			{"deleted.txt", "deleted.txt", D, 0, 1, false, "100644", "", 1},
			mainGo,
			{"run.sh", "run.sh", M, 0, 0, false, "100644", "100755", 0},
		}},
		{"hg-export.diff", []fileSummary{
			{"parser/read.c", "parser/read.c", M, 2, 0, false, "", "", 1},
			{"parser/NEWS", "parser/NEWS", A, 1, 0, false, "", "", 1},
		}},
		{"quilt-bash-input-err.diff", []fileSummary{{"input.c", "input.c", M, 1, 1, false, "", "", 1}}},
		{"dep3-tar-oldgnu-mode-bits.patch", []fileSummary{{"src/create.c", "src/create.c", M, 2, 1, false, "", "", 2}}},
		{"svn.diff", []fileSummary{
			{"src/config.c", "src/config.c", M, 1, 1, false, "", "", 1},
			{"src/config.h", "src/config.h", A, 3, 0, false, "", "", 1},
		}},
		{"diff-naur.diff", naur},
		{"diff-ur-only-in.diff", naur[3:]},
		{"context-recursive.diff", naur},
		{"diff-r-binary.diff", []fileSummary{
			{"added.bin", "added.bin", M, 0, 0, true, "", "", 0},
			{"img.bin", "img.bin", M, 0, 0, true, "", "", 0},
			{"t.txt", "t.txt", M, 1, 1, false, "", "", 1},
		}},
		{"miscounted.diff", []fileSummary{
			{"list.txt", "list.txt", M, 3, 3, false, "", "", 3},
			{"other.txt", "other.txt", M, 1, 1, false, "", "", 1},
			{"last.txt", "last.txt", M, 1, 1, false, "", "", 1},
		}},
		{"trojan-source.diff", []fileSummary{{"bidi.go", "bidi.go", M, 2, 1, false, "", "", 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			c := mustParse(t, tt.file)
			if diff := cmp.Diff(tt.want, summarize(c)); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if c.Digest != PatchDigest(string(readTestdata(t, tt.file))) {
				t.Errorf("Digest = %s, want PatchDigest of the input", c.Digest)
			}
		})
	}
}

func TestParse_RowsCarryAbsoluteLineNumbers(t *testing.T) {
	c := mustParse(t, "git-extended-headers.diff")
	h := findFile(t, c, "main.go").Hunks[1]
	type row struct {
		Kind     Kind
		Text     string
		Old, New int // 0 for none
	}
	var got []row
	for _, r := range h.Rows {
		got = append(got, row{r.Kind, r.Text, deref(r.OldLine), deref(r.NewLine)})
	}
	want := []row{
		{KindContext, "\tfmt.Println(\"two\")", 13, 13},
		{KindContext, "\tfmt.Println(\"three\")", 14, 14},
		{KindContext, "\tfmt.Println(\"four\")", 15, 15},
		{KindDel, "\tfmt.Println(\"five\")", 16, 0},
		{KindAdd, "\tfmt.Println(\"FIVE\")", 0, 16},
		{KindAdd, "\tfmt.Println(\"five and a half\")", 0, 17},
		{KindContext, "\tfmt.Println(\"six\")", 17, 18},
		{KindContext, "\tfmt.Println(\"seven\")", 18, 19},
		{KindContext, "\tfmt.Println(\"eight\")", 19, 20},
		{KindContext, "\tfmt.Println(\"nine\")", 20, 21},
		{KindDel, "\tfmt.Println(\"done\")", 21, 0},
		{KindAdd, "\tfmt.Println(\"all done\")", 0, 22},
		{KindContext, "}", 22, 23},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if h.Header != "@@ -13,10 +13,11 @@ func main() {" || h.Declaration != "func main() {" || h.Index != 1 {
		t.Errorf("header %q declaration %q index %d", h.Header, h.Declaration, h.Index)
	}
	if h.OldStart != 13 || h.OldCount != 10 || h.NewStart != 13 || h.NewCount != 11 {
		t.Errorf("range -%d,%d +%d,%d, want -13,10 +13,11", h.OldStart, h.OldCount, h.NewStart, h.NewCount)
	}
}

func TestParse_NoNewlineMarkerIsAMetaRowOfNeitherFile(t *testing.T) {
	c := mustParse(t, "git-extended-headers.diff")
	f := findFile(t, c, "noeol.txt")
	h := f.Hunks[0]
	wantLines := []string{
		"-last line without newline",
		`\ No newline at end of file`,
		"+last line without newline",
		"+and another",
		`\ No newline at end of file`,
	}
	if diff := cmp.Diff(wantLines, h.Lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	for _, i := range []int{1, 4} {
		r := h.Rows[i]
		if r.Kind != KindMeta || r.OldLine != nil || r.NewLine != nil || r.Text != "No newline at end of file" {
			t.Errorf("row %d = %+v, want a meta row without line numbers", i, r)
		}
	}
	if h.OldCount != 1 || h.NewCount != 2 || f.Additions != 2 || f.Deletions != 1 {
		t.Errorf("counts -%d +%d, file +%d -%d; the marker must count as neither", h.OldCount, h.NewCount, f.Additions, f.Deletions)
	}
}

func TestParse_CRLFStaysInLinesAndLeavesText(t *testing.T) {
	c := mustParse(t, "git-extended-headers.diff")
	h := findFile(t, c, "crlf.txt").Hunks[0]
	if diff := cmp.Diff([]string{" a\r", "-b\r", "+B\r", " c\r"}, h.Lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	for _, r := range h.Rows {
		if strings.HasSuffix(r.Text, "\r") {
			t.Errorf("row text %q keeps the CR of its line ending", r.Text)
		}
	}
	if h.Display != nil {
		t.Errorf("Display = %q; a CRLF line ending alone must not produce a display copy", h.Display)
	}
}

func TestParse_CountsOmittedFromAHunkHeaderAreOne(t *testing.T) {
	c := mustParse(t, "git-u0-counts-omitted.diff")
	h := c.Files[0].Hunks
	got := [][4]int{}
	for _, x := range h {
		got = append(got, [4]int{x.OldStart, x.OldCount, x.NewStart, x.NewCount})
	}
	want := [][4]int{{7, 1, 7, 1}, {16, 1, 16, 2}, {21, 1, 22, 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ranges (-want +got):\n%s", diff)
	}
}

func TestParse_ContextDiffBecomesUnifiedHunks(t *testing.T) {
	c := mustParse(t, "context-recursive.diff")
	greek := findFile(t, c, "src/greek.txt").Hunks[0]
	wantLines := []string{" alpha", "-beta", "+BETA", " gamma", " delta", " epsilon", " zeta", " eta", " theta", "+iota"}
	if diff := cmp.Diff(wantLines, greek.Lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if greek.Header != "@@ -1,8 +1,9 @@" {
		t.Errorf("header %q, want the unified rendition", greek.Header)
	}
	if n := greek.Rows[9].NewLine; n == nil || *n != 9 {
		t.Errorf("added iota is new line %v, want 9", n)
	}
	fresh := findFile(t, c, "doc/fresh.txt").Hunks[0]
	if fresh.OldStart != 0 || fresh.OldCount != 0 || fresh.NewStart != 1 || fresh.NewCount != 2 {
		t.Errorf("one-sided hunk range -%d,%d +%d,%d, want -0,0 +1,2", fresh.OldStart, fresh.OldCount, fresh.NewStart, fresh.NewCount)
	}
	naur := mustParse(t, "diff-naur.diff")
	if got, want := findFile(t, naur, "src/greek.txt").Hunks[0].Digest, greek.Digest; got != want {
		t.Errorf("context and unified renditions of one change digest differently: %s vs %s", want, got)
	}
}

func TestParse_MiscountedHunksAreRecountedWithAWarning(t *testing.T) {
	c := mustParse(t, "miscounted.diff")
	list := findFile(t, c, "list.txt")
	type got struct {
		Lines    []string
		Counts   [2]int
		Warnings int
	}
	var gots []got
	for _, h := range append(list.Hunks, findFile(t, c, "other.txt").Hunks[0], findFile(t, c, "last.txt").Hunks[0]) {
		gots = append(gots, got{h.Lines, [2]int{h.OldCount, h.NewCount}, len(h.Warnings)})
	}
	want := []got{
		// Header promised 9 lines; the body stops at the next @@.
		{[]string{" apple", "-banana", "+blueberry", " cherry"}, [2]int{3, 3}, 1},
		// Header promised 2; the lines after it run into the next @@, where git would refuse.
		{[]string{" tomato", "-potato", "+onion", " leek", " garlic"}, [2]int{4, 4}, 1},
		{[]string{" x", "-y", "+z", " w"}, [2]int{3, 3}, 0},
		// A stray line before the next file is left out, as git apply leaves it out.
		{[]string{"-old", "+new", " same"}, [2]int{2, 2}, 1},
		// Cut short by the end of input: the trailing blank line is a separator.
		{[]string{" five", "-six", "+SIX", " seven"}, [2]int{3, 3}, 1},
	}
	if diff := cmp.Diff(want, gots); diff != "" {
		t.Errorf("hunks (-want +got):\n%s", diff)
	}
}

func TestParse_MailSignatureIsNotARemovedLine(t *testing.T) {
	c := mustParse(t, "format-patch.mbox")
	h := findFile(t, c, "main.go").Hunks[1]
	if last := h.Lines[len(h.Lines)-1]; last != " }" {
		t.Errorf("last line %q, want the hunk to end before the \"-- \" signature", last)
	}
	if len(h.Warnings) != 0 {
		t.Errorf("warnings %q on a well-formed hunk", h.Warnings)
	}
}

func TestParse_ErrorsSayWhereAndWhat(t *testing.T) {
	tests := []struct {
		file     string
		dialect  string // for a *DialectError
		line     int
		contains string
	}{
		{file: "combined.diff", dialect: DialectCombined, line: 1},
		{file: "normal.diff", dialect: DialectNormal, line: 1},
		{file: "ed.diff", dialect: DialectEd, line: 1},
		{file: "malformed-hunk-header.diff", line: 4, contains: "expected \"@@ -START[,COUNT] +START[,COUNT] @@\""},
		{file: "malformed-body.diff", line: 7, contains: "expected a hunk body line"},
		{file: "not-a-diff.txt", contains: "no diff found"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			c, err := ParseBytes(readTestdata(t, tt.file))
			if err == nil {
				t.Fatalf("parsed into %d files, want an error", len(c.Files))
			}
			if tt.dialect != "" {
				var de *DialectError
				if !errors.As(err, &de) || de.Dialect != tt.dialect || de.Line != tt.line || !errors.Is(err, ErrUnsupportedDialect) {
					t.Fatalf("err = %v, want a DialectError for %s at line %d", err, tt.dialect, tt.line)
				}
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tt.line || !strings.Contains(err.Error(), tt.contains) {
				t.Fatalf("err = %v, want a ParseError at line %d containing %q", err, tt.line, tt.contains)
			}
		})
	}
}

func TestParse_NoDiffIsAnErrorButEmptyInputIsNot(t *testing.T) {
	for _, in := range []string{"", "\n\n  \n"} {
		c, err := ParseBytes([]byte(in))
		if err != nil || c == nil || c.Files == nil || len(c.Files) != 0 {
			t.Errorf("ParseBytes(%q) = %+v, %v; want an empty changeset", in, c, err)
		}
	}
	_, err := ParseBytes(readTestdata(t, "not-a-diff.txt"))
	if !errors.Is(err, ErrNoDiff) {
		t.Errorf("err = %v, want ErrNoDiff", err)
	}
	_, err = ParseBytes([]byte("diff --git a/x b/x\n"))
	if !errors.Is(err, ErrNoDiff) {
		t.Errorf("a lone empty diff --git section: err = %v, want ErrNoDiff", err)
	}
}

func TestParse_CombinedSectionsAreSkippedAmongOthers(t *testing.T) {
	patch := string(readTestdata(t, "combined.diff")) + string(readTestdata(t, "git-dissimilarity.diff"))
	c, err := ParseBytes([]byte(patch))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"notes.txt"}, paths(c)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

func TestParse_ReaderAndBytesAgree(t *testing.T) {
	b := readTestdata(t, "git-extended-headers.diff")
	f, err := os.Open(filepath.Join("testdata", "git-extended-headers.diff"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fromReader, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	fromBytes, err := ParseBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fromBytes, fromReader); diff != "" {
		t.Errorf("Parse and ParseBytes differ (-bytes +reader):\n%s", diff)
	}
}

func findFile(t *testing.T, c *Changeset, path string) File {
	t.Helper()
	for _, f := range c.Files {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("no file %q among %q", path, paths(c))
	return File{}
}

func paths(c *Changeset) []string {
	var out []string
	for _, f := range c.Files {
		out = append(out, f.Path)
	}
	return out
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func TestParse_InChunksEqualsOnePass(t *testing.T) {
	var big []byte
	for _, name := range []string{"git-extended-headers.diff", "git-binary-patch.diff", "format-patch.mbox", "diff-naur.diff", "miscounted.diff", "trojan-source.diff"} {
		big = append(big, readTestdata(t, name)...)
	}
	for len(big) < 2*parallelMin {
		big = append(big, big...)
	}
	whole, err := parse(string(big), len(big)+1)
	if err != nil {
		t.Fatal(err)
	}
	if chunks := chunkBounds(string(big), 8); len(chunks) < 4 {
		t.Fatalf("test input splits into only %d chunks", len(chunks)-1)
	}
	chunked, err := ParseBytes(big)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, chunked)
	if diff := cmp.Diff(whole, chunked); diff != "" {
		t.Errorf("chunked parse differs (-whole +chunked):\n%s", diff)
	}
}

func TestGitHeaderNames_SplitsAmbiguousNames(t *testing.T) {
	tests := []struct {
		in           string
		a, b         string
		noPrefix, ok bool
	}{
		{"a/x.go b/x.go", "a/x.go", "b/x.go", false, true},
		{"a/dir b/file b/x.txt b/dir b/file b/x.txt", "a/dir b/file b/x.txt", "b/dir b/file b/x.txt", false, true},
		{"x.go x.go", "x.go", "x.go", true, true},
		{"src/with space.c src/with space.c", "src/with space.c", "src/with space.c", true, true},
		{"w/a b/c i/a b/c", "w/a b/c", "i/a b/c", false, true},
		{`"a/caf\303\251" "b/caf\303\251"`, "a/café", "b/café", false, true},
		{"a/old b/new", "a/old", "b/new", false, true},
		{"a/one two b/three four", "", "", false, false},
	}
	for _, tt := range tests {
		a, b, noPrefix, ok := gitHeaderNames(tt.in)
		if a != tt.a || b != tt.b || noPrefix != tt.noPrefix || ok != tt.ok {
			t.Errorf("gitHeaderNames(%q) = %q, %q, %v, %v; want %q, %q, %v, %v", tt.in, a, b, noPrefix, ok, tt.a, tt.b, tt.noPrefix, tt.ok)
		}
	}
	long := "a/" + strings.Repeat("x ", 1<<16) + "b/" + strings.Repeat("y ", 1<<16)
	if _, _, _, ok := gitHeaderNames(long); ok {
		t.Errorf("split a line whose halves differ")
	}
}

func TestParse_ErrorLinesCountFromTheStartOfThePatch(t *testing.T) {
	var big []byte
	for len(big) < 2*parallelMin {
		big = append(big, readTestdata(t, "git-extended-headers.diff")...)
	}
	lines := strings.Count(string(big), "\n")
	big = append(big, readTestdata(t, "malformed-body.diff")...)
	_, err := ParseBytes(big)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != lines+7 {
		t.Errorf("err = %v, want a ParseError at line %d", err, lines+7)
	}
}
