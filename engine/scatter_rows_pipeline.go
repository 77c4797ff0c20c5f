package engine

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
//
// Worker 1 could also read the updates' lines a few chunks ahead of
// worker 0, so that they came from memory on its core: that made W10
// slower, not faster (README's Speed section).

// pipeChunk is how many tuples a chunk of the pipeline holds: its offsets
// (32 KiB) stay in the cache from their making to their use when one
// worker does both, and the chunks' states take one atomic a chunk. A
// variable, so that tests make calls of many chunks.
var pipeChunk = 8192

// pipeJob is the pipeline's job: worker 0 fills dst and applies the
// chunks, worker 1 (when there is one) makes their offsets ahead of it.
type pipeJob struct {
	s      *scratch
	block  int
	chunks int
	// chunks' tasks: a chunk is done when its offsets are in s.offs
	// and any bad tuple of it in s.offsets.found.
	tasks []task
	// ends are the dimensions to look for an index at or past the end of
	// (NegativeSkip's refusal, see pastEnd), nil for none.
	ends []int
}

// pipeRows applies the n tuples of s.nd to dst as the pipeline, with p
// workers (at most two take part), and returns the flat position in
// indices of the first bad index, or -1. The offsets must fit in int32
// (tupleOffsets' condition) and run must have a fast path. With ends, an
// index at or past the end of its dimension among them is bad whatever
// the rules, as NegativeSkip's pass before the scatter would find it:
// here it stops the applying at its chunk, which may leave the chunks
// before it written.
func pipeRows(s *scratch, n, block, p int, rules IndexRules, ends []int) int {
	chunks := (n + pipeChunk - 1) / pipeChunk
	s.offs = resize(s.offs, n)
	o := &s.offsets
	o.w, o.offs, o.skip, o.found = &s.nd, s.offs, rules.OutOfRange == OutOfRangeSkip, s.noneFound(chunks)
	j := &s.pipe
	j.s, j.block, j.chunks, j.ends = s, block, chunks, ends
	j.tasks = resize(j.tasks, chunks)
	for c := range j.tasks {
		j.tasks[c].reset()
	}
	parallel(2, min(p, 2), j, &s.done)
	return firstOf(o.found)
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
			return
		}
		t0, t1 := j.bounds(c)
		run.fast.scatterOffsets(j.s.offs[t0:t1], t0, j.block)
	}
}

// bounds returns the tuples of chunk c.
func (j *pipeJob) bounds(c int) (t0, t1 int) {
	return c * pipeChunk, min((c+1)*pipeChunk, j.s.nd.n)
}

// make is worker 1: it makes the offsets of every chunk that worker 0 has
// not taken, in order, and stops at the first chunk with a bad tuple.
func (j *pipeJob) make() {
	found := j.s.offsets.found
	for c := range j.chunks {
		if j.tasks[c].claim() {
			j.makeChunk(c)
			if found[c] >= 0 {
				return
			}
		}
	}
}

// makeChunk makes the offsets of chunk c, recording its first bad tuple
// in found[c] (with ends, the first index past the end, if that comes
// first), and marks it made.
func (j *pipeJob) makeChunk(c int) {
	t0, t1 := j.bounds(c)
	o := &j.s.offsets
	o.work(c, t0, t1)
	if j.ends != nil {
		k := len(j.ends)
		if bad := pastEnd(j.s.nd.ind[t0*k:t1*k], j.ends); bad >= 0 && (o.found[c] < 0 || t0*k+bad < o.found[c]) {
			o.found[c] = t0*k + bad
		}
	}
	j.tasks[c].finish()
}

// await returns once chunk c is made: by worker 0 itself if nobody has
// begun it, else by waiting for worker 1, which is making it.
func (j *pipeJob) await(c int) {
	if j.tasks[c].claim() {
		j.makeChunk(c)
		return
	}
	j.tasks[c].await()
}
