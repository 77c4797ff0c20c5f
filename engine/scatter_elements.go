package engine

import (
	"github.com/scatter-dev/scatter/tensor"
)

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
	if !opt.Scale.IsZero() {
		return scatterScaled(scaledElements, dst, data, indices, updates, axis, nil, &opt)
	}
	s := getScratch()
	defer s.release()
	return scatterElements(s, &dst, &data, &indices, &updates, axis, &opt)
}

func scatterElements(s *scratch, dst, data, indices, updates *tensor.Tensor, axis int, opt *ScatterOptions) error {
	if err := checkScatterElements(s, dst, data, indices, updates, axis, opt); err != nil {
		return err
	}
	ds, is, us := tensor.Shape(s.shapes[dataShape]), tensor.Shape(s.shapes[indexShape]), tensor.Shape(s.shapes[updateShape])
	size := dst.Len()
	ind, err := s.indexInts(indices)
	if err != nil {
		return err
	}
	if opt.Rules.negativePass() {
		rules, bad := negativePass(ind, ds[axis:axis+1], opt.Rules)
		if bad >= 0 {
			return indexErr(opt.Rules, *indices, bad, ds, axis, 0)
		}
		opt.Rules = rules // opt is the public call's own copy
	}
	lim := s.limits(opt.Rules, ds[axis:axis+1])[0]
	if sumsPlaced(dst, opt) && axis == len(ds)-1 && us.Equal(is) && (axis == 0 || is[1:axis].Equal(ds[1:axis])) &&
		small(2*len(ind)) && s.views[vDst].span().same(s.views[vData].span()) {
		// A small call of float32 sums along the last axis in place (S4):
		// each row of indices into its row of dst, which follow one
		// another as the rows of indices do (see scratch.sumPlaced).
		added, bad := s.sumPlaced(ind, lim, is[axis])
		if bad >= 0 {
			return indexErr(opt.Rules, *indices, bad, ds, axis, 0)
		}
		if added {
			return nil
		} // else negative values, checked: the loops that wrap them
	}
	run := newScatterRun(s, dst, data, updates, 1, opt)
	// Along a later axis, into a dst that is not data, the one-loop path
	// checks each row of indices as it applies it: the separate pass
	// over every index would read every index twice. An error may then
	// leave dst partly written, as a gather's does; in place, nothing is
	// written before every index has passed.
	asItGoes := axis != 0 && run.fast != nil && size > 0 && !run.inPlace
	if !asItGoes {
		if bad := firstBad(s, ind, s.lims, opt.Rules); bad >= 0 {
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
		if axis == len(ds)-1 && j.sum == nil {
			j.through = slabsThrough(s, dst, j.slab, j.slab, us.Equal(is))
		}
		parallel(ds[0], p, j, &s.done)
		if bad := firstOf(s.found); bad >= 0 {
			return indexErr(opt.Rules, *indices, bad, ds, axis, 0)
		}
	case width > 0 && len(ds) >= 2 && is[1:].Equal(ds[1:]) && us.Equal(is) && !run.sparse(len(ind)) && run.fillWith != fillValue:
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

// checkScatterElements checks the arguments of ScatterElements, its
// shapes read into s.shapes' slots of data (dst's shape), indices and
// updates.
func checkScatterElements(s *scratch, dst, data, indices, updates *tensor.Tensor, axis int, opt *ScatterOptions) error {
	if err := checkScatter(s, dst, data, indices, updates, opt); err != nil {
		return err
	}
	ds, is, us := s.shape(dataShape, dst), s.shape(indexShape, indices), s.shape(updateShape, updates)
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
	// through, where not nil, takes the slabs that have indices through
	// a buffer (see slabsThrough).
	through *slabPlan
	found   []int
}

func (j *slabJob) work(w, lo, hi int) {
	s := j.s
	run := &s.run
	if end := min(hi, j.slabs); j.through != nil && lo < end {
		if bad := j.throughSlabs(w, lo, end); bad >= 0 {
			j.found[w] = bad
			return
		}
		lo = end
	}
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

// setElementRows is scatterRows (see fastScatter) for reduction none:
// the updates src set into dst.
func setElementRows[E any](dst, src []E, e *elemWalk, w, r0, r1 int, skip bool) int {
	along, value := e.steps()
	lim := e.lim
	if len(e.is) == 2 && along == 0 {
		// The rows of a matrix, along its last axis (data's rows are
		// lim.size long): with the updates' rows as long as the indices',
		// one loop for all the elements.
		if e.other[0] == e.last {
			n := r1 - r0
			return setFlat(dst[r0*lim.size:], lim.size, e.ind[r0*e.last:][:n*e.last], e.last, src[r0*e.last:], lim.fromEnd, skip, r0*e.last)
		}
		return setRows(dst, e.data[0], lim.size, e.ind, e.last, src, e.other[0], r0, r1, lim.fromEnd, skip)
	}
	for c := e.row(w, r0); c.r < r1; e.next(c) {
		base := c.data
		idx, upd := e.index(c), src[c.other:c.other+e.last]
		if along == 0 {
			// The axis is the row itself.
			if j := setRow(dst[base:base+lim.size], idx, upd, lim.fromEnd, skip); j >= 0 {
				return c.r*e.last + j
			}
			continue
		}
		for j, v := range idx {
			p, ok := lim.pos(v)
			switch {
			case ok:
				dst[base+j*along+p*value] = upd[j]
			case !skip:
				return c.r*e.last + j
			}
		}
	}
	return -1
}

// reduceElementRows is scatterRows (see fastScatter) combining the
// updates src into dst by red.
func reduceElementRows[T number](red Reduction, dst, src []T, e *elemWalk, w, r0, r1 int, skip bool) int {
	along, value := e.steps()
	lim := e.lim
	if len(e.is) == 2 && along == 0 {
		if e.other[0] == e.last {
			n := r1 - r0
			return reduceFlat(red, dst[r0*lim.size:], lim.size, e.ind[r0*e.last:][:n*e.last], e.last, src[r0*e.last:], lim.fromEnd, skip, r0*e.last)
		}
		return reduceRows(red, dst, e.data[0], lim.size, e.ind, e.last, src, e.other[0], r0, r1, lim.fromEnd, skip)
	}
	for c := e.row(w, r0); c.r < r1; e.next(c) {
		row, base := c.r, c.data
		idx, upd := e.index(c), src[c.other:c.other+e.last]
		if along == 0 {
			if j := reduceRow(red, dst[base:base+lim.size], idx, upd, lim.fromEnd, skip); j >= 0 {
				return row*e.last + j
			}
			continue
		}
		for j, v := range idx {
			p, ok := lim.pos(v)
			switch {
			case ok:
				d := base + j*along + p*value
				dst[d] = combine(red, dst[d], upd[j])
			case !skip:
				return row*e.last + j
			}
		}
	}
	return -1
}

// The inner loops of the row and column kernels are functions of their
// own, not inlined, with few live values, so that the compiler keeps loop
// counters and indices in registers: inlined into the kernels they were
// spilled to the stack on every element. A call per row, or per block of
// columns, costs nothing next to its work.
//
// fromEnd is what a negative index adds (see limit.fromEnd and wrap).

// setRow sets row[idx[j]] = upd[j] for every j in order. At an index
// outside row it stops and returns j, or with skip goes on; it returns
// -1 when it did not stop.
//
//go:noinline
func setRow[E any](row []E, idx []int64, upd []E, fromEnd int64, skip bool) int {
	upd = upd[:len(idx)]
	size := uint64(len(row))
	for j, v := range idx {
		if p := wrap(v, fromEnd); uint64(p) < size {
			row[p] = upd[j]
		} else if !skip {
			return j
		}
	}
	return -1
}

// setFlat is setRow for consecutive rows of a matrix along its last
// axis, dst holding rows of size elements, idx and upd rows of last
// elements, in one loop over all of idx: the row's start in dst steps
// on every last elements. It returns at plus the position in idx of the
// index it stopped at, or -1 when it did not stop.
//
//go:noinline
func setFlat[E any](dst []E, size int, idx []int64, last int, upd []E, fromEnd int64, skip bool, at int) int {
	upd = upd[:len(idx)]
	base, next := 0, last
	for k, v := range idx {
		if k == next { // the next row
			base, next = base+size, next+last
		}
		if p := wrap(v, fromEnd); uint64(p) < uint64(size) {
			dst[base+int(p)] = upd[k]
		} else if !skip {
			return at + k
		}
	}
	return -1
}

// reduceFlat is setFlat combining each update into its element by red.
// Add, the most common reduction, has a loop of its own: with the switch
// of combine inside it the compiler spilled the loop's values.
func reduceFlat[T number](red Reduction, dst []T, size int, idx []int64, last int, upd []T, fromEnd int64, skip bool, at int) int {
	switch {
	case red == Add && last >= len(idx):
		return addLine(dst[:size], idx, upd, fromEnd, skip, at)
	case red == Add:
		return addFlat(dst, size, idx, last, upd, fromEnd, skip, at)
	}
	return combineFlat(red, dst, size, idx, last, upd, fromEnd, skip, at)
}

// addLine is reduceFlat for Add over one line, dst. Its inner loop,
// addInRange, takes the indices in [0, len(dst)) and stops at any other;
// addLine then wraps, skips or reports those one by one and goes on: a
// loop that wrapped every index is slower (docs/measurements.md).
func addLine[T number](dst []T, idx []int64, upd []T, fromEnd int64, skip bool, at int) int {
	upd = upd[:len(idx)]
	size := uint64(len(dst))
	for k := 0; k < len(idx); {
		k += addInRange(dst, idx[k:], upd[k:])
		for ; k < len(idx) && uint64(idx[k]) >= size; k++ {
			if p := wrap(idx[k], fromEnd); uint64(p) < size {
				dst[p] = add(dst[p], upd[k])
			} else if !skip {
				return at + k
			}
		}
	}
	return -1
}

// addInRange adds upd[k] to dst[idx[k]], in order, up to the first index
// outside [0, len(dst)), and returns how many it added. It takes two
// updates a step, which is faster than one at a time and, over many
// updates, than four (docs/measurements.md).
//
//go:noinline
func addInRange[T number](dst []T, idx []int64, upd []T) int {
	if f, ok := any(dst).([]float32); ok {
		return addFloatRows(f, len(f), idx, len(idx), any(upd).([]float32))
	}
	upd = upd[:len(idx)]
	size := uint64(len(dst))
	k := 0
	for ; k+2 <= len(idx); k += 2 {
		a, b := idx[k], idx[k+1]
		if uint64(a) >= size || uint64(b) >= size {
			break
		}
		dst[a] = add(dst[a], upd[k])
		dst[b] = add(dst[b], upd[k+1])
	}
	for ; k < len(idx); k++ {
		if uint64(idx[k]) >= size {
			return k
		}
		dst[idx[k]] += upd[k]
	}
	return len(idx)
}

// addFlat is reduceFlat for Add over rows. Rows of even length go two
// updates a step while both indices lie in [0, size) (see addInRange); the rest one at a time, an index outside
// the dimension skipped with skip, else reported. The one loop serves
// both: skip is read only on the way out of range.
//
//go:noinline
func addFlat[T number](dst []T, size int, idx []int64, last int, upd []T, fromEnd int64, skip bool, at int) int {
	upd = upd[:len(idx)]
	n := uint64(size)
	base, next := 0, last
	k := 0
	if f, ok := any(dst).([]float32); ok && last > 0 {
		k = addFloatRows(f, size, idx, last, any(upd).([]float32))
		base, next = k/last*size, (k/last+1)*last
	} else if last%2 == 0 {
		// A step never straddles two rows.
		for ; k+2 <= len(idx); k += 2 {
			if k == next {
				base, next = base+size, next+last
			}
			a, b := idx[k], idx[k+1]
			if uint64(a) >= n || uint64(b) >= n {
				break
			}
			dst[base+int(a)] = add(dst[base+int(a)], upd[k])
			dst[base+int(b)] = add(dst[base+int(b)], upd[k+1])
		}
	}
	for ; k < len(idx); k++ {
		if k == next {
			base, next = base+size, next+last
		}
		if p := wrap(idx[k], fromEnd); uint64(p) < n {
			dst[base+int(p)] = add(dst[base+int(p)], upd[k])
		} else if !skip {
			return at + k
		}
	}
	return -1
}

// combineFlat is reduceFlat for any reduction.
//
//go:noinline
func combineFlat[T number](red Reduction, dst []T, size int, idx []int64, last int, upd []T, fromEnd int64, skip bool, at int) int {
	upd = upd[:len(idx)]
	base, next := 0, last
	for k, v := range idx {
		if k == next {
			base, next = base+size, next+last
		}
		if p := wrap(v, fromEnd); uint64(p) < uint64(size) {
			d := base + int(p)
			dst[d] = combine(red, dst[d], upd[k])
		} else if !skip {
			return at + k
		}
	}
	return -1
}

// setRows is setRow for rows r0 to r1 of a matrix along its last axis:
// row r of dst starts at r*dstep and holds size elements, its indices
// are idx[r*last:][:last], its updates upd[r*ustep:][:last]. It returns
// the flat position in idx of the index it stopped at, or -1. One call
// for all the rows, where a call per row cost as much as a short row's
// work.
func setRows[E any](dst []E, dstep, size int, idx []int64, last int, upd []E, ustep, r0, r1 int, fromEnd int64, skip bool) int {
	for r := r0; r < r1; r++ {
		if j := setRow(dst[r*dstep:][:size], idx[r*last:][:last], upd[r*ustep:][:last], fromEnd, skip); j >= 0 {
			return r*last + j
		}
	}
	return -1
}

// reduceRows is setRows combining each update into its element by red.
func reduceRows[T number](red Reduction, dst []T, dstep, size int, idx []int64, last int, upd []T, ustep, r0, r1 int, fromEnd int64, skip bool) int {
	for r := r0; r < r1; r++ {
		if j := reduceRow(red, dst[r*dstep:][:size], idx[r*last:][:last], upd[r*ustep:][:last], fromEnd, skip); j >= 0 {
			return r*last + j
		}
	}
	return -1
}

// reduceRow is setRow combining each update into its element by red; Add
// goes through addLine's loop.
//
//go:noinline
func reduceRow[T number](red Reduction, row []T, idx []int64, upd []T, fromEnd int64, skip bool) int {
	if red == Add {
		return addLine(row, idx, upd, fromEnd, skip, 0)
	}
	upd = upd[:len(idx)]
	size := uint64(len(row))
	for j, v := range idx {
		if p := wrap(v, fromEnd); uint64(p) < size {
			row[p] = combine(red, row[p], upd[j])
		} else if !skip {
			return j
		}
	}
	return -1
}
