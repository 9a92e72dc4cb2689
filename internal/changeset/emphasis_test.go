package changeset

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEmphasize_MarksTheChangedTokens(t *testing.T) {
	tests := []struct {
		name       string
		del, add   string
		wantDel    string // the emphasized substring, "" for none
		wantAdd    string
		wantDelU16 Span // Row.Emph of the deleted row, zero for none
		wantAddU16 Span
	}{
		{"one word", "return a + b", "return a - b", "+", "-", Span{9, 10}, Span{9, 10}},
		{"whole words, not their common letters", "total := count", "total := amount", "count", "amount", Span{9, 14}, Span{9, 15}},
		{"appended text marks only the new line", "x := 1", "x := 1 // why", "", " // why", Span{}, Span{6, 13}},
		{"multi-byte letters stay whole", "café crème", "café brûlée", "crème", "brûlée", Span{5, 10}, Span{5, 11}},
		{"emoji are two UTF-16 units", `s := "😀 ok"`, `s := "😀 no"`, "ok", "no", Span{9, 11}, Span{9, 11}},
		{"astral characters changed", `e := "😀"`, `e := "🎉"`, "😀", "🎉", Span{6, 8}, Span{6, 8}},
		{"indentation only", "\tfoo()", "\t\tfoo()", "\t", "\t\t", Span{0, 1}, Span{0, 2}},
		{"unrelated lines are not a rewrite", "x := compute(a)", "return nil", "", "", Span{}, Span{}},
		{"identical lines", "same", "same", "", "", Span{}, Span{}},
		{"invalid UTF-8 counts one unit a byte", "a\xffb c", "a\xffb d", "c", "d", Span{4, 5}, Span{4, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sd, sa := emphasize(tt.del, tt.add)
			if got := sliceOf(tt.del, sd); got != tt.wantDel {
				t.Errorf("deleted emphasis %q (%+v), want %q", got, sd, tt.wantDel)
			}
			if got := sliceOf(tt.add, sa); got != tt.wantAdd {
				t.Errorf("added emphasis %q (%+v), want %q", got, sa, tt.wantAdd)
			}
			rows := []Row{{Kind: KindDel, Text: tt.del}, {Kind: KindAdd, Text: tt.add}}
			h := Hunk{Rows: rows, Lines: []string{"-" + tt.del, "+" + tt.add}}
			var spans pool[Span]
			emphasizeHunk(&h, &spans)
			if got := emphOf(h.Rows[0]); got != tt.wantDelU16 {
				t.Errorf("deleted Row.Emph %+v, want %+v", got, tt.wantDelU16)
			}
			if got := emphOf(h.Rows[1]); got != tt.wantAddU16 {
				t.Errorf("added Row.Emph %+v, want %+v", got, tt.wantAddU16)
			}
			raw := RawLineEmphasis(h)
			if got := sliceOf(h.Lines[0], raw[0]); got != tt.wantDel {
				t.Errorf("raw deleted emphasis %q (%+v), want %q", got, raw[0], tt.wantDel)
			}
			if got := sliceOf(h.Lines[1], raw[1]); got != tt.wantAdd {
				t.Errorf("raw added emphasis %q (%+v), want %q", got, raw[1], tt.wantAdd)
			}
		})
	}
}

func TestSpanConversion_RoundTripsThroughUTF16(t *testing.T) {
	tests := []struct {
		text      string
		bytes     Span
		utf16     Span
		substring string
	}{
		{"plain ascii", Span{6, 11}, Span{6, 11}, "ascii"},
		{"é then x", Span{3, 7}, Span{2, 6}, "then"},
		{"😀😀 emoji", Span{4, 8}, Span{2, 4}, "😀"},
		{"a😀b", Span{5, 6}, Span{3, 4}, "b"},
		{"日本語テキスト", Span{9, 21}, Span{3, 7}, "テキスト"},
		{"x\xffy", Span{2, 3}, Span{2, 3}, "y"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := tt.text[tt.bytes.Start:tt.bytes.End]; got != tt.substring {
				t.Fatalf("bad vector: bytes %+v slice %q", tt.bytes, got)
			}
			if got := utf16Span(tt.text, tt.bytes); got != tt.utf16 {
				t.Errorf("utf16Span = %+v, want %+v", got, tt.utf16)
			}
			if got := byteSpan(tt.text, tt.utf16); got != tt.bytes {
				t.Errorf("byteSpan = %+v, want %+v", got, tt.bytes)
			}
		})
	}
}

func TestEmphasizeHunk_PairsRewrittenLinesBySimilarity(t *testing.T) {
	c, err := ParseBytes([]byte("--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n-alpha := compute(1)\n-beta := compute(2)\n+// a new comment line\n+alpha := compute(10)\n+beta := compute(20)\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range c.Files[0].Hunks[0].Rows {
		s := Span{}
		if r.Emph != nil {
			s = byteSpan(r.Text, *r.Emph)
		}
		got = append(got, sliceOf(r.Text, s))
	}
	want := []string{"1", "2", "", "10", "20"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("emphasis (-want +got):\n%s", diff)
	}
}

func TestRawLineEmphasis_IsIndexedByRows(t *testing.T) {
	c := mustParse(t, "git-extended-headers.diff")
	h := findFile(t, c, "café.txt").Hunks[0]
	raw := RawLineEmphasis(h)
	if len(raw) != len(h.Rows) {
		t.Fatalf("%d spans for %d rows", len(raw), len(h.Rows))
	}
	if got := sliceOf(h.Lines[1], raw[1]); got != " crème" {
		t.Errorf("raw emphasis of %q is %q, want %q", h.Lines[1], got, " crème")
	}
	if !raw[0].Empty() {
		t.Errorf("nothing changed in the deleted line yet it has span %+v", raw[0])
	}
}

func sliceOf(s string, sp Span) string {
	if sp.Empty() {
		return ""
	}
	return s[sp.Start:sp.End]
}

func emphOf(r Row) Span {
	if r.Emph == nil {
		return Span{}
	}
	return *r.Emph
}
