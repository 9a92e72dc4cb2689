package tui

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/config"
)

func TestDrawText_WrapsCutsAndExpandsTabs(t *testing.T) {
	th := newTheme(themePlain, nil)
	tests := []struct {
		name  string
		text  string
		width int
		wrap  bool
		want  []string
	}{
		{"fits", "abc", 5, true, []string{"abc  "}},
		{"wraps", "abcdefg", 3, true, []string{"abc", "def", "g  "}},
		{"cuts with an ellipsis", "abcdefg", 4, false, []string{"abc…"}},
		{"exact fit is not cut", "abcd", 4, false, []string{"abcd"}},
		{"tabs expand to stops", "\tx\ty", 8, true, []string{"    x   ", "y       "}},
		{"wide characters wrap whole", "ab漢字", 3, true, []string{"ab ", "漢 ", "字 "}},
		{"empty", "", 2, true, []string{"  "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := th.drawText(tt.text, attrs{}, nil, tt.width, tt.wrap, 4)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tt.wrap {
				if n := wrappedLines(tt.text, tt.width, 4); n != len(got) {
					t.Errorf("wrappedLines = %d, drawText made %d lines", n, len(got))
				}
			}
		})
	}
}

func TestDrawText_LayersStyleTheirBytes(t *testing.T) {
	th := newTheme(themeMono, nil)
	got := th.drawText("a bc d", attrs{}, [][]span{{{2, 4, attrs{underline: true}}}}, 6, false, 4)[0]
	want := "a \x1b[4mbc\x1b[m d"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestTheme_MonoUsesNoColour(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.m.setTheme(themeMono)
	h.keys("]", "c", "J", "t")
	scr := h.screen()
	if strings.Contains(scr, "38;") || strings.Contains(scr, "48;") {
		t.Errorf("the mono theme (NO_COLOR) drew colours:\n%q", scr)
	}
	if !strings.Contains(scr, "\x1b[7m") {
		t.Errorf("the mono theme should still show the cursor in reverse video")
	}
}

func TestSettings_NoColorSelectsMono(t *testing.T) {
	c := config.Defaults()
	c.NoColor = true
	m := New(t.Context(), Options{Settings: SettingsFrom(c)})
	if got := m.initialTheme(); got != themeMono {
		t.Errorf("NO_COLOR picked theme %d, want mono", got)
	}
}

func TestColorParam_ReadsConfigColours(t *testing.T) {
	for in, want := range map[config.Color]string{"#00aa00": "38;2;0;170;0", "#fff": "38;2;255;255;255", "196": "38;5;196", "bogus": ""} {
		if got := colorParam(38, in); got != want {
			t.Errorf("colorParam(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFuzzyScore_PrefersFileNamesAndRuns(t *testing.T) {
	p := newPicker([]string{"internal/ratelimit/bucket_test.go", "internal/ratelimit/bucket.go", "cmd/server/main.go", "docs/rate-limits.md"})
	p.query.insert("bucket")
	p.refilter([]string{"internal/ratelimit/bucket_test.go", "internal/ratelimit/bucket.go", "cmd/server/main.go", "docs/rate-limits.md"})
	if diff := cmp.Diff([]int{1, 0}, p.matches); diff != "" {
		t.Errorf("matches (-want +got):\n%s", diff)
	}
	if _, ok := fuzzyScore("cmd/server/main.go", "zz"); ok {
		t.Error("a query with letters the path lacks matched")
	}
}
