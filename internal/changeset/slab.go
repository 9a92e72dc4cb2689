package changeset

// The parser allocates rows, lines and line numbers from chunks shared by
// many hunks instead of one heap object each: a 1M-line patch would
// otherwise be 2M tiny allocations and a garbage collector busy scanning
// them. Each hunk receives a full slice expression (cap == len) of a chunk,
// so an append by a caller reallocates rather than overwriting a neighbour.

// Chunks start small, so a small patch allocates little, and double up to
// their full size.
const (
	firstChunk = 64
	rowChunk   = 8 << 10
	intChunk   = 16 << 10
)

// nextChunk doubles a chunk size from firstChunk up to limit.
func nextChunk(size, limit int) int { return min(max(2*size, firstChunk), limit) }

// bigRun is the expected length from which a hunk gets a buffer of its own
// instead of a place in a shared chunk: a shared chunk's unusable tail is
// then always shorter than this.
const bigRun = rowChunk / 16

// run collects the elements of one hunk at the end of a shared chunk, or in
// a buffer of its own for a big hunk.
type run[T any] struct {
	buf    []T
	start  int
	shared []T // the shared chunk, set aside while buf is a big hunk's own
	own    bool
	chunk  int // size of the last shared chunk
}

// reserve prepares room for a run of about n elements, called before its
// first push. Room is not a promise: push grows the run if n was short.
func (r *run[T]) reserve(n int) {
	if cap(r.buf)-len(r.buf) >= n {
		return
	}
	if n >= bigRun {
		r.shared, r.own = r.buf, true
		r.buf, r.start = make([]T, 0, n), 0
		return
	}
	r.chunk = nextChunk(r.chunk, rowChunk)
	r.buf, r.start = make([]T, 0, max(r.chunk, n)), 0
}

// push appends v to the current run, moving the run to a fresh chunk when
// this one is full. Moving copies only the run, never earlier hunks' data.
func (r *run[T]) push(v T) {
	if len(r.buf) == cap(r.buf) {
		r.grow()
	}
	r.buf = append(r.buf, v)
}

func (r *run[T]) grow() {
	n := len(r.buf) - r.start
	r.chunk = nextChunk(r.chunk, rowChunk)
	nb := make([]T, n, max(r.chunk, 2*n))
	copy(nb, r.buf[r.start:])
	r.buf, r.start = nb, 0
}

// len is the number of elements in the current run.
func (r *run[T]) len() int { return len(r.buf) - r.start }

// at returns the i-th element of the current run.
func (r *run[T]) at(i int) *T { return &r.buf[r.start+i] }

// truncate drops the current run's elements from n on.
func (r *run[T]) truncate(n int) { r.buf = r.buf[:r.start+n] }

// take ends the current run and returns it; nil when it is empty.
func (r *run[T]) take() []T {
	var s []T
	if len(r.buf) > r.start {
		s = r.buf[r.start:len(r.buf):len(r.buf)]
	}
	r.start = len(r.buf)
	if r.own {
		r.buf, r.own = r.shared, false
		r.start, r.shared = len(r.buf), nil
	}
	return s
}

// pool hands out pointers (line numbers, spans) from shared chunks. Pointers
// stay valid for as long as anything refers to them; a full chunk is simply
// left behind.
type pool[T any] struct {
	buf   []T
	chunk int
}

func (s *pool[T]) new(v T) *T {
	if len(s.buf) == cap(s.buf) {
		s.chunk = nextChunk(s.chunk, intChunk)
		s.buf = make([]T, 0, s.chunk)
	}
	s.buf = append(s.buf, v)
	return &s.buf[len(s.buf)-1]
}

// numbers hands out pointers to line numbers from a table where entry k
// holds k, so every row numbered k points at the same int: a 1M-line patch
// then needs a table as long as its longest file rather than two ints per
// row. Outgrowing the table allocates a longer one; pointers into the old
// one stay valid and correct, since its entries never change. Numbers past
// tableLimit (a hostile header can claim any) come from a pool instead, so
// the table never grows with what a header says. Callers must read through
// the pointers and never write through them.
type numbers struct {
	table []int
	large pool[int]
}

// tableLimit bounds the shared table at 8 MiB.
const tableLimit = 1 << 20

func (n *numbers) at(k int) *int {
	if k < 0 || k >= tableLimit {
		return n.large.new(k)
	}
	if k >= len(n.table) {
		t := make([]int, min(max(2*k, 1024), tableLimit))
		for i := range t {
			t[i] = i
		}
		n.table = t
	}
	return &n.table[k]
}
