package engine

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Halves. Many single updates reduced into a dst of a few MiB (W3: 4M
// adds into 1M float32) are bound by the read-modify-write of a random
// element of dst: each misses the core's cache. One loop applies them in
// order (see scatterND); two workers can share them only if every element
// still gets its updates in index order. So dst is split in two halves,
// and the updates go a chunk at a time through four tasks: each half of
// the chunk's updates is sorted into two buckets, by the half of dst each
// index falls in, keeping their order (tasks B0 and B1); then each half of
// dst takes the bucket of B0 and then that of B1, which hold the chunk's
// updates of that half in index order (A0 and A1), after it has taken
// those of the chunk before. Either worker runs any task whose tasks
// before it are done, claiming it first, so that a worker whose vCPU the
// host has taken away holds up only the task it is in: the other goes on
// with the rest, alone if need be. Whoever runs a task, each element of
// dst gets its updates in index order, so the result does not depend on
// the timing. (How much faster than the one loop: docs/measurements.md.)
//
// The halves pay only while the two workers run side by side at full
// speed. A shared machine may, for minutes at a time, run every task of
// theirs several times slower, both workers busy (as when the host puts
// both vCPUs on one core's two hardware threads), or lend the second
// worker's vCPU to another: the halves then take two to three times as
// long as the one loop. So which way is faster is timed as the calls go
// (wayTimes): a call takes the faster, and now and then the other, to see
// whether that has changed. Either way the result is the same bits.

// The sizes of the halves, variables for tests.
var (
	// halvesChunk is how many updates a chunk holds.
	halvesChunk = 1 << 16
	// halvesBytes is the size of dst from which the halves pay: below
	// it, dst is cache enough for the one loop.
	halvesBytes = 2 << 20
	// halvesMin is the fewest updates for which they pay.
	halvesMin = 1 << 18
	// halvesTimed says that the halves and the one loop are chosen by
	// their timings (wayTimes); tests turn it off to run the halves
	// whenever halving allows them.
	halvesTimed = true
)

// A way of applying many single updates into a dst in the cache.
type way int

const (
	halvesWay way = iota // in halves, on two workers
	loopWay              // in one loop, on this goroutine
)

// timesStale is how old a way's timing may grow before a call takes that
// way again to time it, however many calls the retries' schedule still
// has to wait (see wayTimes).
const timesStale = int64(time.Second)

// The bounds of the retries' schedule: after a switch, the slower way is
// taken again retryLeast calls on; each retry that finds it still slower
// doubles the wait, up to retryMost calls.
const (
	retryLeast = 4
	retryMost  = 64
)

// clockBase is the origin of wayTimes' clock (time.Since, monotonic).
var clockBase = time.Now()

// now returns the time since clockBase, in nanoseconds.
func now() int64 { return int64(time.Since(clockBase)) }

// wayTimes are the timings of the two ways for the calls into a dst of
// one size class: each way's time of an update, in picoseconds (0 until it
// has one), when it was last timed, and how many calls took it; and the
// retries' schedule: how many calls the slower way waits (every) and how
// many are left (left).
//
// The halves' first call is not timed: it also pays for what later calls
// find ready (their buckets, and the buckets' pages); the one loop has
// nothing to make ready, and its first call is timed, so that finding
// out costs a short run one call of the slower way, not two.
//
// A machine's noise only ever slows a call, so a way's timing falls at
// once to a faster call's and rises only half-way to a slower one's: one
// slow call moves it less than the calls before it say. The faster way
// runs; the slower is timed again on a schedule, retryLeast calls after a
// switch and twice as long after each retry that finds it still slower,
// up to retryMost calls, or once its timing is older than timesStale. A
// faster way that a call finds slower than the other is retried after
// retryLeast calls of the other: one slow call, the machine's noise,
// costs a few calls of the slower way, where a change of the machine's
// state shows within them. But where the loop's first call finds it
// faster than the halves, which have been timed once, the halves are
// retried at the next call: a short run (`scatter bench`'s nine calls)
// whose one timed halves call the noise slowed spent most of its calls
// in the loop.
// Calls running at once read and write these without a lock: a timing
// lost to another's is one of many.
type wayTimes struct {
	ps          [2]atomic.Int64
	when        [2]atomic.Int64
	calls       [2]atomic.Int64
	every, left atomic.Int64
}

// halvesTimes are the timings by size class of dst: its bytes' bit
// length.
var halvesTimes [65]wayTimes

// timesOf returns the timings of calls into a dst of the given bytes.
func timesOf(bytes int) *wayTimes { return &halvesTimes[bits.Len64(uint64(bytes))] }

// choose returns the way a call at time t takes: the halves until they
// are timed; then the one loop until it is; then the faster of the two,
// but the slower when the schedule says it is its turn, or its timing is
// older than timesStale.
func (w *wayTimes) choose(t int64) way {
	h, l := w.ps[halvesWay].Load(), w.ps[loopWay].Load()
	switch {
	case h == 0:
		return halvesWay
	case l == 0:
		return loopWay
	}
	fast, slow := halvesWay, loopWay
	if l < h {
		fast, slow = loopWay, halvesWay
	}
	if w.left.Add(-1) < 0 || t-w.when[slow].Load() > timesStale {
		return slow
	}
	return fast
}

// record takes in the timing of a call at time t that applied n updates
// by way x in elapsed, unless it is the halves' first, and moves the
// retries' schedule on (see wayTimes).
func (w *wayTimes) record(x way, t int64, elapsed time.Duration, n int) {
	if w.calls[x].Add(1) == 1 && x == halvesWay || n <= 0 {
		return
	}
	ps := elapsed.Nanoseconds() * 1000 / int64(n)
	old := w.ps[x].Load()
	if old != 0 && ps > old && t-w.when[x].Load() <= timesStale {
		ps = (old + ps) / 2
	}
	ps = max(ps, 1)
	w.ps[x].Store(ps)
	w.when[x].Store(t)
	other := w.ps[1-x].Load()
	if other == 0 {
		return
	}
	wasFaster, isFaster := old != 0 && old <= other, ps <= other
	switch {
	case wasFaster && !isFaster: // slowed: see soon whether it stays so
		w.left.Store(retryLeast)
	case !wasFaster && !isFaster: // a retry, still slower: wait longer
		every := min(max(2*w.every.Load(), retryLeast), retryMost)
		w.every.Store(every)
		w.left.Store(every)
	case !wasFaster && isFaster: // a retry that switched the ways
		w.every.Store(retryLeast)
		left := int64(retryLeast)
		if old == 0 {
			// The way's first timing: a switch that rests on one call
			// of each way, the other is taken again at once.
			left = 0
		}
		w.left.Store(left)
	}
}

// halvesSlots is how many chunks' buckets are held at once: a worker
// may sort a chunk that many ahead of the oldest one not yet applied.
const halvesSlots = 4

// halver is a fastScatter that can apply single updates in halves.
type halver interface {
	// halves applies the updates of ind, in order, with two workers,
	// starting the second with done. It stops before the first chunk
	// that holds an index outside [0, size), and returns how many
	// updates it applied (len(ind) when all).
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

// entry is an update sorted by where it lands, with its value: in a
// bucket of the halves, its element's offset in the half of dst; in the
// blocks' sort (scatter_nd_blocked.go), in dst.
type entry[E any] struct {
	off int32
	v   E
}

// halfBuckets are the two buckets of one sorting task, and whether its
// updates held an index outside [0, size).
type halfBuckets[T number] struct {
	b   [2][]entry[T]
	n   [2]int
	bad bool
}

// The tasks of a chunk, task k of chunk c being number 4c+k.
const (
	taskSort0  = iota // sort the chunk's first half of updates
	taskSort1         // and its second
	taskApply0        // apply the chunk's updates of dst's first half
	taskApply1        // and of its second
	chunkTasks
)

// halvesJob is the job of the two workers.
type halvesJob[T number] struct {
	r      *numReducer[T]
	ind    []int64
	split  int // the first half of dst is dst[:split]
	chunks int
	// sorted holds the buckets of the chunks in flight, chunk c's two
	// sorting tasks in sorted[c%halvesSlots].
	sorted [halvesSlots][2]halfBuckets[T]
	// tasks holds each task's state, by number.
	tasks []task
	// stop is the first chunk with an index outside [0, size), chunks
	// when none: its tasks and those after it are not run.
	stop atomic.Int64
	buf  []entry[T]
}

// halvesPool keeps the jobs, with their buckets' memory, between calls.
var halvesPool sync.Pool

// applyHalves is r's halves (see halver).
func applyHalves[T number](r *numReducer[T], ind []int64, done *sync.WaitGroup) int {
	j, _ := halvesPool.Get().(*halvesJob[T])
	if j == nil {
		j = new(halvesJob[T])
	}
	j.start(r, ind)
	spread(2, 2, j, done)
	applied := j.applied()
	j.r, j.ind = nil, nil
	halvesPool.Put(j)
	return applied
}

// start readies j for the updates of ind into r's dst, every task free.
func (j *halvesJob[T]) start(r *numReducer[T], ind []int64) {
	chunk := min(halvesChunk, len(ind))
	// A sorting task's updates, the larger half of a chunk if odd, and
	// the slot written past them.
	per := (chunk+1)/2 + 1
	if cap(j.buf) < 4*halvesSlots*per {
		j.buf = make([]entry[T], 4*halvesSlots*per)
	}
	for c := range j.sorted {
		for s := range j.sorted[c] {
			for h := range j.sorted[c][s].b {
				k := (c*2+s)*2 + h
				j.sorted[c][s].b[h] = j.buf[k*per : (k+1)*per]
			}
		}
	}
	j.r, j.ind, j.split = r, ind, len(r.dst)/2
	j.chunks = (len(ind) + chunk - 1) / chunk
	j.tasks = resize(j.tasks, chunkTasks*j.chunks)
	for i := range j.tasks {
		j.tasks[i].reset()
	}
	j.stop.Store(int64(j.chunks))
}

// applied returns how many updates the workers have applied, once they
// are done: those of the chunks before stop.
func (j *halvesJob[T]) applied() int {
	return min(int(j.stop.Load())*min(halvesChunk, len(j.ind)), len(j.ind))
}

// work runs worker w: it takes the first free task whose tasks before it
// are done, among the next few, until none is left, and waits while all
// of those it may take wait on tasks the other worker has claimed.
func (j *halvesJob[T]) work(w, _, _ int) {
	first := 0 // every task before it is claimed, done or stopped
	for spins := 0; ; spins++ {
		end := chunkTasks * int(j.stop.Load())
		for first < end && !j.tasks[first].free() {
			first++
		}
		if first >= end {
			return
		}
		ran := false
		for t := first; t < min(end, first+chunkTasks*halvesSlots); t++ {
			if j.tasks[t].free() && j.ready(t) && j.tasks[t].claim() {
				j.run(t)
				j.tasks[t].finish()
				ran, spins = true, 0
				break
			}
		}
		if !ran && spins%64 == 63 {
			runtime.Gosched() // the other may be waiting for a thread
		}
	}
}

// done reports whether task t is done, t < 0 counting as done.
func (j *halvesJob[T]) done(t int) bool {
	return t < 0 || j.tasks[t].done()
}

// ready reports whether the tasks task t waits on are done: for a sort,
// the applies of the chunk whose buckets it takes over; for an apply, the
// chunk's sorts and the same half's apply of the chunk before.
func (j *halvesJob[T]) ready(t int) bool {
	c, k := t/chunkTasks, t%chunkTasks
	if k < taskApply0 {
		old := (c - halvesSlots) * chunkTasks
		return j.done(old+taskApply0) && j.done(old+taskApply1)
	}
	return j.done(c*chunkTasks+taskSort0) && j.done(c*chunkTasks+taskSort1) && j.done(t-chunkTasks)
}

// run runs task t.
func (j *halvesJob[T]) run(t int) {
	c, k := t/chunkTasks, t%chunkTasks
	chunk := min(halvesChunk, len(j.ind))
	lo := c * chunk
	hi := min(lo+chunk, len(j.ind))
	slot := &j.sorted[c%halvesSlots]
	if k < taskApply0 {
		a, b := lo, lo+(hi-lo)/2
		if k == taskSort1 {
			a, b = b, hi
		}
		slot[k].bucket(j.ind[a:b], j.r.src[a:b], j.split, len(j.r.dst))
		if slot[k].bad {
			// Lower stop to c, unless a chunk before it holds a bad index.
			for s := j.stop.Load(); int64(c) < s && !j.stop.CompareAndSwap(s, int64(c)); s = j.stop.Load() {
			}
		}
		return
	}
	h := k - taskApply0
	mine := j.r.dst[:j.split]
	if h == 1 {
		mine = j.r.dst[j.split:]
	}
	if int64(c) >= j.stop.Load() {
		return // a sort of this chunk or one before has found a bad index
	}
	applyEntries(j.r.red, mine, slot[0].b[h][:slot[0].n[h]])
	applyEntries(j.r.red, mine, slot[1].b[h][:slot[1].n[h]])
}

// bucket sorts the updates upd at ind into the two buckets, the offsets
// made relative to the half of dst (split elements in the first), in
// order. Each update is written to both buckets, and only its own count
// moves on: no branch on a half that is random. An index outside
// [0, size) sets bad, and the buckets are then not to be read.
func (h *halfBuckets[T]) bucket(ind []int64, upd []T, split, size int) {
	var most uint64
	if b, ok := any(h).(*halfBuckets[float32]); ok {
		h.n[0], h.n[1], most = sortFloatHalves(b.b[0], b.b[1], ind, any(upd).([]float32), split)
	} else {
		h.n[0], h.n[1], most = sortHalves(h.b[0][:len(ind)+1], h.b[1][:len(ind)+1], ind, upd[:len(ind)], split)
	}
	h.bad = len(ind) > 0 && most >= uint64(size)
}

// sortHalves is bucket's loop, with few live values so that they all stay
// in registers. It returns the counts of b0 and b1, and the largest index
// taken as unsigned (a negative one is larger than any size), which
// checks them all in the same pass.
//
//go:noinline
func sortHalves[T number](b0, b1 []entry[T], ind []int64, upd []T, split int) (n0, n1 int, most uint64) {
	upd = upd[:len(ind)]
	b0, b1 = b0[:len(ind)+1], b1[:len(ind)+1]
	for i, v := range ind {
		most = max(most, uint64(v))
		hi := b2i(v >= int64(split))
		e := entry[T]{int32(v) - int32(split*hi), upd[i]}
		b0[n0] = e
		b1[n1] = e
		n0 += 1 - hi
		n1 += hi
	}
	return n0, n1, most
}

// applyEntries combines each update of es into its element of dst, in
// order: float32 sums by addEntryFloats, which asks for elements ahead.
//
//go:noinline
func applyEntries[T number](red Reduction, dst []T, es []entry[T]) {
	if d, ok := any(dst).([]float32); ok && red == Add {
		addEntryFloats(d, any(es).([]entry[float32]))
		return
	}
	if red == Add {
		for _, e := range es {
			dst[e.off] = add(dst[e.off], e.v)
		}
		return
	}
	for _, e := range es {
		dst[e.off] = combine(red, dst[e.off], e.v)
	}
}
