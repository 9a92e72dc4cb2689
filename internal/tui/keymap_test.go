package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestKeymap_MatchesSequencesAndRecoversFromStrayPrefixes(t *testing.T) {
	km, err := NewKeymap(nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		keys []string
		want []Action
	}{
		{"single keys", []string{"j", "k", "G"}, []Action{ActDown, ActUp, ActBottom}},
		{"gg", []string{"g", "g"}, []Action{0, ActTop}},
		{"]c and ]f", []string{"]", "c", "]", "f"}, []Action{0, ActNextHunk, 0, ActNextFile}},
		{"za then dd", []string{"z", "a", "d", "d"}, []Action{0, ActFoldHunk, 0, ActDelete}},
		{"a stray prefix does not swallow the next key", []string{"g", "j"}, []Action{0, ActDown}},
		{"a prefix followed by another prefix", []string{"]", "g", "g"}, []Action{0, 0, ActTop}},
		{"unbound keys do nothing", []string{"Q", "j"}, []Action{0, ActDown}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Action
			pending := ""
			for _, k := range tt.keys {
				var a Action
				a, pending = km.Match(pending, k)
				got = append(got, a)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("actions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestKeymap_RemapReplacesKeysAndHelpShowsThem(t *testing.T) {
	km, err := NewKeymap(map[string][]string{"down": {"n", "ctrl+n"}, "search_next": {"x"}, "toggle_view": {}, "top": {"gg"}})
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := km.Match("", "n"); a != ActDown {
		t.Errorf("n is %v, want down", a)
	}
	if a, _ := km.Match("", "j"); a != 0 {
		t.Errorf("j still bound to %v after remapping down", a)
	}
	if a, p := km.Match("", "g"); a != 0 || p != "g" {
		t.Errorf(`"gg" written without a space should be the sequence g g`)
	}
	help := strings.Join(helpLines(km), "\n")
	for _, want := range []string{`n, ctrl\+n +next line`, `\bx +next match`, `\(unbound\) +unified or split view`} {
		if !regexp.MustCompile(want).MatchString(help) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
}

func TestKeymap_RejectsConflicts(t *testing.T) {
	tests := []struct {
		name  string
		remap map[string][]string
		want  string
	}{
		{"a key bound twice", map[string][]string{"up": {"j"}}, `"j" is bound to both`},
		{"a key that starts a sequence", map[string][]string{"quit": {"g"}}, "start of a longer key sequence"},
		{"an unknown action", map[string][]string{"fly": {"F"}}, `unknown action "fly"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewKeymap(tt.remap)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestActions_NamesEveryBindingOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range Actions() {
		if seen[n] {
			t.Errorf("action name %q twice", n)
		}
		seen[n] = true
	}
	if len(seen) != int(actCount)-1 {
		t.Errorf("%d action names for %d actions", len(seen), actCount-1)
	}
}
