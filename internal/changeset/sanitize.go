package changeset

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"
)

// SanitizeBidi rewrites, for display only, the characters a renderer obeys
// but a reader cannot see, and reports whether it changed anything. Each is
// replaced by a visible escape naming it, so the reader learns where it is:
//
//   - bidirectional controls U+202A-U+202E, U+2066-U+2069, U+200E, U+200F,
//     U+061C (Trojan Source) and invisible characters U+200B-U+200D,
//     U+2060-U+2065 and U+206A-U+206F (joiners, invisible operators,
//     deprecated format controls), U+FEFF, U+00AD become "<U+202E>";
//   - terminal control characters, C0 except TAB, DEL and C1 U+0080-U+009F,
//     become "<U+001B>", so an escape sequence never reaches a terminal;
//   - a byte that is not valid UTF-8 becomes "<0xFF>".
//
// Escaping rather than stripping keeps the rendition honest about the bytes.
// Digests, anchors and quotes use the raw line, never this. The line is
// taken as a whole: a caller holding a CRLF line strips its CR first (Hunk
// Display does; see displayLines).
func SanitizeBidi(line string) (string, bool) {
	i := firstUnsafe(line)
	if i < 0 {
		return line, false
	}
	var b strings.Builder
	b.Grow(len(line) + 16)
	b.WriteString(line[:i])
	for i < len(line) {
		c := line[i]
		if c < utf8.RuneSelf {
			if safeASCII[c] {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, "<U+%04X>", c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "<0x%02X>", c)
		case hiddenRune(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(line[i : i+size])
		}
		i += size
	}
	return b.String(), true
}

// safeASCII marks the ASCII bytes shown as themselves: printable characters
// and TAB.
var safeASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	t['\t'] = true
	return t
}()

// firstUnsafe returns the offset of the first byte SanitizeBidi would
// escape, or -1.
func firstUnsafe(s string) int {
	i := 0
	for i < len(s) {
		// Eight bytes at a time while they are printable ASCII or TAB.
		for i+8 <= len(s) && plainWord(binary.LittleEndian.Uint64(unsafeBytes(s[i:i+8]))) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if !safeASCII[c] {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || hiddenRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// plainWord reports whether all eight bytes of x are printable ASCII
// (0x20-0x7E) or TAB. Each test below is exact per byte: no carry crosses
// a byte because the high bits are masked off first.
func plainWord(x uint64) bool { return plainWordAnd(x, 0x0909090909090909) }

// plainWordAnd is plainWord with a second allowed control character, given
// repeated in every byte of also (TAB itself when there is none).
func plainWordAnd(x, also uint64) bool {
	const (
		lo7  = 0x7f7f7f7f7f7f7f7f
		high = 0x8080808080808080
	)
	if x&high != 0 {
		return false
	}
	ge20 := (x + 0x6060606060606060) & high // high bit set where byte >= 0x20
	notTab := ((x^0x0909090909090909)&lo7 + lo7) & high
	notAlso := ((x^also)&lo7 + lo7) & high
	notDel := ((x^0x7f7f7f7f7f7f7f7f)&lo7 + lo7) & high
	return (ge20|^notTab|^notAlso)&high == high && notDel == high
}

// plainBlock reports whether raw, a hunk body as it lies in the patch, is
// all printable ASCII, TAB and LF: then none of its lines needs escaping and
// the per-line scan is skipped.
func plainBlock(raw string) bool {
	const nl = 0x0a0a0a0a0a0a0a0a
	i := 0
	for ; i+8 <= len(raw); i += 8 {
		if !plainWordAnd(binary.LittleEndian.Uint64(unsafeBytes(raw[i:i+8])), nl) {
			return false
		}
	}
	for ; i < len(raw); i++ {
		if c := raw[i]; c >= utf8.RuneSelf || (!safeASCII[c] && c != '\n') {
			return false
		}
	}
	return true
}

// hiddenRune reports whether a non-ASCII rune is a C1 control, a bidi control
// or an invisible character.
func hiddenRune(r rune) bool {
	switch {
	case r <= 0x9f:
		return true // C1
	case r == 0xad, r == 0x061c, r == 0xfeff:
		return true
	case r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2060 && r <= 0x206f:
		return true
	}
	return false
}

// displayLines is Hunk.Display for lines: each line through SanitizeBidi,
// except that the CR ending a CRLF line is a line ending rather than content
// (Row.Text drops it) and is kept unescaped. Nil when no line changed, so
// an ordinary hunk, CRLF or not, ships no copy.
func displayLines(lines []string) []string {
	var out []string
	for i, l := range lines {
		body, cr := l, ""
		if n := len(l); n > 0 && l[n-1] == '\r' {
			body, cr = l[:n-1], "\r"
		}
		if firstUnsafe(body) < 0 {
			continue
		}
		s, _ := SanitizeBidi(body)
		if out == nil {
			out = make([]string, len(lines))
			copy(out, lines)
		}
		out[i] = s + cr
	}
	return out
}
