package tui

import (
	"fmt"
	"slices"
	"strings"
)

// Action is one thing the reviewer can ask for with a key. The zero Action
// is invalid. Its Name is what the config file's [keys] table uses.
type Action uint8

const (
	ActDown Action = iota + 1
	ActUp
	ActNextChange
	ActPrevChange
	ActNextHunk
	ActPrevHunk
	ActNextFile
	ActPrevFile
	ActTop
	ActBottom
	ActPageDown
	ActPageUp
	ActHalfDown
	ActHalfUp
	ActSideOld
	ActSideNew
	ActSearch
	ActSearchNext
	ActSearchPrev
	ActPickFile
	ActToggleSidebar
	ActToggleView
	ActFoldHunk
	ActToggleWrap
	ActComment
	ActSelect
	ActCancel
	ActEdit
	ActDelete
	ActUndo
	ActTogglePreviews
	ActDrafts
	ActExportDrafts
	ActMarkViewed
	ActReply
	ActSubmit
	ActAcceptSuggestion
	ActDeclineSuggestion
	ActSuggestions
	ActHelp
	ActQuit
	actCount
)

// Binding is one row of the keymap table: an action, the keys that trigger
// it and the line the help screen shows for it.
type Binding struct {
	Action Action
	Name   string // the config file's name for Action
	Group  string // the help screen's section
	Help   string
	// Keys are key sequences: each a space-separated list of key names as
	// Bubble Tea spells them ("j", "ctrl+d", "pgdown", "g g", "] c").
	Keys []string
}

// defaultBindings is the one keymap table: key handling and the help
// screen are both generated from it (after the config file's remapping).
var defaultBindings = [...]Binding{
	{ActDown, "down", "Move", "next line", []string{"j", "down"}},
	{ActUp, "up", "Move", "previous line", []string{"k", "up"}},
	{ActNextChange, "next_change", "Move", "next change", []string{"J"}},
	{ActPrevChange, "prev_change", "Move", "previous change", []string{"K"}},
	{ActNextHunk, "next_hunk", "Move", "next hunk", []string{"] c"}},
	{ActPrevHunk, "prev_hunk", "Move", "previous hunk", []string{"[ c"}},
	{ActNextFile, "next_file", "Move", "next file", []string{"] f"}},
	{ActPrevFile, "prev_file", "Move", "previous file", []string{"[ f"}},
	{ActTop, "top", "Move", "first line", []string{"g g", "home"}},
	{ActBottom, "bottom", "Move", "last line", []string{"G", "end"}},
	{ActPageDown, "page_down", "Move", "page down", []string{"pgdown", "space", "ctrl+f"}},
	{ActPageUp, "page_up", "Move", "page up", []string{"pgup", "ctrl+b"}},
	{ActHalfDown, "half_page_down", "Move", "half a page down", []string{"ctrl+d"}},
	{ActHalfUp, "half_page_up", "Move", "half a page up", []string{"ctrl+u"}},
	{ActSideOld, "side_old", "Move", "split view: old (left) side", []string{"h", "left"}},
	{ActSideNew, "side_new", "Move", "split view: new (right) side", []string{"l", "right"}},
	{ActSearch, "search", "Find", "search all files (regular expression)", []string{"/"}},
	{ActSearchNext, "search_next", "Find", "next match", []string{"n"}},
	{ActSearchPrev, "search_prev", "Find", "previous match", []string{"N"}},
	{ActPickFile, "pick_file", "Find", "jump to a file (fuzzy)", []string{"f", "ctrl+p"}},
	{ActToggleSidebar, "toggle_sidebar", "View", "show or hide the file list", []string{"\\"}},
	{ActToggleView, "toggle_view", "View", "unified or split view", []string{"t"}},
	{ActFoldHunk, "fold_hunk", "View", "fold or unfold the hunk", []string{"z a"}},
	{ActToggleWrap, "toggle_wrap", "View", "wrap long lines or cut them", []string{"w"}},
	{ActTogglePreviews, "toggle_previews", "View", "show or hide comment previews", []string{"i"}},
	{ActComment, "comment", "Comment", "comment on the line (or the selection)", []string{"c"}},
	{ActSelect, "select", "Comment", "start or end a line selection", []string{"V"}},
	{ActCancel, "cancel", "Comment", "cancel the selection or pending keys", []string{"esc"}},
	{ActEdit, "edit", "Comment", "edit the draft on the line", []string{"e"}},
	{ActDelete, "delete", "Comment", "delete the draft on the line", []string{"d d"}},
	{ActUndo, "undo", "Comment", "undo the last delete", []string{"u"}},
	{ActDrafts, "drafts", "Comment", "list all drafts and review threads (Enter jumps, m moves an orphan here)", []string{"C"}},
	{ActExportDrafts, "export_drafts", "Comment", "write every draft to a Markdown file (the way out when they cannot be saved)", []string{"E"}},
	{ActMarkViewed, "mark_viewed", "Review", "mark the hunk viewed (again: unmark)", []string{"v"}},
	{ActReply, "reply", "Review", "reply to the review thread under the line (sent when you submit)", []string{"r"}},
	{ActSubmit, "submit", "Review", "submit the drafts to the pull or merge request (asks first)", []string{"S"}},
	{ActAcceptSuggestion, "accept_suggestion", "Agent", "accept the agent's suggestion: go where it points", []string{"a"}},
	{ActDeclineSuggestion, "decline_suggestion", "Agent", "decline the agent's suggestion (the agent is told)", []string{"X"}},
	{ActSuggestions, "suggestions", "Agent", "list the agent's suggestions (Enter accepts, X declines)", []string{"A"}},
	{ActHelp, "help", "Other", "this help", []string{"?"}},
	{ActQuit, "quit", "Other", "quit (drafts are saved as you go)", []string{"q", "ctrl+c"}},
}

// Actions returns the action names the config file's [keys] table may
// remap, for config.Sources.Actions.
func Actions() []string {
	out := make([]string, 0, len(defaultBindings))
	for _, b := range defaultBindings {
		out = append(out, b.Name)
	}
	return out
}

// Keymap is the keymap table after remapping, and the matcher that turns
// key presses, including multi-key sequences, into actions.
type Keymap struct {
	Bindings []Binding
	seqs     map[string]Action // "g g" -> ActTop
	prefixes map[string]bool   // "g" is the start of a longer sequence
}

// NewKeymap applies remap (action name -> keys, as config.Config.Keys
// holds it) to the default table. An action remap names replaces all its
// keys; an empty list unbinds it. A key sequence bound to two actions, or
// that is also the prefix of another, is an error naming both.
func NewKeymap(remap map[string][]string) (*Keymap, error) {
	km := &Keymap{Bindings: slices.Clone(defaultBindings[:]), seqs: map[string]Action{}, prefixes: map[string]bool{}}
	for i := range km.Bindings {
		b := &km.Bindings[i]
		if keys, ok := remap[b.Name]; ok {
			b.Keys = make([]string, 0, len(keys))
			for _, k := range keys {
				b.Keys = append(b.Keys, normalizeSeq(k))
			}
		}
	}
	for name := range remap {
		if !slices.Contains(Actions(), name) {
			return nil, fmt.Errorf("keymap: unknown action %q", name)
		}
	}
	for _, b := range km.Bindings {
		for _, k := range b.Keys {
			if prev, ok := km.seqs[k]; ok && prev != b.Action {
				return nil, fmt.Errorf("keymap: %q is bound to both %s and %s", k, km.name(prev), b.Name)
			}
			km.seqs[k] = b.Action
			parts := strings.Split(k, " ")
			for i := 1; i < len(parts); i++ {
				km.prefixes[strings.Join(parts[:i], " ")] = true
			}
		}
	}
	for k, a := range km.seqs {
		if km.prefixes[k] {
			return nil, fmt.Errorf("keymap: %q (%s) is also the start of a longer key sequence", k, km.name(a))
		}
	}
	return km, nil
}

// normalizeSeq accepts "gg", "]c" and "za" as the config file may write
// them (two printable characters with no separator) as well as "g g".
func normalizeSeq(k string) string {
	k = strings.Join(strings.Fields(k), " ")
	if !strings.Contains(k, " ") && len(k) == 2 && k[0] > ' ' && k[0] < 0x7f && k[1] > ' ' && k[1] < 0x7f && !isKeyName(k) {
		return k[:1] + " " + k[1:]
	}
	return k
}

func (km *Keymap) name(a Action) string {
	for _, b := range km.Bindings {
		if b.Action == a {
			return b.Name
		}
	}
	return fmt.Sprintf("Action(%d)", uint8(a))
}

// Keys returns the keys bound to a, for messages ("press ? for help").
func (km *Keymap) Keys(a Action) []string {
	for _, b := range km.Bindings {
		if b.Action == a {
			return b.Keys
		}
	}
	return nil
}

// Match extends the pending sequence with key and reports the action it
// completes (0 for none) and the new pending sequence. A key that neither
// completes nor extends a sequence drops the pending keys and is tried on
// its own, so a stray prefix never swallows the next command.
func (km *Keymap) Match(pending, key string) (Action, string) {
	seq := key
	if pending != "" {
		seq = pending + " " + key
	}
	if a, ok := km.seqs[seq]; ok {
		return a, ""
	}
	if km.prefixes[seq] {
		return 0, seq
	}
	if pending == "" {
		return 0, ""
	}
	return km.Match("", key)
}

// isKeyName reports whether a two-character k is a key's own name.
func isKeyName(k string) bool {
	return k == "up" || (k[0] == 'f' && k[1] >= '1' && k[1] <= '9')
}
