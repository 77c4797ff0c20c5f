package engine

import (
	"runtime"
	"sync"
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
