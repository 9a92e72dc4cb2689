package changeset

import "strings"

// devNull is how every dialect spells the missing side of an added or a
// deleted file.
const devNull = "/dev/null"

// unquote reads a C-quoted name at the start of s ("a/caf\303\251.txt", with
// \a \b \t \n \v \f \r \" \\ and three-digit octal escapes, as git writes
// them) and returns the name and the rest of s after the closing quote. ok
// is false when s does not start with a well-formed quoted name.
func unquote(s string) (name, rest string, ok bool) {
	if len(s) < 2 || s[0] != '"' {
		return "", s, false
	}
	var b []byte
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			if b == nil {
				return s[1:i], s[i+1:], true
			}
			return string(b), s[i+1:], true
		case '\\':
			if b == nil {
				b = append(make([]byte, 0, len(s)), s[1:i]...)
			}
			i++
			if i >= len(s) {
				return "", s, false
			}
			switch e := s[i]; e {
			case 'a':
				b = append(b, '\a')
			case 'b':
				b = append(b, '\b')
			case 't':
				b = append(b, '\t')
			case 'n':
				b = append(b, '\n')
			case 'v':
				b = append(b, '\v')
			case 'f':
				b = append(b, '\f')
			case 'r':
				b = append(b, '\r')
			case '"', '\\':
				b = append(b, e)
			case '0', '1', '2', '3':
				if i+2 >= len(s) || !isOctal(s[i+1]) || !isOctal(s[i+2]) {
					return "", s, false
				}
				b = append(b, (e-'0')<<6|(s[i+1]-'0')<<3|(s[i+2]-'0'))
				i += 2
			default:
				return "", s, false
			}
		default:
			if b != nil {
				b = append(b, c)
			}
		}
	}
	return "", s, false
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// stripComponents removes n leading path components, as patch -pN does.
// A name with fewer components is returned unchanged, and /dev/null is
// never stripped.
func stripComponents(name string, n int) string {
	if name == devNull {
		return name
	}
	for ; n > 0; n-- {
		i := strings.IndexByte(name, '/')
		if i < 0 || i == len(name)-1 {
			return name
		}
		name = name[i+1:]
		for len(name) > 0 && name[0] == '/' {
			name = name[1:]
		}
	}
	return name
}

// headerName reads the name in the value of a ---/+++/*** header line the
// way git does: a C-quoted name; else the value less a trailing timestamp
// ("2010-07-05 19:41:17[.frac] [+-]hh[:]mm", after a TAB or spaces); else
// everything up to the first TAB, which GNU diff puts before the date.
func headerName(v string) string {
	v = strings.TrimSuffix(v, "\r")
	if name, rest, ok := unquote(v); ok {
		if rest == "" || rest[0] == '\t' || rest[0] == ' ' {
			return name
		}
		// A quoted prefix glued to an unquoted rest ("a/"sub/file).
		if i := strings.IndexByte(rest, '\t'); i >= 0 {
			rest = rest[:i]
		}
		return name + rest
	}
	if n := timestampLen(v); n > 0 {
		return v[:len(v)-n]
	}
	if i := strings.IndexByte(v, '\t'); i >= 0 {
		return v[:i]
	}
	return v
}

// timestampLen is git's diff_timestamp_len: the length of a timestamp ending
// v with the whitespace before it, or 0 when v does not end in one.
func timestampLen(v string) int {
	end := len(v)
	if end == 0 || v[end-1] < '0' || v[end-1] > '9' {
		return 0
	}
	// Zone: " +hhmm" or " +hh:mm".
	if end >= 6 && v[end-6] == ' ' && (v[end-5] == '+' || v[end-5] == '-') && isDigits(v[end-4:end]) {
		end -= 6
	} else if end >= 7 && v[end-7] == ' ' && (v[end-6] == '+' || v[end-6] == '-') && isDigits(v[end-5:end-3]) && v[end-3] == ':' && isDigits(v[end-2:end]) {
		end -= 7
	}
	// Time: " hh:mm:ss" with optional fraction.
	t := end
	for t > 0 && v[t-1] >= '0' && v[t-1] <= '9' {
		t--
	}
	if t > 0 && v[t-1] == '.' && t < end {
		end = t - 1
	}
	if end < 9 || v[end-9] != ' ' || !isClock(v[end-8:end]) {
		return 0
	}
	end -= 9
	// Date: "yyyy-mm-dd".
	if end < 10 || !isISODate(v[end-10:end]) {
		return 0
	}
	end -= 10
	switch {
	case end == 0:
		return 0
	case v[end-1] == '\t':
		return len(v) - end + 1
	case v[end-1] != ' ':
		return 0
	}
	for end > 0 && v[end-1] == ' ' {
		end--
	}
	return len(v) - end
}

// hasEpochTimestamp reports whether a ---/+++ value carries the Unix epoch
// as its timestamp (in any zone), which is how diff -N marks a file that
// does not exist on that side.
func hasEpochTimestamp(v string) bool {
	v = strings.TrimSuffix(v, "\r")
	ts := ""
	if n := timestampLen(v); n > 0 {
		ts = strings.TrimLeft(v[len(v)-n:], " \t")
	} else if i := strings.IndexByte(v, '\t'); i >= 0 {
		ts = v[i+1:]
	}
	if strings.HasPrefix(ts, "1970-01-01 ") || strings.HasPrefix(ts, "1969-12-31 ") {
		// Whole minutes and zero seconds: a real file's time rarely is.
		return len(ts) >= 19 && ts[16:19] == ":00" && strings.Trim(fractionOf(ts[19:]), "0") == ""
	}
	return strings.HasPrefix(ts, "Thu Jan  1 00:00:00 1970") || strings.HasPrefix(ts, "Wed Dec 31 ")
}

// fractionOf returns the digits of a leading ".ddd" of s.
func fractionOf(s string) string {
	if !strings.HasPrefix(s, ".") {
		return ""
	}
	i := 1
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[1:i]
}

// sameNameSplit returns the offset of the space splitting v into two names
// equal after their first component ("a/x y" "b/x y"), or -1. Scanning from
// the right, i + (first slash after i) strictly decreases, so at most one
// space gives the two stripped halves equal lengths: one comparison, and
// linear time however many spaces v holds.
func sameNameSplit(v string) int {
	first := strings.IndexByte(v, '/')
	if first < 0 {
		return -1
	}
	next := -1 // the first slash after i
	for i := len(v) - 1; i > first; i-- {
		switch v[i] {
		case '/':
			next = i
		case ' ':
			if next < 0 || i+next != len(v)+first {
				continue
			}
			if v[first+1:i] == v[next+1:] {
				return i
			}
		}
	}
	return -1
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isISODate(s string) bool {
	return len(s) == 10 && s[4] == '-' && s[7] == '-' && isDigits(s[:4]) && isDigits(s[5:7]) && isDigits(s[8:])
}

func isClock(s string) bool {
	if len(s) < 8 || s[2] != ':' || s[5] != ':' || !isDigits(s[:2]) || !isDigits(s[3:5]) || !isDigits(s[6:8]) {
		return false
	}
	return len(s) == 8 || (s[8] == '.' && isDigits(s[9:]))
}

// gitHeaderNames splits the value of a "diff --git " line into its two names,
// quoted or not. For unquoted names containing spaces, the split is the one
// whose two halves name the same file after their first component (git's own
// rule), or whose halves are identical (--no-prefix output). ok is false when
// no split is unambiguous; the ---/+++ or rename headers must then decide.
func gitHeaderNames(v string) (a, b string, noPrefix, ok bool) {
	v = strings.TrimSuffix(v, "\r")
	if v != "" && v[0] == '"' {
		a, rest, qok := unquote(v)
		if !qok || rest == "" || rest[0] != ' ' {
			return "", "", false, false
		}
		rest = rest[1:]
		if b, tail, qok := unquote(rest); qok && tail == "" {
			return a, b, a == b, true
		}
		return a, rest, a == rest, true
	}
	if strings.HasSuffix(v, "\"") {
		if i := strings.LastIndex(v, " \""); i > 0 {
			if b, tail, qok := unquote(v[i+1:]); qok && tail == "" {
				return v[:i], b, v[:i] == b, true
			}
		}
	}
	if n := len(v); n%2 == 1 && v[n/2] == ' ' && v[:n/2] == v[n/2+1:] {
		return v[:n/2], v[n/2+1:], true, true
	}
	if i := sameNameSplit(v); i > 0 {
		return v[:i], v[i+1:], false, true
	}
	// Differing names (a rename) with no spaces in them.
	if strings.Count(v, " ") == 1 {
		i := strings.IndexByte(v, ' ')
		return v[:i], v[i+1:], false, true
	}
	return "", "", false, false
}
