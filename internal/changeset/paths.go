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

// headerName reads the name of a ---/+++/*** header line's value: a quoted
// name, or everything up to the first TAB (GNU diff's timestamp separator),
// or the whole value less a trailing timestamp and whitespace.
func headerName(v string) string {
	if name, _, ok := unquote(v); ok {
		return name
	}
	if i := strings.IndexByte(v, '\t'); i >= 0 {
		return v[:i]
	}
	v = strings.TrimRight(v, " \r")
	if n := trailingTimestamp(v); n > 0 {
		return strings.TrimRight(v[:len(v)-n], " ")
	}
	return v
}

// hasEpochTimestamp reports whether a ---/+++ value carries the Unix epoch
// as its timestamp, which is how diff -N marks a file that does not exist on
// that side.
func hasEpochTimestamp(v string) bool {
	i := strings.IndexByte(v, '\t')
	if i < 0 {
		i = len(v) - trailingTimestamp(strings.TrimRight(v, " \r"))
		if i >= len(v) {
			return false
		}
	}
	ts := strings.TrimSpace(v[i:])
	return strings.HasPrefix(ts, "1970-01-01 00:00:00") || strings.HasPrefix(ts, "1969-12-31 ") ||
		strings.HasPrefix(ts, "Thu Jan  1 00:00:00 1970") || strings.HasPrefix(ts, "Wed Dec 31 ")
}

// trailingTimestamp returns the length of a timestamp ending v that is
// separated from the name by a space: "2009-10-11 12:13:14[.frac] [+-]hhmm"
// (diff -u) or "Sun Oct 11 12:13:14 2009" (diff -c). Zero when there is none.
func trailingTimestamp(v string) int {
	fields := strings.Fields(v)
	if len(fields) >= 3 {
		n := len(fields)
		date, clock, zone := fields[n-3], fields[n-2], fields[n-1]
		if isISODate(date) && isClock(clock) && isZone(zone) {
			return len(v) - strings.LastIndex(v, date)
		}
		if isISODate(fields[n-2]) && isClock(fields[n-1]) {
			return len(v) - strings.LastIndex(v, fields[n-2])
		}
	}
	if len(fields) >= 6 {
		n := len(fields)
		if isClock(fields[n-2]) && isDigits(fields[n-1]) && isDigits(fields[n-3]) && len(fields[n-5]) == 3 && len(fields[n-4]) == 3 {
			return len(v) - strings.LastIndex(v, fields[n-5])
		}
	}
	return 0
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

func isZone(s string) bool {
	return len(s) == 5 && (s[0] == '+' || s[0] == '-') && isDigits(s[1:])
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
	for i := 0; i < len(v); i++ {
		if v[i] != ' ' {
			continue
		}
		x, y := v[:i], v[i+1:]
		if stripComponents(x, 1) == stripComponents(y, 1) && strings.Contains(x, "/") && strings.Contains(y, "/") {
			return x, y, false, true
		}
	}
	// Differing names (a rename) with no spaces in them.
	if strings.Count(v, " ") == 1 {
		i := strings.IndexByte(v, ' ')
		return v[:i], v[i+1:], false, true
	}
	return "", "", false, false
}
