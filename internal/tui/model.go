package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/config"
	"github.com/leanreview/leanreview/internal/editor"
	"github.com/leanreview/leanreview/internal/session"
)

// Settings are the look and the starting state of the UI.
type Settings struct {
	Theme    config.Theme
	Colors   map[config.ColorSlot]config.Color
	NoColor  bool
	TabWidth int
	Wrap     bool
	Split    bool
	// plain draws no escape sequence at all: golden tests.
	plain bool
}

// SettingsFrom takes the UI's settings from a loaded configuration.
func SettingsFrom(c *config.Config) Settings {
	return Settings{
		Theme: c.Theme, Colors: c.Colors, NoColor: c.NoColor,
		TabWidth: c.TabWidth, Wrap: c.Wrap, Split: c.View == config.ViewSplit,
	}
}

// CommentEditor prepares the editor buffer for one comment;
// *editor.Editor is one.
type CommentEditor interface {
	Prepare(ctx context.Context, req editor.Request) (*editor.Buffer, error)
}

// Opener reads the review. It runs off the UI goroutine while the screen
// shows progress, so a huge patch never freezes the terminal.
type Opener func(ctx context.Context) (app.Service, error)

// Options are what New needs.
type Options struct {
	Open  Opener
	Label string // what is being opened, shown while it loads
	// Editor writes comments; nil makes c and e explain that no editor is
	// available.
	Editor   CommentEditor
	Keymap   *Keymap
	Settings Settings
	// Threads and Submitter are the host's side of a pull or merge
	// request: its review threads, and sending the drafts as one review.
	// Both are nil for every other source; the UI then shows no threads
	// and S explains that there is nowhere to submit to.
	Threads   ThreadSource
	Submitter Submitter
	// ExportDir is where E writes drafts; "" means the system's temporary
	// directory.
	ExportDir string
}

// overlay is what covers the diff pane. The zero value is none.
type overlay uint8

const (
	overlayNone overlay = iota
	overlayHelp
	overlayPicker
	overlayDrafts
	overlaySuggestions
	overlaySubmit
)

// Model is the root of the UI: it routes messages to its components and
// turns actions into commands. Side effects (service calls, the editor,
// searching) happen only inside tea.Cmd functions.
type Model struct {
	ctx  context.Context
	opts Options
	km   *Keymap
	th   *theme
	hl   *highlighter

	width, height int
	started       time.Time
	spin          int

	svc     app.Service
	snap    *app.Snapshot
	loadErr error
	diff    *diffView

	showSidebar bool
	side        sidebar
	overlay     overlay
	help        helpView
	picker      *picker
	drafts      *draftList
	suggest     *suggestionList
	agent       agentQueue
	search      *prompt // the search prompt while it is open
	found       searchState

	pending string // keys of an unfinished sequence
	msg     string // the status line's message until the next key
	msgErr  bool
	undo    []session.Draft

	fileViewed  []int
	fileDrafts  map[string]int
	viewedTotal int
	orphans     int

	// threads are the host's review threads placed on the changeset shown;
	// seenSent the ids already recorded as seen.
	threads     []app.PlacedThread
	fileThreads map[string]int
	newThreads  int
	seenSent    map[string]bool
	submit      *submitView

	// prevCursor is where the cursor was before a reload replaced the
	// changeset.
	prevCursor app.Cursor

	snapBusy, snapDirty     bool
	cursorBusy, cursorDirty bool
}

// New builds the UI for opts; Run starts it.
func New(ctx context.Context, opts Options) *Model {
	km := opts.Keymap
	if km == nil {
		km, _ = NewKeymap(nil)
	}
	m := &Model{ctx: ctx, opts: opts, km: km, showSidebar: true, started: time.Now(), fileDrafts: map[string]int{},
		seenSent: map[string]bool{}}
	if m.opts.Settings.TabWidth < 1 {
		m.opts.Settings.TabWidth = config.DefaultTabWidth
	}
	m.setTheme(m.initialTheme())
	return m
}

func (m *Model) initialTheme() themeKind {
	s := m.opts.Settings
	switch {
	case s.plain:
		return themePlain
	case s.NoColor || s.Theme == config.ThemeMono:
		return themeMono
	case s.Theme == config.ThemeLight:
		return themeLight
	}
	return themeDark
}

func (m *Model) setTheme(k themeKind) {
	m.th = newTheme(k, m.opts.Settings.Colors)
	m.hl = newHighlighter(m.th)
	if m.diff != nil {
		m.diff.th, m.diff.hl = m.th, m.hl
	}
}

// Init starts reading the review and, for the auto theme, asks the
// terminal for its background without waiting for the answer.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.openCmd(), spinTick()}
	if m.opts.Settings.Theme == config.ThemeAuto && m.initialTheme() == themeDark {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

type spinMsg struct{}

func spinTick() tea.Cmd {
	return tea.Tick(100*time.Millisecond, func(time.Time) tea.Msg { return spinMsg{} })
}

// Update routes one message, then records the threads it brought on
// screen as seen.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.route(msg)
	if seen := m.markSeen(); seen != nil {
		cmd = tea.Batch(cmd, seen)
	}
	return m, cmd
}

// route hands one message to whatever handles it.
func (m *Model) route(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layoutPanes()
		return nil
	case spinMsg:
		if m.diff == nil && m.loadErr == nil {
			m.spin++
			return spinTick()
		}
		return nil
	case tea.BackgroundColorMsg:
		if m.opts.Settings.Theme == config.ThemeAuto && !msg.IsDark() && m.initialTheme() == themeDark {
			m.setTheme(themeLight)
		}
		return nil
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.PasteMsg:
		m.paste(msg.Content)
		return nil
	case tea.MouseWheelMsg:
		if m.diff != nil && m.overlay == overlayNone {
			switch msg.Mouse().Button {
			case tea.MouseWheelUp:
				m.diff.scroll(-3)
			case tea.MouseWheelDown:
				m.diff.scroll(3)
			}
			return m.syncCursor()
		}
		return nil
	}
	return m.handleResult(msg)
}

// layoutPanes gives each component its size.
func (m *Model) layoutPanes() {
	if m.diff == nil {
		return
	}
	body := m.bodyHeight()
	sw := m.sidebarWidth()
	m.side.setSize(sw, body)
	dw := m.width
	if sw > 0 {
		dw -= sw + 1
	}
	m.diff.setSize(dw, body)
}

// sidebarWidth is 0 when the sidebar is hidden or the terminal too narrow.
func (m *Model) sidebarWidth() int {
	if !m.showSidebar || m.width < 60 {
		return 0
	}
	return min(max(m.width/4, 24), 40)
}

func (m *Model) setInfo(format string, args ...any) {
	m.msg, m.msgErr = fmt.Sprintf(format, args...), false
}

func (m *Model) setErr(err error) {
	m.msg, m.msgErr = err.Error(), true
}

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

func (m *Model) render() string {
	if m.width < 1 || m.height < 1 {
		return ""
	}
	if m.diff == nil {
		return m.renderLoading()
	}
	body := m.bodyHeight()
	var pane []string
	switch m.overlay {
	case overlayHelp:
		pane = m.help.render(m, m.diff.width, body)
	case overlayPicker:
		pane = m.picker.render(m, m.diff.width, body)
	case overlayDrafts:
		pane = m.drafts.render(m, m.diff.width, body)
	case overlaySuggestions:
		pane = m.suggest.render(m, m.diff.width, body)
	case overlaySubmit:
		pane = m.submit.render(m, m.diff.width, body)
	default:
		pane = m.diff.render()
	}
	var b strings.Builder
	var side []string
	if sw := m.sidebarWidth(); sw > 0 {
		side = m.side.render(m)
	}
	div := m.th.seq(m.th.dim) + "│" + endSGR(m.th.dim)
	for i := 0; i < body; i++ {
		if side != nil {
			b.WriteString(side[i])
			b.WriteString(div)
		}
		if i < len(pane) {
			b.WriteString(pane[i])
		}
		b.WriteByte('\n')
	}
	if m.barLines() > 0 {
		b.WriteString(m.suggestionBar())
		b.WriteByte('\n')
	}
	b.WriteString(m.statusLine())
	return b.String()
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func (m *Model) renderLoading() string {
	var line string
	if m.loadErr != nil {
		line = "leanreview: " + safe(m.loadErr.Error()) + " (press q to quit)"
	} else {
		line = fmt.Sprintf("%s Reading %s… %.1fs", spinner[m.spin%len(spinner)], safe(m.opts.Label), time.Since(m.started).Seconds())
	}
	lines := make([]string, m.height)
	for i := range lines {
		lines[i] = m.th.fit("", attrs{}, m.width)
	}
	lines[m.height/2] = m.th.fit("  "+line, attrs{}, m.width)
	return strings.Join(lines, "\n")
}

// statusLine is the bottom line: a prompt, a message, or where the cursor
// is and how far the review has come.
func (m *Model) statusLine() string {
	a := m.th.status
	if m.search != nil {
		return m.search.view(m.th, a, m.width)
	}
	d := m.diff
	files := d.lay.cs.Files
	var left string
	switch {
	case m.msg != "" && m.msgErr:
		left = " error: " + safe(m.msg)
	case m.msg != "":
		left = " " + safe(m.msg)
	case len(files) == 0:
		left = " this change is empty"
	default:
		left = fmt.Sprintf(" %d/%d %s", d.cursor.File+1, len(files), safe(files[d.cursor.File].Path))
	}
	view := "unified"
	if d.lay.split {
		view = "split"
	}
	if !d.wrap {
		view += " nowrap"
	}
	right := fmt.Sprintf(" %s · %d/%d hunks · %s", view, m.viewedTotal, len(d.lay.hunks), plural(len(m.snap.Drafts), "draft"))
	if m.orphans > 0 {
		right += fmt.Sprintf(" (%d orphaned)", m.orphans)
	}
	if n := len(m.threads); n > 0 {
		right += " · " + plural(n, "thread")
		if m.newThreads > 0 {
			right += fmt.Sprintf(" (%d new)", m.newThreads)
		}
	}
	if m.snap.Unsaved {
		// Drafts held in memory only: say so until a write succeeds.
		right = " DRAFTS NOT SAVED (E exports) ·" + right
	}
	if d.sel != nil {
		right = " SELECT ·" + right
	}
	if m.pending != "" {
		right = " " + m.pending + " ·" + right
	}
	if m.found.re != nil && len(m.found.matches) > 0 {
		right += fmt.Sprintf(" · %d matches", len(m.found.matches))
	}
	if d.lay.total > 0 {
		right += fmt.Sprintf(" · %d/%d ", d.cursorSlot()+1, d.lay.total)
	}
	rw := min(textCells(right, 8), m.width*2/3)
	if m.msg != "" {
		// A message is read once: it gets the room it needs first.
		rw = min(rw, max(m.width-textCells(left, 8), m.width/3))
	}
	return m.th.fit(left, a, m.width-rw) + m.th.fitLeft(right, a, rw)
}
