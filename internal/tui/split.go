package tui

import "github.com/leanreview/leanreview/internal/changeset"

// pair is one line of the split view: a Row index on the old (left) and
// the new (right) side, -1 where that side is blank. A context row sits on
// both sides.
type pair struct{ l, r int32 }

// pick returns the row of p on side, or the other side's row when that
// side is blank.
func (p pair) pick(side changeset.Side) int {
	if side == changeset.SideOld && p.l >= 0 || p.r < 0 {
		return int(p.l)
	}
	return int(p.r)
}

// pairing is a hunk laid out side by side: its pairs and, for each Row,
// the pair showing it.
type pairing struct {
	pairs   []pair
	rowPair []int32
}

// countPairs is len(pairRows(rows).pairs) without building them.
func countPairs(rows []changeset.Row) int {
	n, dels, adds := 0, 0, 0
	var last changeset.Kind
	for _, r := range rows {
		switch r.Kind {
		case changeset.KindDel:
			if adds > 0 { // a deletion after additions starts a new run
				n += max(dels, adds)
				dels, adds = 0, 0
			}
			dels++
		case changeset.KindAdd:
			adds++
		case changeset.KindMeta:
			switch last {
			case changeset.KindDel:
				if adds == 0 {
					dels++
				} else {
					adds++
				}
			case changeset.KindAdd:
				adds++
			default:
				n++
			}
			continue
		default:
			n += max(dels, adds) + 1
			dels, adds = 0, 0
		}
		last = r.Kind
	}
	return n + max(dels, adds)
}

// pairRows lays rows out side by side: each run of deletions and the
// additions that follow it are paired in order, so a rewritten line sits
// next to its rewrite; a "no newline" marker follows the side of the line
// it belongs to.
func pairRows(rows []changeset.Row) *pairing {
	p := &pairing{rowPair: make([]int32, len(rows))}
	var dels, adds []int32
	flush := func() {
		for i := 0; i < max(len(dels), len(adds)); i++ {
			pr := pair{-1, -1}
			if i < len(dels) {
				pr.l = dels[i]
				p.rowPair[dels[i]] = int32(len(p.pairs))
			}
			if i < len(adds) {
				pr.r = adds[i]
				p.rowPair[adds[i]] = int32(len(p.pairs))
			}
			p.pairs = append(p.pairs, pr)
		}
		dels, adds = dels[:0], adds[:0]
	}
	var last changeset.Kind
	for i, r := range rows {
		idx := int32(i)
		switch r.Kind {
		case changeset.KindDel:
			if len(adds) > 0 {
				flush()
			}
			dels = append(dels, idx)
		case changeset.KindAdd:
			adds = append(adds, idx)
		case changeset.KindMeta:
			switch {
			case last == changeset.KindDel && len(adds) == 0:
				dels = append(dels, idx)
			case last == changeset.KindDel || last == changeset.KindAdd:
				adds = append(adds, idx)
			default:
				p.rowPair[i] = int32(len(p.pairs))
				p.pairs = append(p.pairs, pair{idx, idx})
			}
			continue
		default:
			flush()
			p.rowPair[i] = int32(len(p.pairs))
			p.pairs = append(p.pairs, pair{idx, idx})
		}
		last = r.Kind
	}
	flush()
	return p
}

// pairing returns hunk g's side-by-side layout, building it on first use.
// Only hunks that have been on screen in split view are ever paired.
func (l *layout) pairing(g int) *pairing {
	if p, ok := l.pairings[g]; ok {
		return p
	}
	p := pairRows(l.hunk(g).Rows)
	l.pairings[g] = p
	return p
}
