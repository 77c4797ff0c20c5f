package engine

import (
	"time"

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
	if !opt.Scale.IsZero() {
		return scatterScaled(scaledND, dst, data, indices, updates, 0, nil, &opt)
	}
	s := getScratch()
	err := scatterND(s, &dst, &data, &indices, &updates, &opt)
	s.release()
	return err
}

// The kernels take their tensors by pointer: a Tensor is too large for
// the compiler to keep in registers, and every call that took one by value
// copied it, right after storing it, at the cost of a stalled load.
func scatterND(s *scratch, dst, data, indices, updates *tensor.Tensor, opt *ScatterOptions) error {
	plan := &s.ndp
	if plan.matches(dst, data, indices, updates, opt) {
		// What checkScatter checks of the options and of the memory.
		if err := checkReduction(dst.DType(), opt); err != nil {
			return err
		}
		if err := checkMemory(s, dst, data, indices, updates); err != nil {
			return err
		}
	} else {
		if err := checkScatterND(s, dst, data, indices, updates, opt); err != nil {
			plan.valid = false
			return err
		}
		plan.set(dst, data, indices, updates, s.shapes[dataShape], s.shapes[indexShape], opt)
	}
	// The tuples' length and number, the elements of the slice each
	// addresses (the product of dimensions that cannot overflow when dst
	// has elements), and the components' limits and strides: the plan's,
	// or for a call without one derived into the scratch.
	var ds tensor.Shape
	var size, k, n, block int
	var lims []limit
	var strides []int
	if plan.valid {
		ds, size, k, n, block = plan.shape(planDst), plan.size, plan.k, plan.n, plan.block
		lims, strides = plan.lims[:k], plan.strides[:k]
	} else {
		ds = s.shapes[dataShape]
		is := tensor.Shape(s.shapes[indexShape])
		size, k = dst.Len(), is[len(is)-1]
		n, _ = is[:len(is)-1].NumElements()
		if size > 0 {
			block = product(ds[k:])
		}
		lims, strides = s.limits(runRules(opt.Rules), ds[:k]), s.stridesOf(0, ds)[:k]
	}
	ind, err := s.indexInts(indices)
	if err != nil {
		return err
	}
	// In place (dst is data), and a call too small to share.
	inPlace := s.views[vDst].span().same(s.views[vData].span())
	few := small(len(ind) + s.views[vUpd].n)
	var run *scatterRun
	work := 0
	if size > 0 && k > 0 && size <= maxOffset && !few && !inPlace {
		run = newScatterRun(s, dst, data, updates, block, opt)
		work = run.work(len(ind) + s.views[vUpd].n) // updates.Len()
		if oneRows(run, block, n, size*int(s.views[vDst].size)) {
			return scatterPipe(s, indices, ind, ds, lims, strides, k, n, block, work, opt.Rules)
		}
	}
	if opt.Rules.negativePass() {
		rules, bad := negativePass(ind, ds[:k], opt.Rules)
		if bad >= 0 {
			return indexErr(opt.Rules, *indices, bad, ds, bad%k, k)
		}
		opt.Rules = rules // opt is the public call's own copy: runRules'
	}
	if k == 1 && block == 1 && sumsPlaced(dst, opt) && few && inPlace {
		// A small call of float32 sums of single indices in place (S6),
		// dst's elements one row (see scratch.sumPlaced).
		added, bad := s.sumPlaced(ind, lims[0], len(ind))
		if bad >= 0 {
			return indexErr(opt.Rules, *indices, bad, ds, 0, 1)
		}
		if !added { // negative values, checked: the loop that wraps them
			reduceIndex(Add, words[float32](s.views[vDst]), ind, words[float32](s.views[vUpd]), lims[0].size, lims[0].fromEnd)
		}
		return nil
	}
	if k > 0 && size > 0 && size <= maxOffset && opt.Reduction == None && dst.DType() != tensor.String &&
		uintptr(block)*s.views[vDst].size%16 == 0 && few && inPlace {
		// A small write in place of rows of whole 16-byte words (S2, a
		// KV-cache write): the tuples checked into offsets, then the rows
		// placed (placeRows, as the movers place them), with no mover to
		// set up.
		s.nd.set(ind, k, n, lims, strides, 0, 0)
		offs, bad := tupleOffsets(s, &s.nd, size, opt.Rules)
		if bad >= 0 {
			return indexErr(opt.Rules, *indices, bad, ds, bad%k, k)
		}
		if d, u := s.views[vDst], s.views[vUpd]; len(offs) > 0 {
			placeRows(d.p, d.size, &offs[0], len(offs), u.p, uintptr(block)*d.size, placeAVX)
		}
		return nil
	}
	if size > 0 && run == nil {
		run = newScatterRun(s, dst, data, updates, block, opt)
		work = run.work(len(ind) + s.views[vUpd].n) // updates.Len()
	}
	if k == 1 && run != nil && run.fast != nil && small(work) {
		// A small call with single indices: check them all, then apply
		// each update where it lands, in order, without offsets (or
		// strides).
		if bad := firstBad(s, ind, lims, opt.Rules); bad >= 0 {
			return indexErr(opt.Rules, *indices, bad, ds, 0, 1)
		}
		run.fill(0, run.size)
		run.fast.scatterIndex(ind, lims[0], block)
		return nil
	}
	s.nd.set(ind, k, n, lims, strides, 0, 0)
	one := run != nil && oneScan(run, block, n, size*int(s.views[vDst].size))
	if k == 1 && one && !run.inPlace {
		// Many single updates into a dst that is not data and fits in
		// the cache: one loop checks each index as it applies it, where
		// a pass that turned every index into an offset first would
		// read every index twice. An error may leave dst partly written.
		run.fill(0, run.size)
		skip := opt.Rules.OutOfRange == OutOfRangeSkip
		from := 0           // the updates before it are applied
		var times *wayTimes // of the call's way, when timed
		x, begin := loopWay, int64(0)
		if h, ok := run.fast.(halver); ok && halving(n, size, int(s.views[vDst].size), work) {
			x = halvesWay
			if halvesTimed {
				times = timesOf(size * int(s.views[vDst].size))
				begin = now()
				x = times.choose(begin)
			}
			if x == halvesWay {
				// Two workers, each owning half of dst (see
				// scatter_halves.go), up to a chunk that holds an index
				// this loop must see.
				from = h.halves(ind, &s.done)
			}
		}
		if from < n {
			if bad := run.fast.scatterLine(s.views[vDst], 0, ind[from:], from, s.nd.lims[0], skip); bad >= 0 {
				return indexErr(opt.Rules, *indices, from+bad, ds, 0, 1)
			}
		}
		if times != nil && (x == loopWay || from == n) {
			end := now()
			times.record(x, end, time.Duration(end-begin), n)
		}
		return nil
	}
	offs, bad := tupleOffsets(s, &s.nd, size, opt.Rules)
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
		run.fast.scatterOffsets(offs, 0, block)
		return nil
	}
	s.nd.offs = offs
	blocks := size / block
	p := parts(work)
	if one || p > 1 && oneRows(run, block, n, size*int(s.views[vDst].size)) {
		p = 1
	}
	if block == 1 && offs != nil && blocking(run, n, size, int(s.views[vDst].size), p) {
		// Single elements into another dst past the cache: sorted by
		// block of dst (see scatter_nd_blocked.go).
		s.scatterBlocked(offs, nil, size, s.views[vDst].size)
		return nil
	}
	if offs != nil && rowsOnce(s, run, dst, block, len(offs)) {
		// Rows into another dst past the cache: each row of dst written
		// once (see scatter_nd_once.go).
		s.scatterRowsOnce(offs, block, blocks, parts(work))
		return nil
	}
	if run.mean != nil {
		run.countMeans(s, blocks, block, n, opt.ExcludeSelf, p)
	}
	s.workerPairs(p)
	if run.reset != nil && (!run.inPlace || blocks/64 <= n) {
		// A bitmap of the blocks costs less than the fill of dst, or
		// than the updates: not for a few updates in place.
		run.seen = s.workerSeen(p)
	}
	s.snd.s, s.snd.block, s.snd.blocks = s, block, blocks
	parallel(blocks, p, &s.snd, &s.done)
	return nil
}

// scatterPipe is ScatterND for small rows into another dst in the cache,
// through the pipeline (scatter_rows_pipeline.go), which checks the
// indices past the end that NegativeSkip refuses as it goes, rather than
// in a pass first: ind are the indices' values, ds dst's shape, lims and
// strides those of the tuples' k components under the rules after any
// such pass (runRules), n the tuples, block the elements of a slice and
// work the call's.
func scatterPipe(s *scratch, indices *tensor.Tensor, ind []int64, ds tensor.Shape, lims []limit, strides []int,
	k, n, block, work int, asked IndexRules) error {
	var ends []int
	switch {
	case asked.Negative == NegativeSkip && asked.OutOfRange == OutOfRangeError:
		ends = ds[:k] // looked at a chunk at a time
	case asked.Negative == NegativeRefused:
		if bad := firstNegative(ind, asked); bad >= 0 {
			return indexErr(asked, *indices, bad, ds, bad%k, k)
		}
	}
	rules := runRules(asked)
	s.nd.set(ind, k, n, lims, strides, 0, 0)
	if bad := pipeRows(s, n, block, parts(work), rules, ends); bad >= 0 {
		return indexErr(asked, *indices, bad, ds, bad%k, k)
	}
	return nil
}

// checkScatterND checks the arguments of ScatterND, its shapes read into
// s.shapes' slots of data (dst's shape) and indices.
func checkScatterND(s *scratch, dst, data, indices, updates *tensor.Tensor, opt *ScatterOptions) error {
	if err := checkScatter(s, dst, data, indices, updates, opt); err != nil {
		return err
	}
	ds, is := s.shape(dataShape, dst), s.shape(indexShape, indices)
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
	return nil
}

// oneScan reports whether a ScatterND of n single elements into a dst of
// the given size in bytes runs fastest on one goroutine however large it
// is. Workers that split dst each read every tuple to find the ones in
// their range; when the updates outnumber dst's elements and dst fits in
// the cache, that reading costs more than the split saves, and one tight
// loop over the tuples in order wins (docs/measurements.md).
func oneScan(run *scatterRun, block, n, size int) bool {
	return run.fast != nil && block == 1 && n >= run.size && size <= 8<<20
}

// oneRows is oneScan for rows of a few cache lines (W10: a million rows
// of 16 float32 into 65536): workers that split dst each skip the rows
// of the others, but as the rows they own interleave at random in
// updates, the processor's prefetch streams nearly all of them to each
// worker. When the updates outnumber dst's elements and dst fits in the
// cache, one loop that reads them once takes as long on half the CPU
// (docs/measurements.md).
func oneRows(run *scatterRun, block, n, size int) bool {
	return run.fast != nil && block > 1 && block <= 64 && n*block >= run.size && size <= oneRowsBytes
}

// oneRowsBytes is the largest dst, in bytes, that oneRows takes: a
// variable, so that tests split dst among workers.
var oneRowsBytes = 8 << 20

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
		run.fast.scatterOffsets(s.nd.offs, 0, block)
		return
	}
	it := pairIter{nd: &s.nd, block: block, lo: lo * block, hi: hi * block, buf: s.pairsOf(w)}
	run.each(&it, w)
	run.finish(lo*block, hi*block)
}

// setIndex sets dst[p] = upd[t] for the position p that each ind[t]
// names in a dimension of the given size, in order, skipping those
// outside it; fromEnd is what a negative index adds (see wrap).
//
//go:noinline
func setIndex[E any](dst []E, ind []int64, upd []E, size int, fromEnd int64) {
	upd = upd[:len(ind)]
	for t, v := range ind {
		if p := wrap(v, fromEnd); uint64(p) < uint64(size) {
			dst[p] = upd[t]
		}
	}
}

// reduceIndex is setIndex combining each update into its element by red;
// Add has a loop of its own (see reduceFlat).
func reduceIndex[T number](red Reduction, dst []T, ind []int64, upd []T, size int, fromEnd int64) {
	if red == Add {
		if f, ok := any(dst).([]float32); ok {
			// float32 sums go to the assembly's loop at once (for 256
			// sums a hundred instructions less than through addLine and
			// addInRange), and to addLine from the first index outside
			// [0, size), which it wraps or skips.
			f = f[:size]
			k := addFloatRows(f, size, ind, len(ind), any(upd).([]float32))
			if k < len(ind) {
				addLine(dst[:size], ind[k:], upd[k:], fromEnd, true, 0)
			}
			return
		}
		addLine(dst[:size], ind, upd, fromEnd, true, 0)
		return
	}
	combineIndex(red, dst, ind, upd, size, fromEnd)
}

// combineIndex is reduceIndex for any reduction.
//
//go:noinline
func combineIndex[T number](red Reduction, dst []T, ind []int64, upd []T, size int, fromEnd int64) {
	upd = upd[:len(ind)]
	for t, v := range ind {
		if p := wrap(v, fromEnd); uint64(p) < uint64(size) {
			dst[p] = combine(red, dst[p], upd[t])
		}
	}
}

// setOffsets sets dst[offs[t]] = upd[t] for every t in order, but for
// offsets of -1.
//
//go:noinline
func setOffsets[E any, O int32 | int](dst []E, offs []O, upd []E) {
	upd = upd[:len(offs)]
	for t, o := range offs {
		if o >= 0 {
			dst[o] = upd[t]
		}
	}
}

// reduceOffsets is setOffsets combining each update into its element by
// red; Add has a loop of its own (see reduceFlat).
func reduceOffsets[T number, O int32 | int](red Reduction, dst []T, offs []O, upd []T) {
	if red == Add {
		addOffsets(dst, offs, upd)
		return
	}
	combineOffsets(red, dst, offs, upd)
}

// addOffsets is reduceOffsets for Add.
//
//go:noinline
func addOffsets[T number, O int32 | int](dst []T, offs []O, upd []T) {
	upd = upd[:len(offs)]
	for t, o := range offs {
		if o >= 0 {
			dst[o] = add(dst[o], upd[t])
		}
	}
}

// combineOffsets is reduceOffsets for any reduction.
//
//go:noinline
func combineOffsets[T number, O int32 | int](red Reduction, dst []T, offs []O, upd []T) {
	upd = upd[:len(offs)]
	for t, o := range offs {
		if o >= 0 {
			dst[o] = combine(red, dst[o], upd[t])
		}
	}
}
