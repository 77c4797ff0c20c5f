package engine

import (
	"slices"

	"github.com/scatter-dev/scatter/tensor"
)

// ScatterND writes into dst a copy of data updated at the positions that
// index tuples select. indices has shape [..., k]: each k-tuple addresses
// the first k dimensions of data, and selects one element (k == rank) or a
// slice of the trailing dimensions. updates has shape
// indices.shape[:-1] + data.shape[k:]. dst has data's type and shape, and
// may be data itself for an in-place update.
//
// Tuples are applied in row-major order of indices with opt.Reduction. In
// place, all of them are validated before dst is written; into another
// dst, an error (naming the first bad tuple) may leave it partly written.
func ScatterND(dst, data, indices, updates tensor.Tensor, opt ScatterOptions) error {
	if !fastRules(opt.Rules) {
		return clampErr("ScatterND")
	}
	s := getScratch()
	defer s.release()
	return s.scatterND(&dst, &data, &indices, &updates, opt)
}

// The kernels take their tensors by pointer: a Tensor is too large for
// the compiler to keep in registers, and every call that took one by value
// copied it, right after storing it, at the cost of a stalled load.
func (s *scratch) scatterND(dst, data, indices, updates *tensor.Tensor, opt ScatterOptions) error {
	if err := checkScatter(s, dst, data, indices, updates, opt); err != nil {
		return err
	}
	ds, is := s.shape(dataShape, dst), s.shape(indexShape, indices)
	size := dst.Len()
	if len(is) == 0 {
		return shapeErr("indices must have rank >= 1, got a scalar")
	}
	k := is[len(is)-1]
	if k > len(ds) {
		return shapeErr("indices.shape[-1] = %d is larger than the rank %d of data %v", k, len(ds), ds)
	}
	if !updatesFit(updates, is[:len(is)-1], ds[k:]) {
		want := append(is[:len(is)-1].Clone(), ds[k:]...)
		return shapeErr("updates has shape %v, want %v (indices.shape[:-1] + data.shape[%d:], with indices %v and data %v)",
			updates.Shape(), want, k, is, ds)
	}
	if forceGeneral {
		dims := ScatterNDDims(len(ds), is)
		return s.scatterGeneral(dst, data, indices, updates, &dims, opt)
	}
	ind, err := s.indexInts(indices)
	if err != nil {
		return err
	}
	// The tuples, and the elements of the slice each addresses, without
	// NumElements' checked products: the first counted out of the
	// indices when there are some (single indices with no division,
	// 14-18 cycles on these cores), the second the product of dimensions
	// that cannot overflow when dst has elements.
	var n, block int
	switch {
	case k == 1:
		n = len(ind)
	case k > 1:
		n = len(ind) / k
	default:
		n, _ = is[:len(is)-1].NumElements()
	}
	if size > 0 {
		block = product(ds[k:])
	}
	lims := s.limits(opt.Rules, ds[:k])
	var run *scatterRun
	work := 0
	if size > 0 {
		run = s.newScatterRun(dst, data, updates, block, opt)
		work = run.work(len(ind) + updates.Len())
	}
	if k == 1 && run != nil && run.fast != nil && small(work) {
		// A small call with single indices: check them all, then apply
		// each update where it lands, in order, without offsets (or
		// strides).
		if bad := s.firstBad(ind, lims, opt.Rules); bad >= 0 {
			return indexErr(opt.Rules, *indices, bad, ds, 0, 1)
		}
		run.fill(0, run.size)
		run.fast.scatterIndex(ind, lims[0], block)
		return nil
	}
	s.nd.set(ind, k, n, lims, s.stridesOf(0, ds)[:k], 0, 0)
	one := run != nil && oneScan(run, block, n, size*int(s.views[vDst].size))
	if k == 1 && one && !run.inPlace {
		// Many single updates into a dst that is not data and fits in
		// the cache: one loop checks each index as it applies it (W3:
		// the pass that turned every index into an offset took a fifth
		// of the time). An error may leave dst partly written.
		run.fill(0, run.size)
		skip := opt.Rules.OutOfRange == OutOfRangeSkip
		from := 0 // the updates before it are applied
		if h, ok := run.fast.(halver); ok && halving(n, size, int(s.views[vDst].size), work) {
			// Two workers, each owning half of dst (see halves.go),
			// up to a chunk that holds an index this loop must see.
			from = h.halves(ind, &s.done)
		}
		if bad := run.fast.scatterLine(0, ind[from:], from, s.nd.lims[0], skip); bad >= 0 {
			return indexErr(opt.Rules, *indices, from+bad, ds, 0, 1)
		}
		return nil
	}
	offs, bad := s.tupleOffsets(&s.nd, size, opt.Rules)
	if bad >= 0 {
		return indexErr(opt.Rules, *indices, bad, ds, bad%k, k)
	}
	if size == 0 {
		return nil
	}
	if offs != nil && run.fast != nil && small(work) {
		// A small call of tuples (S2, a KV-cache write): every one
		// into the whole of dst, on this goroutine.
		run.fill(0, run.size)
		run.fast.scatterOffsets(offs, block)
		return nil
	}
	s.nd.offs = offs
	blocks := size / block
	p := parts(work)
	if one {
		p = 1
	}
	if run.mean != nil {
		run.countMeans(s, blocks, block, n, opt.ExcludeSelf, p)
	}
	s.workerPairs(p)
	s.snd.s, s.snd.block, s.snd.blocks = s, block, blocks
	parallel(blocks, p, &s.snd, &s.done)
	return nil
}

// oneScan reports whether a ScatterND of n single elements into a dst of
// the given size in bytes runs fastest on one goroutine however large it
// is. Workers that split dst each read every tuple to find the ones in
// their range; when the updates outnumber dst's elements and dst fits in
// the cache, that reading costs more than the split saves, and one tight
// loop over the tuples in order wins (W3: 7.8 ms on two workers, 5.5 ms on
// one).
func oneScan(run *scatterRun, block, n, size int) bool {
	return run.fast != nil && block == 1 && n >= run.size && size <= 8<<20
}

// product returns the product of dims, which must not overflow: dims of
// a tensor that has elements.
func product(dims []int) int {
	p := 1
	for _, d := range dims {
		p *= d
	}
	return p
}

// updatesFit reports whether updates has the shape outer + inner.
func updatesFit(updates *tensor.Tensor, outer, inner tensor.Shape) bool {
	if updates.Rank() != len(outer)+len(inner) {
		return false
	}
	for i, d := range outer {
		if updates.Dim(i) != d {
			return false
		}
	}
	for i, d := range inner {
		if updates.Dim(len(outer)+i) != d {
			return false
		}
	}
	return true
}

// scatterNDJob is the parallel part of ScatterND: each worker owns a
// range of blocks of dst.
type scatterNDJob struct {
	s             *scratch
	block, blocks int
}

func (j *scatterNDJob) work(w, lo, hi int) {
	s, block := j.s, j.block
	run := &s.run
	run.fill(lo*block, hi*block)
	if run.fast != nil && s.nd.offs != nil && lo == 0 && hi == j.blocks {
		// The whole of dst: every tuple lands in it, in one loop.
		run.fast.scatterOffsets(s.nd.offs, block)
		return
	}
	it := pairIter{nd: &s.nd, block: block, lo: lo * block, hi: hi * block, buf: s.pairsOf(w)}
	run.each(&it, w)
	run.finish(lo*block, hi*block)
}

// ScatterElements writes into dst a copy of data in which, for each element
// of indices at position p, the element of data at p with p[axis] replaced
// by the index value is updated with updates at p. indices, updates and
// data have the same rank; indices.shape[d] <= data.shape[d] for d != axis
// and indices.shape[d] <= updates.shape[d] for every d (PyTorch lets
// updates be larger; ONNX makes them equal). axis is in [0, rank). dst has
// data's type and shape, and may be data itself; a zero data tensor stands
// for zeros, as for ScatterND.
//
// Elements are applied in row-major order of indices with opt.Reduction.
// In place every index is validated before dst is written; into another
// dst, an error (naming the first bad index) may leave it partly
// written.
func ScatterElements(dst, data, indices, updates tensor.Tensor, axis int, opt ScatterOptions) error {
	if !fastRules(opt.Rules) {
		return clampErr("ScatterElements")
	}
	s := getScratch()
	defer s.release()
	return s.scatterElements(&dst, &data, &indices, &updates, axis, opt)
}

func (s *scratch) scatterElements(dst, data, indices, updates *tensor.Tensor, axis int, opt ScatterOptions) error {
	if err := checkScatter(s, dst, data, indices, updates, opt); err != nil {
		return err
	}
	ds, is, us := s.shape(dataShape, dst), s.shape(indexShape, indices), s.shape(updateShape, updates)
	size := dst.Len()
	if err := checkElements(ds, is, axis); err != nil {
		return err
	}
	if len(us) != len(is) {
		return shapeErr("updates has rank %d, indices has rank %d; they must be equal", len(us), len(is))
	}
	for d := range is {
		if is[d] > us[d] {
			return shapeErr("indices %v is larger than updates %v in dimension %d", is, us, d)
		}
	}
	if forceGeneral {
		dims := ScatterElementsDims(len(ds), axis)
		return s.scatterGeneral(dst, data, indices, updates, &dims, opt)
	}
	ind, err := s.indexInts(indices)
	if err != nil {
		return err
	}
	lim := s.limits(opt.Rules, ds[axis:axis+1])[0]
	run := s.newScatterRun(dst, data, updates, 1, opt)
	// Along a later axis, into a dst that is not data, the one-loop path
	// checks each row of indices as it applies it: the separate pass
	// over every index would take a fifth of the time. An error may then
	// leave dst partly written, as a gather's does; in place, nothing is
	// written before every index has passed.
	asItGoes := axis != 0 && run.fast != nil && size > 0 && !run.inPlace
	if !asItGoes {
		if bad := s.firstBad(ind, s.lims, opt.Rules); bad >= 0 {
			return indexErr(opt.Rules, *indices, bad, ds, axis, 0)
		}
	}
	if size == 0 {
		return nil
	}
	work := run.work(2 * len(ind))
	p := parts(work)
	if run.mean != nil {
		run.countMeans(s, size, 1, len(ind), opt.ExcludeSelf, p)
	}
	s.el.init(ind, is, axis, lim, s.stridesOf(0, ds), s.stridesOf(1, us), p)
	skip := !asItGoes || opt.Rules.OutOfRange == OutOfRangeSkip
	width := 0 // of the column blocks along axis 0 (see columnWidth)
	if axis == 0 && run.fast != nil {
		width = columnWidth(ds[0], int(s.views[vDst].size))
	}
	switch {
	case small(work) && run.fast != nil:
		// A small call, on one worker, which applies the updates where
		// they land, in order: in place this touches only what they
		// update. (A larger call on one worker is better off with the
		// slabs or the column blocks below, which keep in cache what they
		// fill and update.)
		run.fill(0, run.size)
		if bad := run.fast.scatterRows(&s.el, 0, 0, s.el.rows(), skip); bad >= 0 {
			return indexErr(opt.Rules, *indices, bad, ds, axis, 0)
		}
	case axis != 0:
		// The slab of dst at d0 along dimension 0 receives only the updates
		// of the slab of indices at d0: each worker takes whole slabs,
		// filling and updating one at a time while it is in cache.
		perSlab := 0
		if is[0] > 0 {
			perSlab = s.el.rows() / is[0]
		}
		j := &s.slabs
		*j = slabJob{s: s, slab: size / ds[0], slabs: is[0], perSlab: perSlab, skip: skip, found: s.noneFound(p)}
		// Mean, with a count per element, sums by the one-loop path (its
		// reducer adds) and divides after (the indices have been
		// validated).
		if run.mean != nil && run.mean.counts != nil && !opt.ExcludeSelf {
			j.sum, _ = run.red.(fastScatter)
		}
		if run.fast == nil && j.sum == nil {
			s.workerPairs(p)
		}
		parallel(ds[0], p, j, &s.done)
		if bad := firstOf(s.found); bad >= 0 {
			return indexErr(opt.Rules, *indices, bad, ds, axis, 0)
		}
	case width > 0 && len(ds) >= 2 && is[1:].Equal(ds[1:]) && us.Equal(is) && !run.sparse(len(ind)):
		// Along axis 0 an update keeps its column: each worker owns
		// blocks of columns, from data to dst.
		inner := size / ds[0]
		s.columns = columnJob{run: run, data: s.views[vData], ind: ind, lim: lim, rows: is[0], inner: inner, width: width}
		parallel((inner+width-1)/width, p, &s.columns, &s.done)
		s.columns = columnJob{} // it held the caller's tensors (see release)
	default:
		// Each worker owns a range of dst and applies, in index order, the
		// updates that land in it.
		s.workerPairs(p)
		s.ranges = rangeJob{s: s}
		parallel(size, p, &s.ranges, &s.done)
	}
	return nil
}

// slabJob is the parallel part of ScatterElements along an axis other
// than 0: each worker takes whole slabs along dimension 0.
type slabJob struct {
	s       *scratch
	slab    int // elements of dst per slab
	slabs   int // slabs of indices
	perSlab int // rows of indices per slab
	skip    bool
	sum     fastScatter // Mean's one-loop sum, or nil
	found   []int
}

func (j *slabJob) work(w, lo, hi int) {
	s := j.s
	run := &s.run
	for d0 := lo; d0 < hi; d0++ {
		run.fill(d0*j.slab, (d0+1)*j.slab)
		if d0 >= j.slabs {
			run.finish(d0*j.slab, (d0+1)*j.slab) // DivideAll divides it too
			continue
		}
		r0, r1 := d0*j.perSlab, (d0+1)*j.perSlab
		switch {
		case j.sum != nil:
			j.sum.scatterRows(&s.el, w, r0, r1, true)
			run.mean.divideRows(run.red, &s.el, w, r0, r1, d0*j.slab, (d0+1)*j.slab)
		case run.fast == nil:
			it := pairIter{el: &s.el, lo: 0, hi: run.size, r0: r0, r1: r1, w: w, buf: s.pairsOf(w)}
			run.each(&it, w)
			run.finish(d0*j.slab, (d0+1)*j.slab)
		default:
			if bad := run.fast.scatterRows(&s.el, w, r0, r1, j.skip); bad >= 0 {
				j.found[w] = bad
				return
			}
		}
	}
}

// columnJob is the parallel part of ScatterElements along axis 0 through
// column blocks: each worker owns blocks of columns.
type columnJob struct {
	run                *scatterRun
	data               view
	ind                []int64
	lim                limit
	rows, inner, width int
}

func (j *columnJob) work(_, lo, hi int) {
	j.run.fast.scatterColumns(j.data, j.ind, j.lim, j.rows, j.inner, j.width, lo*j.width, min(hi*j.width, j.inner))
}

// rangeJob is the parallel part of ScatterElements along axis 0 without
// column blocks: each worker owns a range of dst.
type rangeJob struct{ s *scratch }

func (j *rangeJob) work(w, lo, hi int) {
	s := j.s
	run := &s.run
	run.fill(lo, hi)
	it := pairIter{el: &s.el, lo: lo, hi: hi, r0: 0, r1: s.el.rows(), w: w, buf: s.pairsOf(w)}
	run.each(&it, w)
	run.finish(lo, hi)
}

// Ways to fill dst before a scatter applies its updates.
const (
	fillCopy  = iota // from data
	fillClear        // zeros, for a zero data tensor
	fillNone         // in place: dst is data
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
}

// newScatterRun prepares s.run, a scatter of updates into dst in blocks of
// block elements, after checkScatter. For Mean, countMeans must follow.
func (s *scratch) newScatterRun(dst, data, updates *tensor.Tensor, block int, opt ScatterOptions) *scatterRun {
	run := &s.run
	run.inPlace, run.m, run.red, run.fast, run.reset, run.wide, run.mean = false, nil, nil, nil, nil, nil, nil
	run.size = dst.Len()
	switch {
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
func checkScatter(s *scratch, dst, data, indices, updates *tensor.Tensor, opt ScatterOptions) error {
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
	if !data.IsZero() && !dst.SameShape(*data) {
		return shapeErr("dst has shape %v, data has shape %v; they must be equal", dst.Shape(), data.Shape())
	}
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

// checkElements checks the shapes of ScatterElements and GatherElements.
func checkElements(ds, is tensor.Shape, axis int) error {
	if len(ds) == 0 {
		return shapeErr("data must have rank >= 1, got a scalar")
	}
	if axis < 0 || axis >= len(ds) {
		return argErr("axis %d is out of range [0, %d] for data %v", axis, len(ds)-1, ds)
	}
	if len(is) != len(ds) {
		return shapeErr("indices has rank %d, data has rank %d; they must be equal", len(is), len(ds))
	}
	for d := range is {
		if d != axis && is[d] > ds[d] {
			return shapeErr("indices %v is larger than data %v in dimension %d (only the axis dimension %d may be larger)",
				is, ds, d, axis)
		}
	}
	return nil
}
