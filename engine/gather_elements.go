package engine

import (
	"unsafe"

	"github.com/scatter-dev/scatter/tensor"
)

// GatherElementsShape checks the shapes of GatherElements and returns the
// output shape, which is that of indices.
func GatherElementsShape(data, indices tensor.Shape, axis int) (tensor.Shape, error) {
	if err := checkElements(data, indices, axis); err != nil {
		return nil, err
	}
	return indices.Clone(), nil
}

// GatherElements writes into dst, for each position p of indices, the
// element of data at p with p[axis] replaced by the index value. indices
// has data's rank, and indices.shape[d] <= data.shape[d] for d != axis.
// dst has data's type and indices' shape, and must not overlap the inputs.
func GatherElements(dst, data, indices tensor.Tensor, axis int, rules IndexRules) error {
	return runGather(formGatherElements, dst, data, indices, axis, 0, rules)
}

func gatherElements(s *scratch, dst, data, indices *tensor.Tensor, axis int, rules IndexRules) error {
	ds, is := s.shape(dataShape, data), s.shape(indexShape, indices)
	if err := checkElements(ds, is, axis); err != nil {
		return err
	}
	ind, err := gatherIndices(s, dst, data, indices, is)
	if err != nil {
		return err
	}
	if bad := firstNegative(ind, rules); bad >= 0 {
		return indexErr(rules, *indices, bad, ds, axis, 0)
	}
	lim := s.limits(rules, ds[axis:axis+1])[0]
	p := parts(2 * len(ind))
	s.el.init(ind, is, axis, lim, s.stridesOf(0, ds), s.stridesOf(1, is), p)
	// Summed over each worker's chunks: zeroed, without a call to clear
	// for the one slot of a small call.
	s.touched = resize(s.touched, p)
	s.touched[0] = 0
	if p > 1 {
		clear(s.touched[1:])
	}
	j := &s.gel
	j.s, j.m = s, s.apply.get(dst, data, s.views[vDst], s.views[vData], 1)
	j.skip, j.found = rules.OutOfRange == OutOfRangeSkip, s.noneFound(p)
	steal(s.el.rows(), p, &s.gel, s, true)
	if bad := leastOf(s.found); bad >= 0 {
		return indexErr(rules, *indices, bad, ds, axis, 0)
	}
	return nil
}

// gatherElementsJob is the parallel part of GatherElements: each worker
// takes chunks of the rows (see steal).
type gatherElementsJob struct {
	s     *scratch
	m     mover
	skip  bool
	found []int
}

func (j *gatherElementsJob) work(w, lo, hi int) {
	bad, touched := j.m.gatherRows(&j.s.el, w, lo, hi, j.skip)
	j.found[w] = bad
	j.s.touched[w] += touched
}

// gatherElementRows sets the output elements (dst) of rows r0 to r1 of
// GatherElements from src,
// zero for a skipped index, stepping worker w's cursor. It returns the
// flat position of the first rejected index, or -1.
func gatherElementRows[E comparable](dst, src []E, e *elemWalk, w, r0, r1 int, skip bool) (bad, touched int) {
	along, value := e.steps()
	lim := e.lim
	// Bring a row into cache first only when it has no more cache lines
	// than there are indices into it: then the reads cost at most one per
	// element gathered, while a long row with few indices would cost
	// many.
	//
	// A table small enough to stay in the cache needs no such reads.
	touch := along == 0 && worthTouching(src, lim.size, e.last)
	// An output past the cache is written around it where the processor
	// gathers (see gatherAtOnce).
	stream := streamsOut(dst)
	if stream {
		defer storeFence()
	}
	if len(e.is) == 2 && along == 0 {
		// The rows of a matrix, along its last axis.
		if !touch {
			n := r1 - r0
			return gatherFlat(dst[r0*e.last:][:n*e.last], src[r0*e.data[0]:], e.data[0], lim.size, e.ind[r0*e.last:][:n*e.last],
				e.last, lim.fromEnd, skip, r0*e.last), 0
		}
		return gatherRows2(dst, e.other[0], e.last, src, lim.size, e.ind, r0, r1, lim.fromEnd, skip, stream)
	}
	for c := e.row(w, r0); c.r < r1; e.next(c) {
		base, other := c.data, c.other
		out := dst[other : other+e.last]
		idx := e.index(c)
		j := -1
		if along == 0 {
			// The axis is the row itself: read from one row of data.
			row := src[base : base+lim.size]
			if touch {
				touched += touchLines(row)
			}
			j = gatherRow(out, row, idx, lim.fromEnd, skip, stream)
		} else {
			j = gatherStrided(out, src, idx, base, along, value, lim, skip)
		}
		if j >= 0 {
			return other + j, touched
		}
	}
	return -1, touched
}

// The inner loops below are functions of their own, not inlined, with few
// live values, so that the compiler keeps the loop counter and the index
// in registers; inside gatherRows they were spilled to the stack on every
// element. A call per row costs nothing next to a row's work.

// touchLines reads s one cache line at a time, in order, and returns how
// many of the elements read are zero (so that the reads are not
// optimised away). Positions within a row come in random order, which the
// hardware prefetcher cannot follow; this brings the row into cache at
// streaming speed first.
func touchLines[E comparable](s []E) (zeros int) {
	var zero E
	step := lineElems[E]()
	for k := 0; k < len(s); k += step {
		if s[k] == zero {
			zeros++
		}
	}
	return zeros
}

// lineElems returns how many elements of type E a 64-byte cache line
// holds, at least one.
func lineElems[E any]() int {
	var zero E
	return max(1, 64/int(unsafe.Sizeof(zero)))
}

// touchBytes is the size of a table above which gatherRows reads its rows
// a cache line at a time before gathering from them: more than a core's
// share of the cache.
const touchBytes = 1 << 20

// worthTouching reports whether a gather should read a row of rowLen
// elements of table into cache before it takes n indexed elements from it
// (touchLines): when the indices are at least as many as the row's cache
// lines and the table is past the cache.
func worthTouching[E any](table []E, rowLen, n int) bool {
	var zero E
	return rowLen/lineElems[E]() <= n && len(table)*int(unsafe.Sizeof(zero)) > touchBytes
}

// gatherFlat is gatherRow for consecutive rows of a matrix along its last
// axis, in one loop over all of idx: out and idx hold rows of last
// elements, src rows of size elements, the next dstep elements on. It
// returns at plus the position in idx of the first rejected index, or
// -1; with skip it sets out there to zero and goes on. It writes out as
// usual, never around the cache: a tenth parameter, stream, cost its loop
// a reload from the stack every element.
//
//go:noinline
func gatherFlat[E any](out, src []E, dstep, size int, idx []int64, last int, fromEnd int64, skip bool, at int) int {
	var zero E
	out = out[:len(idx)]
	// Eight at a time while in range (see gatherAtOnce).
	k0 := gatherAtOnce(out, src, dstep, size, idx, last, false)
	base, next := 0, last
	if k0 > 0 {
		base, next = k0/last*dstep, (k0/last+1)*last
	}
	for k := k0; k < len(idx); k++ {
		v := idx[k]
		if k == next {
			base, next = base+dstep, next+last
		}
		if uint64(v) < uint64(size) { // see gatherRow
			out[k] = src[base+int(v)]
			continue
		}
		if p := wrap(v, fromEnd); uint64(p) < uint64(size) {
			out[k] = src[base+int(p)]
			continue
		}
		if !skip {
			return at + k
		}
		out[k] = zero
	}
	return -1
}

// gatherAtOnce sets out[k] = src[k/last*dstep + idx[k]] for elements of
// 4 or 8 bytes, rows of last indices (a multiple of 8) reading rows of
// size elements of src dstep apart, eight k at a time from 0 while all
// eight indices lie in [0, size), where the processor gathers
// (canGather). It returns how many it set: a multiple of 8, at most
// len(idx) <= len(out), which is a multiple of last. With stream, and out
// aligned to the 32 or 64 bytes that eight elements take, it writes them
// with non-temporal stores, around the cache, and storeFence must follow
// (see streamsOut).
func gatherAtOnce[E any](out, src []E, dstep, size int, idx []int64, last int, stream bool) int {
	if !canGather || len(idx) < 8 || size == 0 || last == 0 || last%8 != 0 {
		return 0
	}
	rows := len(idx) / last
	_ = src[(rows-1)*dstep : (rows-1)*dstep+size] // every row gathered from is in src
	out = out[:len(idx)]
	var zero E
	es := unsafe.Sizeof(zero)
	if es != 4 && es != 8 {
		return 0
	}
	stream = stream && uintptr(unsafe.Pointer(&out[0]))%(8*es) == 0
	return gatherRows(unsafe.Pointer(&out[0]), unsafe.Pointer(&src[0]), uintptr(dstep)*es, uint64(size), &idx[0], last, len(idx), es == 8, stream)
}

// streamsOut says whether a gather writes out around the cache, with
// non-temporal stores, where it gathers eight elements at once: an output
// past the cache, on a processor whose strategy streams (see streaming).
func streamsOut[E any](out []E) bool { return strategy.NonTemporal && pastCache[E](len(out)) }

// gatherRows2 is gatherRow for rows r0 to r1 of a matrix along its last
// axis, reading each row of data a cache line at a time first (see
// touchLines): row r of out starts at r*ostep, of data at r*size (size
// elements), of indices at r*last (last elements). It returns the flat
// position in out (and indices) of the first rejected index, or -1, and
// the count of touchLines. (Asking for the next row while gathering from
// this one instead, as the scatters by columns do, is no faster: see
// docs/measurements.md.)
//
//go:noinline
func gatherRows2[E comparable](out []E, ostep, last int, src []E, size int, idx []int64, r0, r1 int, fromEnd int64, skip, stream bool) (bad, touched int) {
	for r := r0; r < r1; r++ {
		row := src[r*size:][:size]
		touched += touchLines(row)
		if j := gatherRow(out[r*ostep:][:last], row, idx[r*last:][:last], fromEnd, skip, stream); j >= 0 {
			return r*ostep + j, touched
		}
	}
	return -1, touched
}

// gatherRow sets out[j] = row[idx[j]] for every j, a negative index
// adding fromEnd (see wrap). It returns the first j whose index is outside
// row, or -1; with skip it sets out[j] to zero there and goes on. Elements
// of 4 or 8 bytes go eight at a time while the indices are in [0, size),
// where the processor gathers (canGather), around the cache with stream
// (see gatherAtOnce).
//
//go:noinline
func gatherRow[E any](out, row []E, idx []int64, fromEnd int64, skip, stream bool) int {
	var zero E
	out = out[:len(idx)]
	size := uint64(len(row))
	n8 := len(idx) &^ 7
	for j := gatherAtOnce(out, row, 0, len(row), idx[:n8], n8, stream); j < len(idx); j++ {
		v := idx[j]
		// A non-negative index in range first: one compare, and no jump
		// taken on this path. Wrapping every index first, as the
		// scatters' loops do, is slower here (docs/measurements.md);
		// for those loops the order makes no difference.
		if uint64(v) < size {
			out[j] = row[v]
			continue
		}
		if p := wrap(v, fromEnd); uint64(p) < size {
			out[j] = row[p]
			continue
		}
		if !skip {
			return j
		}
		out[j] = zero
	}
	return -1
}

// gatherStrided sets out[j] = src[base + j*along + p*value], p being
// idx[j] within lim, for every j. It returns the first j whose index is outside
// lim, or -1; with skip it sets out[j] to zero there and goes on.
//
//go:noinline
func gatherStrided[E any](out, src []E, idx []int64, base, along, value int, lim limit, skip bool) int {
	var zero E
	out = out[:len(idx)]
	for j, v := range idx {
		p, ok := lim.pos(v)
		switch {
		case ok:
			out[j] = src[base+j*along+p*value]
		case skip:
			out[j] = zero
		default:
			return j
		}
	}
	return -1
}
