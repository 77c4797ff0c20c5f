package engine

import (
	"math/bits"
)

// Blocks of dst. ScatterND of many single elements into another dst past
// the cache (W1: 1M elements written at random into a copy of a 64 MiB
// tensor) would copy data into dst and then miss the cache on nearly
// every update. Here the updates are sorted first, with their values, by
// the block of dst they fall in, a block being small enough for the
// core's cache; then each block of dst is filled and at once takes its
// updates, which find it in the cache. The sort is a counting sort, and
// stable: the updates of a block keep their index order, so that the last
// of two into one element wins, whoever runs the block. Its four tasks
// (count and place the first and the second half of the updates) are
// claimed by either worker, and the blocks are then taken one at a time
// from a counter, so that a worker whose vCPU is taken away holds up only
// the task it is in. (Figures: docs/measurements.md.)

// The sizes of the blocks, variables for tests.
var (
	// blockedBytes is the size of a block of dst: a quarter of a 1 MiB
	// L2, which the block's entries pass through as well.
	blockedBytes = 256 << 10
	// blockedMin is the fewest updates for which the sort pays.
	blockedMin = 1 << 16
)

// blocking reports whether n single updates into a dst of size elements of
// elem bytes, not in place, with p workers, should be sorted by block:
// reduction none, and not strings, whose entries would keep the updates'
// strings alive after the call.
func blocking(run *scatterRun, n, size, elem, p int) bool {
	if _, str := run.m.(*wordMover[string]); str || run.m == nil {
		return false
	}
	return p >= 2 && !run.inPlace && n >= blockedMin && size*elem >= 4*blockedBytes &&
		strategy.StreamBytes > 0 && size*elem >= strategy.StreamBytes && int64(size) <= 1<<31
}

// blockedMover is a mover that can place and apply sorted updates.
type blockedMover interface {
	// reserve makes the job's entries of the mover's element type hold
	// at least n.
	reserve(j *blockedJob, n int)
	// placeBlocked places the updates of half h of the job's offsets
	// into the job's entries, at the positions of half h.
	placeBlocked(j *blockedJob, h int)
	// applyBlocked sets dst's elements to the values of the entries
	// [lo, hi), in order.
	applyBlocked(j *blockedJob, lo, hi int)
}

// The tasks of the sort, by number: count the first half, the second,
// then place them.
const (
	taskCount0 = iota
	taskCount1
	taskPlace0
	taskPlace1
	sortTasks
)

// blockedJob is the job of the two workers.
type blockedJob struct {
	run *scatterRun
	m   blockedMover
	// offs, or starts where offs is nil, are the updates' offsets in dst,
	// -1 for a skipped update: ScatterND's, or the general scatter's.
	offs   []int32
	starts []int
	shift  uint // a block holds 1<<shift elements
	// blocks is the number of blocks of dst; size its elements.
	blocks, size int
	// counts holds, per half of the updates, the count of each block's
	// updates; begin, after the counts, where each half's updates of
	// each block go in entries.
	counts, begin [2][]int
	// at is, per half, where its next update of each block goes, as
	// placeBlocked places them.
	at      [2][]int
	entries any // a []entry[E] of dst's element type, kept between calls
	tasks   [sortTasks]task
	next    counter // the next block to fill and apply
}

// scatterBlocked runs s.run's scatter of the updates at offs (single
// elements: -1 for a skipped one) into dst of size elements of elem
// bytes, sorted by block, on two workers; the general scatter's offsets
// come as starts, offs nil.
func (s *scratch) scatterBlocked(offs []int32, starts []int, size int, elem uintptr) {
	j := &s.blocked
	j.prepare(&s.run, offs, starts, size, elem)
	spread(2, 2, j, &s.done)
	j.run, j.m, j.offs, j.starts = nil, nil, nil, nil
}

// prepare readies j for run's scatter of the updates at offs (or starts)
// into dst of size elements of elem bytes, every task free.
func (j *blockedJob) prepare(run *scatterRun, offs []int32, starts []int, size int, elem uintptr) {
	j.run, j.m, j.offs, j.starts, j.size = run, run.m.(blockedMover), offs, starts, size
	j.shift = uint(bits.Len(max(uint(blockedBytes)/uint(elem), 1)) - 1)
	j.blocks = (size + 1<<j.shift - 1) >> j.shift
	for h := range j.counts {
		j.counts[h] = resize(j.counts[h], j.blocks)
		j.begin[h] = resize(j.begin[h], j.blocks+1)
		j.at[h] = resize(j.at[h], j.blocks)
	}
	j.m.reserve(j, j.updates())
	for t := range j.tasks {
		j.tasks[t].reset()
	}
	j.next.next.Store(0)
}

// updates returns the number of updates.
func (j *blockedJob) updates() int {
	if j.offs != nil {
		return len(j.offs)
	}
	return len(j.starts)
}

// halfOf returns half h of offs.
func halfOf[O int32 | int](offs []O, h int) []O {
	if h == 0 {
		return offs[:len(offs)/2]
	}
	return offs[len(offs)/2:]
}

// work runs worker w: the sort's tasks that are free, in order, waiting
// for those of the other worker that its next ones need; then blocks from
// the counter until none is left.
func (j *blockedJob) work(w, _, _ int) {
	for _, t := range [...]int{taskCount0 + w, taskCount1 - w, taskPlace0 + w, taskPlace1 - w} {
		if t >= taskPlace0 {
			j.tasks[taskCount0].await()
			j.tasks[taskCount1].await()
		}
		if j.tasks[t].claim() {
			j.runTask(t)
			j.tasks[t].finish()
		}
	}
	j.tasks[taskPlace0].await()
	j.tasks[taskPlace1].await()
	for {
		b := int(j.next.next.Add(1)) - 1
		if b >= j.blocks {
			return
		}
		lo := b << j.shift
		j.run.fill(lo, min(lo+1<<j.shift, j.size))
		j.m.applyBlocked(j, j.begin[0][b], j.begin[0][b+1])
	}
}

// runTask runs sort task t.
func (j *blockedJob) runTask(t int) {
	switch t {
	case taskCount0, taskCount1:
		h := t - taskCount0
		if j.offs != nil {
			countBlocks(j.counts[h], halfOf(j.offs, h), j.shift)
		} else {
			countBlocks(j.counts[h], halfOf(j.starts, h), j.shift)
		}
	default:
		h := t - taskPlace0
		j.setStarts(h)
		j.m.placeBlocked(j, h)
	}
}

// countBlocks sets c[b] to the number of offsets in block b (of 1<<shift
// elements), -1s aside.
func countBlocks[O int32 | int](c []int, offs []O, shift uint) {
	clear(c)
	for _, o := range offs {
		if o >= 0 {
			c[o>>shift]++
		}
	}
}

// setStarts sets begin[h][b] to where half h's updates of block b go:
// after every update of the blocks before b, and for the second half
// after the first half's of b, so that each block's updates lie in index
// order. begin[0][b] is then where block b's begin, begin[0][blocks]
// their end.
func (j *blockedJob) setStarts(h int) {
	at, st := 0, j.begin[h]
	for b := range j.blocks {
		st[b] = at
		if h == 1 {
			st[b] += j.counts[0][b]
		}
		at += j.counts[0][b] + j.counts[1][b]
	}
	st[j.blocks] = at
}

func (m *wordMover[E]) reserve(j *blockedJob, n int) {
	if es, _ := j.entries.([]entry[E]); cap(es) < n {
		j.entries = make([]entry[E], n)
	}
}

func (m *wordMover[E]) placeBlocked(j *blockedJob, h int) {
	es, at := j.entries.([]entry[E]), j.at[h]
	copy(at, j.begin[h][:j.blocks])
	t0 := 0
	if h == 1 {
		t0 = j.updates() / 2
	}
	if j.offs != nil {
		placeEntries(es, at, halfOf(j.offs, h), m.src[t0:], j.shift)
	} else {
		placeEntries(es, at, halfOf(j.starts, h), m.src[t0:], j.shift)
	}
}

// placeEntries writes the entry of each update src[i] at offs[i] (none at
// -1) to es at at[b], b its block (of 1<<shift elements), and moves at[b]
// on.
func placeEntries[E any, O int32 | int](es []entry[E], at []int, offs []O, src []E, shift uint) {
	src = src[:len(offs)]
	for i, o := range offs {
		if o >= 0 {
			b := o >> shift
			es[at[b]] = entry[E]{int32(o), src[i]}
			at[b]++
		}
	}
}

func (m *wordMover[E]) applyBlocked(j *blockedJob, lo, hi int) {
	dst := m.dst
	for _, e := range j.entries.([]entry[E])[lo:hi] {
		dst[e.off] = e.v
	}
}
