package tui

import (
	"container/list"
	"path/filepath"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// maxHighlight is the longest line highlighted, in bytes: lexing a
// minified file's one enormous line would stall the screen for no benefit.
const maxHighlight = 2000

// lru is a bounded map from K to V that forgets the least recently used
// entry. Not safe for concurrent use.
type lru[K comparable, V any] struct {
	max   int
	order *list.List // front = most recent; values are *lruEntry
	items map[K]*list.Element
}

type lruEntry[K comparable, V any] struct {
	key K
	val V
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	return &lru[K, V]{max: max, order: list.New(), items: map[K]*list.Element{}}
}

func (c *lru[K, V]) get(k K) (V, bool) {
	if e, ok := c.items[k]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*lruEntry[K, V]).val, true
	}
	var zero V
	return zero, false
}

func (c *lru[K, V]) put(k K, v V) {
	if e, ok := c.items[k]; ok {
		e.Value.(*lruEntry[K, V]).val = v
		c.order.MoveToFront(e)
		return
	}
	c.items[k] = c.order.PushFront(&lruEntry[K, V]{k, v})
	if c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*lruEntry[K, V]).key)
	}
}

// highlighter colours code lazily: a line is lexed the first time it is
// drawn, on its own (so a construct spanning lines may be coloured as if
// it started there), and the result is kept in a bounded cache.
type highlighter struct {
	theme   *theme
	lexers  map[string]chroma.Lexer // by file name
	cache   *lru[rowRef, []span]
	enabled bool
}

func newHighlighter(t *theme) *highlighter {
	return &highlighter{theme: t, lexers: map[string]chroma.Lexer{}, cache: newLRU[rowRef, []span](8192), enabled: t.syntax != nil}
}

// lexer returns the lexer for a file name, or nil for none.
func (h *highlighter) lexer(path string) chroma.Lexer {
	name := filepath.Base(path)
	if l, ok := h.lexers[name]; ok {
		return l
	}
	l := lexers.Match(name)
	h.lexers[name] = l
	return l
}

// spans returns the syntax colours of text, one line of path, as byte
// spans; nil when highlighting is off or the language is unknown.
func (h *highlighter) spans(path string, key rowRef, text string) []span {
	if !h.enabled || len(text) > maxHighlight || text == "" {
		return nil
	}
	if s, ok := h.cache.get(key); ok {
		return s
	}
	var out []span
	if lx := h.lexer(path); lx != nil {
		out = h.lex(lx, text)
	}
	h.cache.put(key, out)
	return out
}

func (h *highlighter) lex(lx chroma.Lexer, text string) []span {
	it, err := lx.Tokenise(nil, text)
	if err != nil {
		return nil
	}
	var out []span
	off := 0
	for tok := it(); tok != chroma.EOF; tok = it() {
		end := min(off+len(tok.Value), len(text))
		if a := h.theme.token(tok.Type); a != (attrs{}) && end > off {
			out = append(out, span{start: off, end: end, a: a})
		}
		off = end
		if off >= len(text) {
			break
		}
	}
	return out
}

// warm compiles the lexers for paths ahead of use, so the first screen of
// a new language does not pay for compiling its rules. It only reads
// package-level lexer definitions, which chroma compiles once under a
// lock, so it may run on another goroutine than the UI.
func warmLexers(paths []string) {
	seen := map[string]bool{}
	for _, p := range paths {
		ext := filepath.Ext(p)
		if seen[ext] {
			continue
		}
		seen[ext] = true
		if l := lexers.Match(filepath.Base(p)); l != nil {
			if it, err := l.Tokenise(nil, "x := 1 // warm\n"); err == nil {
				for tok := it(); tok != chroma.EOF; tok = it() {
				}
			}
		}
	}
}
