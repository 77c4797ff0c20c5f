package engine

import (
	"slices"

	"github.com/scatter-dev/scatter/tensor"
)

// Ways to fill dst before a scatter applies its updates.
const (
	fillCopy  = iota // from data
	fillClear        // zeros, for a zero data tensor
	fillNone         // in place: dst is data
	fillValue        // ScatterOptions.Fill, for a zero data tensor
)

// scatterRun is the typed half of one scatter call: how dst gets its
// starting values and how the update blocks combine into it.
type scatterRun struct {
	fillWith int
	inPlace  bool
	base     mover   // dst from data, block 1
	m        mover   // updates into dst, for reduction none
	red      reducer // nil for reduction none
	// fast is the one-loop path for single elements, when there is one;
	// never with reset, wide or mean, which it does not apply.
	fast    fastScatter
	reset   reducer    // ExcludeSelf: red, whose identity starts each block hit; nil otherwise
	wide    widePasses // HalfOnce: red's passes into and out of its accumulator; nil otherwise
	mean    *meanCount // Mean only (see countMeans)
	meanVal meanCount
	size    int // dst.Len()
	// seen is, per worker, the bitmap of the blocks that the updates
	// have reached, by which each resets its blocks as it applies the
	// updates (see resetApply); nil, and two passes, otherwise.
	seen [][]uint64
}

// newScatterRun prepares s.run, a scatter of updates into dst in blocks of
// block elements, after checkScatter (or checkMemory). For Mean,
// countMeans must follow.
func newScatterRun(s *scratch, dst, data, updates *tensor.Tensor, block int, opt *ScatterOptions) *scatterRun {
	run := &s.run
	run.inPlace, run.m, run.red, run.fast, run.reset, run.wide, run.mean = false, nil, nil, nil, nil, nil, nil
	run.seen = nil
	run.size = s.views[vDst].n // dst.Len(), which see has read
	switch {
	case data.IsZero() && !opt.Fill.IsZero():
		run.fillWith = fillValue
	case data.IsZero():
		run.fillWith = fillClear
	case s.views[vDst].span().same(s.views[vData].span()):
		run.fillWith, run.inPlace = fillNone, true
	default:
		run.fillWith = fillCopy
	}
	run.base = nil
	if !run.inPlace { // in place, fill has nothing to do
		run.base = s.fill.get(dst, data, s.views[vDst], s.views[vData], 1)
		if run.fillWith == fillValue {
			run.base.setFill(viewOf(&opt.Fill))
		}
	}
	if opt.Reduction == None {
		m := s.apply.get(dst, updates, s.views[vDst], s.views[vUpd], block)
		run.m, run.fast = m, m
		return run
	}
	run.red = s.reducer(dst, updates, block, opt)
	if opt.ExcludeSelf {
		run.reset = run.red
	}
	run.wide = s.lastWide // run.red's
	if opt.Reduction == Mean {
		run.mean = &run.meanVal
		run.mean.all = opt.Arith.DivideAll
	}
	if f := s.lastFast; f != nil && run.reset == nil && run.wide == nil && run.mean == nil {
		run.fast = f
	}
	return run
}

// work returns the work of a scatter of the given amount of work on its
// updates: plus the size of dst, which it fills, unless in place.
func (run *scatterRun) work(updates int) int {
	if run.inPlace {
		return updates
	}
	return updates + run.size
}

// sparse reports whether a scatter in place of n updates changes so
// little of dst that it should touch no more than that: a sixteenth.
func (run *scatterRun) sparse(n int) bool { return run.inPlace && n < run.size/16 }

// fill sets dst[lo:hi] to its starting values.
func (run *scatterRun) fill(lo, hi int) {
	switch run.fillWith {
	case fillCopy:
		run.base.copyRange(lo, hi)
	case fillClear:
		run.base.clearRange(lo, hi)
	case fillValue:
		run.base.fillRange(lo, hi)
	}
}

// apply applies a batch of updates.
func (run *scatterRun) apply(ps []pair) {
	if run.red != nil {
		run.red.reduce(ps)
		return
	}
	run.m.move(ps)
}

// countMeans makes run, a Mean scatter into blocks of dst (blocks of
// block elements) of n updates by p workers, divide each block it updates
// by the number of values that took part. Call it once the indices have
// been validated: it may clear a count per block.
func (run *scatterRun) countMeans(s *scratch, blocks, block, n int, excludeSelf bool, p int) {
	m := run.mean
	*m = meanCount{block: block, self: 1, all: m.all}
	if excludeSelf {
		m.self = 0
	}
	if blocks <= n || m.all {
		s.counts = resize(s.counts, blocks)
		clear(s.counts)
		m.counts = s.counts
	} else {
		m.hits = s.workerHits(p)
	}
}

// each applies the updates that it hands over, a batch at a time, which
// must all land in worker w's range of dst: first resetting the blocks
// they hit to the identity (with ExcludeSelf), then (with HalfOnce)
// loading them into the accumulator, applying the updates, rounding the
// blocks back, and for Mean with a list of the blocks hit dividing each
// by the number of values it took (with a count per block, finish
// divides).
func (run *scatterRun) each(it *pairIter, w int) {
	if run.seen != nil && run.reset != nil && run.wide == nil && run.mean == nil {
		run.resetApply(it, w)
		return
	}
	if run.reset != nil {
		it.start()
		for ps, ok := it.next(); ok; ps, ok = it.next() {
			run.reset.setIdentity(ps)
		}
	}
	if run.wide != nil {
		it.start()
		for ps, ok := it.next(); ok; ps, ok = it.next() {
			run.wide.begin(ps)
		}
	}
	it.start()
	if run.mean == nil {
		for ps, ok := it.next(); ok; ps, ok = it.next() {
			run.apply(ps)
		}
	} else {
		run.mean.reduce(run.red, it, w)
	}
	if run.wide != nil {
		it.start()
		for ps, ok := it.next(); ok; ps, ok = it.next() {
			run.wide.end(ps)
		}
	}
	if run.mean != nil && run.mean.counts == nil {
		run.mean.divideHits(run.red, w)
	}
}

// finish divides, for Mean with a count per block, the blocks of
// dst[lo:hi] by their counts.
func (run *scatterRun) finish(lo, hi int) {
	if m := run.mean; m != nil && m.counts != nil {
		m.divide(run.red, lo/m.block, hi/m.block)
	}
}

// meanCount counts the values that go into the mean of each block of dst.
// With no more blocks than updates it keeps a count per block, shared by
// the workers as each owns a range of blocks; otherwise each worker lists
// the blocks its updates hit, and sorts them. Either way it holds at most
// one int per update.
type meanCount struct {
	block  int
	self   int     // 1 if the existing value takes part, 0 with ExcludeSelf
	all    bool    // DivideAll: every block is divided, and counted
	counts []int   // per block of dst, or nil
	hits   [][]int // per worker, when there are no counts
}

// divide divides blocks b0 to b1 by their counts (see DivideAll).
func (m *meanCount) divide(red reducer, b0, b1 int) {
	if m.all {
		red.divideAll(m.counts, m.self, b0, b1)
		return
	}
	red.divideCounts(m.counts, m.self, b0, b1)
}

// reduce reduces the updates of it into their blocks with red, counting
// them in the counts or in worker w's list of the blocks hit.
func (m *meanCount) reduce(red reducer, it *pairIter, w int) {
	if m.counts != nil {
		counts, block := m.counts, m.block
		for ps, ok := it.next(); ok; ps, ok = it.next() {
			red.reduce(ps)
			if block == 1 { // no division per update
				for _, p := range ps {
					counts[p.d]++
				}
				continue
			}
			for _, p := range ps {
				counts[p.d/block]++
			}
		}
		return
	}
	// Count first, so that the list grows only for more updates than it
	// has held.
	n := 0
	for ps, ok := it.next(); ok; ps, ok = it.next() {
		n += len(ps)
	}
	hit := resize(m.hits[w], n)[:0]
	it.start()
	for ps, ok := it.next(); ok; ps, ok = it.next() {
		red.reduce(ps)
		for _, p := range ps {
			hit = append(hit, p.d)
		}
	}
	m.hits[w] = hit
}

// divideHits divides each block in worker w's list by the number of
// values that went into it.
func (m *meanCount) divideHits(red reducer, w int) {
	hit := m.hits[w]
	slices.Sort(hit)
	for i := 0; i < len(hit); {
		j := i + 1
		for j < len(hit) && hit[j] == hit[i] {
			j++
		}
		red.divide(hit[i], j-i+m.self)
		i = j
	}
}

// divideRows divides each element of dst[lo:hi] by the number of values
// that went into it: the updates of rows r0 to r1 of ScatterElements,
// which have been summed into it, plus its own value unless excluded. It
// needs a count per element, and worker w's cursor.
func (m *meanCount) divideRows(red reducer, e *elemWalk, w, r0, r1, lo, hi int) {
	counts := m.counts
	along, value := e.steps()
	for c := e.row(w, r0); c.r < r1; e.next(c) {
		idx := e.index(c)
		if along == 0 {
			countRow(counts[c.data:c.data+e.lim.size], idx, e.lim.fromEnd)
			continue
		}
		for j, v := range idx {
			if p, ok := e.lim.pos(v); ok {
				counts[c.data+j*along+p*value]++
			}
		}
	}
	m.divide(red, lo, hi)
}

// countRow adds one to row[p] for the position p of each index of idx
// within row; fromEnd is what a negative index adds (see limit.fromEnd).
//
//go:noinline
func countRow(row []int, idx []int64, fromEnd int64) {
	size := uint64(len(row))
	for _, v := range idx {
		if p := wrap(v, fromEnd); uint64(p) < size {
			row[p]++
		}
	}
}

// checkScatter checks what both scatters require of their arguments' types
// and of dst.
func checkScatter(s *scratch, dst, data, indices, updates *tensor.Tensor, opt *ScatterOptions) error {
	if indices.IsZero() || updates.IsZero() || dst.IsZero() {
		return argErr("indices, updates and dst must all be given")
	}
	if !data.IsZero() && dst.DType() != data.DType() {
		return typeErr("dst has type %v, data has type %v; they must be equal", dst.DType(), data.DType())
	}
	if updates.DType() != dst.DType() {
		return typeErr("updates has type %v, dst has type %v; they must be equal", updates.DType(), dst.DType())
	}
	if !indices.DType().IsInteger() {
		return typeErr("indices must be integers, got %v", indices.DType())
	}
	if err := checkReduction(dst.DType(), opt); err != nil {
		return err
	}
	if !opt.Fill.IsZero() {
		if opt.Fill.DType() != dst.DType() || opt.Fill.Len() != 1 {
			return typeErr("the fill value must be one %v element, got %v of shape %v", dst.DType(), opt.Fill.DType(), opt.Fill.Shape())
		}
		if !data.IsZero() {
			return argErr("a fill value and data are both given; the fill value stands for data")
		}
	}
	if opt.Rules.Negative == NegativeSkip && opt.Rules.OutOfRange == OutOfRangeClamp {
		return argErr("NegativeSkip does not go with OutOfRangeClamp")
	}
	if opt.Reduction == Div && updates.DType().IsInteger() {
		if err := checkDivisors(s, updates); err != nil {
			return err
		}
	}
	if !data.IsZero() && !dst.SameShape(*data) {
		return shapeErr("dst has shape %v, data has shape %v; they must be equal", dst.Shape(), data.Shape())
	}
	return checkMemory(s, dst, data, indices, updates)
}

// checkMemory records where a scatter's tensors lie (see) and checks that
// dst is data or does not overlap it, and overlaps neither indices nor
// updates: what checkScatter checks of the tensors' memory, which a call
// with a plan (see ndPlan) checks too.
func checkMemory(s *scratch, dst, data, indices, updates *tensor.Tensor) error {
	s.see(dst, data, indices, updates)
	d := s.views[vDst].span()
	if x := s.views[vData].span(); !d.same(x) && d.overlaps(x) {
		return argErr("dst overlaps data without being data")
	}
	if d.overlaps(s.views[vInd].span()) || d.overlaps(s.views[vUpd].span()) {
		return argErr("dst overlaps indices or updates")
	}
	return nil
}

// checkDivisors fails when reduction Div would divide an integer by zero:
// the error names the first update, in row-major order, that is 0. It
// reads updates as int64 through the scratch's index buffer, which the
// indices take over afterwards.
func checkDivisors(s *scratch, updates *tensor.Tensor) error {
	u, err := s.indexInts(updates)
	if err != nil {
		return err
	}
	if at := slices.Index(u, 0); at >= 0 {
		return argErr("reduction div: updates%v is 0, and an integer cannot be divided by zero",
			tensor.Shape(updates.Shape().Coords(at)))
	}
	return nil
}

// fastScatter is implemented by the movers (reduction none) and by the
// reducers of Go's own number types.
type fastScatter interface {
	// scatterRows applies, in order, the updates of rows r0 to r1 of
	// ScatterElements, stepping worker w's cursor. An index outside the
	// limit is skipped with skip; without, scatterRows stops there and
	// returns its flat position in indices. It returns -1 when it did not
	// stop.
	scatterRows(e *elemWalk, w, r0, r1 int, skip bool) (bad int)
	// scatterOffsets applies, in order, the blocks of block elements of
	// updates s0+t to dst at offs[t] (none for an offset of -1): tuples
	// of ScatterND, when one worker owns the whole of dst.
	scatterOffsets(offs []int32, s0, block int)
	// scatterStarts applies, in order, update s0+t to dst at starts[t]
	// (none for a start of -1): the general scatter's single elements,
	// when one worker owns every element they may land on.
	scatterStarts(starts []int, s0 int)
	// scatterLine applies, in order, update s0+t to dst at base+ind[t],
	// ind[t] checked against lim: an index outside it is skipped with
	// skip, else its position t is returned (-1 when there is none). dst
	// is to: dst itself, or a buffer that holds a slab of it (see
	// scatter_slabs.go). It is a line of the general scatter along a row
	// of dst, or part of a row of ScatterElements along its last axis.
	scatterLine(to view, base int, ind []int64, s0 int, lim limit, skip bool) int
	// scatterIndex is scatterOffsets for tuples of one component, ind,
	// checked against lim (a value outside it is skipped): update t goes
	// to the block at ind[t].
	scatterIndex(ind []int64, lim limit, block int)
	// scatterColumns sets columns c0 to c1 of dst, which is [lim.size]
	// [inner], to those of data (zeros for the zero Tensor) with the
	// updates of ScatterElements along axis 0 applied, indices and
	// updates being [rows][inner]. It works a block of width columns at
	// a time (see columnBlocks).
	scatterColumns(data view, ind []int64, lim limit, rows, inner, width, c0, c1 int)
}
