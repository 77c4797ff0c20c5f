package engine

import (
	"github.com/scatter-dev/scatter/tensor"
)

// scatterCore runs the general scatter that scatterGeneral has checked,
// the shapes of dst, indices and updates in s.shapes.
func scatterCore(s *scratch, dst, operand, indices, updates *tensor.Tensor, d *ScatterDims, opt *ScatterOptions) error {
	ds, is, us := tensor.Shape(s.shapes[dataShape]), tensor.Shape(s.shapes[indexShape]), tensor.Shape(s.shapes[updateShape])
	ind, err := s.indexInts(indices)
	if err != nil {
		return err
	}
	s.win = windowDims(s.win, len(ds), d.InsertedWindowDims, d.InputBatchingDims)
	s.winSize = resize(s.winSize, len(s.win))
	for i, w := range d.UpdateWindowDims {
		s.winSize[i] = us[w]
	}
	// Mean counts per element: no runs.
	l := &s.hlo
	l.set(&layoutDims{operand: ds, indices: is, other: us, vecDim: d.IndexVectorDim, otherWin: d.UpdateWindowDims,
		winOp: s.win, winSize: s.winSize, comp: d.ScatterDimsToOperandDims, opBatch: d.InputBatchingDims,
		indBatch: d.ScatterIndicesBatchingDims, runs: opt.Reduction != Mean}, opt.Rules)
	l.gathers = false
	if bad := firstNegative(ind, opt.Rules); bad >= 0 {
		return l.indexErr(*indices, ind, bad, ds)
	}
	if bad := scatterLayout(s, dst, operand, updates, ind, opt); bad >= 0 {
		return l.indexErr(*indices, ind, bad, ds)
	}
	return nil
}

// layoutStarts checks the start index of every batch position of s.hlo
// and sets s.starts to the operand offset of each window (batching
// offsets included), -1 for one the rules skip. It returns the flat
// position in ind of the first value the rules refuse, or -1.
func layoutStarts(s *scratch, ind []int64) int {
	l := &s.hlo
	s.starts = resize(s.starts, l.batches)
	p := parts(len(ind))
	l.workers(p)
	j := &s.hs
	j.s, j.ind, j.found = s, ind, s.noneFound(p)
	parallel(l.batches, p, j, &s.done)
	return firstOf(j.found)
}

// hloStartsJob is the parallel part of layoutStarts.
type hloStartsJob struct {
	s     *scratch
	ind   []int64
	found []int
}

func (j *hloStartsJob) work(w, lo, hi int) {
	if lo >= hi {
		return
	}
	coord, _ := j.s.hlo.coordsOf(w)
	if bad := j.s.hlo.startsRange(j.s.starts[lo:hi], j.ind, lo, coord); bad >= 0 {
		j.found[w] = bad
	}
}

// scatterLayout writes into dst operand (see newScatterRun) with the
// windows of updates that s.hlo describes combined in at the start
// indices in ind. It returns the flat position in ind of the first start
// index value the rules refuse, in index order, or -1.
//
// Every start index is checked before dst is written, but for slabs of
// single elements into a dst that is not the operand: their workers
// check the start indices as they apply them, a chunk at a time, as the
// forms' ScatterElements does, since the separate pass writes every start
// to memory and reads it back. An error may then leave dst partly
// written, as a gather's does; the operand never is.
func scatterLayout(s *scratch, dst, operand, updates *tensor.Tensor, ind []int64, opt *ScatterOptions) int {
	l := &s.hlo
	size := dst.Len()
	j := &s.hsc
	*j = hloScatterJob{s: s, ind: ind, unit: l.unit}
	var run *scatterRun
	if size > 0 && l.windows > 0 {
		run = newScatterRun(s, dst, operand, updates, l.run, opt)
		j.asItGoes = l.slabs && l.otherStep == 1 && l.run == 1 && !run.inPlace && run.fast != nil
		last := len(l.bSize) - 1
		j.rows = j.asItGoes && len(l.comp) == 1 && l.opStrides[l.comp[0]] == 1 && !l.rules.moves() &&
			last >= 0 && l.bInd[last] == 1 && l.bOp[last] == 0
	}
	if !j.asItGoes {
		if bad := layoutStarts(s, ind); bad >= 0 {
			return bad
		}
	}
	switch {
	case size == 0:
		return -1
	case l.windows == 0:
		// No update has an element: dst is operand, but for a mean that
		// divides every element by its count (Arith.DivideAll).
		run = newScatterRun(s, dst, operand, updates, 1, opt)
		run.fill(0, size)
		if run.mean != nil {
			run.countMeans(s, size, 1, 0, opt.ExcludeSelf, 1)
			run.finish(0, size)
		}
		return -1
	}
	// Workers own blocks of dst (see layout.unit), or whole slabs along
	// dimension 0, each receiving the windows of its own batch positions.
	if l.slabs {
		j.unit = l.opStrides[0]
		if j.rows {
			j.through = slabsThrough(s, dst, j.slabsAtATime()*j.unit, j.unit, false)
		}
	}
	p := parts(run.work(l.batches * l.windows * l.run))
	if !j.asItGoes && l.windows == 1 && l.run == 1 && l.otherStep == 1 &&
		blocking(run, l.batches, size, int(s.views[vDst].size), p) {
		// Single elements, update b at starts[b], into another dst past
		// the cache: sorted by block of dst, as ScatterND's are (see
		// scatter_nd_blocked.go).
		s.scatterBlocked(nil, s.starts[:l.batches], size, s.views[vDst].size)
		return -1
	}
	if run.mean != nil {
		run.countMeans(s, size, 1, l.batches*l.windows, opt.ExcludeSelf, p)
	}
	s.workerPairs(p)
	l.workers(p)
	j.found = s.noneFound(p)
	if j.asItGoes {
		s.lineStarts = resize(s.lineStarts, p*startsChunk)
	}
	parallel(size/j.unit, p, j, &s.done)
	return firstOf(j.found)
}

// hloScatterJob is the parallel part of the general scatter: each worker
// owns a range of units of dst and applies, in index order, the runs that
// land in it.
type hloScatterJob struct {
	s        *scratch
	unit     int
	asItGoes bool      // starts are computed and checked by the workers
	rows     bool      // asItGoes by lines along rows of the operand (see applyAsItGoes)
	through  *slabPlan // rows through a buffer (see throughRows), or nil
	ind      []int64   // the start indices, for asItGoes
	found    []int
}

// startsChunk is how many start indices a worker of a general scatter
// that checks them as it goes turns into offsets at a time.
const startsChunk = 1024

func (j *hloScatterJob) work(w, lo, hi int) {
	s := j.s
	l := &s.hlo
	if !l.slabs {
		j.apply(w, lo*j.unit, hi*j.unit, 0, len(s.starts))
		return
	}
	// Slab d receives the windows of the batch positions whose outermost
	// coordinate is d. A few slabs at a time are filled and then updated,
	// while they are in cache.
	per, n := l.batches/max(l.bSize[0], 1), l.bSize[0]
	step := j.slabsAtATime()
	var buf view
	if j.through != nil {
		b, v := j.through.buffer()
		defer slabPool.Put(b)
		defer storeFence()
		buf = v
	}
	for d := lo; d < hi; d += step {
		e := min(d+step, hi)
		if j.through != nil {
			if bad := j.throughRows(w, d*j.unit, e*j.unit, min(e+step, hi)*j.unit, min(d, n)*per, min(e, n)*per, buf); bad >= 0 {
				j.found[w] = bad
				return
			}
			continue
		}
		if j.asItGoes {
			if bad := j.applyAsItGoes(w, d*j.unit, e*j.unit, min(d, n)*per, min(e, n)*per); bad >= 0 {
				j.found[w] = bad
				return
			}
			continue
		}
		j.apply(w, d*j.unit, e*j.unit, min(d, n)*per, min(e, n)*per)
	}
}

// slabsAtATime returns how many slabs of dst a worker fills and updates
// at a time (see slabBytes).
func (j *hloScatterJob) slabsAtATime() int {
	return max(1, slabBytes/max(1, j.unit*int(j.s.views[vDst].size)))
}

// applyAsItGoes fills dst[lo:hi] and applies to it, in index order, the
// single elements of batch positions b0 to b1, whose start indices it
// checks and turns into offsets a chunk at a time. It returns the flat
// position in the indices of the first value the rules refuse, or -1.
func (j *hloScatterJob) applyAsItGoes(w, lo, hi, b0, b1 int) int {
	s := j.s
	l, run := &s.hlo, &s.run
	run.fill(lo, hi)
	coord, _ := l.coordsOf(w)
	if j.rows {
		// Each line's start indices address one row of the operand, its
		// updates consecutive: the forms' loop over the line.
		lim, skip := l.compLim[0], l.rules.OutOfRange == OutOfRangeSkip
		return l.lines(b0, b1-b0, coord, func(i, at, _, base, m int) int {
			if bad := run.fast.scatterLine(s.views[vDst], base, j.ind[at:at+m], b0+i, lim, skip); bad >= 0 {
				return at + bad
			}
			return -1
		})
	}
	buf := s.lineStarts[w*startsChunk : (w+1)*startsChunk]
	for b := b0; b < b1; b += startsChunk {
		starts := buf[:min(startsChunk, b1-b)]
		if bad := l.startsRange(starts, j.ind, b, coord); bad >= 0 {
			return bad
		}
		run.fast.scatterStarts(starts, b)
	}
	return -1
}

// throughRows is applyAsItGoes by rows where the slabs go through a
// buffer, buf (see scatter_slabs.go): it fills buf from data's lo to hi,
// applies the lines to it slabStep updates at a time, asking in between
// for the data of the slabs from hi to ahead (the next ones), and writes
// buf out to dst.
func (j *hloScatterJob) throughRows(w, lo, hi, ahead, b0, b1 int, buf view) int {
	s := j.s
	l, fast, p := &s.hlo, s.run.fast, j.through
	p.fill(buf, lo, hi-lo)
	var next slabAhead
	p.ask(&next, hi, ahead-hi, nil, 0, 0, (b1-b0+slabStep-1)/slabStep)
	coord, _ := l.coordsOf(w)
	lim, skip := l.compLim[0], l.rules.OutOfRange == OutOfRangeSkip
	bad := l.lines(b0, b1-b0, coord, func(i, at, _, base, m int) int {
		if bad := next.line(fast, buf, base-lo, j.ind[at:at+m], b0+i, lim, skip); bad >= 0 {
			return at + bad
		}
		return -1
	})
	if bad < 0 {
		p.out(buf, lo, hi-lo)
	}
	return bad
}

// slabBytes is how much of dst the general scatter fills and updates at a
// time when it goes by slabs: half of what the first-level cache holds
// (32 KiB on the AMD EPYC and Skylake cores measured), so that the slabs
// stay in it while the indices and updates stream through, as the forms'
// ScatterElements keeps its one slab of W4's shape (16 KiB). At the whole
// 32 KiB, W4's general scatter missed the first-level cache 1.27 times as
// often as the form (callgrind's simulation of this cache). Tests set it
// lower, so that small calls go a slab at a time.
var slabBytes = 16 << 10

// apply fills dst[lo:hi] and applies to it, in index order, the windows
// of batch positions b0 to b1 that land in it.
func (j *hloScatterJob) apply(w, lo, hi, b0, b1 int) {
	s := j.s
	l, run := &s.hlo, &s.run
	run.fill(lo, hi)
	if l.otherStep == 1 && l.run == 1 && run.fast != nil && (l.slabs || lo == 0 && hi == run.size) {
		// Single elements, all of them landing in this range: one loop
		// over the starts.
		run.fast.scatterStarts(s.starts[b0:b1], b0)
		return
	}
	it := pairIter{hlo: l, starts: s.starts[:b1], b0: b0, lo: lo, hi: hi, w: w, buf: s.pairsOf(w)}
	run.each(&it, w)
	run.finish(lo, hi)
}
