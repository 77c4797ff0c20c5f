package engine

import (
	"sync"

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
// the result of a gather, the updates of a scatter.
type layout struct {
	// The batch space, one entry per dimension of indices but the index
	// vector's, outer first.
	bSize  []int
	bInd   []int // stride in indices
	bOther []int // stride in the other tensor
	bOp    []int // stride in the operand (batching dimensions), else 0
	// The start index: the operand dimension each component addresses,
	// the stride between components in indices, the size of the window
	// along that dimension and the limit of its start values.
	comp      []int
	compLim   []limit
	vecStride int
	// The window's outer dimensions (those not in the run), outer first:
	// their sizes and strides in the operand and in the other tensor.
	wSize  []int
	wOp    []int
	wOther []int
	// run is the number of elements moved as one block.
	run int
	// opStrides are the operand's strides, for the start index's
	// components.
	opStrides []int
	// batches and windows count the positions of the batch space and of
	// the window's outer dimensions.
	batches, windows int
	// gathers is set for a gather, for which a start index that no
	// clamping can fit is an error; a scatter skips it.
	gathers bool
}

// newLayout builds the layout of a gather or scatter over operand and the
// other tensor, given: which dimensions of other hold the window (in
// order, matching winOp, the operand dimensions of the window), the
// window's size along each, the operand dimension each start index
// component addresses and its window size there, and the batching pairs.
//
// With runs false every block is one element.
func newLayout(operand, indices, other tensor.Shape, vecDim int, otherWin, winOp, winSize, comp []int,
	opBatch, indBatch []int, rules IndexRules, runs bool) *layout {
	l := &layout{comp: comp, opStrides: operand.Strides()}
	is, ost, ots := indices.Strides(), l.opStrides, other.Strides()
	if vecDim < len(indices) {
		l.vecStride = is[vecDim]
	}
	// The batch space: indices' dimensions but vecDim, which pair in
	// order with other's dimensions outside the window.
	o := 0
	l.batches = 1
	for d := range indices {
		if d == vecDim {
			continue
		}
		for contains(otherWin, o) {
			o++
		}
		op := 0
		for i, b := range indBatch {
			if b == d {
				op = ost[opBatch[i]]
			}
		}
		l.bSize = append(l.bSize, indices[d])
		l.bInd = append(l.bInd, is[d])
		l.bOther = append(l.bOther, ots[o])
		l.bOp = append(l.bOp, op)
		l.batches *= indices[d]
		o++
	}
	l.compLim = make([]limit, len(comp))
	for c, m := range comp {
		l.compLim[c] = rules.windowLimit(operand[m], componentWindow(m, winOp, winSize))
	}
	// The run: the innermost window dimensions that are the innermost
	// dimensions of both tensors, all but the outermost of them whole in
	// the operand (other's window dimensions are the window's size).
	w := len(winOp)
	t := 0
	for runs && t < w && winOp[w-1-t] == len(operand)-1-t && otherWin[w-1-t] == len(other)-1-t &&
		(t == 0 || winSize[w-t] == operand[len(operand)-t]) {
		t++
	}
	l.run = 1
	for i := w - t; i < w; i++ {
		l.run *= winSize[i]
	}
	l.windows = 1
	for i := 0; i < w-t; i++ {
		l.wSize = append(l.wSize, winSize[i])
		l.wOp = append(l.wOp, ost[winOp[i]])
		l.wOther = append(l.wOther, ots[otherWin[i]])
		l.windows *= winSize[i]
	}
	if l.run == 0 {
		l.windows = 0
	}
	return l
}

// componentWindow returns the window size along operand dimension m: its
// size in winSize where m is a window dimension, 1 otherwise.
func componentWindow(m int, winOp, winSize []int) int {
	for i, d := range winOp {
		if d == m {
			return winSize[i]
		}
	}
	return 1
}

// windowLimit returns the limit of the start values of a window of size
// w along a dimension of the given size: [0, size-w], and negative values
// counted from the end where the rules say so.
func (r IndexRules) windowLimit(size, w int) limit {
	l := limit{size: size - w + 1}
	if r.Negative == NegativeFromEnd {
		l.fromEnd = int64(size)
	}
	if l.size < 0 {
		l.size = 0
	}
	return l
}

// start returns the operand offset of the start index of batch position
// whose first component is at ind[at] (batching offsets not included),
// or -1 when the rules skip it; bad is the component outside its limit
// under OutOfRangeError, else -1.
func (l *layout) start(ind []int64, at int, rules IndexRules) (off, bad int) {
	for c, m := range l.comp {
		v := ind[at+c*l.vecStride]
		lim := l.compLim[c]
		p := wrap(v, lim.fromEnd)
		if uint64(p) >= uint64(lim.size) {
			switch rules.OutOfRange {
			case OutOfRangeClamp:
				if lim.size == 0 {
					// No start fits: a gather has nothing to read, a
					// scatter nowhere to write.
					if l.gathers {
						return -1, c
					}
					return -1, -1
				}
				p = min(max(p, 0), int64(lim.size-1))
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

// batchAt returns the offsets in indices, other and the operand of batch
// position b, and sets coord to its coordinates.
func (l *layout) batchAt(b int, coord []int) (ind, other, op int) {
	for d := len(l.bSize) - 1; d >= 0; d-- {
		c := b % l.bSize[d]
		b /= l.bSize[d]
		coord[d] = c
		ind += c * l.bInd[d]
		other += c * l.bOther[d]
		op += c * l.bOp[d]
	}
	return ind, other, op
}

// nextBatch advances coord to the next batch position and returns what
// the offsets in indices, other and operand add.
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

// windowDims returns the operand dimensions that are neither in a nor in
// b, in increasing order: a slice's or an update window's dimensions.
func windowDims(rank int, a, b []int) []int {
	var w []int
	for d := range rank {
		if !contains(a, d) && !contains(b, d) {
			w = append(w, d)
		}
	}
	return w
}

// GatherGeneral writes into dst the slices of operand that the start
// indices in indices select, as the dimension numbers d say (see
// GatherDims). dst has operand's type and the shape d.Shape returns, and
// must not overlap the inputs. A start index outside the operand is an
// error, skipped (its slice filled with opt.Fill or zeros) or clamped, as
// opt.Rules say; an error names the first bad start index in index order,
// and dst may then be partly written.
func GatherGeneral(dst, operand, indices tensor.Tensor, d *GatherDims, opt GatherOptions) error {
	if operand.IsZero() || indices.IsZero() || dst.IsZero() {
		return argErr("operand, indices and dst must all be given")
	}
	os, is := operand.Shape(), indices.Shape()
	if err := d.check(os, is, opt.Exact); err != nil {
		return err
	}
	shape := d.appendShape(nil, os, is)
	if err := checkGather(dst, operand, indices, shape); err != nil {
		return err
	}
	if !opt.Fill.IsZero() && (opt.Fill.DType() != operand.DType() || opt.Fill.Len() != 1) {
		return typeErr("the fill value must be one %v element, got %v of shape %v", operand.DType(), opt.Fill.DType(), opt.Fill.Shape())
	}
	if !forceGeneral && fastRules(opt.Rules) && (opt.Fill.IsZero() || opt.Rules.OutOfRange != OutOfRangeSkip) {
		if b, ok := d.ndForm(os, is); ok {
			return GatherND(dst, operand, indices, b, opt.Rules)
		}
		if a, ok := d.elementsForm(os, is); ok {
			return GatherElements(dst, operand, indices, a, opt.Rules)
		}
		if a, b, ok := d.axisForm(os, is); ok {
			return Gather(dst, operand, indices, a, b, opt.Rules)
		}
	}
	ind, err := indexInts(indices)
	if err != nil {
		return err
	}
	winOp := windowDims(len(os), d.CollapsedSliceDims, d.OperandBatchingDims)
	winSize := make([]int, len(winOp))
	for i, w := range winOp {
		winSize[i] = d.SliceSizes[w]
	}
	l := newLayout(os, is, shape, d.IndexVectorDim, d.OffsetDims, winOp, winSize, d.StartIndexMap,
		d.OperandBatchingDims, d.StartIndicesBatchingDims, opt.Rules, true)
	l.gathers = true
	if dst.Len() == 0 && opt.Rules.OutOfRange != OutOfRangeError {
		return nil // nothing read, so nothing to clamp or fill
	}
	if bad := l.gather(dst, operand, ind, opt); bad >= 0 {
		return l.indexErr(opt.Rules, indices, ind, bad, os)
	}
	return nil
}

// gather moves the slices that l describes from operand into dst, the
// start indices being ind. It returns the flat position in ind of the
// first start index component that the rules refuse, or -1.
func (l *layout) gather(dst, operand tensor.Tensor, ind []int64, opt GatherOptions) int {
	m := newMover(dst, operand, l.run)
	if !opt.Fill.IsZero() {
		m.setFill(opt.Fill)
	}
	moves := l.windows > 0
	p := parts(dst.Len() + len(ind))
	found := noneFound(p)
	parallel(l.batches, p, func(w, lo, hi int) {
		if lo >= hi {
			return
		}
		coord := make([]int, len(l.bSize))
		wcoord := make([]int, len(l.wSize))
		var buf []pair
		if moves {
			buf = make([]pair, 0, batch)
		}
		at, out, bop := l.batchAt(lo, coord)
		for b := lo; b < hi; b++ {
			if b > lo {
				di, do, db := l.nextBatch(coord)
				at, out, bop = at+di, out+do, bop+db
			}
			src, bad := l.start(ind, at, opt.Rules)
			if bad >= 0 {
				found[w] = at + bad*l.vecStride
				break
			}
			if src >= 0 {
				src += bop
			}
			op, ot := 0, 0
			for range l.windows {
				s := -1
				if src >= 0 {
					s = src + op
				}
				if buf = append(buf, pair{out + ot, s}); len(buf) == batch {
					m.move(buf)
					buf = buf[:0]
				}
				dop, dot := l.nextWindow(wcoord)
				op, ot = op+dop, ot+dot
			}
		}
		m.move(buf)
	})
	return firstOf(found)
}

// indexErr builds the error for the start index component at flat
// position flat of indices.
func (l *layout) indexErr(rules IndexRules, indices tensor.Tensor, ind []int64, flat int, operand tensor.Shape) error {
	// Which component: the one whose offset from the vector's first is a
	// multiple of vecStride, found by testing each.
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
	}
	if e.Unsigned {
		e.Value, _ = indices.IntAt(flat)
	}
	if l.vecStride > 0 {
		first := flat - c*l.vecStride
		e.Tuple = make([]int64, len(l.comp))
		for j := range e.Tuple {
			e.Tuple[j], _ = indices.IntAt(first + j*l.vecStride)
		}
	}
	return e
}

// ScatterGeneral writes into dst a copy of operand (zeros for the zero
// Tensor; nothing when dst is operand) into which each window of updates
// is combined at the start index that indices give for it, as the
// dimension numbers d say (see ScatterDims), with opt.Reduction. Windows
// are applied in row-major order of their start indices, each window's
// elements in row-major order. Every start index is checked before dst is
// written: one outside the operand is an error, or makes the rules skip
// the whole window, or clamp it into the operand.
func ScatterGeneral(dst, operand, indices, updates tensor.Tensor, d *ScatterDims, opt ScatterOptions) error {
	if err := checkScatter(dst, operand, indices, updates, opt); err != nil {
		return err
	}
	ds, is, us := dst.Shape(), indices.Shape(), updates.Shape()
	if err := d.check(ds, is, us, opt.Exact); err != nil {
		return err
	}
	if !forceGeneral && fastRules(opt.Rules) {
		if d.ndForm(ds, is, us) {
			return ScatterND(dst, operand, indices, updates, opt)
		}
		if a, ok := d.elementsForm(ds, is); ok {
			return ScatterElements(dst, operand, indices, updates, a, opt)
		}
	}
	ind, err := indexInts(indices)
	if err != nil {
		return err
	}
	winOp := windowDims(len(ds), d.InsertedWindowDims, d.InputBatchingDims)
	winSize := make([]int, len(winOp))
	for i, w := range d.UpdateWindowDims {
		winSize[i] = us[w]
	}
	// Mean counts per element: no runs.
	l := newLayout(ds, is, us, d.IndexVectorDim, d.UpdateWindowDims, winOp, winSize, d.ScatterDimsToOperandDims,
		d.InputBatchingDims, d.ScatterIndicesBatchingDims, opt.Rules, opt.Reduction != Mean)
	starts, bad := l.starts(ind, opt.Rules)
	defer putStarts(starts)
	if bad >= 0 {
		return l.indexErr(opt.Rules, indices, ind, bad, ds)
	}
	l.scatter(dst, operand, updates, starts, opt)
	return nil
}

// scatter writes into dst operand (see newScatterRun) with the windows of
// updates that l describes combined in at starts, which the rules have
// accepted.
func (l *layout) scatter(dst, operand, updates tensor.Tensor, starts []int, opt ScatterOptions) {
	if dst.Len() == 0 {
		return
	}
	if l.windows == 0 {
		// No update has an element: dst is operand.
		newScatterRun(dst, operand, updates, 1, opt).fill(0, dst.Len())
		return
	}
	run := newScatterRun(dst, operand, updates, l.run, opt)
	if opt.Reduction == Mean {
		run.countMeans(dst.Len()/l.run, l.run, l.batches*l.windows, opt.ExcludeSelf)
	}
	unit := l.unit(dst.Shape())
	parallel(dst.Len()/unit, parts(dst.Len()+updates.Len()), func(_, lo, hi int) {
		lo, hi = lo*unit, hi*unit
		buf := make([]pair, batch)
		run.fill(lo, hi)
		run.each(func(emit func([]pair)) { l.scatterPairs(starts, lo, hi, buf, emit) }, lo, hi)
	})
}

// starts checks the start index of every batch position and returns the
// operand offset of each window (batching offsets included), -1 for one
// the rules skip, and the flat position in indices of the first value the
// rules refuse, or -1. The offsets come from a pool: give them back with
// putStarts.
func (l *layout) starts(ind []int64, rules IndexRules) ([]int, int) {
	starts := *getBuffer[int](&startPool, l.batches)
	p := parts(len(ind))
	found := noneFound(p)
	parallel(l.batches, p, func(w, lo, hi int) {
		if lo >= hi {
			return
		}
		coord := make([]int, len(l.bSize))
		at, _, bop := l.batchAt(lo, coord)
		for b := lo; b < hi; b++ {
			if b > lo {
				di, _, db := l.nextBatch(coord)
				at, bop = at+di, bop+db
			}
			off, bad := l.start(ind, at, rules)
			if bad >= 0 {
				found[w] = at + bad*l.vecStride
				return
			}
			if off >= 0 {
				off += bop
			}
			starts[b] = off
		}
	})
	return starts, firstOf(found)
}

var startPool sync.Pool

func putStarts(s []int) { startPool.Put(&s) }

// unit returns the size of the blocks of the operand that a scatter's
// workers own: the runs lie within them.
func (l *layout) unit(operand tensor.Shape) int {
	u := 1
	for i := len(operand) - 1; i >= 0 && u < l.run; i-- {
		u *= operand[i]
	}
	return u
}

// scatterPairs hands to emit, a batch at a time in buf, the pairs (operand
// offset, updates offset) of every run of every window in order whose
// operand offset lies in [lo, hi).
func (l *layout) scatterPairs(starts []int, lo, hi int, buf []pair, emit func([]pair)) {
	width := uint(hi - lo)
	coord := make([]int, len(l.bSize))
	wcoord := make([]int, len(l.wSize))
	n := 0
	other := 0
	for b, start := range starts {
		if b > 0 {
			_, do, _ := l.nextBatch(coord)
			other += do
		}
		if start < 0 {
			continue
		}
		op, ot := 0, 0
		for range l.windows {
			if d := start + op; uint(d-lo) < width {
				buf[n] = pair{d, other + ot}
				if n++; n == len(buf) {
					emit(buf)
					n = 0
				}
			}
			dop, dot := l.nextWindow(wcoord)
			op, ot = op+dop, ot+dot
		}
	}
	emit(buf[:n])
}
