package engine

import (
	"math"
)

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

// The kernels set their state field by field rather than by assigning a
// composite literal: the compiler builds the literal on the stack and
// copies it in 16-byte moves, each of which then waits for the 8-byte
// stores that built it, several times in every small call.

// set sets up w for a call, offs nil.
func (w *ndWalk) set(ind []int64, k, n int, lims []limit, strides []int, perBatch, batchBlock int) {
	w.ind, w.k, w.n, w.lims, w.strides = ind, k, n, lims, strides
	w.perBatch, w.batchBlock, w.offs = perBatch, batchBlock, nil
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
// into gatherPairs, this loop slowed the pairs' path).
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
// tuple for them (a call per tuple slowed GatherND of single elements).
func (w *ndWalk) offset1(t int) int {
	if p, ok := w.lims[0].pos(w.ind[t]); ok {
		return p * w.strides[0]
	}
	return -1
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
func tupleOffsets(s *scratch, w *ndWalk, size int, rules IndexRules) (offs []int32, bad int) {
	if w.k == 0 || size > maxOffset {
		return nil, firstBad(s, w.ind, w.lims, rules)
	}
	s.offs = resize(s.offs, w.n)
	skip := rules.OutOfRange == OutOfRangeSkip
	if small(len(w.ind)) {
		// One goroutine: no job to set up; triples (a KV-cache write's)
		// straight to their loop.
		if w.k == 3 && !skip {
			if t := offsetsTriples(s.offs, w.ind, w.lims, w.strides); t < w.n {
				return s.offs, w.badAt(t)
			}
			return s.offs, -1
		}
		return s.offs, w.offsets(s.offs, 0, w.n, skip)
	}
	p := parts(len(w.ind))
	j := &s.offsets
	j.w, j.offs, j.skip, j.found = w, s.offs, skip, s.noneFound(p)
	parallel(w.n, p, j, &s.done)
	return s.offs, firstOf(s.found)
}

// offsetsJob is the parallel part of tupleOffsets.
type offsetsJob struct {
	w     *ndWalk
	offs  []int32
	skip  bool
	found []int
}

func (j *offsetsJob) work(part, lo, hi int) {
	if bad := j.w.offsets(j.offs, lo, hi, j.skip); bad >= 0 {
		j.found[part] = bad
	}
}

// offsets sets offs[lo:hi] to the offsets of tuples lo to hi (see
// tupleOffsets) and returns the flat position in indices of the first
// value outside its limit, or -1; with skip there is none.
func (w *ndWalk) offsets(offs []int32, lo, hi int, skip bool) (bad int) {
	o, x := offs[lo:hi], w.ind[w.k*lo:w.k*hi]
	var done int
	switch w.k {
	case 1:
		done = offsets1(o, x, w.lims[0], w.strides[0], skip)
	case 2:
		done = offsets2(o, x, w.lims[0], w.lims[1], w.strides[0], w.strides[1], skip)
	case 3:
		if skip {
			done = offsets3(o, x, w.lims, w.strides, true)
		} else {
			done = offsetsTriples(o, x, w.lims, w.strides)
		}
	default:
		done = offsetsK(o, x, w.lims, w.strides, skip)
	}
	if done < len(o) {
		// The loops stop early only at a bad tuple, and only without
		// skip.
		return w.badAt(lo + done)
	}
	return -1
}

// badAt returns the flat position in indices of the first component of
// tuple t outside its limit (tupleOffset says which), for a tuple that
// has one.
func (w *ndWalk) badAt(t int) int {
	_, c := tupleOffset(w.ind[t*w.k:t*w.k+w.k], w.lims, w.strides)
	return t*w.k + c
}

// maxOffset is the largest offset tupleOffsets computes. Tests lower it
// to take the path that larger tensors take.
var maxOffset = math.MaxInt32

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
// strides of their two components. The general scatter writes its window
// starts, of type int, with it too (see layout.startsLine).
//
// The pairs from the first are set four at a time by offsetsPairs, as
// far as it goes: on amd64 with AVX2, up to the first four holding a pair
// outside the limits (BenchmarkOffsetsPairs).
//
//go:noinline
func offsets2[O int32 | int](offs []O, ind []int64, l0, l1 limit, s0, s1 int, skip bool) int {
	ind = ind[:2*len(offs)]
	done := offsetsPairs(offs, ind, l0, l1, s0, s1)
	o, x := offs[done:], ind[2*done:]
	n0, n1, e0, e1 := uint64(l0.size), uint64(l1.size), l0.fromEnd, l1.fromEnd
	for t := range o {
		p0, p1 := wrap(x[2*t], e0), wrap(x[2*t+1], e1)
		d := -1
		if uint64(p0) < n0 && uint64(p1) < n1 {
			d = int(p0)*s0 + int(p1)*s1
		} else if !skip {
			return done + t
		}
		o[t] = O(d)
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
