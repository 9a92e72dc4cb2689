package changeset

import (
	"crypto/sha256"
	"hash"
	"runtime"
	"sync"
	"sync/atomic"
)

// finish computes what each hunk derives from its parsed body (Digest,
// Display, Row.Emph). With parallel set it uses up to GOMAXPROCS goroutines,
// workers taking batches of files, which are independent.
func (p *parser) finish(parallel bool) {
	workers := runtime.GOMAXPROCS(0)
	if !parallel || workers < 2 || len(p.files) < 2 {
		f := finisher{p: p, h: sha256.New()}
		f.files(0, len(p.files))
		return
	}
	const batch = 4
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := finisher{p: p, h: sha256.New()}
			for {
				i := int(next.Add(batch)) - batch
				if i >= len(p.files) {
					return
				}
				f.files(i, min(i+batch, len(p.files)))
			}
		}()
	}
	wg.Wait()
}

// finisher is one worker's state: its hasher and its own span pool, so
// workers share nothing mutable.
type finisher struct {
	p     *parser
	h     hash.Hash
	spans pool[Span]
}

func (w *finisher) files(from, to int) {
	for i := from; i < to; i++ {
		f := &w.p.files[i]
		bodies := w.p.bodies[i]
		for k := range f.Hunks {
			h := &f.Hunks[k]
			if b := bodies[k]; b.synthetic {
				h.Digest = HunkDigest(f.Path, h.Lines)
				h.Display = displayLines(h.Lines)
			} else {
				raw := w.p.s[b.start:b.end]
				h.Digest = hunkDigestRaw(w.h, f.Path, raw)
				if !plainBlock(raw) {
					h.Display = displayLines(h.Lines)
				}
			}
			emphasizeHunk(h, &w.spans)
		}
	}
}
