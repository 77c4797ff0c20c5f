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

// windowLimit returns the limit of the start values of a window of size
// w along a dimension of the given size: [0, size-w], and negative values
// counted from the end where the rules say so.
func (r IndexRules) windowLimit(size, w int) limit {
	l := limit{size: max(size-w+1, 0)}
	if r.Negative == NegativeFromEnd {
		l.fromEnd = int64(size)
	}
	return l
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

// GatherGeneral writes into dst the slices of operand that the start
// indices in indices select, as the dimension numbers d say (see
// GatherDims). dst has operand's type and the shape d.Shape returns, and
// must not overlap the inputs. A start index outside the operand is an
// error, skipped (its slice filled with opt.Fill or zeros) or clamped, as
// opt.Rules say; an error names the first bad start index in index order
// (the last bad tuple under ReportLast), and dst may then be partly
// written. Dimension numbers of the forms
// (GatherND, GatherElements, Gather) run by the forms' own kernels.
func GatherGeneral(dst, operand, indices tensor.Tensor, d *GatherDims, opt GatherOptions) error {
	s := getScratch()
	defer s.release()
	return s.gatherGeneral(&dst, &operand, &indices, d, &opt)
}

func (s *scratch) gatherGeneral(dst, operand, indices *tensor.Tensor, d *GatherDims, opt *GatherOptions) error {
	if operand.IsZero() || indices.IsZero() || dst.IsZero() {
		return argErr("operand, indices and dst must all be given")
	}
	os, is := s.shape(dataShape, operand), s.shape(indexShape, indices)
	if err := d.check(os, is, opt.Exact); err != nil {
		return err
	}
	shape := d.appendShape(s.shapes[outShape][:0], os, is)
	s.shapes[outShape] = shape
	if !opt.Fill.IsZero() && (opt.Fill.DType() != operand.DType() || opt.Fill.Len() != 1) {
		return typeErr("the fill value must be one %v element, got %v of shape %v", operand.DType(), opt.Fill.DType(), opt.Fill.Shape())
	}
	if !forceGeneral && fastRules(opt.Rules) && (opt.Fill.IsZero() || opt.Rules.OutOfRange != OutOfRangeSkip) {
		if b, ok := d.ndForm(os, is); ok {
			return s.gatherND(dst, operand, indices, b, opt.Rules)
		}
		if a, ok := d.elementsForm(os, is); ok {
			return s.gatherElements(dst, operand, indices, a, opt.Rules)
		}
		if a, b, ok := d.axisForm(os, is); ok {
			return s.gather(dst, operand, indices, a, b, opt.Rules)
		}
	}
	ind, err := s.gatherIndices(dst, operand, indices, shape)
	if err != nil {
		return err
	}
	if dst.Len() == 0 && opt.Rules.OutOfRange != OutOfRangeError {
		return nil // nothing read, so nothing to clamp or fill
	}
	s.win = windowDims(s.win, len(os), d.CollapsedSliceDims, d.OperandBatchingDims)
	s.winSize = resize(s.winSize, len(s.win))
	for i, w := range s.win {
		s.winSize[i] = d.SliceSizes[w]
	}
	l := &s.hlo
	l.set(&layoutDims{operand: os, indices: is, other: shape, vecDim: d.IndexVectorDim, otherWin: d.OffsetDims,
		winOp: s.win, winSize: s.winSize, comp: d.StartIndexMap, opBatch: d.OperandBatchingDims,
		indBatch: d.StartIndicesBatchingDims, runs: true}, opt.Rules)
	l.gathers = true
	if bad := s.gatherLayout(dst, operand, ind, opt.Fill); bad >= 0 {
		return l.indexErr(*indices, ind, bad, os)
	}
	return nil
}

// gatherLayout moves the slices that s.hlo describes from operand into
// dst, the start indices being ind, a skipped slice filled with fill (or
// zeros). It returns the flat position in ind of the first start index
// component that the rules refuse, or -1.
func (s *scratch) gatherLayout(dst, operand *tensor.Tensor, ind []int64, fill tensor.Tensor) int {
	l := &s.hlo
	p := parts(dst.Len() + len(ind))
	s.workerPairs(p)
	l.workers(p)
	j := &s.hg
	j.s, j.ind, j.found, j.lines = s, ind, s.noneFound(p), resize(j.lines, p)
	j.m = s.apply.get(dst, operand, s.views[vDst], s.views[vData], l.run)
	j.m.setFill(viewOf(&fill))
	parallel(l.batches, p, j, &s.done)
	return firstOf(j.found)
}

// hloGatherJob is the parallel part of the general gather: each worker
// takes a range of batch positions.
type hloGatherJob struct {
	s     *scratch
	m     mover
	ind   []int64
	found []int
	lines []lineGather // per worker, for byLines
}

func (j *hloGatherJob) work(w, lo, hi int) {
	if lo >= hi {
		return
	}
	l := &j.s.hlo
	coord, wcoord := l.coordsOf(w)
	if l.windows == 1 && l.run == 1 && len(l.comp) == 1 && len(l.bSize) > 0 {
		j.byLines(w, lo, hi, coord)
		return
	}
	clear(wcoord)
	buf := j.s.pairsOf(w)[:0]
	at, out, bop := l.batchAt(lo, coord)
	for b := lo; b < hi; b++ {
		if b > lo {
			di, do, db := l.nextBatch(coord)
			at, out, bop = at+di, out+do, bop+db
		}
		src, bad := l.start(j.ind, at)
		if bad >= 0 {
			j.found[w] = at + bad*l.vecStride
			break
		}
		if src >= 0 {
			src += bop
		}
		op, ot := 0, 0
		for range l.windows {
			sp := -1
			if src >= 0 {
				sp = src + op
			}
			if buf = append(buf, pair{out + ot, sp}); len(buf) == batch {
				j.m.move(buf)
				buf = buf[:0]
			}
			dop, dot := l.nextWindow(wcoord)
			op, ot = op+dop, ot+dot
		}
	}
	j.m.move(buf)
}

// byLines is work for a gather of one element per start index of one
// component (one window of a run of 1): it moves the elements a line of
// the innermost batch dimension at a time, in a typed loop with constant
// steps.
func (j *hloGatherJob) byLines(w, lo, hi int, coord []int) {
	l := &j.s.hlo
	last := len(l.bSize) - 1
	// The worker's own, in the scratch: on the stack, the line would
	// escape through the mover's interface to the heap, every call.
	g := &j.lines[w]
	*g = lineGather{ind: j.ind, dAt: l.bInd[last], dOut: l.bOther[last], dBase: l.bOp[last],
		lim: l.compLim[0], stride: l.opStrides[l.comp[0]], rule: l.rules.OutOfRange}
	if bad := l.lines(lo, hi-lo, coord, func(_, at, out, base, n int) int {
		g.at, g.out, g.base, g.n = at, out, base, n
		if bad := j.m.gatherLine(g); bad >= 0 {
			return at + bad*g.dAt
		}
		return -1
	}); bad >= 0 {
		j.found[w] = bad
	}
	g.ind = nil // the caller's, which the pooled scratch must not keep alive
}

// lineGather is a line of a gather: n start indices of one component,
// ind[at], ind[at+dAt], ..., each moving the element at its position
// (under lim and the rule for one outside) times stride plus base, in the
// operand, to out, in dst; out steps by dOut and base by dBase.
type lineGather struct {
	ind         []int64
	at, dAt     int
	out, dOut   int
	base, dBase int
	n, stride   int
	lim         limit
	rule        OutOfRange

	// touched counts what touchLines read (see gatherRows), so that the
	// reads stay.
	touched int
	// Each worker has a lineGather of its own, next to the others' (see
	// byLines): a cache line apart, they write no line another reads.
	_ [64]byte
}

// gatherLine moves the elements of line g from m's src to its dst; a
// start index the rules skip gets m's fill value. It returns the position
// in the line of the first start index the rules refuse, or -1.
func (m *wordMover[E]) gatherLine(g *lineGather) int {
	dst, src, fill := m.dst, m.src, m.fill
	var zero E
	if g.dAt == 1 && g.dOut == 1 && g.dBase == 0 && g.stride == 1 && fill == zero &&
		g.rule != OutOfRangeClamp {
		// Along one row of the operand, into consecutive elements: the
		// forms' loop, and their reading of a row into cache first when
		// the line has at least as many indices as the row has cache
		// lines and the operand is past the cache (see gatherRows).
		row := src[g.base : g.base+g.lim.size]
		if worthTouching(src, g.lim.size, g.n) {
			g.touched += touchLines(row)
		}
		return gatherRow(dst[g.out:g.out+g.n], row, g.ind[g.at:g.at+g.n], g.lim.fromEnd,
			g.rule == OutOfRangeSkip)
	}
	ind, at, out, base := g.ind, g.at, g.out, g.base
	size, fromEnd := uint64(g.lim.size), g.lim.fromEnd
	for i := range g.n {
		p := wrap(ind[at], fromEnd)
		if uint64(p) >= size {
			switch {
			case g.rule == OutOfRangeClamp && size > 0:
				p = min(max(p, 0), int64(size-1))
			case g.rule == OutOfRangeSkip:
				dst[out] = fill
				at, out, base = at+g.dAt, out+g.dOut, base+g.dBase
				continue
			default:
				return i
			}
		}
		dst[out] = src[base+int(p)*g.stride]
		at, out, base = at+g.dAt, out+g.dOut, base+g.dBase
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
			if _, c := l.start(ind, at); c >= 0 {
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

// ScatterGeneral writes into dst a copy of operand (zeros for the zero
// Tensor; nothing when dst is operand) into which each window of updates
// is combined at the start index that indices give for it, as the
// dimension numbers d say (see ScatterDims), with opt.Reduction. Windows are
// applied in row-major order of their start indices, each window's
// elements in row-major order. A start index outside the operand is an
// error, or makes the rules skip the whole window, or clamp it into the
// operand. In place, every start index is checked before dst is written;
// into another dst, single elements going by slabs are checked as they
// are applied, and an error (naming the first bad index in index order,
// or the last bad tuple under ReportLast) may leave dst partly written. Dimension numbers of the forms
// (ScatterND, ScatterElements) run by the forms' own kernels.
func ScatterGeneral(dst, operand, indices, updates tensor.Tensor, d *ScatterDims, opt ScatterOptions) error {
	s := getScratch()
	defer s.release()
	return s.scatterGeneral(&dst, &operand, &indices, &updates, d, opt)
}

func (s *scratch) scatterGeneral(dst, operand, indices, updates *tensor.Tensor, d *ScatterDims, opt ScatterOptions) error {
	if err := checkScatter(s, dst, operand, indices, updates, opt); err != nil {
		return err
	}
	ds, is, us := s.shape(dataShape, dst), s.shape(indexShape, indices), s.shape(updateShape, updates)
	if err := d.check(ds, is, us, opt.Exact); err != nil {
		return err
	}
	if !forceGeneral && fastRules(opt.Rules) {
		if d.ndForm(ds, is, us) {
			return s.scatterND(dst, operand, indices, updates, opt)
		}
		if a, ok := d.elementsForm(ds, is); ok {
			return s.scatterElements(dst, operand, indices, updates, a, opt)
		}
	}
	ind, err := s.indexInts(indices)
	if err != nil {
		return err
	}
	s.win = windowDims(s.win, len(ds), d.InsertedWindowDims, d.InputBatchingDims)
	s.winSize = resize(s.winSize, len(s.win))
	for i, w := range d.UpdateWindowDims {
		s.winSize[i] = us[w]
	}
	// Mean counts per element: no runs.
	l := &s.hlo
	l.set(&layoutDims{operand: ds, indices: is, other: us, vecDim: d.IndexVectorDim, otherWin: d.UpdateWindowDims,
		winOp: s.win, winSize: s.winSize, comp: d.ScatterDimsToOperandDims, opBatch: d.InputBatchingDims,
		indBatch: d.ScatterIndicesBatchingDims, runs: opt.Reduction != Mean}, opt.Rules)
	l.gathers = false
	if bad := s.scatterLayout(dst, operand, updates, ind, opt); bad >= 0 {
		return l.indexErr(*indices, ind, bad, ds)
	}
	return nil
}

// layoutStarts checks the start index of every batch position of s.hlo
// and sets s.starts to the operand offset of each window (batching
// offsets included), -1 for one the rules skip. It returns the flat
// position in ind of the first value the rules refuse, or -1.
func (s *scratch) layoutStarts(ind []int64) int {
	l := &s.hlo
	s.starts = resize(s.starts, l.batches)
	p := parts(len(ind))
	l.workers(p)
	j := &s.hs
	j.s, j.ind, j.found = s, ind, s.noneFound(p)
	parallel(l.batches, p, j, &s.done)
	return firstOf(j.found)
}

// hloStartsJob is the parallel part of layoutStarts.
type hloStartsJob struct {
	s     *scratch
	ind   []int64
	found []int
}

func (j *hloStartsJob) work(w, lo, hi int) {
	if lo >= hi {
		return
	}
	coord, _ := j.s.hlo.coordsOf(w)
	if bad := j.s.hlo.startsRange(j.s.starts[lo:hi], j.ind, lo, coord); bad >= 0 {
		j.found[w] = bad
	}
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
	if len(l.comp) == 1 && l.rules.OutOfRange != OutOfRangeClamp {
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
	if len(l.comp) == 2 && l.rules.OutOfRange != OutOfRangeClamp {
		l0, l1 := l.compLim[0], l.compLim[1]
		s0, s1 := l.opStrides[l.comp[0]], l.opStrides[l.comp[1]]
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

// scatterLayout writes into dst operand (see newScatterRun) with the
// windows of updates that s.hlo describes combined in at the start
// indices in ind. It returns the flat position in ind of the first start
// index value the rules refuse, in index order, or -1.
//
// Every start index is checked before dst is written, but for slabs of
// single elements into a dst that is not the operand: their workers
// check the start indices as they apply them, a chunk at a time, as the
// forms' ScatterElements does, since the separate pass writes every start
// to memory and reads it back. An error may then leave dst partly
// written, as a gather's does; the operand never is.
func (s *scratch) scatterLayout(dst, operand, updates *tensor.Tensor, ind []int64, opt ScatterOptions) int {
	l := &s.hlo
	size := dst.Len()
	j := &s.hsc
	*j = hloScatterJob{s: s, ind: ind, unit: l.unit}
	var run *scatterRun
	if size > 0 && l.windows > 0 {
		run = s.newScatterRun(dst, operand, updates, l.run, opt)
		j.asItGoes = l.slabs && l.otherStep == 1 && l.run == 1 && !run.inPlace && run.fast != nil
		last := len(l.bSize) - 1
		j.rows = j.asItGoes && len(l.comp) == 1 && l.opStrides[l.comp[0]] == 1 && l.rules.OutOfRange != OutOfRangeClamp &&
			last >= 0 && l.bInd[last] == 1 && l.bOp[last] == 0
	}
	if !j.asItGoes {
		if bad := s.layoutStarts(ind); bad >= 0 {
			return bad
		}
	}
	switch {
	case size == 0:
		return -1
	case l.windows == 0:
		// No update has an element: dst is operand, but for a mean that
		// divides every element by its count (Arith.DivideAll).
		run = s.newScatterRun(dst, operand, updates, 1, opt)
		run.fill(0, size)
		if run.mean != nil {
			run.countMeans(s, size, 1, 0, opt.ExcludeSelf, 1)
			run.finish(0, size)
		}
		return -1
	}
	// Workers own blocks of dst (see layout.unit), or whole slabs along
	// dimension 0, each receiving the windows of its own batch positions.
	if l.slabs {
		j.unit = l.opStrides[0]
	}
	p := parts(run.work(l.batches * l.windows * l.run))
	if run.mean != nil {
		run.countMeans(s, size, 1, l.batches*l.windows, opt.ExcludeSelf, p)
	}
	s.workerPairs(p)
	l.workers(p)
	j.found = s.noneFound(p)
	if j.asItGoes {
		s.lineStarts = resize(s.lineStarts, p*startsChunk)
	}
	parallel(size/j.unit, p, j, &s.done)
	return firstOf(j.found)
}

// hloScatterJob is the parallel part of the general scatter: each worker
// owns a range of units of dst and applies, in index order, the runs that
// land in it.
type hloScatterJob struct {
	s        *scratch
	unit     int
	asItGoes bool    // starts are computed and checked by the workers
	rows     bool    // asItGoes by lines along rows of the operand (see applyAsItGoes)
	ind      []int64 // the start indices, for asItGoes
	found    []int
}

// startsChunk is how many start indices a worker of a general scatter
// that checks them as it goes turns into offsets at a time.
const startsChunk = 1024

func (j *hloScatterJob) work(w, lo, hi int) {
	s := j.s
	l := &s.hlo
	if !l.slabs {
		j.apply(w, lo*j.unit, hi*j.unit, 0, len(s.starts))
		return
	}
	// Slab d receives the windows of the batch positions whose outermost
	// coordinate is d. A few slabs at a time are filled and then updated,
	// while they are in cache.
	per, n := l.batches/max(l.bSize[0], 1), l.bSize[0]
	step := max(1, slabBytes/max(1, j.unit*int(s.views[vDst].size)))
	for d := lo; d < hi; d += step {
		e := min(d+step, hi)
		if j.asItGoes {
			if bad := j.applyAsItGoes(w, d*j.unit, e*j.unit, min(d, n)*per, min(e, n)*per); bad >= 0 {
				j.found[w] = bad
				return
			}
			continue
		}
		j.apply(w, d*j.unit, e*j.unit, min(d, n)*per, min(e, n)*per)
	}
}

// applyAsItGoes fills dst[lo:hi] and applies to it, in index order, the
// single elements of batch positions b0 to b1, whose start indices it
// checks and turns into offsets a chunk at a time. It returns the flat
// position in the indices of the first value the rules refuse, or -1.
func (j *hloScatterJob) applyAsItGoes(w, lo, hi, b0, b1 int) int {
	s := j.s
	l, run := &s.hlo, &s.run
	run.fill(lo, hi)
	coord, _ := l.coordsOf(w)
	if j.rows {
		// Each line's start indices address one row of the operand, its
		// updates consecutive: the forms' loop over the line.
		lim, skip := l.compLim[0], l.rules.OutOfRange == OutOfRangeSkip
		return l.lines(b0, b1-b0, coord, func(i, at, _, base, m int) int {
			if bad := run.fast.scatterLine(base, j.ind[at:at+m], b0+i, lim, skip); bad >= 0 {
				return at + bad
			}
			return -1
		})
	}
	buf := s.lineStarts[w*startsChunk : (w+1)*startsChunk]
	for b := b0; b < b1; b += startsChunk {
		starts := buf[:min(startsChunk, b1-b)]
		if bad := l.startsRange(starts, j.ind, b, coord); bad >= 0 {
			return bad
		}
		run.fast.scatterStarts(starts, b)
	}
	return -1
}

// slabBytes is how much of dst the general scatter fills and updates at a
// time when it goes by slabs: what the first-level cache holds. Tests set
// it lower, so that small calls go a slab at a time.
var slabBytes = 32 << 10

// apply fills dst[lo:hi] and applies to it, in index order, the windows
// of batch positions b0 to b1 that land in it.
func (j *hloScatterJob) apply(w, lo, hi, b0, b1 int) {
	s := j.s
	l, run := &s.hlo, &s.run
	run.fill(lo, hi)
	if l.otherStep == 1 && l.run == 1 && run.fast != nil && (l.slabs || lo == 0 && hi == run.size) {
		// Single elements, all of them landing in this range: one loop
		// over the starts.
		run.fast.scatterStarts(s.starts[b0:b1], b0)
		return
	}
	it := pairIter{hlo: l, starts: s.starts[:b1], b0: b0, lo: lo, hi: hi, w: w, buf: s.pairsOf(w)}
	run.each(&it, w)
	run.finish(lo, hi)
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
