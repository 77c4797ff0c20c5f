package engine

import (
	"runtime"
	"sync/atomic"
)

// Rows through a pipeline. A ScatterND of many small rows into a dst of a
// few MiB that is not data (oneRows: W10, a million rows of 16 float32
// summed into 65536) applies every row on one goroutine, in order. Done
// as three steps, the offsets of all the tuples (tupleOffsets), then the
// fill of dst, then the loop, each waited on the one before; here one
// worker makes the offsets a chunk of tuples at a time while the other
// fills dst and then applies the chunks in order as they are ready,
// making itself any chunk the first has not begun, so that neither ever
// waits on a chunk nobody is making. The applying is the same loop over
// the same offsets in the same order: the same bits. A bad tuple stops
// the applying at the start of its chunk: dst, not data, may be left
// partly written, as the engine's contract allows (doc.go).

// pipeChunk is how many tuples a chunk of the pipeline holds: its offsets
// (32 KiB) stay in the cache from their making to their use when one
// worker does both, and the chunks' states take one atomic a chunk. A
// variable, so that tests make calls of many chunks.
var pipeChunk = 8192

// Chunk states of the pipeline.
const (
	chunkFree  = iota // nobody is making its offsets
	chunkTaken        // a worker is making them
	chunkMade         // they are in s.offs, and any bad tuple in s.found
)

// pipeJob is the pipeline's job: worker 0 fills dst and applies the
// chunks, worker 1 (when there is one) makes their offsets ahead of it.
type pipeJob struct {
	s      *scratch
	block  int
	chunks int
	state  []atomic.Int32 // per chunk
	bad    int            // the flat position of the first bad index, or -1
	// ends are the dimensions to look for an index at or past the end of
	// (NegativeSkip's refusal, see pastEnd), nil for none; pastEnd is
	// what that finds, or -1, by the worker that took endTaken.
	ends     []int
	pastEnd  int
	endTaken atomic.Bool
}

// pipeRows applies the n tuples of s.nd to dst as the pipeline, with p
// workers (at most two take part), and returns the flat position in
// indices of the first bad index, or -1. The offsets must fit in int32
// (tupleOffsets' condition) and run must have a fast path. With ends, an
// index at or past the end of its dimension among them is bad whatever
// the rules (the first such), as NegativeSkip's pass would find it
// before the scatter: worker 1 looks while worker 0 fills dst and
// applies the first chunks, which the error may leave written (worker 0
// looks itself once it is done if worker 1 has not begun).
func pipeRows(s *scratch, n, block, p int, rules IndexRules, ends []int) int {
	chunks := (n + pipeChunk - 1) / pipeChunk
	s.offs = resize(s.offs, n)
	o := &s.offsets
	o.w, o.offs, o.skip, o.found = &s.nd, s.offs, rules.OutOfRange == OutOfRangeSkip, s.noneFound(chunks)
	j := &s.pipe
	j.s, j.block, j.chunks, j.bad = s, block, chunks, -1
	j.ends, j.pastEnd = ends, -1
	j.endTaken.Store(false)
	j.state = resize(j.state, chunks)
	for c := range j.state {
		j.state[c].Store(chunkFree)
	}
	parallel(2, min(p, 2), j, &s.done)
	if j.pastEnd >= 0 {
		return j.pastEnd
	}
	return j.bad
}

// work runs worker w. With one worker, parallel runs worker 0 alone,
// which then makes every chunk itself.
func (j *pipeJob) work(w, _, _ int) {
	if w == 1 {
		j.make()
		return
	}
	run := &j.s.run
	run.fill(0, run.size)
	found := j.s.offsets.found
	for c := range j.chunks {
		j.await(c)
		if found[c] >= 0 {
			j.bad = found[c]
			return
		}
		t0, t1 := c*pipeChunk, min((c+1)*pipeChunk, j.s.nd.n)
		run.fast.scatterOffsets(j.s.offs[t0:t1], t0, j.block)
	}
	j.lookPastEnd()
}

// lookPastEnd looks for an index at or past the end of ends, unless
// there are none or the other worker has taken the look.
func (j *pipeJob) lookPastEnd() {
	if j.ends != nil && j.endTaken.CompareAndSwap(false, true) {
		j.pastEnd = pastEnd(j.s.nd.ind, j.ends)
	}
}

// make is worker 1: it looks for an index past the end if asked to, then
// makes the offsets of every chunk that worker 0 has not taken, in order,
// and stops at the first chunk with a bad tuple.
func (j *pipeJob) make() {
	j.lookPastEnd()
	found := j.s.offsets.found
	for c := range j.chunks {
		if j.state[c].CompareAndSwap(chunkFree, chunkTaken) {
			j.makeChunk(c)
			if found[c] >= 0 {
				return
			}
		}
	}
}

// makeChunk makes the offsets of chunk c, recording its first bad tuple
// in found[c], and marks it made.
func (j *pipeJob) makeChunk(c int) {
	j.s.offsets.work(c, c*pipeChunk, min((c+1)*pipeChunk, j.s.nd.n))
	j.state[c].Store(chunkMade)
}

// await returns once chunk c is made: by worker 0 itself if nobody has
// begun it, else by waiting for worker 1, which is making it.
func (j *pipeJob) await(c int) {
	if j.state[c].CompareAndSwap(chunkFree, chunkTaken) {
		j.makeChunk(c)
		return
	}
	for j.state[c].Load() != chunkMade {
		runtime.Gosched()
	}
}
