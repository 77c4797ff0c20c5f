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

// parts returns how many goroutines should share work of the given size:
// one per minWork, at most GOMAXPROCS, at least one.
func parts(work int) int {
	if work < 2*minWork {
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
// [w*n/p, (w+1)*n/p), runs j on each and returns when all are done: chunk
// 0 on the calling goroutine, the others on the team's. With p <= 1 it
// runs j on the calling goroutine alone. Kernels partition their work by
// destination, so that what they compute does not depend on p. done is
// the call's to wait on; it allocates nothing.
func parallel(n, p int, j job, done *sync.WaitGroup) {
	if p = min(p, n); p <= 1 {
		j.work(0, 0, n)
		return
	}
	team.hire(p - 1)
	done.Add(p - 1)
	for w := 1; w < p; w++ {
		team.tasks <- task{j: j, w: w, lo: w * n / p, hi: (w + 1) * n / p, done: done}
	}
	j.work(0, 0, n/p)
	done.Wait()
}

// task is a chunk of a job for a member of the team.
type task struct {
	j         job
	w, lo, hi int
	done      *sync.WaitGroup
}

// team is the goroutines that run the chunks parallel hands over.
var team = &workers{tasks: make(chan task, 64)}

// workers are goroutines started as parallel first needs them, as many as
// the most it has needed at once, and kept, so that a parallel call
// starts no goroutine and allocates nothing. A member runs one chunk at a
// time, and no chunk waits for another, so concurrent calls share them
// without deadlock.
type workers struct {
	mu    sync.Mutex
	size  atomic.Int64
	tasks chan task
}

// hire makes sure there are at least n workers.
func (t *workers) hire(n int) {
	if t.size.Load() >= int64(n) {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for ; t.size.Load() < int64(n); t.size.Add(1) {
		go t.serve()
	}
}

// serve runs the chunks it receives, for ever.
func (t *workers) serve() {
	for k := range t.tasks {
		k.j.work(k.w, k.lo, k.hi)
		k.done.Done()
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
