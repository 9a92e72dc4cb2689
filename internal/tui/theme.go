package tui

import (
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/leanreview/leanreview/internal/config"
)

// attrs is how a run of cells looks. fg and bg are SGR colour parameters
// ("38;2;1;2;3", "48;5;196"), "" for the terminal's default. The zero
// attrs draws plain text.
type attrs struct {
	fg, bg                           string
	bold, italic, underline, reverse bool
}

// over returns a with every attribute b sets laid on top.
func (a attrs) over(b attrs) attrs {
	if b.fg != "" {
		a.fg = b.fg
	}
	if b.bg != "" {
		a.bg = b.bg
	}
	a.bold = a.bold || b.bold
	a.italic = a.italic || b.italic
	a.underline = a.underline || b.underline
	a.reverse = a.reverse || b.reverse
	return a
}

const sgrReset = "\x1b[m"

func (a attrs) sgr() string {
	if a == (attrs{}) {
		return ""
	}
	var p []string
	if a.bold {
		p = append(p, "1")
	}
	if a.italic {
		p = append(p, "3")
	}
	if a.underline {
		p = append(p, "4")
	}
	if a.reverse {
		p = append(p, "7")
	}
	if a.fg != "" {
		p = append(p, a.fg)
	}
	if a.bg != "" {
		p = append(p, a.bg)
	}
	return "\x1b[" + strings.Join(p, ";") + "m"
}

// theme is the look of every part of the UI. A plain theme emits no escape
// sequence at all (golden tests); mono (NO_COLOR) uses only bold,
// underline, italic and reverse video.
type theme struct {
	add, del, context, addWord, delWord      attrs
	lineNo, hunkHeader, fileHeader, fileNote attrs
	cursor, selection, comment, commentHead  attrs
	orphaned, agent, thread, threadHead      attrs
	escaped, match, status, sidebar, dim     attrs
	// syntax colours code by token type; nil when the theme has none.
	syntax *chroma.Style

	sgrCache map[attrs]string
	tokCache map[chroma.TokenType]attrs
}

func (t *theme) seq(a attrs) string {
	s, ok := t.sgrCache[a]
	if !ok {
		s = a.sgr()
		t.sgrCache[a] = s
	}
	return s
}

// token returns the attributes syntax highlighting gives a token type.
func (t *theme) token(tt chroma.TokenType) attrs {
	if t.syntax == nil {
		return attrs{}
	}
	if a, ok := t.tokCache[tt]; ok {
		return a
	}
	var a attrs
	e := t.syntax.Get(tt)
	if e.Colour.IsSet() {
		a.fg = truecolor(38, int(e.Colour.Red()), int(e.Colour.Green()), int(e.Colour.Blue()))
	}
	a.italic = e.Italic == chroma.Yes
	t.tokCache[tt] = a
	return a
}

func truecolor(base, r, g, b int) string {
	return strconv.Itoa(base) + ";2;" + strconv.Itoa(r) + ";" + strconv.Itoa(g) + ";" + strconv.Itoa(b)
}

// colorParam turns a config colour ("#rgb", "#rrggbb", "0".."255") into an
// SGR parameter; base is 38 (foreground) or 48 (background).
func colorParam(base int, c config.Color) string {
	s := string(c)
	if hex, ok := strings.CutPrefix(s, "#"); ok {
		if len(hex) == 3 {
			hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
		}
		v, err := strconv.ParseUint(hex, 16, 32)
		if err != nil || len(hex) != 6 {
			return ""
		}
		return truecolor(base, int(v>>16&0xff), int(v>>8&0xff), int(v&0xff))
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && n < 256 {
		return strconv.Itoa(base) + ";5;" + s
	}
	return ""
}

func fg(hex string) attrs { return attrs{fg: colorParam(38, config.Color(hex))} }
func bg(hex string) attrs { return attrs{bg: colorParam(48, config.Color(hex))} }

// themeKind selects the palette; themePlain is for tests.
type themeKind uint8

const (
	themePlain themeKind = iota + 1
	themeMono
	themeDark
	themeLight
)

// newTheme builds a palette and applies the config file's colour overrides.
// A colour set for a slot that is a background in this UI (the word
// emphasis, the cursor, the selection, search hits, the status bar) sets
// the background; every other slot sets the foreground.
func newTheme(kind themeKind, overrides map[config.ColorSlot]config.Color) *theme {
	t := &theme{sgrCache: map[attrs]string{}, tokCache: map[chroma.TokenType]attrs{}}
	switch kind {
	case themeMono:
		t.addWord = attrs{underline: true, bold: true}
		t.delWord = attrs{underline: true}
		t.hunkHeader = attrs{bold: true}
		t.fileHeader = attrs{bold: true, reverse: true}
		t.cursor = attrs{reverse: true}
		t.selection = attrs{underline: true}
		t.comment = attrs{italic: true}
		t.commentHead = attrs{italic: true, bold: true}
		t.orphaned = attrs{bold: true}
		t.agent = attrs{bold: true, reverse: true}
		t.threadHead = attrs{bold: true}
		t.escaped = attrs{reverse: true}
		t.match = attrs{reverse: true}
		t.status = attrs{reverse: true}
	case themeDark:
		t.add, t.del = bg("#12261e"), bg("#2d1619")
		t.addWord, t.delWord = bg("#1f6f3f"), bg("#7d2a32")
		t.lineNo, t.dim = fg("#6e7681"), fg("#8b949e")
		t.hunkHeader = fg("#79c0ff").over(bg("#161b22"))
		t.fileHeader = attrs{bold: true}.over(fg("#e6edf3")).over(bg("#283040"))
		t.fileNote = fg("#d29922")
		t.cursor = bg("#3d4756").over(attrs{bold: true})
		t.selection = bg("#264f78")
		t.comment = fg("#d2a8ff")
		t.commentHead = t.comment.over(attrs{bold: true})
		t.orphaned = fg("#ff7b72").over(attrs{bold: true})
		t.agent = fg("#000000").over(bg("#d2a8ff"))
		t.thread = fg("#a5d6ff")
		t.threadHead = t.thread.over(attrs{bold: true})
		t.escaped = fg("#000000").over(bg("#e3b341"))
		t.match = fg("#000000").over(bg("#f2cc60"))
		t.status = fg("#e6edf3").over(bg("#30363d"))
		t.syntax = styles.Get("github-dark")
	case themeLight:
		t.add, t.del = bg("#e6ffec"), bg("#ffebe9")
		t.addWord, t.delWord = bg("#abf2bc"), bg("#ffc1c0")
		t.lineNo, t.dim = fg("#8c959f"), fg("#6e7781")
		t.hunkHeader = fg("#0550ae").over(bg("#ddf4ff"))
		t.fileHeader = attrs{bold: true}.over(fg("#1f2328")).over(bg("#eaeef2"))
		t.fileNote = fg("#9a6700")
		t.cursor = bg("#d0d7de").over(attrs{bold: true})
		t.selection = bg("#b6e3ff")
		t.comment = fg("#8250df")
		t.commentHead = t.comment.over(attrs{bold: true})
		t.orphaned = fg("#cf222e").over(attrs{bold: true})
		t.agent = fg("#ffffff").over(bg("#8250df"))
		t.thread = fg("#0969da")
		t.threadHead = t.thread.over(attrs{bold: true})
		t.escaped = fg("#9a6700").over(bg("#fff8c5"))
		t.match = bg("#fae17d")
		t.status = fg("#1f2328").over(bg("#eaeef2"))
		t.syntax = styles.Get("github")
	}
	if kind == themeDark || kind == themeLight {
		for slot, c := range overrides {
			t.override(slot, c)
		}
	}
	return t
}

func (t *theme) override(slot config.ColorSlot, c config.Color) {
	f, b := attrs{fg: colorParam(38, c)}, attrs{bg: colorParam(48, c)}
	switch slot {
	case config.ColorAdded:
		t.add = t.add.over(f)
	case config.ColorRemoved:
		t.del = t.del.over(f)
	case config.ColorAddedWord:
		t.addWord = t.addWord.over(b)
	case config.ColorRemovedWord:
		t.delWord = t.delWord.over(b)
	case config.ColorContext:
		t.context = t.context.over(f)
	case config.ColorLineNumber:
		t.lineNo = t.lineNo.over(f)
	case config.ColorHunkHeader:
		t.hunkHeader = t.hunkHeader.over(f)
	case config.ColorCursor:
		t.cursor = t.cursor.over(b)
	case config.ColorSelection:
		t.selection = t.selection.over(b)
	case config.ColorComment:
		t.comment = t.comment.over(f)
		t.commentHead = t.commentHead.over(f)
	case config.ColorOrphaned:
		t.orphaned = t.orphaned.over(f)
	case config.ColorEscaped:
		t.escaped = t.escaped.over(f)
	case config.ColorSearchMatch:
		t.match = t.match.over(b)
	case config.ColorStatusBar:
		t.status = t.status.over(b)
	case config.ColorSidebar:
		t.sidebar = t.sidebar.over(f)
	}
}
