package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Theme is a named colour scheme. The zero Theme is invalid.
type Theme uint8

const (
	// ThemeAuto picks ThemeDark or ThemeLight from the terminal's
	// background when the UI can learn it quickly, ThemeDark otherwise.
	ThemeAuto Theme = iota + 1
	ThemeDark
	ThemeLight
	// ThemeMono uses no colour, only bold, underline and reverse video.
	ThemeMono
)

var themeNames = []string{ThemeAuto: "auto", ThemeDark: "dark", ThemeLight: "light", ThemeMono: "mono"}

func (t Theme) String() string { return enumName(themeNames, uint8(t), "Theme") }

// ParseTheme reads a theme name: auto, dark, light or mono.
func ParseTheme(s string) (Theme, error) {
	v, err := parseEnum(themeNames, s, "theme")
	return Theme(v), err
}

// View is how the diff is laid out. The zero View is invalid.
type View uint8

const (
	ViewUnified View = iota + 1 // old and new lines interleaved in one column
	ViewSplit                   // old on the left, new on the right
)

var viewNames = []string{ViewUnified: "unified", ViewSplit: "split"}

func (v View) String() string { return enumName(viewNames, uint8(v), "View") }

// ParseView reads "unified" or "split".
func ParseView(s string) (View, error) {
	v, err := parseEnum(viewNames, s, "view")
	return View(v), err
}

// ForgeKind is the kind of code host behind a host name. The zero
// ForgeKind is invalid.
type ForgeKind uint8

const (
	ForgeGitHub ForgeKind = iota + 1 // github.com or GitHub Enterprise Server
	ForgeGitLab                      // gitlab.com or a self-managed GitLab
)

var forgeNames = []string{ForgeGitHub: "github", ForgeGitLab: "gitlab"}

func (k ForgeKind) String() string { return enumName(forgeNames, uint8(k), "ForgeKind") }

// ParseForgeKind reads "github" or "gitlab".
func ParseForgeKind(s string) (ForgeKind, error) {
	v, err := parseEnum(forgeNames, s, "forge kind")
	return ForgeKind(v), err
}

// Host is one code host's settings.
type Host struct {
	Kind ForgeKind
	// API is the REST API base URL without a trailing slash, e.g.
	// "https://api.github.com" or "https://git.example.com/api/v4".
	API string
}

func builtinHosts() map[string]Host {
	return map[string]Host{
		"github.com": {Kind: ForgeGitHub, API: "https://api.github.com"},
		"gitlab.com": {Kind: ForgeGitLab, API: "https://gitlab.com/api/v4"},
	}
}

// defaultAPI is the API base URL of a self-hosted forge when the config
// file names the host but not its api: where GitHub Enterprise Server and
// GitLab serve it.
func defaultAPI(host string, kind ForgeKind) string {
	if kind == ForgeGitHub {
		return "https://" + host + "/api/v3"
	}
	return "https://" + host + "/api/v4"
}

// ColorSlot names one colour of the UI that the [colors] table can set.
// The zero ColorSlot is invalid.
type ColorSlot uint8

const (
	ColorAdded       ColorSlot = iota + 1 // added lines
	ColorRemoved                          // removed lines
	ColorAddedWord                        // emphasised words within added lines
	ColorRemovedWord                      // emphasised words within removed lines
	ColorContext                          // unchanged lines
	ColorLineNumber                       // the line-number gutters
	ColorHunkHeader                       // hunk headings
	ColorCursor                           // the cursor line
	ColorSelection                        // a v/V selected range
	ColorComment                          // draft and thread previews
	ColorOrphaned                         // the [orphaned] tag
	ColorEscaped                          // visibly escaped control or bidi characters
	ColorSearchMatch                      // search hits
	ColorStatusBar                        // the status bar
	ColorSidebar                          // the file sidebar
)

var colorSlotNames = []string{
	ColorAdded: "added", ColorRemoved: "removed", ColorAddedWord: "added_word",
	ColorRemovedWord: "removed_word", ColorContext: "context", ColorLineNumber: "line_number",
	ColorHunkHeader: "hunk_header", ColorCursor: "cursor", ColorSelection: "selection",
	ColorComment: "comment", ColorOrphaned: "orphaned", ColorEscaped: "escaped",
	ColorSearchMatch: "search_match", ColorStatusBar: "status_bar", ColorSidebar: "sidebar",
}

func (s ColorSlot) String() string { return enumName(colorSlotNames, uint8(s), "ColorSlot") }

// ParseColorSlot reads a slot name as written in the [colors] table.
func ParseColorSlot(s string) (ColorSlot, error) {
	v, err := parseEnum(colorSlotNames, s, "colour slot")
	return ColorSlot(v), err
}

// Color is a colour as the config file writes it, validated: "#rgb" or
// "#rrggbb" (true colour) or "0".."255" (an ANSI palette index). Hex
// digits are lower-cased.
type Color string

// ParseColor validates s as a Color.
func ParseColor(s string) (Color, error) {
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && n <= 255 && s == strconv.Itoa(n) {
		return Color(s), nil
	}
	if hex, ok := strings.CutPrefix(s, "#"); ok && (len(hex) == 3 || len(hex) == 6) {
		if _, err := strconv.ParseUint(hex, 16, 32); err == nil {
			return Color(strings.ToLower(s)), nil
		}
	}
	return "", fmt.Errorf("colour %q: want #rgb, #rrggbb or an ANSI index 0-255", s)
}

func enumName(names []string, v uint8, typ string) string {
	if int(v) < len(names) && v != 0 {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

func parseEnum(names []string, s, what string) (uint8, error) {
	for i, n := range names {
		if i != 0 && n == s {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (want %s)", what, s, strings.Join(names[1:], ", "))
}
