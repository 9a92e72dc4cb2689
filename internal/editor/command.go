package editor

import (
	"errors"
	"fmt"
	"strings"
)

// ErrShellSyntax reports a command line that needs a shell to mean what it
// says (a pipe, a redirection, a variable, a command substitution): Split
// runs no shell, so it refuses such a line rather than guess.
var ErrShellSyntax = errors.New("shell syntax is not supported")

// Split breaks a command line into words with POSIX shell quoting and no
// expansion: blanks separate words; '...' keeps everything literally;
// "..." keeps everything but \" \\ \$ \` and backslash-newline, which it
// unescapes; an unquoted backslash escapes the next character. Unquoted
// | & ; < > ( ) $ ` and a # that starts a word, and $ or ` inside double
// quotes, fail with ErrShellSyntax. Glob characters and ~ are kept
// literally. A line of blanks yields no words and no error.
func Split(line string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unterminated single quote at byte %d", i)
			}
			cur.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			n, err := doubleQuoted(line[i+1:], &cur)
			if err != nil {
				return nil, fmt.Errorf("%w at byte %d", err, i)
			}
			i += n + 1
			inWord = true
		case c == '\\':
			if i+1 == len(line) {
				return nil, fmt.Errorf("trailing backslash")
			}
			i++
			if line[i] != '\n' { // backslash-newline joins lines
				cur.WriteByte(line[i])
				inWord = true
			}
		case strings.IndexByte("|&;<>()$`", c) >= 0 || (c == '#' && !inWord):
			return nil, fmt.Errorf("%w: unquoted %q at byte %d", ErrShellSyntax, c, i)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// doubleQuoted copies the inside of a "..." string from s (which starts
// just after the opening quote) to out and returns the index of the closing
// quote in s.
func doubleQuoted(s string, out *strings.Builder) (int, error) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return i, nil
		case '$', '`':
			return 0, fmt.Errorf("%w: %q inside double quotes", ErrShellSyntax, c)
		case '\\':
			if i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
				i++
				if s[i] != '\n' {
					out.WriteByte(s[i])
				}
				continue
			}
			out.WriteByte(c)
		default:
			out.WriteByte(c)
		}
	}
	return 0, errors.New("unterminated double quote")
}
