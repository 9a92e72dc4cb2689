package changeset

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// A large patch is parsed in chunks on several goroutines, each chunk
// starting at a "diff --git " line. That is exact, not a heuristic: such a
// line is never part of a hunk body (which starts with " ", "+", "-" or
// "\"), a git header or a base85 block (skipBinary stops at it), and every
// construct that looks ahead treats it as it treats the end of input. A
// chunk parser sees the patch only up to its chunk's end and numbers lines
// from its chunk's start (only errors carry line numbers, and shiftLines
// makes theirs absolute); offsets stay those of the whole patch.

// chunksPerWorker splits the work finer than one chunk per core, so a slow
// chunk does not leave the other cores idle.
const chunksPerWorker = 4

func parseString(s string) (*Changeset, error) { return parse(s, parallelMin) }

// parse parses s, on several goroutines when s is at least minParallel
// bytes long; the result does not depend on minParallel.
func parse(s string, minParallel int) (*Changeset, error) {
	var digest string
	var wg sync.WaitGroup
	if len(s) >= minParallel {
		wg.Add(1)
		go func() { defer wg.Done(); digest = PatchDigest(s) }()
	} else {
		digest = PatchDigest(s)
	}
	parsers, err := parseChunks(s, len(s) >= minParallel)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	var other *DialectError
	n, noops := 0, 0
	for _, p := range parsers {
		n += len(p.files)
		noops += p.noops
		if other == nil {
			other = p.other
		}
	}
	if err := verdict(s, n, other, noops); err != nil {
		return nil, err
	}
	files := parsers[0].files
	if len(parsers) > 1 {
		files = make([]File, 0, n)
		for _, p := range parsers {
			files = append(files, p.files...)
		}
	}
	if files == nil {
		files = []File{}
	}
	return &Changeset{Digest: digest, Files: files}, nil
}

// parseChunks runs the parsers of s's chunks, then their finish step, and
// returns them in patch order, or the error of the first chunk that failed.
// Without parallel it runs one parser over the whole of s.
func parseChunks(s string, parallel bool) ([]*parser, error) {
	workers := runtime.GOMAXPROCS(0)
	var bounds []int
	if parallel && workers > 1 {
		bounds = chunkBounds(s, workers*chunksPerWorker)
	}
	if len(bounds) < 3 {
		p := &parser{s: s, line: 1}
		if err := p.run(); err != nil {
			return nil, err
		}
		p.finish(parallel)
		return []*parser{p}, nil
	}
	parsers := make([]*parser, len(bounds)-1)
	errs := make([]error, len(parsers))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(parsers)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(parsers) {
					return
				}
				// Lines are numbered from the chunk's start; only errors carry
				// line numbers, and shiftLines fixes those up.
				p := &parser{s: s[:bounds[i+1]], pos: bounds[i], line: 1}
				if errs[i] = p.run(); errs[i] == nil {
					p.finish(false)
				}
				parsers[i] = p
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, shiftLines(err, strings.Count(s[:bounds[i]], "\n"))
		}
	}
	for i, p := range parsers {
		if p.other != nil && i > 0 {
			p.other = shiftLines(p.other, strings.Count(s[:bounds[i]], "\n")).(*DialectError)
		}
	}
	return parsers, nil
}

// shiftLines adds n to the line number of a chunk parser's error.
func shiftLines(err error, n int) error {
	switch e := err.(type) {
	case *ParseError:
		if e.Line > 0 {
			c := *e
			c.Line += n
			return &c
		}
	case *DialectError:
		c := *e
		c.Line += n
		return &c
	}
	return err
}

// chunkBounds returns the offsets splitting s into up to n chunks of similar
// size, each after the first starting at a "diff --git " line: 0, the
// splits, len(s).
func chunkBounds(s string, n int) []int {
	bounds := []int{0}
	for i := 1; i < n; i++ {
		from := max(len(s)*i/n, bounds[len(bounds)-1]+1)
		if from >= len(s) {
			break
		}
		j := strings.Index(s[from:], "\ndiff --git ")
		if j < 0 {
			break
		}
		if at := from + j + 1; at > bounds[len(bounds)-1] {
			bounds = append(bounds, at)
		}
	}
	return append(bounds, len(s))
}
