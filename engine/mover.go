package engine

import (
	"unsafe"

	"github.com/scatter-dev/scatter/tensor"
)

// The kernels walk indices with type-free code that yields pairs of
// offsets, and hand them in batches to an applier that was typed once per
// call: a mover (reduction none, and every gather) or a reducer. So there
// is no per-element interface call, and the inner loops are typed. Where
// the destinations are scattered over memory this is also the fast way:
// the applier's tight loop keeps many cache misses in flight. Where a
// whole row of indices addresses one row of data, which stays in cache,
// the walk and the typed work share one loop instead (scatterRows,
// gatherRows): methods of the typed movers and reducers a call has
// already picked, so they cost no type switch.

// pair is one block to move or reduce: the block of dst at d with the
// block of src at s. A negative s (a skipped gather index) zeroes the
// destination block.
type pair struct{ d, s int }

// batch is the number of pairs collected before an applier runs them.
const batch = 512

// Moving elements needs only their size: a mover views every fixed-size
// element type as an unsigned word of the same size, and strings as
// strings.
type (
	word8   = uint8
	word16  = uint16
	word32  = uint32
	word64  = uint64
	word128 = [2]uint64
)

// mover moves blocks of src's elements into dst.
type mover interface {
	// move sets each dst block to its src block (zeros when s < 0).
	move(ps []pair)
	// copyRange sets dst[lo:hi] to src[lo:hi].
	copyRange(lo, hi int)
	// clearRange sets dst[lo:hi] to zero values.
	clearRange(lo, hi int)
	// fillRange sets dst[lo:hi] to the fill value (see setFill).
	fillRange(lo, hi int)
	fastScatter
	// gatherRows returns the first rejected index, or -1, and a count
	// that only keeps its cache-warming reads from being optimised away.
	gatherRows(e *elemWalk, w, r0, r1 int, skip bool) (bad, touched int)
	// gatherLine moves one line of the general gather (see lineGather).
	gatherLine(g *lineGather) int
	// setFill makes move fill a block whose s < 0 with the one element
	// of fill, a view of a scalar of dst's type, instead of zeros (no
	// element: zeros).
	setFill(fill view)
}

// movers holds a mover of each element size, for a scratch to hand out
// without allocating.
type movers struct {
	m8   wordMover[word8]
	m16  wordMover[word16]
	m32  wordMover[word32]
	m64  wordMover[word64]
	m128 wordMover[word128]
	ms   wordMover[string]
	// used has a bit for each mover that get returned since forget
	// (usedBit): the ones forget clears.
	used uint8
}

// get returns a mover of blocks of the given size from src to dst, of
// the same element type, whose element slices are viewed as dv and sv. src
// may be the zero Tensor for a mover that only clears. The mover is one of
// ms's, valid until the next get.
func (ms *movers) get(dst, src *tensor.Tensor, dv, sv view, block int) mover {
	if dst.DType() == tensor.String {
		s, _ := src.Data().([]string)
		d, _ := dst.Data().([]string)
		ms.used |= usedString
		ms.ms = wordMover[string]{dst: d, src: s, block: block}
		return &ms.ms
	}
	ms.used |= usedBit(dv.size)
	switch dv.size {
	case 1:
		return ms.m8.set(dv, sv, block)
	case 2:
		return ms.m16.set(dv, sv, block)
	case 4:
		return ms.m32.set(dv, sv, block)
	case 8:
		return ms.m64.set(dv, sv, block)
	}
	return ms.m128.set(dv, sv, block)
}

// usedString is the bit of movers.used of the string mover; usedBit
// gives the others'.
const usedString = 1 << 5

// usedBit returns the bit of movers.used of the mover of elements of
// size bytes: bit 0 for 1 byte to bit 4 for 16.
func usedBit(size uintptr) uint8 { return uint8(size) & 0x1f }

// forget drops the tensors of the movers that get returned: most calls
// get one, and clearing one costs less than clearing all six.
func (ms *movers) forget() {
	u := ms.used
	if u == 0 {
		return
	}
	if u&1 != 0 {
		ms.m8 = wordMover[word8]{}
	}
	if u&2 != 0 {
		ms.m16 = wordMover[word16]{}
	}
	if u&4 != 0 {
		ms.m32 = wordMover[word32]{}
	}
	if u&8 != 0 {
		ms.m64 = wordMover[word64]{}
	}
	if u&16 != 0 {
		ms.m128 = wordMover[word128]{}
	}
	if u&usedString != 0 {
		ms.ms = wordMover[string]{}
	}
	ms.used = 0
}

type wordMover[E comparable] struct {
	dst, src []E
	block    int
	// ahead and stream: see streaming.
	ahead  int
	stream bool
	fill   E // what a block whose s < 0 gets; see setFill
}

// set points m at the elements of dst and src and returns it.
func (m *wordMover[E]) set(dst, src view, block int) *wordMover[E] {
	m.dst, m.src, m.block = words[E](dst), words[E](src), block
	m.ahead, m.stream = streaming[E](dst, src, block)
	var zero E
	m.fill = zero
	return m
}

func (m *wordMover[E]) setFill(fill view) {
	var zero E
	m.fill = zero
	if w := words[E](fill); len(w) > 0 {
		m.fill = w[0]
	}
}

func (m *wordMover[E]) move(ps []pair) {
	var zero E
	if m.fill != zero {
		m.moveFilling(ps)
		return
	}
	if m.ahead > 0 || m.stream {
		m.moveAhead(ps)
		return
	}
	dst, src, b := m.dst, m.src, m.block
	if b == 1 {
		movePairsGo(dst, src, ps)
		return
	}
	if _, str := any(zero).(string); !str && uintptr(b)*unsafe.Sizeof(zero) == 64 {
		move64(dst, src, ps, b)
		return
	}
	for _, p := range ps {
		if p.s < 0 {
			clear(dst[p.d : p.d+b])
		} else {
			copy(dst[p.d:p.d+b], src[p.s:p.s+b])
		}
	}
}

// move64 is move for blocks of b elements that are 64 bytes and hold no
// pointers: a copy of a size the compiler knows is faster than copy of
// a length it does not (docs/measurements.md).
func move64[E any](dst, src []E, ps []pair, b int) {
	for _, p := range ps {
		d := dst[p.d : p.d+b]
		if p.s < 0 {
			clear(d)
			continue
		}
		*(*[64]byte)(unsafe.Pointer(&d[0])) = *(*[64]byte)(unsafe.Pointer(&src[p.s : p.s+b][0]))
	}
}

// moveFilling is move for a mover with a fill value.
func (m *wordMover[E]) moveFilling(ps []pair) {
	dst, src, b, fill := m.dst, m.src, m.block, m.fill
	for _, p := range ps {
		if p.s >= 0 {
			copy(dst[p.d:p.d+b], src[p.s:p.s+b])
			continue
		}
		blk := dst[p.d : p.d+b]
		for i := range blk {
			blk[i] = fill
		}
	}
}

func (m *wordMover[E]) copyRange(lo, hi int) { copy(m.dst[lo:hi], m.src[lo:hi]) }

func (m *wordMover[E]) clearRange(lo, hi int) { clear(m.dst[lo:hi]) }

// fillRange clears a fill of zero bits. It copies any other from the
// part of dst already filled, doubling that part up to fillSpan bytes and
// then copying it again and again, so that what it copies from stays in
// the core's nearest cache: a loop that stored one element at a time took
// three times as long (README's Speed section).
func (m *wordMover[E]) fillRange(lo, hi int) {
	d := m.dst[lo:hi]
	var zero E
	if m.fill == zero || len(d) == 0 {
		clear(d)
		return
	}
	d[0] = m.fill
	span := max(fillSpan/int(unsafe.Sizeof(zero)), 1)
	n := 1
	for ; n < len(d) && n < span; n *= 2 {
		copy(d[n:], d[:n])
	}
	for ; n < len(d); n += span {
		copy(d[n:], d[:span])
	}
}

// fillSpan is the bytes fillRange copies at a time once it has filled
// them.
const fillSpan = 4096

// moveAhead is move for a mover that prefetches, streams, or both: single
// elements by movePairs4or8, which asks for them ahead (see streaming).
func (m *wordMover[E]) moveAhead(ps []pair) {
	dst, src, b := m.dst, m.src, m.block
	if b == 1 {
		if !movePairs4or8(dst, src, ps, m.ahead) {
			movePairsGo(dst, src, ps)
		}
		return
	}
	var zero E
	bytes := uintptr(b) * unsafe.Sizeof(zero)
	ask := func(p pair) {
		if p.s >= 0 {
			prefetchL2(unsafe.Pointer(&src[p.s:][:b][0]), bytes)
		}
	}
	ahead := m.ahead
	for _, p := range ps[:min(ahead, len(ps))] {
		ask(p)
	}
	for i, p := range ps {
		if j := i + ahead; ahead > 0 && j < len(ps) {
			ask(ps[j])
		}
		switch d := dst[p.d : p.d+b]; {
		case p.s < 0:
			clear(d)
		case m.stream && uintptr(unsafe.Pointer(&d[0]))%16 == 0: // MOVNTDQ's alignment
			copyStreaming(unsafe.Pointer(&d[0]), unsafe.Pointer(&src[p.s:][:b][0]), bytes)
		default:
			copy(d, src[p.s:p.s+b])
		}
	}
	if m.stream {
		storeFence()
	}
}

// The fastScatter methods: each hands m's slices to its operation's
// loops (scatter_nd.go, scatter_elements.go, scatter_columns.go,
// general_scatter.go), as do the gathers' (gather_elements.go,
// general_gather.go).

func (m *wordMover[E]) scatterOffsets(offs []int32, s0, block int) {
	if block == 1 {
		setOffsets(m.dst, offs, m.src[s0:])
		return
	}
	var zero E
	if _, str := any(zero).(string); !str && len(offs) > 0 && uintptr(block)*unsafe.Sizeof(zero)%16 == 0 {
		// Rows of whole 16-byte words (S2's 128 bytes): placed by the
		// assembly, without a call of copy per row. The offsets are
		// tupleOffsets', each a row within dst; slicing src panics, as
		// Go's indexing would, before the assembly could overrun it.
		src := m.src[s0*block:][:len(offs)*block]
		placeRows(unsafe.Pointer(unsafe.SliceData(m.dst)), unsafe.Sizeof(zero), &offs[0], len(offs),
			unsafe.Pointer(&src[0]), uintptr(block)*unsafe.Sizeof(zero), placeAVX)
		return
	}
	for t, o := range offs {
		if o >= 0 {
			u := (s0 + t) * block
			copy(m.dst[o:int(o)+block], m.src[u:u+block])
		}
	}
}

func (m *wordMover[E]) scatterIndex(ind []int64, lim limit, block int) {
	if block == 1 {
		setIndex(m.dst, ind, m.src, lim.size, lim.fromEnd)
		return
	}
	for t, v := range ind {
		if p, ok := lim.pos(v); ok {
			copy(m.dst[p*block:(p+1)*block], m.src[t*block:(t+1)*block])
		}
	}
}

func (m *wordMover[E]) scatterStarts(starts []int, s0 int) { setOffsets(m.dst, starts, m.src[s0:]) }

func (m *wordMover[E]) scatterLine(to view, base int, ind []int64, s0 int, lim limit, skip bool) int {
	return setRow(words[E](to)[base:][:lim.size], ind, m.src[s0:], lim.fromEnd, skip)
}

func (m *wordMover[E]) scatterRows(e *elemWalk, w, r0, r1 int, skip bool) int {
	return setElementRows(m.dst, m.src, e, w, r0, r1, skip)
}

func (m *wordMover[E]) scatterColumns(data view, ind []int64, lim limit, rows, inner, width, c0, c1 int) {
	setColumnBlocks(m.dst, m.src, data, ind, lim, rows, inner, width, c0, c1)
}

func (m *wordMover[E]) gatherRows(e *elemWalk, w, r0, r1 int, skip bool) (bad, touched int) {
	return gatherElementRows(m.dst, m.src, e, w, r0, r1, skip)
}

func (m *wordMover[E]) gatherLine(g *lineGather) int { return gatherLineElems(m.dst, m.src, m.fill, g) }
