package editor

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplit_FollowsShellQuoting(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"vi", []string{"vi"}},
		{"code --wait", []string{"code", "--wait"}},
		{"  nvim\t-f  ", []string{"nvim", "-f"}},
		{`"/opt/My Editor/bin/ed" -w`, []string{"/opt/My Editor/bin/ed", "-w"}},
		{`'/opt/My Editor/bin/ed' -w`, []string{"/opt/My Editor/bin/ed", "-w"}},
		{`/opt/My\ Editor/bin/ed -w`, []string{"/opt/My Editor/bin/ed", "-w"}},
		{`vim -c 'set tw=72'`, []string{"vim", "-c", "set tw=72"}},
		{`emacsclient -a "" -t`, []string{"emacsclient", "-a", "", "-t"}},
		{`ed "it's" 'say "hi"'`, []string{"ed", "it's", `say "hi"`}},
		{`ed "a\"b" "c\\d" "e\f"`, []string{"ed", `a"b`, `c\d`, `e\f`}},
		{`ed 'back\slash'`, []string{"ed", `back\slash`}},
		{`ed pre"mid dle"post`, []string{"ed", "premid dlepost"}},
		{"ed one\\\ntwo", []string{"ed", "onetwo"}},
		{`ed a#b *.md ~/x`, []string{"ed", "a#b", "*.md", "~/x"}},
		{`"C:\\Program Files\\ed"`, []string{`C:\Program Files\ed`}},
		{"", nil},
		{"   ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := Split(tt.line)
			if err != nil {
				t.Fatalf("Split(%q): %v", tt.line, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Split(%q) (-want +got):\n%s", tt.line, diff)
			}
		})
	}
}

func TestSplit_RejectsWhatNeedsAShell(t *testing.T) {
	tests := []struct {
		line, want string
		shell      bool
	}{
		{`ed 'open`, "unterminated single quote at byte 3", false},
		{`ed "open`, "unterminated double quote at byte 3", false},
		{`ed \`, "trailing backslash", false},
		{`ed | cat`, "shell syntax is not supported: unquoted '|' at byte 3", true},
		{`ed; rm -rf x`, "shell syntax is not supported: unquoted ';' at byte 2", true},
		{`ed > out`, "shell syntax is not supported: unquoted '>' at byte 3", true},
		{`$HOME/bin/ed`, "shell syntax is not supported: unquoted '$' at byte 0", true},
		{"ed `which x`", "shell syntax is not supported: unquoted '`' at byte 3", true},
		{`ed "$HOME"`, "shell syntax is not supported: '$' inside double quotes at byte 3", true},
		{`ed # comment`, "shell syntax is not supported: unquoted '#' at byte 3", true},
		{`f() { ed; }`, "shell syntax is not supported: unquoted '(' at byte 1", true},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			_, err := Split(tt.line)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Split(%q) error = %v, want %q", tt.line, err, tt.want)
			}
			if errors.Is(err, ErrShellSyntax) != tt.shell {
				t.Errorf("errors.Is(err, ErrShellSyntax) = %v, want %v", !tt.shell, tt.shell)
			}
		})
	}
}
