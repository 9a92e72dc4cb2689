package tui

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/leanreview/leanreview/internal/app"
	"github.com/leanreview/leanreview/internal/changeset"
	"github.com/leanreview/leanreview/internal/tui/tuitest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// harness drives a Model the way Bubble Tea would, synchronously: every
// command runs at once and its message goes back into Update. The editor
// runs to completion in place of tea.ExecProcess.
type harness struct {
	t    *testing.T
	m    *Model
	svc  app.Service
	quit bool
}

type harnessOpts struct {
	width, height int
	settings      Settings
	editor        CommentEditor
	dir           string // state directory; a new temporary one when ""
	patch         string // testdata file; review.patch when ""
	key           string // the source's identity key; the patch digest when ""
	// svc, when set, is the review instead of one over patch; threads and
	// submitter are a pull request's (see forgeWorld).
	svc       app.Service
	threads   ThreadSource
	submitter Submitter
}

func newHarness(t *testing.T, o harnessOpts) *harness {
	t.Helper()
	if o.width == 0 {
		o.width, o.height = 80, 24
	}
	if o.dir == "" {
		o.dir = t.TempDir()
	}
	if o.patch == "" {
		o.patch = "review.patch"
	}
	if o.settings.TabWidth == 0 {
		o.settings = Settings{TabWidth: 4, Wrap: true}
	}
	o.settings.plain = true
	if o.svc == nil {
		patch, err := os.ReadFile(filepath.Join("testdata", o.patch))
		if err != nil {
			t.Fatal(err)
		}
		key := o.key
		if key == "" {
			key = changeset.PatchDigest(string(patch))
		}
		o.svc = tuitest.OpenKeyed(t, patch, o.dir, key)
	}
	svc := tuitest.NoEvents{Service: o.svc}
	h := &harness{t: t, svc: svc}
	h.m = New(context.Background(), Options{
		Open:      func(context.Context) (app.Service, error) { return svc, nil },
		Label:     o.patch,
		Editor:    o.editor,
		Settings:  o.settings,
		Threads:   o.threads,
		Submitter: o.submitter,
	})
	h.send(tea.WindowSizeMsg{Width: o.width, Height: o.height})
	h.run(h.m.openCmd())
	return h
}

func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

func (h *harness) run(cmd tea.Cmd) {
	h.t.Helper()
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil, spinMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	case tea.QuitMsg:
		h.quit = true
	case editorReadyMsg:
		if msg.err != nil {
			h.send(msg)
			return
		}
		err := msg.buf.Cmd().Run()
		h.send(editorDoneMsg{buf: msg.buf, runErr: err, op: msg.op})
	default:
		h.send(msg)
	}
}

// keyMsg builds the key press Bubble Tea reports for a key name.
func keyMsg(name string) tea.KeyPressMsg {
	special := map[string]tea.KeyPressMsg{
		"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "pgdown": {Code: tea.KeyPgDown},
		"pgup": {Code: tea.KeyPgUp}, "backspace": {Code: tea.KeyBackspace}, "space": {Code: tea.KeySpace, Text: " "},
		"down": {Code: tea.KeyDown}, "up": {Code: tea.KeyUp},
	}
	if k, ok := special[name]; ok {
		return k
	}
	if c, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(c[0]), Mod: tea.ModCtrl}
	}
	r := []rune(name)
	return tea.KeyPressMsg{Code: r[0], Text: name}
}

// keys presses each key, in order; "type:TEXT" types TEXT.
func (h *harness) keys(ks ...string) {
	h.t.Helper()
	for _, k := range ks {
		if text, ok := strings.CutPrefix(k, "type:"); ok {
			for _, r := range text {
				h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			continue
		}
		h.send(keyMsg(k))
	}
}

func (h *harness) screen() string { return h.m.View().Content }

// golden compares the screen with testdata/NAME.golden.
func (h *harness) golden(name string) {
	h.t.Helper()
	got := h.screen()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			h.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		h.t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		h.t.Errorf("screen %s differs from the golden file (-want +got):\n%s\ngot:\n%s", name, diff, got)
	}
}

// wheel is one notch of the mouse wheel over the diff.
func wheel(up bool) tea.MouseWheelMsg {
	b := tea.MouseWheelDown
	if up {
		b = tea.MouseWheelUp
	}
	return tea.MouseWheelMsg{X: 40, Y: 5, Button: b}
}
