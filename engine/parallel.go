package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// minWork is the amount of work (elements moved plus index values read)
// below which a kernel runs on the calling goroutine: starting goroutines
// would cost more than they save. Tests lower it to split small inputs.
var minWork = 1 << 15

// small reports whether work is too little to share among goroutines,
// whatever GOMAXPROCS.
func small(work int) bool { return work < 2*minWork }

// parts returns how many goroutines should share work of the given size:
// one per minWork, at most GOMAXPROCS, at least one.
func parts(work int) int {
	if small(work) {
		return 1 // without asking GOMAXPROCS, which takes a lock
	}
	p := runtime.GOMAXPROCS(0)
	if n := work / minWork; n < p {
		p = n
	}
	return max(p, 1)
}

// job is the part of a kernel that workers run on chunks of its range.
// The kernels keep their jobs in their scratch, so that handing one to
// parallel allocates nothing.
type job interface {
	// work runs worker w on the chunk [lo, hi).
	work(w, lo, hi int)
}

// parallel splits [0, n) into p contiguous chunks, chunk w being
// [w*n/p, (w+1)*n/p), runs j on each and returns when all are done:
// chunk 0 on the calling goroutine, each other on a goroutine of its own,
// whose start is parallel's only allocation; done is the call's to wait
// on. With p <= 1 it runs j on the calling goroutine alone, and allocates
// nothing. Kernels partition their work by destination, so that what
// they compute does not depend on p.
//
// (A team of goroutines kept for all calls, fed through a channel, would
// allocate nothing at all, but was slower than starting goroutines: see
// docs/measurements.md.)
func parallel(n, p int, j job, done *sync.WaitGroup) {
	if p = min(p, n); p <= 1 {
		j.work(0, 0, n)
		return
	}
	spread(n, p, j, done)
}

// spread is parallel for p > 1: the goroutines it starts are its only
// allocations, one object each.
func spread(n, p int, j job, done *sync.WaitGroup) {
	done.Add(p - 1)
	for w := 1; w < p; w++ {
		go func() {
			j.work(w, w*n/p, (w+1)*n/p)
			done.Done()
		}()
	}
	j.work(0, 0, n/p)
	done.Wait()
}

// task is the state of one task of a job whose workers claim its tasks
// as they can (the pipeline's chunks, the halves' sorts and applies, the
// blocks' sort): free, claimed by the worker running it, or done.
type task struct{ state atomic.Int32 }

// The states of a task.
const (
	taskFree int32 = iota
	taskClaimed
	taskDone
)

// reset makes t free.
func (t *task) reset() { t.state.Store(taskFree) }

// free reports whether nobody has claimed t.
func (t *task) free() bool { return t.state.Load() == taskFree }

// claim reports whether the caller has claimed t, which was free.
func (t *task) claim() bool { return t.state.CompareAndSwap(taskFree, taskClaimed) }

// finish marks t done, its results visible to whoever sees it done.
func (t *task) finish() { t.state.Store(taskDone) }

// done reports whether t is done.
func (t *task) done() bool { return t.state.Load() == taskDone }

// await returns once t, which another worker has claimed, is done,
// giving up the thread now and then: that worker may be waiting for one.
func (t *task) await() {
	for i := 0; !t.done(); i++ {
		if i%64 == 63 {
			runtime.Gosched()
		}
	}
}

// stealChunks is how many chunks per goroutine steal splits its range
// into: enough that a goroutine whose vCPU the host preempts holds up at
// most a small part of the call while the others take the rest, few
// enough that taking a chunk (an atomic add, and the job's placing of its
// walk at the chunk's start) costs nothing next to the chunk's work.
const stealChunks = 8

// counter is the chunk counter of steal, alone in its cache line: every
// goroutine of a call adds to it, and the scratch fields next to it are
// read by them all.
type counter struct {
	_    [64]byte
	next atomic.Int64
	_    [56]byte
}

// steal is parallel for jobs whose chunks write disjoint outputs, such
// as the gathers': [0, n) is split into min(n, p*stealChunks) chunks in
// order, chunk c being [c*n/k, (c+1)*n/k), which p goroutines take one at
// a time from the scratch's counter, so that one that is held up (its
// vCPU preempted, its chunks slower) does not hold up the call: the
// others take what it has not. Which goroutine runs a chunk then depends
// on the timing, but what the job writes does not. With stops, the job
// records bad indices in s.found (see noneFound): a goroutine stops
// taking chunks once its slot is set, so that it keeps the first bad
// index of its chunks, which it takes in order; leastOf then finds the
// first overall. With p <= 1 it runs j on the calling goroutine alone,
// and allocates nothing.
func steal(n, p int, j job, s *scratch, stops bool) {
	if p = min(p, n); p <= 1 {
		j.work(0, 0, n)
		return
	}
	var found []int
	if stops {
		found = s.found
	}
	stealSpread(n, p, j, found, &s.chunks, &s.done)
}

// stealSpread is steal for p > 1: the goroutines it starts are its only
// allocations, one object each.
func stealSpread(n, p int, j job, found []int, c *counter, done *sync.WaitGroup) {
	k := min(n, p*stealChunks)
	c.next.Store(0)
	done.Add(p - 1)
	for w := 1; w < p; w++ {
		go func() {
			takeChunks(w, n, k, j, found, c)
			done.Done()
		}()
	}
	takeChunks(0, n, k, j, found, c)
	done.Wait()
}

// takeChunks is goroutine w of stealSpread: it runs j on the chunks of
// [0, n) (k of them) that it takes from c, until none is left or its slot
// in found is set.
func takeChunks(w, n, k int, j job, found []int, c *counter) {
	for {
		i := int(c.next.Add(1) - 1)
		if i >= k {
			return
		}
		j.work(w, i*n/k, (i+1)*n/k)
		if found != nil && found[w] >= 0 {
			return
		}
	}
}

// firstOf returns the first non-negative value in found, or -1. Chunks
// are in order, so it is the first bad index overall.
func firstOf(found []int) int {
	for _, f := range found {
		if f >= 0 {
			return f
		}
	}
	return -1
}

// leastOf returns the smallest non-negative value in found, or -1: after
// steal, whose goroutines took chunks in no fixed order, the first bad
// index overall.
func leastOf(found []int) int {
	least := -1
	for _, f := range found {
		if f >= 0 && (least < 0 || f < least) {
			least = f
		}
	}
	return least
}
