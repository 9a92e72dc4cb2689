package changeset

import (
	"strings"
	"testing"
)

func TestSanitizeBidi_EscapesWhatARendererObeysUnseen(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text is untouched", "x := \"héllo\" // 😀\tok", "x := \"héllo\" // 😀\tok"},
		{"right-to-left override", "a\u202eb", "a<U+202E>b"},
		{"isolates", "\u2066x\u2069\u2067\u2068", "<U+2066>x<U+2069><U+2067><U+2068>"},
		{"marks", "\u200e\u200f\u061c", "<U+200E><U+200F><U+061C>"},
		{"embeddings and pops", "\u202a\u202b\u202c\u202d", "<U+202A><U+202B><U+202C><U+202D>"},
		{"zero-width and invisible", "a\u200bb\u200cc\u200dd\u2060e\ufefff\u00adg", "a<U+200B>b<U+200C>c<U+200D>d<U+2060>e<U+FEFF>f<U+00AD>g"},
		{"terminal escape", "\x1b[31mred\x1b[0m", "<U+001B>[31mred<U+001B>[0m"},
		{"other C0, DEL and C1", "\x00\x07\x08\r\x7f\u0085\u009b", "<U+0000><U+0007><U+0008><U+000D><U+007F><U+0085><U+009B>"},
		{"invalid UTF-8", "ok\xff\xc3(", "ok<0xFF><0xC3>("},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, changed := SanitizeBidi(tt.in)
			if got != tt.want || changed != (tt.in != tt.want) {
				t.Errorf("SanitizeBidi(%q) = %q, %v; want %q, %v", tt.in, got, changed, tt.want, tt.in != tt.want)
			}
		})
	}
}

func TestParse_TrojanSourceIsEscapedInDisplayOnly(t *testing.T) {
	raw := readTestdata(t, "trojan-source.diff")
	c := mustParse(t, "trojan-source.diff")
	h := c.Files[0].Hunks[0]
	if !strings.Contains(h.Lines[2], "\u202e") || !strings.Contains(h.Lines[3], "\x1b[31m") {
		t.Fatalf("Lines lost the raw bytes: %q", h.Lines)
	}
	if !strings.Contains(h.Display[2], "<U+202E>") || strings.Contains(h.Display[2], "\u202e") {
		t.Errorf("display line %q, want U+202E escaped", h.Display[2])
	}
	if !strings.Contains(h.Display[3], "<U+001B>[31m") || strings.Contains(h.Display[3], "\x1b") {
		t.Errorf("display line %q, want ESC escaped", h.Display[3])
	}
	if h.Display[0] != h.Lines[0] {
		t.Errorf("clean line rewritten: %q", h.Display[0])
	}
	if h.Digest != HunkDigest("bidi.go", h.Lines) {
		t.Errorf("digest is not over the raw lines")
	}
	if !strings.Contains(h.Rows[2].Text, "\u202e") {
		t.Errorf("row text %q lost the raw bytes", h.Rows[2].Text)
	}
	if c.Digest != PatchDigest(string(raw)) {
		t.Errorf("patch digest is not over the raw bytes")
	}
}

func TestDisplayLines_KeepsTheCROfACRLFLine(t *testing.T) {
	got := displayLines([]string{" ok\r", "+\u202e\r", "-\r\r"})
	want := []string{" ok\r", "+<U+202E>\r", "-<U+000D>\r"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("displayLines = %q, want %q", got, want)
	}
	if displayLines([]string{" a\r", "+b\r"}) != nil {
		t.Errorf("a CRLF hunk with nothing to escape got a display copy")
	}
}

func TestPlainWord_AgreesWithTheByteTable(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 8; pos++ {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			var x uint64
			for i := 7; i >= 0; i-- {
				x = x<<8 | uint64(b[i])
			}
			want := c < 0x80 && safeASCII[c]
			if got := plainWord(x); got != want {
				t.Fatalf("plainWord with byte %#x at %d = %v, want %v", c, pos, got, want)
			}
		}
	}
}

func TestPlainBlock_AcceptsOnlyLinesNeedingNoEscape(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{" ctx\n-old\n+new\tx\n", true},
		{"+a long enough line to use words\n+and another one\n", true},
		{"+crlf\r\n", false},
		{"+é\n", false},
		{"+\x1b[0m\n", false},
		{"+0123456\x7f", false},
	} {
		if got := plainBlock(tt.in); got != tt.want {
			t.Errorf("plainBlock(%q) = %v, want %v", tt.in, got, tt.want)
		}
		if got := displayLines(strings.Split(strings.TrimSuffix(tt.in, "\n"), "\n")) == nil; tt.want && !got {
			t.Errorf("plainBlock accepts %q but displayLines escapes it", tt.in)
		}
	}
}
