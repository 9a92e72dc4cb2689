package config

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// FileError is a problem with the config file: a syntax error, an unknown
// key, a value of the wrong type or an invalid value. Line and Column are
// 1-based, or 0 when the position is not known.
type FileError struct {
	Path   string
	Line   int
	Column int
	Key    string // dotted key path, e.g. "hosts.git.example.com.kind"; "" for a syntax error
	Msg    string
}

func (e *FileError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "config %s", e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	if e.Key != "" {
		fmt.Fprintf(&b, ": %s", e.Key)
	}
	fmt.Fprintf(&b, ": %s", e.Msg)
	return b.String()
}

// fileConfig mirrors config.toml. Pointers tell "absent" from a zero
// value. Every value decodes into a plain Go type so that go-toml reports
// type errors with their position; applyFile validates the values after.
type fileConfig struct {
	Editor   *string             `toml:"editor"`
	Theme    *string             `toml:"theme"`
	Colors   map[string]string   `toml:"colors"`
	TabWidth *int                `toml:"tab_width"`
	Wrap     *bool               `toml:"wrap"`
	View     *string             `toml:"view"`
	Keys     map[string][]string `toml:"keys"`
	Hosts    map[string]fileHost `toml:"hosts"`
}

type fileHost struct {
	Kind *string `toml:"kind"`
	API  *string `toml:"api"`
}

// applyFile decodes data and lays it over c. actions, when not nil, lists
// the action names [keys] may use.
func applyFile(c *Config, data []byte, actions []string) error {
	var f fileConfig
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return decodeError(c.File, err)
	}
	v := validator{path: c.File, data: data}

	if f.Editor != nil {
		if strings.TrimSpace(*f.Editor) == "" {
			return v.fail([]string{"editor"}, "empty command; remove the key to use the default chain")
		}
		c.Editor = *f.Editor
	}
	var err error
	if f.Theme != nil {
		if c.Theme, err = ParseTheme(*f.Theme); err != nil {
			return v.fail([]string{"theme"}, "%v", err)
		}
	}
	if f.View != nil {
		if c.View, err = ParseView(*f.View); err != nil {
			return v.fail([]string{"view"}, "%v", err)
		}
	}
	if f.Wrap != nil {
		c.Wrap = *f.Wrap
	}
	if f.TabWidth != nil {
		if *f.TabWidth < 1 || *f.TabWidth > 16 {
			return v.fail([]string{"tab_width"}, "%d is out of range (want 1 to 16)", *f.TabWidth)
		}
		c.TabWidth = *f.TabWidth
	}
	if err := v.colors(c, f.Colors); err != nil {
		return err
	}
	if err := v.keys(c, f.Keys, actions); err != nil {
		return err
	}
	return v.hosts(c, f.Hosts)
}

// validator checks decoded values and reports a problem at the position of
// its key in the file.
type validator struct {
	path string
	data []byte
}

func (v validator) fail(key []string, format string, args ...any) *FileError {
	line, col := locate(v.data, key)
	return &FileError{Path: v.path, Line: line, Column: col, Key: strings.Join(key, "."), Msg: fmt.Sprintf(format, args...)}
}

func (v validator) colors(c *Config, colors map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(colors)) {
		key := []string{"colors", name}
		slot, err := ParseColorSlot(name)
		if err != nil {
			return v.fail(key, "%v", err)
		}
		col, err := ParseColor(colors[name])
		if err != nil {
			return v.fail(key, "%v", err)
		}
		if c.Colors == nil {
			c.Colors = make(map[ColorSlot]Color)
		}
		c.Colors[slot] = col
	}
	return nil
}

func (v validator) keys(c *Config, keys map[string][]string, actions []string) error {
	owner := make(map[string]string) // key -> action, to find a key bound twice
	for _, action := range slices.Sorted(maps.Keys(keys)) {
		key := []string{"keys", action}
		if actions != nil && !slices.Contains(actions, action) {
			return v.fail(key, "unknown action (known: %s)", strings.Join(actions, ", "))
		}
		for _, k := range keys[action] {
			if strings.TrimSpace(k) == "" {
				return v.fail(key, "empty key name")
			}
			if prev, ok := owner[k]; ok && prev != action {
				return v.fail(key, "key %q is also bound to %s", k, prev)
			}
			owner[k] = action
		}
		if c.Keys == nil {
			c.Keys = make(map[string][]string)
		}
		c.Keys[action] = slices.Clone(keys[action])
	}
	return nil
}

// hostPattern accepts a host name with an optional port, no scheme or path.
var hostPattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?$`)

func (v validator) hosts(c *Config, hosts map[string]fileHost) error {
	for _, name := range slices.Sorted(maps.Keys(hosts)) {
		h := hosts[name]
		key := []string{"hosts", name}
		host := strings.ToLower(name)
		if !hostPattern.MatchString(host) {
			return v.fail(key, "want a bare host name such as \"git.example.com\" (no scheme or path)")
		}
		if h.Kind == nil {
			return v.fail(append(key, "kind"), "missing (want github or gitlab)")
		}
		kind, err := ParseForgeKind(*h.Kind)
		if err != nil {
			return v.fail(append(key, "kind"), "%v", err)
		}
		api := defaultAPI(host, kind)
		if h.API != nil {
			if api, err = parseAPI(*h.API); err != nil {
				return v.fail(append(key, "api"), "%v", err)
			}
		}
		c.Hosts[host] = Host{Kind: kind, API: api}
	}
	return nil
}

// locate returns the line and column of the key (a key-value or a table
// header) in data that names key or the longest prefix of it, or 0, 0 when
// none does. It walks go-toml's unstable AST, which the pinned version of
// the library provides.
func locate(data []byte, key []string) (line, col int) {
	var p unstable.Parser
	p.Reset(data)
	var table []string
	best := 0
	for p.NextExpression() {
		e := p.Expression()
		var path []string
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyParts(e.Key())
			path = table
		case unstable.KeyValue:
			path = append(slices.Clone(table), keyParts(e.Key())...)
		default:
			continue
		}
		if len(path) > best && len(path) <= len(key) && slices.Equal(path, key[:len(path)]) {
			it := e.Key()
			it.Next()
			pos := p.Shape(it.Node().Raw).Start
			best, line, col = len(path), pos.Line, pos.Column
		}
	}
	return line, col
}

func keyParts(it unstable.Iterator) []string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

// mismatch matches go-toml's type error text, to restate it without the Go
// type names: "cannot decode TOML string into struct field config.x of type int".
var mismatch = regexp.MustCompile(`^cannot decode TOML (\w+) into .*?(\S+)$`)

// decodeError turns a go-toml error into a *FileError with its position.
func decodeError(path string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		e := strict.Errors[0]
		line, col := e.Position()
		return &FileError{Path: path, Line: line, Column: col, Key: strings.Join(e.Key(), "."), Msg: "unknown key"}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if m := mismatch.FindStringSubmatch(msg); m != nil {
			msg = fmt.Sprintf("wrong type: got a TOML %s, want %s", m[1], goTypeWord(m[2]))
		}
		return &FileError{Path: path, Line: line, Column: col, Key: strings.Join(de.Key(), "."), Msg: msg}
	}
	return &FileError{Path: path, Msg: err.Error()}
}

// goTypeWord names a Go destination type the way a config file's reader
// thinks of it.
func goTypeWord(t string) string {
	t = strings.TrimPrefix(t, "*")
	switch {
	case strings.HasPrefix(t, "[]"):
		return "an array of " + strings.TrimPrefix(goTypeWord(t[2:]), "a ") + "s"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "an integer"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "map"), strings.HasPrefix(t, "config."):
		return "a table"
	}
	return "a string"
}
