package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// prompt is a one-line text input (the search prompt, the file picker's
// query). Every key and every pasted character is applied in order.
type prompt struct {
	label string
	text  []rune
}

// promptResult is what a key did to a prompt.
type promptResult uint8

const (
	promptEditing promptResult = iota + 1
	promptSubmit
	promptCancel
)

func (p *prompt) key(k tea.KeyPressMsg) promptResult {
	switch k.String() {
	case "enter":
		return promptSubmit
	case "esc", "ctrl+c", "ctrl+g":
		return promptCancel
	case "backspace", "ctrl+h":
		if len(p.text) == 0 {
			return promptCancel
		}
		p.text = p.text[:len(p.text)-1]
	case "ctrl+u":
		p.text = p.text[:0]
	case "ctrl+w":
		s := strings.TrimRight(string(p.text), " ")
		if i := strings.LastIndex(s, " "); i >= 0 {
			p.text = []rune(s[:i+1])
		} else {
			p.text = p.text[:0]
		}
	default:
		if k.Text != "" && k.Mod&^tea.ModShift == 0 {
			p.insert(k.Text)
		}
	}
	return promptEditing
}

// insert adds typed or pasted text; line breaks become spaces.
func (p *prompt) insert(s string) {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
	for _, r := range s {
		if r >= ' ' && r != 0x7f {
			p.text = append(p.text, r)
		}
	}
}

func (p *prompt) value() string { return string(p.text) }

// view draws the prompt in width cells; the text is sanitized and its
// end kept in view.
func (p *prompt) view(t *theme, a attrs, width int) string {
	return t.fitLeft(p.label+safe(p.value())+"▏", a, width)
}
