package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Halves. Many single updates reduced into a dst of a few MiB (W3: 4M
// adds into 1M float32) are bound by the read-modify-write of a random
// element of dst: each misses the core's cache. One loop applies them in
// order (see scatterND); two workers can share them only if every element
// still gets its updates in index order. So each worker owns half of dst,
// which then fits its cache better, and the updates go a chunk at a time:
// each worker sorts its half of the chunk into two buckets, by the half
// of dst each index falls in, keeping their order; after both have, each
// applies to its half of dst the bucket of worker 0 and then that of
// worker 1, which hold the chunk's updates of that half in index order.
// (How much faster than the one loop: docs/measurements.md.)

// The sizes of the halves, variables for tests.
var (
	// halvesChunk is how many updates the workers bucket before they
	// apply them: two barriers a chunk, which a worker whose thread the
	// machine lends elsewhere holds up, so chunks are large.
	halvesChunk = 1 << 18
	// halvesBytes is the size of dst from which the halves pay: below
	// it, dst is cache enough for the one loop.
	halvesBytes = 2 << 20
	// halvesMin is the fewest updates for which they pay.
	halvesMin = 1 << 18
)

// halver is a fastScatter that can apply single updates in halves.
type halver interface {
	// halves applies the updates of ind, in order, with two workers
	// each owning half of dst, starting the second with done. It
	// stops before a chunk that holds an index outside [0, size),
	// and returns how many updates it applied (len(ind) when all).
	halves(ind []int64, done *sync.WaitGroup) int
}

// halving reports whether n single updates into a dst of size elements
// of elem bytes each, with the given work, should run in halves. A half
// of dst must be addressable by a bucket entry's int32 offset: size at
// most 2^31, compared as an int64 so that the bound compiles where int
// has 32 bits (where every size meets it).
func halving(n, size, elem, work int) bool {
	return n >= halvesMin && size*elem >= halvesBytes && int64(size) <= 1<<31 && parts(work) >= 2
}

// halfEntry is an update in a bucket: its element's offset in the half of
// dst, and its value.
type halfEntry[T number] struct {
	off int32
	u   T
}

// halfBuckets are one worker's two buckets for a chunk, and whether its
// part of the chunk held an index outside [0, size).
type halfBuckets[T number] struct {
	b   [2][]halfEntry[T]
	n   [2]int
	bad bool
	_   [64]byte // the two workers' buckets on lines of their own
}

// halvesJob is the job of the two workers.
type halvesJob[T number] struct {
	r       *numReducer[T]
	ind     []int64
	split   int // worker 0 owns dst[:split], worker 1 dst[split:]
	w       [2]halfBuckets[T]
	arrived atomic.Int64 // at the barriers, by both workers
	stop    int          // the first update not applied, set by worker 0
}

// halvesPool keeps the buckets' memory between calls.
var halvesPool sync.Pool

// applyHalves is r's halves (see halver).
func applyHalves[T number](r *numReducer[T], ind []int64, done *sync.WaitGroup) int {
	// A worker's part of a chunk, the larger if odd, and the slot written
	// past it.
	per := (min(halvesChunk, len(ind))+1)/2 + 1
	buf := getBuffer[halfEntry[T]](&halvesPool, 4*per)
	defer halvesPool.Put(buf)
	j := &halvesJob[T]{r: r, ind: ind, split: len(r.dst) / 2, stop: len(ind)}
	for w := range j.w {
		for h := range j.w[w].b {
			k := 2*w + h
			j.w[w].b[h] = (*buf)[k*per : (k+1)*per]
		}
	}
	spread(2, 2, j, done)
	return j.stop
}

// work runs worker w over every chunk.
func (j *halvesJob[T]) work(w, _, _ int) {
	dst, src, red := j.r.dst, j.r.src, j.r.red
	mine := dst[:j.split]
	if w == 1 {
		mine = dst[j.split:]
	}
	gen := int64(0)
	for lo := 0; lo < len(j.ind); lo += halvesChunk {
		hi := min(lo+halvesChunk, len(j.ind))
		a, b := lo, lo+(hi-lo)/2
		if w == 1 {
			a, b = b, hi
		}
		j.w[w].bucket(j.ind[a:b], src[a:b], j.split, len(dst))
		gen++
		j.wait(gen)
		if j.w[0].bad || j.w[1].bad {
			// Both see the same flags and stop at the same chunk.
			if w == 0 {
				j.stop = lo
			}
			return
		}
		applyEntries(red, mine, j.w[0].b[w][:j.w[0].n[w]])
		applyEntries(red, mine, j.w[1].b[w][:j.w[1].n[w]])
		gen++
		j.wait(gen) // before either buckets the next chunk
	}
}

// wait is the workers' barrier: it returns once both have arrived gen
// times.
func (j *halvesJob[T]) wait(gen int64) {
	j.arrived.Add(1)
	for i := 0; j.arrived.Load() < 2*gen; i++ {
		if i%64 == 63 {
			runtime.Gosched() // the other may be waiting for a thread
		}
	}
}

// bucket sorts the updates upd at ind into the two buckets, the offsets
// made relative to the half of dst (split elements in the first), in
// order. Each update is written to both buckets, and only its own count
// moves on: no branch on a half that is random. An index outside
// [0, size) sets bad, before any is sorted.
func (h *halfBuckets[T]) bucket(ind []int64, upd []T, split, size int) {
	h.bad = outside(ind, limit{size: size}) >= 0
	if !h.bad {
		h.n[0], h.n[1] = sortHalves(h.b[0][:len(ind)+1], h.b[1][:len(ind)+1], ind, upd[:len(ind)], split)
	}
}

// sortHalves is bucket's loop, with few live values so that they all stay
// in registers. It returns the counts of b0 and b1.
//
//go:noinline
func sortHalves[T number](b0, b1 []halfEntry[T], ind []int64, upd []T, split int) (n0, n1 int) {
	upd = upd[:len(ind)]
	b0, b1 = b0[:len(ind)+1], b1[:len(ind)+1]
	for i, v := range ind {
		hi := b2i(v >= int64(split))
		e := halfEntry[T]{int32(v) - int32(split*hi), upd[i]}
		b0[n0] = e
		b1[n1] = e
		n0 += 1 - hi
		n1 += hi
	}
	return n0, n1
}

// applyEntries combines each update of es into its element of dst, in
// order: float32 sums by addEntryFloats, which asks for elements ahead.
//
//go:noinline
func applyEntries[T number](red Reduction, dst []T, es []halfEntry[T]) {
	if d, ok := any(dst).([]float32); ok && red == Add {
		addEntryFloats(d, any(es).([]halfEntry[float32]))
		return
	}
	if red == Add {
		for _, e := range es {
			dst[e.off] = add(dst[e.off], e.u)
		}
		return
	}
	for _, e := range es {
		dst[e.off] = combine(red, dst[e.off], e.u)
	}
}
