package editor

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/leanreview/internal/changeset"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestRenderBuffer_MatchesGolden(t *testing.T) {
	tests := []struct {
		golden string
		ctx    Context
		body   string
	}{
		{"new-comment.golden", Context{
			Path: "internal/app/service.go", Side: changeset.SideNew, StartLine: 41, EndLine: 43,
			Code: []string{"func (s *Service) Open(ctx context.Context) error {", "\tif s.closed {", "\t\treturn ErrClosed"},
		}, ""},
		{"edit-renamed-old-side.golden", Context{
			Path: "docs/new.md", OldPath: "docs/old.md", Side: changeset.SideOld, StartLine: 7, EndLine: 7,
			Code: []string{"See the old guide."},
		}, "Please keep the link to the old guide.\n\n  "},
		{"reply.golden", Context{
			Path: "main.go", Side: changeset.SideNew, StartLine: 9, EndLine: 10,
			Code: []string{"x := 1", "y := 2"},
			Thread: []Note{
				{Author: "alice", Body: "Why two variables?\nOne would do."},
				{Author: "", Body: "Agreed.\r\n"},
			},
		}, ""},
		{"hostile-content.golden", Context{
			Path:      "evil\n-->.go",
			Side:      changeset.SideNew,
			StartLine: 1, EndLine: 3,
			Code: []string{
				`s := "<!-- x -->" // --!> ends a comment too`,
				"title := \"\x1b]0;pwned\x07\" + \"\u202edesrever\"",
				"--->",
			},
			Thread: []Note{{Author: "mallory-->", Body: "-->\nclosing early?"}},
		}, "Body may say --> freely."},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			golden(t, tt.golden, renderBuffer(tt.ctx, tt.body))
		})
	}
}

// TestRenderBuffer_HeaderHasOneTerminator checks that the only "-->" (and
// no "--!>") in the header is its last line, whatever the context holds.
func TestRenderBuffer_HeaderHasOneTerminator(t *testing.T) {
	ctx := Context{
		Path: "a-->b", OldPath: "c--!>d", Side: changeset.SideNew, StartLine: 1, EndLine: 2,
		Code:   []string{"-->", "--!>", "---->"},
		Thread: []Note{{Author: "-->", Body: "-->\r\n--!>"}},
	}
	buf := renderBuffer(ctx, "")
	header, _, _ := strings.Cut(buf, "\n-->\n")
	if strings.Contains(header, "-->") || strings.Contains(header, "--!>") {
		t.Errorf("header contains a comment terminator:\n%s", header)
	}
	if strings.Count(buf, "-->") != 1 {
		t.Errorf("buffer has %d \"-->\", want 1:\n%s", strings.Count(buf, "-->"), buf)
	}
}

func TestExtractBody_StripsOnlyTheHeader(t *testing.T) {
	header := renderBuffer(Context{Path: "a.go", Side: changeset.SideNew, StartLine: 3, Code: []string{`x := "-->"`}}, "")
	tests := []struct {
		name, content, want string
	}{
		{"untouched new comment", header, ""},
		{"body after the header", header + "Looks good.\n", "Looks good."},
		{"trailing white space trimmed", header + "Line one.  \nLine two.\n\n\n  \t\n", "Line one.  \nLine two."},
		{"blank lines before the body dropped, indent kept", header + "\n\n    code block\ntext\n", "    code block\ntext"},
		{"CRLF line endings", strings.ReplaceAll(header, "\n", "\r\n") + "Hi.\r\nThere.\r\n", "Hi.\nThere."},
		{"byte-order mark", "\ufeff" + header + "Hi.\n", "Hi."},
		{"user's own HTML comment kept", header + "<!-- note to self -->\nText.\n", "<!-- note to self -->\nText."},
		{"header lines edited by the user", "<!-- leanreview: gone\nFile: changed\n-->\nKept.\n", "Kept."},
		{"header deleted by the user", "Just the body.\n", "Just the body."},
		{"only white space", header + "\n   \n\t\n", ""},
		{"empty file", "", ""},
		{"body on the terminator's line", strings.TrimSuffix(header, "\n\n") + "Inline.\n", "Inline."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := extractBody([]byte(tt.content)); got != tt.want {
				t.Errorf("extractBody = %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzBuffer_RoundTripsBody: whatever the context says, a body written
// after the header comes back as written (modulo trailing white space and
// leading blank lines).
func FuzzBuffer_RoundTripsBody(f *testing.F) {
	f.Add("a.go", "x := \"-->\"", "alice", "--!>", "Hello -->")
	f.Add("", "", "", "", "")
	f.Add("p\r\n", "\x00\xff", "<!--", "-- >", "Text <!-- leanreview: x -->")
	f.Fuzz(func(t *testing.T, path, code, author, note, body string) {
		ctx := Context{Path: path, Side: changeset.SideNew, StartLine: 1, Code: strings.Split(code, "\n"),
			Thread: []Note{{Author: author, Body: note}}}
		got := extractBody([]byte(renderBuffer(ctx, "") + body))
		want := extractBody([]byte(body))
		if strings.HasPrefix(body, "\ufeff") || strings.HasPrefix(strings.TrimLeft(body, " \t\r\n\ufeff"), headerMarker) {
			t.Skip("a byte-order mark or a header only counts at the start of the file")
		}
		if got != want {
			t.Errorf("body %q came back as %q, want %q", body, got, want)
		}
	})
}
