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
// Tuples are applied in row-major order of indices with opt.Reduction; all
// of them are validated before dst is written.
func ScatterND(dst, data, indices, updates tensor.Tensor, opt ScatterOptions) error {
	if err := checkScatter(dst, data, indices, updates, opt); err != nil {
		return err
	}
	ds, is, us := dst.Shape(), indices.Shape(), updates.Shape()
	if len(is) == 0 {
		return shapeErr("indices must have rank >= 1, got a scalar")
	}
	k := is[len(is)-1]
	if k > len(ds) {
		return shapeErr("indices.shape[-1] = %d is larger than the rank %d of data %v", k, len(ds), ds)
	}
	want := append(is[:len(is)-1].Clone(), ds[k:]...)
	if !us.Equal(want) {
		return shapeErr("updates has shape %v, want %v (indices.shape[:-1] + data.shape[%d:], with indices %v and data %v)",
			us, want, k, is, ds)
	}
	if forceGeneral {
		dims := ScatterNDDims(len(ds), is)
		return ScatterGeneral(dst, data, indices, updates, &dims, opt)
	}
	ind, err := indexInts(indices)
	if err != nil {
		return err
	}
	lims := opt.Rules.limits(ds[:k])
	n, _ := is[:len(is)-1].NumElements()
	walk := &ndWalk{ind: ind, k: k, n: n, lims: lims, strides: ds.Strides()[:k]}
	offs, bad := tupleOffsets(walk, dst.Len(), opt.Rules)
	defer putOffsets(offs)
	if bad >= 0 {
		return indexErr(opt.Rules, indices, bad, ds, bad%k, k)
	}
	if dst.Len() == 0 {
		return nil
	}
	walk.offs = offs
	block, _ := ds[k:].NumElements()
	// tuples hands over the pairs of the tuples whose slices start in
	// [lo, hi), in buf, a batch at a time.
	tuples := func(lo, hi int, buf []pair) func(emit func([]pair)) {
		return func(emit func([]pair)) {
			for t := 0; t < n; {
				var c int
				c, t = walk.scatterPairs(t, lo, hi, block, buf)
				emit(buf[:c])
			}
		}
	}
	run := newScatterRun(dst, data, updates, block, opt)
	if opt.Reduction == Mean {
		run.countMeans(dst.Len()/block, block, n, opt.ExcludeSelf)
	}
	parallel(dst.Len()/block, parts(dst.Len()+len(ind)), func(_, lo, hi int) {
		run.fill(lo*block, hi*block)
		run.each(tuples(lo*block, hi*block, make([]pair, batch)), lo*block, hi*block)
	})
	return nil
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
	if err := checkScatter(dst, data, indices, updates, opt); err != nil {
		return err
	}
	ds, is, us := dst.Shape(), indices.Shape(), updates.Shape()
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
		return ScatterGeneral(dst, data, indices, updates, &dims, opt)
	}
	ind, err := indexInts(indices)
	if err != nil {
		return err
	}
	lim := opt.Rules.limits(ds[axis : axis+1])
	run := newScatterRun(dst, data, updates, 1, opt)
	// Along a later axis, into a dst that is not data, the one-loop path
	// checks each row of indices as it applies it: the separate pass
	// over every index would take a fifth of the time. An error may then
	// leave dst partly written, as a gather's does; in place, nothing is
	// written before every index has passed.
	asItGoes := axis != 0 && run.fast != nil && dst.Len() > 0 && !SameMemory(dst, data)
	if !asItGoes {
		if bad := firstBad(ind, lim, opt.Rules); bad >= 0 {
			return indexErr(opt.Rules, indices, bad, ds, axis, 0)
		}
	}
	if dst.Len() == 0 {
		return nil
	}
	if opt.Reduction == Mean {
		run.countMeans(dst.Len(), 1, len(ind), opt.ExcludeSelf)
	}
	walk := newElemWalk(ind, is, axis, lim[0], ds.Strides(), us.Strides())
	// rows hands over the pairs of rows r0 to r1 whose data offsets lie in
	// [lo, hi), in buf, a batch at a time.
	rows := func(r0, r1, lo, hi int, buf []pair) func(emit func([]pair)) {
		return func(emit func([]pair)) {
			for r, j := r0, 0; r < r1; {
				var c int
				c, r, j = walk.scatterPairs(r, j, r1, lo, hi, buf)
				emit(buf[:c])
			}
		}
	}
	work := dst.Len() + len(ind)
	if axis != 0 {
		// The slab of dst at d0 along dimension 0 receives only the updates
		// of the slab of indices at d0: each worker takes whole slabs,
		// filling and updating one at a time while it is in cache.
		slab := dst.Len() / ds[0]
		perSlab := 0
		if is[0] > 0 {
			perSlab = walk.rows() / is[0]
		}
		skip := !asItGoes || opt.Rules.OutOfRange == OutOfRangeSkip
		// Mean, with a count per element, sums by the one-loop path (its
		// reducer adds) and divides after (the indices have been
		// validated).
		var sum fastScatter
		if run.mean != nil && run.mean.counts != nil && !opt.ExcludeSelf {
			sum, _ = run.red.(fastScatter)
		}
		p := parts(work)
		found := noneFound(p)
		parallel(ds[0], p, func(w, lo, hi int) {
			var buf []pair // for the path of pairs
			if run.fast == nil && sum == nil {
				buf = make([]pair, batch)
			}
			for d0 := lo; d0 < hi; d0++ {
				run.fill(d0*slab, (d0+1)*slab)
				if d0 >= is[0] {
					continue
				}
				r0, r1 := d0*perSlab, (d0+1)*perSlab
				switch {
				case sum != nil:
					sum.scatterRows(walk, r0, r1, true)
					run.mean.divideRows(run.red, walk, r0, r1, d0*slab, (d0+1)*slab)
				case run.fast == nil:
					run.each(rows(r0, r1, 0, dst.Len(), buf), d0*slab, (d0+1)*slab)
				default:
					if bad := run.fast.scatterRows(walk, r0, r1, skip); bad >= 0 {
						found[w] = bad
						return
					}
				}
			}
		})
		if bad := firstOf(found); bad >= 0 {
			return indexErr(opt.Rules, indices, bad, ds, axis, 0)
		}
	} else if width := columnWidth(ds[0], dst.DType().Size()); run.fast != nil && width > 0 &&
		len(ds) >= 2 && is[1:].Equal(ds[1:]) && us.Equal(is) {
		// Along axis 0 an update keeps its column: each worker owns
		// blocks of columns, from data to dst.
		inner := dst.Len() / ds[0]
		blocks := (inner + width - 1) / width
		parallel(blocks, parts(work), func(_, lo, hi int) {
			run.fast.scatterColumns(data, ind, lim[0], is[0], inner, width, lo*width, min(hi*width, inner))
		})
	} else {
		// Each worker owns a range of dst and applies, in index order, the
		// updates that land in it.
		parallel(dst.Len(), parts(work), func(_, lo, hi int) {
			run.fill(lo, hi)
			run.each(rows(0, walk.rows(), lo, hi, make([]pair, batch)), lo, hi)
		})
	}
	return nil
}

// scatterRun is the typed half of one scatter call: how dst gets its
// starting values and how the update blocks combine into it.
type scatterRun struct {
	fill  func(lo, hi int) // dst[lo:hi] from data, zeros, or as it is (in place)
	apply func([]pair)
	reset func([]pair) // ExcludeSelf: the reduction's identity; nil otherwise
	red   reducer      // nil for reduction none
	fast  fastScatter  // the one-loop path for single elements, when there is one
	mean  *meanCount   // Mean only (see countMeans)
}

// newScatterRun prepares a scatter of updates into dst in blocks of block
// elements. For Mean, countMeans must follow.
func newScatterRun(dst, data, updates tensor.Tensor, block int, opt ScatterOptions) *scatterRun {
	run := &scatterRun{}
	base := newMover(dst, data, 1)
	switch {
	case data.IsZero():
		run.fill = base.clearRange
	case SameMemory(dst, data):
		run.fill = func(int, int) {}
	default:
		run.fill = base.copyRange
	}
	if opt.Reduction == None {
		m := newMover(dst, updates, block)
		run.apply, run.fast = m.move, m
		return run
	}
	run.red = newReducer(dst, updates, block, opt)
	run.apply = run.red.reduce
	if opt.ExcludeSelf {
		run.reset = run.red.setIdentity
	}
	if f, ok := run.red.(fastScatter); ok && !opt.ExcludeSelf && opt.Reduction != Mean {
		run.fast = f
	}
	return run
}

// countMeans makes run, a Mean scatter into blocks of dst (blocks of
// block elements) of n updates, divide each block it updates by the
// number of values that took part. Call it once the indices have been
// validated: it may allocate a count per block.
func (run *scatterRun) countMeans(blocks, block, n int, excludeSelf bool) {
	m := &meanCount{block: block, self: 1}
	if excludeSelf {
		m.self = 0
	}
	if blocks <= n {
		m.counts = make([]int, blocks)
	}
	run.mean = m
}

// each applies the updates that produce hands over, a batch at a time, to
// dst[lo:hi], which they must all land in: first resetting the blocks they
// hit to the identity (with ExcludeSelf), then applying them, and for Mean
// then dividing each block hit by the number of values it took.
func (run *scatterRun) each(produce func(emit func([]pair)), lo, hi int) {
	if run.reset != nil {
		produce(run.reset)
	}
	if run.mean == nil {
		produce(run.apply)
		return
	}
	run.mean.reduce(run.red, produce, lo, hi)
}

// meanCount counts the values that go into the mean of each block of dst.
// With no more blocks than updates it keeps a count per block, shared by
// the workers as each owns a range of blocks; otherwise each worker lists
// the blocks its updates hit, and sorts them. Either way it holds at most
// one int per update.
type meanCount struct {
	block  int
	self   int   // 1 if the existing value takes part, 0 with ExcludeSelf
	counts []int // per block of dst, or nil
}

// reduce reduces the updates into the blocks of dst[lo:hi] with red, then
// divides each block they hit by its number of values.
func (m *meanCount) reduce(red reducer, produce func(emit func([]pair)), lo, hi int) {
	if m.counts != nil {
		counts, block := m.counts, m.block
		produce(func(ps []pair) {
			red.reduce(ps)
			if block == 1 { // no division per update
				for _, p := range ps {
					counts[p.d]++
				}
				return
			}
			for _, p := range ps {
				counts[p.d/block]++
			}
		})
		red.divideCounts(counts, m.self, lo/block, hi/block)
		return
	}
	// Few updates for the size of dst: count this range's first, so that
	// the list takes no more than it needs.
	n := 0
	produce(func(ps []pair) { n += len(ps) })
	hit := make([]int, 0, n)
	produce(func(ps []pair) {
		red.reduce(ps)
		for _, p := range ps {
			hit = append(hit, p.d)
		}
	})
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
// needs a count per element.
func (m *meanCount) divideRows(red reducer, e *elemWalk, r0, r1, lo, hi int) {
	counts := m.counts
	along, value := e.steps()
	for r := r0; r < r1; r++ {
		base, _ := e.bases(r)
		idx := e.ind[r*e.last : (r+1)*e.last]
		if along == 0 {
			countRow(counts[base:base+e.lim.size], idx, e.lim.fromEnd)
			continue
		}
		for j, v := range idx {
			if p, ok := e.lim.pos(v); ok {
				counts[base+j*along+p*value]++
			}
		}
	}
	red.divideCounts(counts, m.self, lo, hi)
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

// elemWalk computes the offsets of the elements of ScatterElements and
// GatherElements a row at a time (a row runs along the last dimension of
// indices). The element at p of indices is at p in the indices-shaped
// tensor (updates, or a gather's output) and addresses p with p[axis]
// replaced by its value in the data-shaped one (a scatter's dst, a
// gather's data).
type elemWalk struct {
	ind         []int64
	is          tensor.Shape
	axis        int
	lim         limit
	data, other []int // strides of the data-shaped and the indices-shaped tensor
	last        int   // is[len(is)-1]
}

func newElemWalk(ind []int64, is tensor.Shape, axis int, lim limit, data, other []int) *elemWalk {
	return &elemWalk{ind: ind, is: is, axis: axis, lim: lim, data: data, other: other, last: is[len(is)-1]}
}

// rows returns the number of rows.
func (e *elemWalk) rows() int {
	if e.last == 0 {
		return 0
	}
	return len(e.ind) / e.last
}

// bases returns the offsets of row r's first element: in the data-shaped
// tensor without the axis coordinate, and in the indices-shaped one.
func (e *elemWalk) bases(r int) (data, other int) {
	for d := len(e.is) - 2; d >= 0; d-- {
		c := r % e.is[d]
		r /= e.is[d]
		if d != e.axis {
			data += c * e.data[d]
		}
		other += c * e.other[d]
	}
	return data, other
}

// steps returns what an element's data offset adds per position along the
// row and per unit of its index value.
func (e *elemWalk) steps() (along, value int) {
	if e.axis == len(e.is)-1 {
		return 0, 1 // the axis is the row itself
	}
	return 1, e.data[e.axis]
}

// scatterPairs fills buf with the pairs (data offset, other offset) of
// the elements from row r, position j on, up to row r1, whose data offsets
// lie in [lo, hi), until buf is full. Values outside the limit (which the
// rules skip, as the others were refused before) give no pair. It returns
// the number of pairs and the row and position to go on from.
func (e *elemWalk) scatterPairs(r, j, r1, lo, hi int, buf []pair) (n, nr, nj int) {
	width := uint(hi - lo)
	along, value := e.steps()
	for ; r < r1; r, j = r+1, 0 {
		base, other := e.bases(r)
		row := e.ind[r*e.last : (r+1)*e.last]
		for ; j < len(row); j++ {
			if n == len(buf) {
				return n, r, j
			}
			d := -1
			if p, ok := e.lim.pos(row[j]); ok {
				d = base + j*along + p*value
			}
			buf[n] = pair{d, other + j}
			if uint(d-lo) < width {
				n++
			}
		}
	}
	return n, r, 0
}

// checkScatter checks what both scatters require of their arguments' types
// and of dst.
func checkScatter(dst, data, indices, updates tensor.Tensor, opt ScatterOptions) error {
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
	if !data.IsZero() && !dst.Shape().Equal(data.Shape()) {
		return shapeErr("dst has shape %v, data has shape %v; they must be equal", dst.Shape(), data.Shape())
	}
	if !SameMemory(dst, data) && Overlap(dst, data) {
		return argErr("dst overlaps data without being data")
	}
	if Overlap(dst, indices) || Overlap(dst, updates) {
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
