package engine

import (
	"slices"

	"github.com/scatter-dev/scatter/tensor"
)

// The general gather and scatter walk three spaces: the batch space (the
// positions of indices but along the index vector dimension; each names
// one start index, one slice of the operand), the window (the slice's
// dimensions that remain, walked outer dimensions first) and the run (the
// slice's innermost dimensions that are contiguous both in the operand
// and in the tensor on the other side, moved as one block). A layout
// holds the strides of each space in each tensor, so that the walk is
// additions only.

// layout is the walk of one general gather or scatter call. "other" is
// the result of a gather, the updates of a scatter. It lives in a scratch
// and keeps its buffers from call to call.
type layout struct {
	// The batch space, one entry per dimension of indices but the index
	// vector's, outer first.
	bSize  []int
	bInd   []int // stride in indices
	bOther []int // stride in the other tensor
	bOp    []int // stride in the operand (batching dimensions), else 0
	// The start index: the operand dimension each component addresses,
	// the limit of its start values and the stride between components in
	// indices.
	comp      []int
	compLim   []limit
	compWin   []int // the window's size along comp[c], for errors
	vecStride int
	vecDim    int
	// The window's outer dimensions (those not in the run), outer first:
	// their sizes and strides in the operand and in the other tensor.
	wSize  []int
	wOp    []int
	wOther []int
	// run is the number of elements moved as one block, unit the size of
	// the blocks of the operand that the runs lie within (see unit).
	run, unit int
	// opStrides and indStrides are the operand's and the indices'
	// strides.
	opStrides, indStrides []int
	// batches and windows count the positions of the batch space and of
	// the window's outer dimensions.
	batches, windows int
	// otherStep, when the other tensor's offset of a batch position b is
	// b*otherStep with a window of one run (the tensors' batch dimensions
	// lead, in order), is that step; 0 otherwise.
	otherStep int
	// gathers is set for a gather, for which a start index that no
	// clamping can fit is an error; a scatter skips it.
	gathers bool
	// slabs is set when the outermost batch dimension pairs with the
	// operand's dimension 0 as batching dimensions: the windows of a batch
	// position then lie in the slab of the operand at its coordinate.
	slabs bool
	rules IndexRules
	// coords holds each worker's coordinates: nb in the batch space, then
	// nw in the window.
	coords []int
}

// layoutDims are the dimensions a layout is built from.
type layoutDims struct {
	operand, indices, other tensor.Shape
	vecDim                  int
	otherWin                []int // the other tensor's window dimensions, in order
	winOp, winSize          []int // the operand's window dimensions and the window's size in each
	comp                    []int // the operand dimension of each start index component
	opBatch, indBatch       []int // the batching pairs
	runs                    bool  // false makes every run one element
}

// set builds the layout of a gather or scatter.
func (l *layout) set(ld *layoutDims, rules IndexRules) {
	operand, indices, other := ld.operand, ld.indices, ld.other
	l.rules = rules
	l.opStrides = stridesInto(l.opStrides, operand)
	l.indStrides = stridesInto(l.indStrides, indices)
	is := l.indStrides
	l.vecStride, l.vecDim = 0, ld.vecDim
	if ld.vecDim < len(indices) {
		l.vecStride = is[ld.vecDim]
	}
	// The batch space: indices' dimensions but vecDim, which pair in
	// order with other's dimensions outside the window.
	nb := len(indices) - boolInt(ld.vecDim < len(indices))
	l.bSize, l.bInd = resize(l.bSize, nb), resize(l.bInd, nb)
	l.bOther, l.bOp = resize(l.bOther, nb), resize(l.bOp, nb)
	l.batches, l.slabs = 1, false
	o, b := 0, 0
	for d := range indices {
		if d == ld.vecDim {
			continue
		}
		for slices.Contains(ld.otherWin, o) {
			o++
		}
		op := 0
		for i, x := range ld.indBatch {
			if x == d {
				op = l.opStrides[ld.opBatch[i]]
				l.slabs = l.slabs || b == 0 && ld.opBatch[i] == 0
			}
		}
		l.bSize[b], l.bInd[b], l.bOp[b] = indices[d], is[d], op
		l.bOther[b] = stride(other, o)
		l.batches *= indices[d]
		o, b = o+1, b+1
	}
	l.comp = append(l.comp[:0], ld.comp...) // a copy: the scratch outlives the call
	l.compLim, l.compWin = resize(l.compLim, len(ld.comp)), resize(l.compWin, len(ld.comp))
	for c, m := range ld.comp {
		l.compWin[c] = componentWindow(m, ld.winOp, ld.winSize)
		l.compLim[c] = rules.windowLimit(operand[m], l.compWin[c])
	}
	// The run: the innermost window dimensions that are the innermost
	// dimensions of both tensors, all but the outermost of them whole in
	// the operand (other's window dimensions are the window's size).
	w := len(ld.winOp)
	t := 0
	for ld.runs && t < w && ld.winOp[w-1-t] == len(operand)-1-t && ld.otherWin[w-1-t] == len(other)-1-t &&
		(t == 0 || ld.winSize[w-t] == operand[len(operand)-t]) {
		t++
	}
	l.run, l.unit = 1, 1
	for i := w - t; i < w; i++ {
		l.run *= ld.winSize[i]
	}
	for d := len(operand) - t; d < len(operand); d++ {
		l.unit *= operand[d]
	}
	l.wSize, l.wOp, l.wOther = resize(l.wSize, w-t), resize(l.wOp, w-t), resize(l.wOther, w-t)
	l.windows = 1
	for i := 0; i < w-t; i++ {
		l.wSize[i], l.wOp[i], l.wOther[i] = ld.winSize[i], l.opStrides[ld.winOp[i]], stride(other, ld.otherWin[i])
		l.windows *= ld.winSize[i]
	}
	if l.run == 0 {
		l.windows = 0
	}
	// A linear map from batch positions to the other tensor.
	l.otherStep = 0
	if l.windows == 1 {
		step := l.run
		linear := true
		for d := nb - 1; d >= 0 && linear; d-- {
			linear = l.bOther[d] == step || l.bSize[d] == 1
			step *= l.bSize[d]
		}
		if linear {
			l.otherStep = l.run
		}
	}
}

// workers sizes the coordinates of p workers.
func (l *layout) workers(p int) {
	l.coords = resize(l.coords, p*(len(l.bSize)+len(l.wSize)))
}

// coordsOf returns worker w's batch and window coordinates.
func (l *layout) coordsOf(w int) (batch, window []int) {
	nb, nw := len(l.bSize), len(l.wSize)
	c := l.coords[w*(nb+nw) : (w+1)*(nb+nw)]
	return c[:nb], c[nb:]
}

// stridesInto returns the row-major strides of s, in buf's memory when it
// has room.
func stridesInto(buf []int, s tensor.Shape) []int {
	buf = resize(buf, len(s))
	acc := 1
	for d := len(s) - 1; d >= 0; d-- {
		buf[d] = acc
		acc *= s[d]
	}
	return buf
}

// stride returns the stride of dimension d of shape s.
func stride(s tensor.Shape, d int) int {
	st := 1
	for i := d + 1; i < len(s); i++ {
		st *= s[i]
	}
	return st
}

// componentWindow returns the window size along operand dimension m: its
// size in winSize where m is a window dimension, 1 otherwise (a collapsed
// or inserted dimension, whose slice takes one element).
func componentWindow(m int, winOp, winSize []int) int {
	for i, d := range winOp {
		if d == m {
			return winSize[i]
		}
	}
	return 1
}

// start returns the operand offset of the start index of the batch
// position whose first component is at ind[at] (batching offsets not
// included), or -1 when the rules skip it; bad is the component that the
// rules refuse, else -1.
func (l *layout) start(ind []int64, at int) (off, bad int) {
	for c, m := range l.comp {
		lim := l.compLim[c]
		p := wrap(ind[at+c*l.vecStride], lim.fromEnd)
		if uint64(p) >= uint64(lim.size) {
			switch l.rules.OutOfRange {
			case OutOfRangeClamp, OutOfRangeWrap:
				if lim.size == 0 {
					// No start fits: a gather has nothing to read, a
					// scatter nowhere to write; wrapping, both refuse.
					if l.gathers || l.rules.OutOfRange == OutOfRangeWrap {
						return -1, c
					}
					return -1, -1
				}
				p = l.rules.moved(p, lim.size)
			case OutOfRangeError:
				return -1, c
			default:
				return -1, -1
			}
		}
		off += int(p) * l.opStrides[m]
	}
	return off, -1
}

// batchAt sets coord to the coordinates of batch position b and returns
// its offsets in indices, other and the operand.
func (l *layout) batchAt(b int, coord []int) (ind, other, op int) {
	for d := len(l.bSize) - 1; d >= 0; d-- {
		c := 0
		if n := l.bSize[d]; n > 0 {
			c, b = b%n, b/n
		}
		coord[d] = c
		ind += c * l.bInd[d]
		other += c * l.bOther[d]
		op += c * l.bOp[d]
	}
	return ind, other, op
}

// nextBatch advances coord to the next batch position and returns what
// the offsets in indices, other and the operand add.
func (l *layout) nextBatch(coord []int) (ind, other, op int) {
	for d := len(l.bSize) - 1; d >= 0; d-- {
		if coord[d]++; coord[d] < l.bSize[d] {
			return ind + l.bInd[d], other + l.bOther[d], op + l.bOp[d]
		}
		coord[d] = 0
		ind -= (l.bSize[d] - 1) * l.bInd[d]
		other -= (l.bSize[d] - 1) * l.bOther[d]
		op -= (l.bSize[d] - 1) * l.bOp[d]
	}
	return ind, other, op
}

// nextWindow advances coord to the next position of the window's outer
// dimensions and returns what the offsets in the operand and in other add.
func (l *layout) nextWindow(coord []int) (op, other int) {
	for d := len(l.wSize) - 1; d >= 0; d-- {
		if coord[d]++; coord[d] < l.wSize[d] {
			return op + l.wOp[d], other + l.wOther[d]
		}
		coord[d] = 0
		op -= (l.wSize[d] - 1) * l.wOp[d]
		other -= (l.wSize[d] - 1) * l.wOther[d]
	}
	return op, other
}

// windowDims appends to buf the operand dimensions that are neither in a
// nor in b, in increasing order: a slice's or an update window's
// dimensions.
func windowDims(buf []int, rank int, a, b []int) []int {
	buf = buf[:0]
	for d := range rank {
		if !slices.Contains(a, d) && !slices.Contains(b, d) {
			buf = append(buf, d)
		}
	}
	return buf
}

// refused returns the first component of the start index at flat
// position at of ind that the rules refuse, or -1: under NegativeRefused
// with values past the end skipped, the first negative one.
func (l *layout) refused(ind []int64, at int) int {
	if !l.rules.negativesOnly() {
		_, c := l.start(ind, at)
		return c
	}
	for c := range l.comp {
		if ind[at+c*l.vecStride] < 0 {
			return c
		}
	}
	return -1
}

// indexErr builds the error for the start index component at flat
// position flat of indices, the first the rules refuse; under ReportLast
// it names instead the first refused component of the last start index
// that has one.
func (l *layout) indexErr(indices tensor.Tensor, ind []int64, flat int, operand tensor.Shape) error {
	if l.rules.Report == ReportLast {
		coord := make([]int, len(l.bSize)) // on the way to an error
		for b := l.batches - 1; b >= 0; b-- {
			at, _, _ := l.batchAt(b, coord)
			if c := l.refused(ind, at); c >= 0 {
				flat = at + c*l.vecStride
				break
			}
		}
	}
	// The component: the coordinate along the index vector's dimension.
	c := 0
	if l.vecStride > 0 {
		c = (flat / l.vecStride) % len(l.comp)
	}
	m := l.comp[c]
	lim := l.compLim[c]
	e := &IndexError{
		Pos:       indices.Shape().Coords(flat),
		Value:     ind[flat],
		Dim:       m,
		Size:      operand[m],
		DataShape: operand.Clone(),
		Min:       -lim.fromEnd,
		Max:       int64(lim.size) - 1,
		Unsigned:  indices.DType() == tensor.Uint64,
		Window:    l.compWin[c],
	}
	if e.Unsigned {
		e.Value, _ = indices.IntAt(flat)
	}
	if l.vecStride > 0 {
		first := flat - c*l.vecStride
		e.TupleDim = l.vecDim
		e.Tuple = make([]int64, len(l.comp))
		for j := range e.Tuple {
			e.Tuple[j], _ = indices.IntAt(first + j*l.vecStride)
		}
	}
	return e
}

// startsRange sets starts[i] to the operand offset (batching offset
// included) of the window of batch position lo+i, or to -1 for one the
// rules skip, a line of the innermost batch dimension at a time; coord is
// a worker's batch coordinates. It returns the flat position in ind of
// the first value the rules refuse, or -1.
func (l *layout) startsRange(starts []int, ind []int64, lo int, coord []int) int {
	if len(l.bSize) == 0 {
		off, bad := l.start(ind, 0)
		if bad >= 0 {
			return bad * l.vecStride
		}
		starts[0] = off
		return -1
	}
	last := len(l.bSize) - 1
	dAt, dOp := l.bInd[last], l.bOp[last]
	return l.lines(lo, len(starts), coord, func(i, at, _, base, n int) int {
		if bad := l.startsLine(starts[i:i+n], ind, at, dAt, base, dOp); bad >= 0 {
			return at + bad
		}
		return -1
	})
}

// lines walks the batch positions [lo, lo+n) a line of the innermost
// batch dimension at a time, coord being a worker's batch coordinates:
// f gets the line's first position i (counted from lo), the offsets of
// its first batch position in the indices (of its start index's first
// component), in the other tensor and in the operand (its batching
// offset), and the line's length. A result of f that is not negative
// stops the walk, and lines returns it; else -1. It needs one batch
// dimension at least.
func (l *layout) lines(lo, n int, coord []int, f func(i, at, other, base, m int) int) int {
	last := len(l.bSize) - 1
	dAt, dOther, dOp := l.bInd[last], l.bOther[last], l.bOp[last]
	at, other, bop := l.batchAt(lo, coord)
	for i := 0; i < n; {
		m := min(l.bSize[last]-coord[last], n-i)
		if r := f(i, at, other, bop, m); r >= 0 {
			return r
		}
		if i += m; i < n {
			// From the line's last position to the next line's first.
			at, other, bop = at+(m-1)*dAt, other+(m-1)*dOther, bop+(m-1)*dOp
			coord[last] += m - 1
			di, do, db := l.nextBatch(coord)
			at, other, bop = at+di, other+do, bop+db
		}
	}
	return -1
}

// startsLine sets starts[i] to the operand offset of the window of the
// start index whose first component is at ind[at + i*dAt], plus base +
// i*dBase (its batching offset), or to -1 for one the rules skip. It
// returns the offset from at of the first value the rules refuse, or -1.
func (l *layout) startsLine(starts []int, ind []int64, at, dAt, base, dBase int) int {
	if len(l.comp) == 1 && !l.rules.moves() {
		lim, stride := l.compLim[0], l.opStrides[l.comp[0]]
		size, fromEnd, skip := uint64(lim.size), lim.fromEnd, l.rules.OutOfRange == OutOfRangeSkip
		for i := range starts {
			d := -1
			if p := wrap(ind[at], fromEnd); uint64(p) < size {
				d = base + int(p)*stride
			} else if !skip {
				return i * dAt
			}
			starts[i] = d
			at, base = at+dAt, base+dBase
		}
		return -1
	}
	if len(l.comp) == 2 && !l.rules.moves() {
		l0, l1 := l.compLim[0], l.compLim[1]
		s0, s1 := l.opStrides[l.comp[0]], l.opStrides[l.comp[1]]
		if l.vecStride == 1 && dAt == 2 && base == 0 && dBase == 0 {
			// Consecutive pairs and no batching offsets, as ScatterND's
			// tuples: its loop, whose few live values stay in registers
			// (this one's spilled, reading memory three times as often).
			t := offsets2(starts, ind[at:at+2*len(starts)], l0, l1, s0, s1, l.rules.OutOfRange == OutOfRangeSkip)
			if t == len(starts) {
				return -1
			}
			if _, ok := l0.pos(ind[at+2*t]); ok {
				return 2*t + 1
			}
			return 2 * t
		}
		n0, n1, e0, e1, vs := uint64(l0.size), uint64(l1.size), l0.fromEnd, l1.fromEnd, l.vecStride
		skip := l.rules.OutOfRange == OutOfRangeSkip
		for i := range starts {
			p0, p1 := wrap(ind[at], e0), wrap(ind[at+vs], e1)
			d := -1
			if uint64(p0) < n0 && uint64(p1) < n1 {
				d = base + int(p0)*s0 + int(p1)*s1
			} else if !skip {
				if uint64(p0) < n0 {
					return i*dAt + vs
				}
				return i * dAt
			}
			starts[i] = d
			at, base = at+dAt, base+dBase
		}
		return -1
	}
	for i := range starts {
		off, bad := l.start(ind, at)
		if bad >= 0 {
			return i*dAt + bad*l.vecStride
		}
		if off >= 0 {
			off += base
		}
		starts[i] = off
		at, base = at+dAt, base+dBase
	}
	return -1
}

// scatterPairs fills buf with the pairs (operand offset, updates offset)
// of the runs of the windows from batch position b on whose operand
// offsets lie in [lo, hi), until buf is full; coord and wcoord, worker
// w's, hold b's batch coordinates and the window position k to go on
// from, and other the updates offset of b. It returns the number of
// pairs, and where to go on from.
func (l *layout) scatterPairs(starts []int, b, k, other, lo, hi int, coord, wcoord []int, buf []pair) (n, nb, nk, nother int) {
	width := uint(hi - lo)
	if l.otherStep > 0 {
		// One run per window, at b*otherStep in updates.
		n, read := scatterPairsOffs(buf, starts[b:], lo, width, b*l.otherStep, l.otherStep)
		return n, b + read, 0, 0
	}
	for b < len(starts) {
		start := starts[b]
		if start >= 0 {
			op, ot := 0, 0
			if k > 0 { // going on inside a window: recompute its offsets
				op, ot = l.windowAt(wcoord)
			}
			for ; k < l.windows; k++ {
				if n == len(buf) {
					return n, b, k, other
				}
				if d := start + op; uint(d-lo) < width {
					buf[n] = pair{d, other + ot}
					n++
				}
				dop, dot := l.nextWindow(wcoord)
				op, ot = op+dop, ot+dot
			}
		}
		k = 0
		clear(wcoord)
		b++
		if b < len(starts) {
			_, do, _ := l.nextBatch(coord)
			other += do
		}
	}
	return n, b, 0, other
}

// windowAt returns the offsets in the operand and in other of window
// position wcoord.
func (l *layout) windowAt(wcoord []int) (op, other int) {
	for d, c := range wcoord {
		op += c * l.wOp[d]
		other += c * l.wOther[d]
	}
	return op, other
}
