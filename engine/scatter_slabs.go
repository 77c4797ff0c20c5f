package engine

import (
	"sync"
	"unsafe"

	"github.com/scatter-dev/scatter/tensor"
)

// Slabs through a buffer. ScatterElements along the last axis of a dst
// past the cache (and the general scatter of the same shape) fills each
// slab (the part of dst at one index of dimension 0) from data and then
// applies the slab's updates to it, at random places within it. Filled
// in place, every line of the slab is first read from memory into the
// cache (the store misses), then written back: a third more traffic than
// the copy needs. A worker instead fills a buffer that stays in the
// cache, applies the updates there and writes the buffer out with
// non-temporal stores, which skip that read.
//
// Alone, that gains nothing: each slab is then a burst of reads (data),
// a stretch of arithmetic in the cache with only the indices and
// updates streaming in, and a burst of writes, one after another. So as
// it applies a slab's updates, a share every slabStep updates, it asks
// for the next slab's lines (its data, and where they follow one another
// its indices and updates) into the L2 (slabAhead), and the memory is
// busy throughout. Asked for all at once, they would fill the queue of
// misses and stall the updates behind it.
const (
	slabStep   = 64       // updates between two shares asked for
	slabBuffer = 64 << 10 // the largest slab, in bytes, taken through a buffer
)

// slabPlan is how the slabs of one call go through a buffer: from data
// to dst, slabs of at most size elements.
type slabPlan struct {
	data, dst, upd view
	size           int
	// ahead says to ask for the next slab's lines (the strategy
	// prefetches); updates, that a slab's updates follow one another as
	// its indices do, so that they can be asked for too.
	ahead, updates bool
}

// slabsThrough returns the plan of a scatter of single elements by the
// run's one loop (fast) whose slabs of dst, of at most slab elements, go
// through a buffer, or nil where they should be filled in place: where
// dst may be written around the cache (streamsInto), a slab fits the
// buffer, and every slab is a whole number of cache lines (unit elements
// a whole number of lines), so that each starts on dst's 16-byte
// boundary. The caller says whether the updates follow the indices.
func slabsThrough(s *scratch, t *tensor.Tensor, slab, unit int, updates bool) *slabPlan {
	dst := s.views[vDst]
	if !streamsInto(s, t) || s.run.fast == nil || slab <= 0 ||
		uintptr(slab)*dst.size > slabBuffer || uintptr(unit)*dst.size%64 != 0 {
		return nil
	}
	s.slabPlan = slabPlan{data: s.views[vData], dst: dst, upd: s.views[vUpd], size: slab,
		ahead: strategy.PrefetchAhead > 0, updates: updates}
	return &s.slabPlan
}

// buffer returns a worker's buffer, to hand back to slabPool when done,
// and where its elements are.
func (p *slabPlan) buffer() (*[]uint64, view) {
	b := getBuffer[uint64](&slabPool, (p.size*int(p.dst.size)+7)/8)
	return b, view{unsafe.Pointer(unsafe.SliceData(*b)), p.size, p.dst.size}
}

// fill copies the n elements of data from lo on into buf.
func (p *slabPlan) fill(buf view, lo, n int) { copyBytes(buf.p, p.data.at(lo), uintptr(n)*p.data.size) }

// out writes the n elements of buf to dst from lo on, around the cache.
func (p *slabPlan) out(buf view, lo, n int) {
	copyStreaming(p.dst.at(lo), buf.p, uintptr(n)*p.dst.size)
}

// ask sets a to ask, in steps shares, for data's n elements from lo on
// and, with the plan's updates, for the updates and indices from at on,
// m of them.
func (p *slabPlan) ask(a *slabAhead, lo, n int, ind []int64, at, m, steps int) {
	*a = slabAhead{}
	if !p.ahead || steps <= 0 {
		return
	}
	es := p.dst.size
	a.share(0, p.data.p, uintptr(lo)*es, uintptr(n)*es, steps)
	if p.updates && at+m <= len(ind) && m > 0 {
		a.share(1, unsafe.Pointer(unsafe.SliceData(ind)), uintptr(at)*8, uintptr(m)*8, steps)
		a.share(2, p.upd.p, uintptr(at)*es, uintptr(m)*es, steps)
	}
}

// The slab buffers, kept so that repeated calls do not allocate them:
// each worker takes one.
var slabPool sync.Pool

// slabAhead asks for the lines of up to three streams a share at a time:
// stream i is the bytes from at[i] to end[i] of the tensor at base[i].
// It keeps the tensors' own addresses and offsets into them: an address
// stepped to the end of a tensor would point past it, which the garbage
// collector refuses to find in memory.
type slabAhead struct {
	base         [3]unsafe.Pointer
	at, end, per [3]uintptr
}

// share sets stream i of a to the n bytes from off on of the tensor at
// base, a whole number of lines each of the steps.
func (a *slabAhead) share(i int, base unsafe.Pointer, off, n uintptr, steps int) {
	a.base[i], a.at[i], a.end[i] = base, off, off+n
	a.per[i] = ((n+uintptr(steps)-1)/uintptr(steps) + 63) &^ 63
}

// line applies, by fast, the updates from s0 on at the indices ind, in
// order, to the row of buf at base, slabStep at a time, asking for a's
// next share before each (see fastScatter.scatterLine); it returns the
// position in ind of the first value the rules refuse, or -1.
func (a *slabAhead) line(fast fastScatter, buf view, base int, ind []int64, s0 int, lim limit, skip bool) int {
	for k := 0; k < len(ind); k += slabStep {
		a.step()
		k1 := min(k+slabStep, len(ind))
		if bad := fast.scatterLine(buf, base, ind[k:k1], s0+k, lim, skip); bad >= 0 {
			return k + bad
		}
	}
	return -1
}

// step asks for the next share of each stream.
func (a *slabAhead) step() {
	for i := range a.base {
		if n := min(a.per[i], a.end[i]-a.at[i]); n > 0 {
			prefetchL2(unsafe.Add(a.base[i], a.at[i]), n)
			a.at[i] += n
		}
	}
}

// throughSlabs is slabJob's work for slabs d0 to d1 when they go through
// a buffer: it applies the updates of each slab's rows of indices, along
// the last axis, slabStep at a time, asking for the next slab's lines in
// between. It returns the flat position in indices of the first value
// the rules refuse, or -1.
func (j *slabJob) throughSlabs(w, d0, d1 int) int {
	s, p := j.s, j.through
	e, fast := &s.el, s.run.fast
	b, buf := p.buffer()
	defer slabPool.Put(b)
	defer storeFence()
	n := j.perSlab * e.last // updates per slab
	steps := j.perSlab * ((e.last + slabStep - 1) / slabStep)
	var next slabAhead
	for d := d0; d < d1; d++ {
		lo := d * j.slab
		p.fill(buf, lo, j.slab)
		if d+1 < d1 {
			p.ask(&next, lo+j.slab, j.slab, e.ind, (d+1)*n, n, steps)
		} else {
			next = slabAhead{}
		}
		for c := e.row(w, d*j.perSlab); c.r < (d+1)*j.perSlab; e.next(c) {
			if bad := next.line(fast, buf, c.data-lo, e.index(c), c.other, e.lim, j.skip); bad >= 0 {
				return c.r*e.last + bad
			}
		}
		p.out(buf, lo, j.slab)
	}
	return -1
}
