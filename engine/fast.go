package engine

import (
	"math"
	"sync"
	"unsafe"
)

// The kernels walk indices into batches of pairs of offsets and hand each
// batch to a typed applier. Where the destinations are scattered over
// memory this is also the fast way: the applier's tight loop keeps many
// cache misses in flight. Where a whole row of indices addresses one row
// of data, which stays in cache, the walk and the typed work share one
// loop instead (scatterRows, gatherRows): methods of the typed movers and
// reducers a call has already picked, so they cost no type switch.

// ndWalk describes the index tuples of ScatterND and GatherND.
type ndWalk struct {
	ind        []int64
	k, n       int     // tuple length, number of tuples
	lims       []limit // per tuple component
	strides    []int   // per tuple component, in the data-shaped tensor
	perBatch   int     // tuples per batch entry (GatherND batch_dims)
	batchBlock int     // elements per batch entry in data
	// offs, when set, holds each tuple's offset (-1 for one the rules
	// skip), computed once for scatters whose workers would each compute
	// every tuple's offset again (see tupleOffsets).
	offs []int32
}

// scatterPairs fills buf with the pairs (offset, t*block) of the tuples t
// from t0 on whose offsets lie in [lo, hi), until buf is full or the tuples
// end. It returns the number of pairs and the next tuple.
func (w *ndWalk) scatterPairs(t0, lo, hi, block int, buf []pair) (n, next int) {
	width := uint(hi - lo)
	if w.offs != nil {
		n, i := scatterPairsOffs(buf, w.offs[t0:w.n], lo, width, t0*block, block)
		return n, t0 + i
	}
	for t := t0; t < w.n; t++ {
		if n == len(buf) {
			return n, t
		}
		d := w.offset(t)
		buf[n] = pair{d, t * block}
		if uint(d-lo) < width {
			n++
		}
	}
	return n, w.n
}

// scatterPairsOffs is scatterPairs for offsets computed beforehand: the
// pairs (offs[i], s0 + i*block) whose offset lies in [lo, lo+width), an
// offset of -1 (skipped) never among them since lo >= 0. It is a function
// of its own, not inlined, with few live values, so that the loop keeps
// its counters in registers. It returns the number of pairs and of
// offsets read. The general scatter calls it with its window starts.
//
//go:noinline
func scatterPairsOffs[O int32 | int](buf []pair, offs []O, lo int, width uint, s0, block int) (n, read int) {
	s := s0
	for i, o := range offs {
		if n == len(buf) {
			return n, i
		}
		d := int(o)
		buf[n] = pair{d, s}
		s += block
		if uint(d-lo) < width {
			n++
		}
	}
	return n, len(offs)
}

// tupleOffsets validates the index tuples of w and returns their offsets
// (-1 for a tuple the rules skip), computed in parallel, and the flat
// position in indices of the first value outside its limit, or -1.
// Every worker of a scatter would otherwise compute every offset again,
// to pick the tuples that land in its range; this does it once, checks
// the tuples in the same pass, and leaves the workers half the bytes to
// read. It returns nil offsets, having only checked the tuples, when an
// offset might not fit in an int32 or tuples have no component. The
// offsets are s's, valid until the call returns.
func (s *scratch) tupleOffsets(w *ndWalk, size int, rules IndexRules) (offs []int32, bad int) {
	if w.k == 0 || size > maxOffset {
		return nil, s.firstBad(w.ind, w.lims, rules)
	}
	s.offs = resize(s.offs, w.n)
	p := parts(len(w.ind))
	j := &s.offsets
	j.w, j.offs, j.skip, j.found = w, s.offs, rules.OutOfRange == OutOfRangeSkip, s.noneFound(p)
	parallel(w.n, p, j, &s.done)
	return s.offs, firstOf(s.found)
}

// The kernels set their state field by field rather than by assigning a
// composite literal: the compiler builds the literal on the stack and
// copies it in 16-byte moves, each of which then waits for the 8-byte
// stores that built it, several times in every small call.

// set sets up w for a call, offs nil.
func (w *ndWalk) set(ind []int64, k, n int, lims []limit, strides []int, perBatch, batchBlock int) {
	w.ind, w.k, w.n, w.lims, w.strides = ind, k, n, lims, strides
	w.perBatch, w.batchBlock, w.offs = perBatch, batchBlock, nil
}

// offsetsJob is the parallel part of tupleOffsets.
type offsetsJob struct {
	w     *ndWalk
	offs  []int32
	skip  bool
	found []int
}

func (j *offsetsJob) work(part, lo, hi int) {
	w, offs, skip := j.w, j.offs, j.skip
	switch w.k {
	case 1:
		lo += offsets1(offs[lo:hi], w.ind[lo:hi], w.lims[0], w.strides[0], skip)
	case 2:
		lo += offsets2(offs[lo:hi], w.ind[2*lo:2*hi], w.lims[0], w.lims[1], w.strides[0], w.strides[1], skip)
	case 3:
		lo += offsets3(offs[lo:hi], w.ind[3*lo:3*hi], w.lims, w.strides, skip)
	default:
		lo += offsetsK(offs[lo:hi], w.ind[w.k*lo:w.k*hi], w.lims, w.strides, skip)
	}
	if lo < hi {
		// The loops stop early only at a bad tuple, and only without
		// skip: tupleOffset says which of its components is bad.
		_, c := tupleOffset(w.ind[lo*w.k:lo*w.k+w.k], w.lims, w.strides)
		j.found[part] = lo*w.k + c
	}
}

// maxOffset is the largest offset tupleOffsets computes. Tests lower it
// to take the path that larger tensors take.
var maxOffset = math.MaxInt32

// The column buffers of ScatterElements along axis 0, kept so that
// repeated calls do not allocate (and clear) them each time: each worker
// takes one (a *[]E of any E; one of another type than the caller wants
// is dropped).
var columnPool sync.Pool

// getBuffer returns a buffer of n elements from pool, or a new one. Its
// contents are whatever they were: callers write before they read.
func getBuffer[E any](pool *sync.Pool, n int) *[]E {
	if p, ok := pool.Get().(*[]E); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]E, n)
	return &b
}

// offsets1 sets offs[t] to the offset ind[t]*stride, or to -1 if the rules
// skip it. It stops at the first value outside the limit, unless skip,
// and returns its position; len(offs) if there is none.
//
//go:noinline
func offsets1(offs []int32, ind []int64, l limit, stride int, skip bool) int {
	ind = ind[:len(offs)]
	n, e := uint64(l.size), l.fromEnd
	for t, v := range ind {
		p := wrap(v, e)
		d := -1
		if uint64(p) < n {
			d = int(p) * stride
		} else if !skip {
			return t
		}
		offs[t] = int32(d)
	}
	return len(offs)
}

// offsets2 is offsets1 for pairs ind[2t], ind[2t+1], with the limits and
// strides of their two components.
//
//go:noinline
func offsets2(offs []int32, ind []int64, l0, l1 limit, s0, s1 int, skip bool) int {
	ind = ind[:2*len(offs)]
	n0, n1, e0, e1 := uint64(l0.size), uint64(l1.size), l0.fromEnd, l1.fromEnd
	for t := range offs {
		p0, p1 := wrap(ind[2*t], e0), wrap(ind[2*t+1], e1)
		d := -1
		if uint64(p0) < n0 && uint64(p1) < n1 {
			d = int(p0)*s0 + int(p1)*s1
		} else if !skip {
			return t
		}
		offs[t] = int32(d)
	}
	return len(offs)
}

// offsets3 is offsets1 for triples: a KV-cache position (batch, head,
// position) is one.
//
//go:noinline
func offsets3(offs []int32, ind []int64, lims []limit, strides []int, skip bool) int {
	ind, lims, strides = ind[:3*len(offs)], lims[:3], strides[:3]
	for t := range offs {
		x := ind[3*t : 3*t+3 : 3*t+3]
		p0, p1, p2 := wrap(x[0], lims[0].fromEnd), wrap(x[1], lims[1].fromEnd), wrap(x[2], lims[2].fromEnd)
		d := -1
		if uint64(p0) < uint64(lims[0].size) && uint64(p1) < uint64(lims[1].size) && uint64(p2) < uint64(lims[2].size) {
			d = int(p0)*strides[0] + int(p1)*strides[1] + int(p2)*strides[2]
		} else if !skip {
			return t
		}
		offs[t] = int32(d)
	}
	return len(offs)
}

// offsetsK is offsets1 for tuples of len(lims) components.
//
//go:noinline
func offsetsK(offs []int32, ind []int64, lims []limit, strides []int, skip bool) int {
	k := len(lims)
	strides = strides[:k]
	for t := range offs {
		tuple := ind[t*k : t*k+k]
		d := 0
		for j, l := range lims {
			p := wrap(tuple[j], l.fromEnd)
			if uint64(p) >= uint64(l.size) {
				d = -1
				break
			}
			d += int(p) * strides[j]
		}
		if d < 0 && !skip {
			return t
		}
		offs[t] = int32(d)
	}
	return len(offs)
}

// gatherPairs fills buf with the pairs (t*block, data offset) of tuples
// t0 to t1 (or until buf is full), the data offset including the batch
// base, -1 for a skipped tuple. It returns the number of pairs, the next
// tuple and the flat position in indices of the first rejected value (or
// -1); with skip, no value is rejected.
func (w *ndWalk) gatherPairs(t0, t1, block int, skip bool, buf []pair) (n, next, bad int) {
	// The batch entry's base offset, advanced as t crosses into the next.
	base, end := t0/w.perBatch*w.batchBlock, (t0/w.perBatch+1)*w.perBatch
	if w.k == 2 {
		// Pairs, up to the end of the batch entry, in a loop of their own.
		t1 = min(t1, end, t0+len(buf))
		n, ok := gatherPairs2(buf, w.ind[2*t0:2*t1], w.lims[0], w.lims[1], w.strides[0], w.strides[1], skip, base, t0*block, block)
		if !ok {
			t := t0 + n
			_, j := tupleOffset(w.ind[2*t:2*t+2], w.lims, w.strides)
			return n, t, 2*t + j
		}
		return n, t0 + n, -1
	}
	return w.gatherPairsK(t0, t1, block, skip, base, end, buf)
}

// gatherPairsK is gatherPairs for tuples of other lengths than 2, base
// and end being the batch entry's base offset and the tuple that ends it:
// a method of its own, so that gatherPairs stays small for pairs (inlined
// into gatherPairs, this loop cost S5, pairs, 7%).
func (w *ndWalk) gatherPairsK(t0, t1, block int, skip bool, base, end int, buf []pair) (n, next, bad int) {
	for t := t0; t < t1 && n < len(buf); t++ {
		if t == end {
			base += w.batchBlock
			end += w.perBatch
		}
		var d int
		if w.k == 1 {
			d = w.offset1(t)
		} else {
			d = w.offset(t)
		}
		switch {
		case d >= 0:
			d += base
		case !skip:
			_, j := tupleOffset(w.ind[t*w.k:t*w.k+w.k], w.lims, w.strides)
			return n, t, t*w.k + j
		}
		buf[n] = pair{t * block, d}
		n++
	}
	return n, t0 + n, -1
}

// gatherPairs2 fills buf with the pairs (s, base + offset of the pair
// ind[2t], ind[2t+1]) for each t, s starting at the given value and
// stepping by block, the offset being -1 for a pair the rules skip, until
// buf is full or the pairs end. It returns the number of pairs, and false
// if it stopped at a pair outside the limits, which it does unless skip.
//
//go:noinline
func gatherPairs2(buf []pair, ind []int64, l0, l1 limit, s0, s1 int, skip bool, base, s, block int) (n int, ok bool) {
	n0, n1, e0, e1 := uint64(l0.size), uint64(l1.size), l0.fromEnd, l1.fromEnd
	buf = buf[:min(len(buf), len(ind)/2)]
	for t := range buf {
		p0, p1 := wrap(ind[2*t], e0), wrap(ind[2*t+1], e1)
		d := -1
		if uint64(p0) < n0 && uint64(p1) < n1 {
			d = base + int(p0)*s0 + int(p1)*s1
		} else if !skip {
			return t, false
		}
		buf[t] = pair{s, d}
		s += block
	}
	return len(buf), true
}

// offset returns the data offset of tuple t, or -1 when a component lies
// outside its limit.
func (w *ndWalk) offset(t int) int {
	if w.k == 1 {
		return w.offset1(t)
	}
	d, _ := tupleOffset(w.ind[t*w.k:t*w.k+w.k], w.lims, w.strides)
	return d
}

// offset1 is offset for tuples of one component: small enough to be
// inlined, where offset is not, so that gatherPairsK takes no call per
// tuple for them (a call cost GatherND of single elements 13%).
func (w *ndWalk) offset1(t int) int {
	if p, ok := w.lims[0].pos(w.ind[t]); ok {
		return p * w.strides[0]
	}
	return -1
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
	// updates t to dst at offs[t] (none for an offset of -1): every
	// tuple of ScatterND, when one worker owns the whole of dst.
	scatterOffsets(offs []int32, block int)
	// scatterStarts applies, in order, update s0+t to dst at starts[t]
	// (none for a start of -1): the general scatter's single elements,
	// when one worker owns every element they may land on.
	scatterStarts(starts []int, s0 int)
	// scatterLine applies, in order, update s0+t to dst at base+ind[t],
	// ind[t] checked against lim: an index outside it is skipped with
	// skip, else its position t is returned (-1 when there is none). It
	// is a line of the general scatter along a row of dst.
	scatterLine(base int, ind []int64, s0 int, lim limit, skip bool) int
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

// Column blocks. Along axis 0, consecutive updates of a column land in
// rows of dst far apart: applied to dst itself, nearly every one costs a
// cache and a TLB miss. scatterColumns instead copies a block of columns
// of data into a dense buffer, applies every row of updates to it there,
// and copies it out to dst. The buffer holds at most colBuffer bytes, so
// that it stays in cache; blocks are colBytes wide, four cache lines, so
// that every line read or written is used whole and each strided step
// moves enough to pay for itself.
//
// Those strided steps are misses the hardware does not see coming, one
// row of data, indices and updates after another: where dst is past the
// cache (streamBytes), the copy in and the updates ask for their rows
// colAhead rows ahead, and the copy out writes around the cache, as the
// gathers of rows do (see stream.go). W9, on a 2-vCPU Xeon: 40-48 ms ->
// 33-36 ms.
const (
	colBytes  = 256
	colBuffer = 1 << 20
)

// columnWidth returns how many columns of elements of the given size in
// bytes (16 for strings, their headers) a block of scatterColumns holds
// for dst of the given number of rows, or 0 when a block of at least a
// cache line would not fit in the buffer.
func columnWidth(rows, size int) int {
	w := colBytes / size
	for w*size > 64 && rows*w*size > colBuffer {
		w /= 2
	}
	if w*size < 64 || rows*w*size > colBuffer {
		return 0
	}
	return w
}

// columnBlocks is scatterColumns for one element type. For each block of
// width columns it fills buf from data, calls apply to update the block,
// which buf holds as [size][w] starting at column b, and copies buf out
// to dst, asking ahead and streaming where dst is large (see above).
func columnBlocks[E any](dst, data []E, size, inner, width, c0, c1 int, apply func(buf []E, b, w int)) {
	scratch := getBuffer[E](&columnPool, size*width)
	defer columnPool.Put(scratch)
	buf := *scratch
	var zero E
	es := unsafe.Sizeof(zero)
	big := streamsWords[E](len(dst))
	for b := c0; b < c1; b += width {
		w := min(width, c1-b)
		wb := uintptr(w) * es
		buf := buf[:size*w]
		ahead := big && data != nil
		if ahead {
			for p := range min(colAhead, size) {
				prefetchBytes(unsafe.Pointer(&data[p*inner+b]), wb)
			}
		}
		for p := range size {
			if data == nil {
				clear(buf[p*w : (p+1)*w])
				continue
			}
			if ahead && p+colAhead < size {
				prefetchBytes(unsafe.Pointer(&data[(p+colAhead)*inner+b]), wb)
			}
			copy(buf[p*w:(p+1)*w], data[p*inner+b:][:w])
		}
		apply(buf, b, w)
		stream := big && wb%64 == 0
		for p := range size {
			d := dst[p*inner+b:][:w]
			if stream && uintptr(unsafe.Pointer(&d[0]))%16 == 0 {
				copyStreaming(unsafe.Pointer(&d[0]), unsafe.Pointer(&buf[p*w]), wb)
			} else {
				copy(d, buf[p*w:(p+1)*w])
			}
		}
	}
	if big {
		storeFence()
	}
}

// colAhead is how many rows ahead the column blocks ask for rows.
const colAhead = 16

// columnsAhead asks for the w indices and updates of row k at column b,
// if there is such a row.
func columnsAhead[E any](ind []int64, src []E, k, rows, inner, b, w int) {
	if k >= rows {
		return
	}
	var zero E
	prefetchBytes(unsafe.Pointer(&ind[k*inner+b]), uintptr(w)*8)
	prefetchBytes(unsafe.Pointer(&src[k*inner+b]), uintptr(w)*unsafe.Sizeof(zero))
}

func (m *wordMover[E]) scatterRows(e *elemWalk, w, r0, r1 int, skip bool) int {
	along, value := e.steps()
	lim := e.lim
	if len(e.is) == 2 && along == 0 {
		// The rows of a matrix, along its last axis (data's rows are
		// lim.size long): with the updates' rows as long as the indices',
		// one loop for all the elements.
		if e.other[0] == e.last {
			n := r1 - r0
			return setFlat(m.dst[r0*lim.size:], lim.size, e.ind[r0*e.last:][:n*e.last], e.last, m.src[r0*e.last:], lim.fromEnd, skip, r0*e.last)
		}
		return setRows(m.dst, e.data[0], lim.size, e.ind, e.last, m.src, e.other[0], r0, r1, lim.fromEnd, skip)
	}
	for c := e.row(w, r0); c.r < r1; e.next(c) {
		base := c.data
		idx, upd := e.index(c), m.src[c.other:c.other+e.last]
		if along == 0 {
			// The axis is the row itself.
			if j := setRow(m.dst[base:base+lim.size], idx, upd, lim.fromEnd, skip); j >= 0 {
				return c.r*e.last + j
			}
			continue
		}
		for j, v := range idx {
			p, ok := lim.pos(v)
			switch {
			case ok:
				m.dst[base+j*along+p*value] = upd[j]
			case !skip:
				return c.r*e.last + j
			}
		}
	}
	return -1
}

func (m *wordMover[E]) scatterOffsets(offs []int32, block int) {
	if block == 1 {
		setOffsets(m.dst, offs, m.src)
		return
	}
	for t, o := range offs {
		if o >= 0 {
			copy(m.dst[o:int(o)+block], m.src[t*block:(t+1)*block])
		}
	}
}

func (m *wordMover[E]) scatterStarts(starts []int, s0 int) { setOffsets(m.dst, starts, m.src[s0:]) }

func (m *wordMover[E]) scatterLine(base int, ind []int64, s0 int, lim limit, skip bool) int {
	return setRow(m.dst[base:][:lim.size], ind, m.src[s0:], lim.fromEnd, skip)
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

func (r *numReducer[T]) scatterIndex(ind []int64, lim limit, block int) {
	if block == 1 {
		reduceIndex(r.red, r.dst, ind, r.src, lim.size, lim.fromEnd)
		return
	}
	for t, v := range ind {
		if p, ok := lim.pos(v); ok {
			reduceSlice(r.red, r.dst[p*block:(p+1)*block], r.src[t*block:(t+1)*block])
		}
	}
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

func (r *numReducer[T]) scatterStarts(starts []int, s0 int) {
	reduceOffsets(r.red, r.dst, starts, r.src[s0:])
}

func (r *numReducer[T]) scatterLine(base int, ind []int64, s0 int, lim limit, skip bool) int {
	return reduceRow(r.red, r.dst[base:][:lim.size], ind, r.src[s0:], lim.fromEnd, skip)
}

func (r *numReducer[T]) scatterOffsets(offs []int32, block int) {
	if block == 1 {
		reduceOffsets(r.red, r.dst, offs, r.src)
		return
	}
	for t, o := range offs {
		if o >= 0 {
			reduceSlice(r.red, r.dst[o:int(o)+block], r.src[t*block:(t+1)*block])
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
			dst[o] += upd[t]
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

func (m *wordMover[E]) scatterColumns(data view, ind []int64, lim limit, rows, inner, width, c0, c1 int) {
	ahead := streamsWords[E](len(m.src))
	columnBlocks(m.dst, words[E](data), lim.size, inner, width, c0, c1, func(buf []E, b, w int) {
		for i := range rows {
			if ahead {
				columnsAhead(ind, m.src, i+colAhead, rows, inner, b, w)
			}
			setColumns(buf, ind[i*inner+b:][:w], m.src[i*inner+b:][:w], lim.size, w, lim.fromEnd)
		}
	})
}

func (r *numReducer[T]) scatterColumns(data view, ind []int64, lim limit, rows, inner, width, c0, c1 int) {
	from := words[T](data)
	ahead := streamsWords[T](len(r.src))
	columnBlocks(r.dst, from, lim.size, inner, width, c0, c1, func(buf []T, b, w int) {
		for i := range rows {
			if ahead {
				columnsAhead(ind, r.src, i+colAhead, rows, inner, b, w)
			}
			reduceColumns(r.red, buf, ind[i*inner+b:][:w], r.src[i*inner+b:][:w], lim.size, w, lim.fromEnd)
		}
	})
}

func (r *numReducer[T]) scatterRows(e *elemWalk, w, r0, r1 int, skip bool) int {
	dst, src, red := r.dst, r.src, r.red
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
// addLine then wraps, skips or reports those one by one and goes on. (A
// loop that wrapped every index took 6.1-6.3 ms over W3's 4M updates,
// standalone, where one without the wrap took 4.2-4.7.)
func addLine[T number](dst []T, idx []int64, upd []T, fromEnd int64, skip bool, at int) int {
	upd = upd[:len(idx)]
	size := uint64(len(dst))
	for k := 0; k < len(idx); {
		k += addInRange(dst, idx[k:], upd[k:])
		for ; k < len(idx) && uint64(idx[k]) >= size; k++ {
			if p := wrap(idx[k], fromEnd); uint64(p) < size {
				dst[p] += upd[k]
			} else if !skip {
				return at + k
			}
		}
	}
	return -1
}

// addInRange adds upd[k] to dst[idx[k]], in order, up to the first index
// outside [0, len(dst)), and returns how many it added. It takes two
// updates a step: S6's 256 updates into a [1024] dst took 130 ns one at
// a time and take 82 two at a time (four at a time: as fast there, but
// W3 took 15% longer).
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
		dst[a] += upd[k]
		dst[b] += upd[k+1]
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
// updates a step while both indices lie in [0, size) (S4, rows of 8: ~515
// -> ~400 ns; see addInRange); the rest one at a time, an index outside
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
			dst[base+int(a)] += upd[k]
			dst[base+int(b)] += upd[k+1]
		}
	}
	for ; k < len(idx); k++ {
		if k == next {
			base, next = base+size, next+last
		}
		if p := wrap(idx[k], fromEnd); uint64(p) < n {
			dst[base+int(p)] += upd[k]
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

// The column loops' indices have been validated; an index outside the
// limit is one the rules skip.

// setColumns applies one row of updates of ScatterElements along axis 0
// to the columns that dst starts at: dst[p*inner + j] = upd[j] for p =
// idx[j] within [0, size), inner being the elements per index of axis 0.
//
//go:noinline
func setColumns[E any](dst []E, idx []int64, upd []E, size, inner int, fromEnd int64) {
	upd = upd[:len(idx)]
	for j, v := range idx {
		if p := wrap(v, fromEnd); uint64(p) < uint64(size) {
			dst[int(p)*inner+j] = upd[j]
		}
	}
}

// reduceColumns is setColumns combining each update into its element by
// red.
//
//go:noinline
func reduceColumns[T number](red Reduction, dst []T, idx []int64, upd []T, size, inner int, fromEnd int64) {
	upd = upd[:len(idx)]
	for j, v := range idx {
		if p := wrap(v, fromEnd); uint64(p) < uint64(size) {
			d := int(p)*inner + j
			dst[d] = combine(red, dst[d], upd[j])
		}
	}
}

// combine is reduceElems for one element, small enough to be inlined.
func combine[T number](red Reduction, v, u T) T {
	switch red {
	case Add:
		return v + u
	case Sub:
		return v - u
	case Mul:
		return v * u
	case Max, Min:
		// maxNaN or minNaN, written out (u wins when !(a <= b) and v is
		// not NaN) so that combine stays within the inliner's budget.
		a, b := u, v
		if red == Min {
			a, b = v, u
		}
		pair := [2]T{v, u}
		return pair[b2i(!(a <= b))&^b2i(v != v)&1]
	}
	return v
}

// gatherRows sets the output elements of rows r0 to r1 of GatherElements,
// zero for a skipped index, stepping worker w's cursor. It returns the
// flat position of the first rejected index, or -1.
func (m *wordMover[E]) gatherRows(e *elemWalk, w, r0, r1 int, skip bool) (bad, touched int) {
	along, value := e.steps()
	lim := e.lim
	// Bring a row into cache first only when it has no more cache lines
	// than there are indices into it: then the reads cost at most one per
	// element gathered, while a long row with few indices would cost
	// many.
	//
	// A table small enough to stay in the cache needs no such reads.
	touch := along == 0 && worthTouching(m.src, lim.size, e.last)
	if len(e.is) == 2 && along == 0 {
		// The rows of a matrix, along its last axis.
		if !touch {
			n := r1 - r0
			return gatherFlat(m.dst[r0*e.last:][:n*e.last], m.src[r0*e.data[0]:], e.data[0], lim.size, e.ind[r0*e.last:][:n*e.last],
				e.last, lim.fromEnd, skip, r0*e.last), 0
		}
		return gatherRows2(m.dst, e.other[0], e.last, m.src, lim.size, e.ind, r0, r1, lim.fromEnd, skip)
	}
	for c := e.row(w, r0); c.r < r1; e.next(c) {
		base, other := c.data, c.other
		out := m.dst[other : other+e.last]
		idx := e.index(c)
		j := -1
		if along == 0 {
			// The axis is the row itself: read from one row of data.
			row := m.src[base : base+lim.size]
			if touch {
				touched += touchLines(row)
			}
			j = gatherRow(out, row, idx, lim.fromEnd, skip)
		} else {
			j = gatherStrided(out, m.src, idx, base, along, value, lim, skip)
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
// -1; with skip it sets out there to zero and goes on.
//
//go:noinline
func gatherFlat[E any](out, src []E, dstep, size int, idx []int64, last int, fromEnd int64, skip bool, at int) int {
	var zero E
	out = out[:len(idx)]
	// Eight at a time while in range (S3, rows of 8: 718 -> 361 ns).
	k0 := gatherAtOnce(out, src, dstep, size, idx, last)
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
// len(idx) <= len(out), which is a multiple of last.
func gatherAtOnce[E any](out, src []E, dstep, size int, idx []int64, last int) int {
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
	return gatherRows(unsafe.Pointer(&out[0]), unsafe.Pointer(&src[0]), uintptr(dstep)*es, uint64(size), &idx[0], last, len(idx), es == 8)
}

// gatherRows2 is gatherRow for rows r0 to r1 of a matrix along its last
// axis, reading each row of data a cache line at a time first (see
// touchLines): row r of out starts at r*ostep, of data at r*size (size
// elements), of indices at r*last (last elements). It returns the flat
// position in out (and indices) of the first rejected index, or -1, and
// the count of touchLines. (Asking for the next row while gathering from
// this one instead, as the scatters by columns do, measured the same.)
//
//go:noinline
func gatherRows2[E comparable](out []E, ostep, last int, src []E, size int, idx []int64, r0, r1 int, fromEnd int64, skip bool) (bad, touched int) {
	for r := r0; r < r1; r++ {
		row := src[r*size:][:size]
		touched += touchLines(row)
		if j := gatherRow(out[r*ostep:][:last], row, idx[r*last:][:last], fromEnd, skip); j >= 0 {
			return r*ostep + j, touched
		}
	}
	return -1, touched
}

// gatherRow sets out[j] = row[idx[j]] for every j, a negative index
// adding fromEnd (see wrap). It returns the first j whose index is outside
// row, or -1; with skip it sets out[j] to zero there and goes on. Elements
// of 4 or 8 bytes go eight at a time while the indices are in [0, size),
// where the processor gathers (canGather: a row of 4096 float32 in cache,
// 3.0 -> 1.05 us).
//
//go:noinline
func gatherRow[E any](out, row []E, idx []int64, fromEnd int64, skip bool) int {
	var zero E
	out = out[:len(idx)]
	size := uint64(len(row))
	n8 := len(idx) &^ 7
	for j := gatherAtOnce(out, row, 0, len(row), idx[:n8], n8); j < len(idx); j++ {
		v := idx[j]
		// A non-negative index in range first: one compare, and no jump
		// taken on this path. Wrapping every index first, as the
		// scatters' loops above do, cost W7 about a fifth of its time
		// here; for those loops the change measured nothing.
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
