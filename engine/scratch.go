package engine

import (
	"sync"

	"github.com/scatter-dev/scatter/tensor"
)

// scratch is the working memory of one kernel call: the shapes, strides
// and limits it reads, a slot per worker, the pairs each worker collects,
// the indices widened to int64, ScatterND's offsets and Mean's counts, the
// typed movers and reducers, and the state of the walks and jobs. A call
// takes one from a pool and gives it back when it returns, so a steady
// state of calls allocates nothing: every buffer is sized by the calls
// that used it, and grows only for a larger one.
type scratch struct {
	shapes  [4][]int // see the shape slots below
	views   [4]view  // of dst, data, indices and updates (see see)
	strides [2][]int
	lims    []limit

	found, touched []int   // per worker
	pairs          []pair  // per worker, batch each
	hits           [][]int // per worker, Mean's sparse lists

	seen [][]uint64 // per worker, ExcludeSelf's blocks reached (see resetApply)

	ind     []int64 // indices widened, when they are not int64
	offs    []int32 // ScatterND's tuple offsets
	lastRow []int32 // the last update of each row of dst (see scatterRowsOnce)
	counts  []int   // Mean's counts

	fill, apply movers                 // dst from data, and updates into dst (or a gather's)
	reducers    map[reducerKey]reducer // built once per element type and reduction
	lastKey     reducerKey             // the key of lastRed, the reducer of the latest call
	lastRed     reducer
	lastWide    widePasses  // lastRed as one, or nil
	lastFast    fastScatter // lastRed as one, or nil

	done   sync.WaitGroup // for parallel
	chunks counter        // for steal

	nd  ndWalk
	ndp ndPlan // of the latest ScatterND call
	el  elemWalk
	run scatterRun

	bad      badJob
	offsets  offsetsJob
	snd      scatterNDJob
	blocked  blockedJob
	pipe     pipeJob
	slabs    slabJob
	once     rowsOnceJob
	slabPlan slabPlan
	columns  columnJob
	ranges   rangeJob
	gnd      gatherNDJob
	gel      gatherElementsJob
	gat      gatherJob
	runs     runsJob

	// The general gather and scatter: the walk, the operand's window
	// dimensions and sizes, the windows' start offsets, and the jobs.
	hlo          layout
	win, winSize []int
	starts       []int
	lineStarts   []int // per worker, startsChunk each (see hloScatterJob)
	hg           hloGatherJob
	hs           hloStartsJob
	hsc          hloScatterJob
}

// The shape slots of scratch.shapes.
const (
	dataShape = iota // data's, or dst's for a scatter
	indexShape
	updateShape
	outShape // a gather's output, to check dst against
)

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// getScratch returns a scratch for one call; give it back with release.
func getScratch() *scratch { return scratches.Get().(*scratch) }

// release forgets the call's tensors, so that the pool does not keep
// them alive, and puts s back in the pool. The fields it leaves point into
// s itself, and every call sets afresh those it uses; the column job,
// which few calls use, is cleared by its own path.
func (s *scratch) release() {
	s.fill.forget()
	s.apply.forget()
	s.views = [4]view{}
	s.slabPlan = slabPlan{}
	if r := s.run.red; r != nil { // the one reducer a call uses
		r.rebind(nil, nil, 0)
		s.run.red = nil // unbound: a later call that sets up no run has none to unbind
	}
	s.nd.ind, s.el.ind, s.bad.ind, s.gat.ind = nil, nil, nil, nil
	s.hg.ind, s.hg.m, s.hs.ind, s.hsc.ind = nil, nil, nil, nil
	scratches.Put(s)
}

// The slots of scratch.views.
const (
	vDst = iota
	vData
	vInd
	vUpd
)

// see records where the elements of a call's tensors are; updates is nil
// for a gather.
func (s *scratch) see(dst, data, indices, updates *tensor.Tensor) {
	s.views[vDst], s.views[vData], s.views[vInd] = viewOf(dst), viewOf(data), viewOf(indices)
	if updates != nil {
		s.views[vUpd] = viewOf(updates)
	}
}

// shape returns t's shape in slot i, without allocating.
func (s *scratch) shape(i int, t *tensor.Tensor) tensor.Shape {
	s.shapes[i] = t.AppendShape(s.shapes[i][:0])
	return s.shapes[i]
}

// keep makes shape, which was appended to the shape in slot i (a gather's
// output shape), that slot's, and returns it.
func (s *scratch) keep(i int, shape tensor.Shape) tensor.Shape {
	s.shapes[i] = shape
	return shape
}

// stridesOf returns the row-major strides of sh in slot i.
func (s *scratch) stridesOf(i int, sh tensor.Shape) []int {
	s.strides[i] = stridesInto(s.strides[i], sh)
	return s.strides[i]
}

// limits returns the limits of the given dimension sizes under rules.
func (s *scratch) limits(rules IndexRules, sizes []int) []limit {
	s.lims = resize(s.lims, len(sizes))
	for i, n := range sizes {
		lo, _ := rules.bounds(n)
		s.lims[i] = limit{size: n, fromEnd: -lo}
	}
	return s.lims
}

// noneFound returns p slots in which workers record the first bad index
// of their chunk, all -1 (nothing found; a worker with no chunk never
// writes its slot).
func (s *scratch) noneFound(p int) []int {
	s.found = resize(s.found, p)
	for i := range s.found {
		s.found[i] = -1
	}
	return s.found
}

// workerPairs returns the pair buffer of each of p workers.
func (s *scratch) workerPairs(p int) {
	s.pairs = resize(s.pairs, p*batch)
}

// workerSeen returns the bitmaps of p workers (see scatterRun.seen).
func (s *scratch) workerSeen(p int) [][]uint64 {
	for len(s.seen) < p {
		s.seen = append(s.seen, nil)
	}
	return s.seen[:p]
}

// workerHits returns the hit lists of p workers (see meanCount).
func (s *scratch) workerHits(p int) [][]int {
	for len(s.hits) < p {
		s.hits = append(s.hits, nil)
	}
	return s.hits[:p]
}

// pairsOf returns worker w's pair buffer (see workerPairs).
func (s *scratch) pairsOf(w int) []pair { return s.pairs[w*batch : (w+1)*batch] }

// resize returns b with length n, reusing its memory when it has room.
// Its elements are whatever they were: callers write before they read.
func resize[E any](b []E, n int) []E {
	if cap(b) < n {
		return make([]E, n)
	}
	return b[:n]
}

// indexInts returns the elements of an integer tensor as int64: shared
// with an int64 tensor, widened from the other integer types into s.
// uint64 values above MaxInt64 saturate to MaxInt64, which no dimension
// admits; error messages still quote the original value.
func (s *scratch) indexInts(t *tensor.Tensor) ([]int64, error) {
	if v, ok := t.Data().([]int64); ok {
		return v, nil
	}
	toInt64 := elemTypeOf(t.DType()).widen
	if toInt64 == nil {
		return nil, typeErr("indices must be integers, got %v", t.DType())
	}
	s.ind = resize(s.ind, t.Len())
	toInt64(s.ind, t.Data())
	return s.ind, nil
}

// reducerKey identifies a reducer that a scratch keeps for reuse: an
// element type and the options that choose its arithmetic, in bits.
type reducerKey uint64

// keyOf returns the reducerKey of element type d and opt: with a
// float16 or bfloat16 scale that the reducer applies itself (see
// halfKnobs), the scale's bits too.
func keyOf(d tensor.DType, opt *ScatterOptions) reducerKey {
	var scale reducerKey
	if !opt.Scale.IsZero() {
		scale = scaleKey(opt.Scale)
	}
	return scale | reducerKey(uint32(d))<<32 | reducerKey(opt.Reduction)<<24 | reducerKey(opt.Arith.MinMax)<<16 |
		reducerKey(b2i(opt.Arith.ZeroStart)) | reducerKey(b2i(opt.Arith.HalfOnce))<<1 |
		reducerKey(b2i(opt.Arith.SqrtCount))<<2 | reducerKey(b2i(opt.Arith.MeanTowardZero))<<3 |
		reducerKey(b2i(opt.Arith.CountInType))<<4 |
		reducerKey(opt.Arith.Complex)<<5 | reducerKey(b2i(opt.Arith.ConcatStrings))<<7
}

// reducer returns the reducer of blocks of the given size for dst's
// element type and opt (see newKnobReducer), built once and rebound to
// dst and src on later calls. Calls repeat: the latest is kept, with the
// optional interfaces it has (lastWide, lastFast: asserting them cost a
// small call more than the lookup).
func (s *scratch) reducer(dst, src *tensor.Tensor, block int, opt *ScatterOptions) reducer {
	k := keyOf(dst.DType(), opt)
	if red := s.lastRed; red != nil && s.lastKey == k {
		red.rebind(dst.Data(), src.Data(), block)
		return red
	}
	red, ok := s.reducers[k]
	if ok {
		red.rebind(dst.Data(), src.Data(), block)
	} else {
		if s.reducers == nil {
			s.reducers = map[reducerKey]reducer{}
		}
		red = newKnobReducer(*dst, *src, block, *opt)
		s.reducers[k] = red
	}
	s.lastKey, s.lastRed = k, red
	s.lastWide, _ = red.(widePasses)
	s.lastFast, _ = red.(fastScatter)
	return red
}

// getBuffer returns a buffer of n elements from pool, or a new one. Its
// contents are whatever they were: callers write before they read.
func getBuffer[E any](pool *sync.Pool, n int) *[]E {
	if p, ok := pool.Get().(*[]E); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]E, n)
	return &b
}
