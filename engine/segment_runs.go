package engine

import (
	"fmt"
	"math"

	"github.com/scatter-dev/scatter/tensor"
)

// RunIndex says what the indices of ReduceRuns are.
type RunIndex uint8

const (
	// RunStarts: indices[i] is where run i starts along the axis, and
	// the run ends where run i+1 starts (the last one at the end of the
	// axis). A run whose start is not below the next run's start is the
	// single slice at its start, so no run is empty. Every start must lie
	// in [0, size): a negative one is out of range, not counted from the
	// end. The output has len(indices) slices along the axis (NumPy's
	// ufunc.reduceat).
	RunStarts RunIndex = iota
	// RunIDs: indices holds a segment id for each slice of src along the
	// axis, in increasing order; run k is the slices whose id is k, and
	// the output has (last id) + 1 slices along the axis. A run no slice
	// has gets RunRules.Empty. Ids out of order or negative are refused
	// with a *SegmentError (TensorFlow's sorted segment reductions).
	RunIDs
)

// EmptyRun says what an output slice that no slice of src goes into
// holds (RunIDs only; RunStarts has no empty run).
type EmptyRun uint8

const (
	// EmptyZero fills an empty run with zero values (+0, false).
	EmptyZero EmptyRun = iota
	// EmptyIdentity fills an empty run with the identity of the
	// reduction: 0 for Add (-0 for floats), 1 for Mul, the lowest value
	// (-Inf) for Max, the highest (+Inf) for Min.
	EmptyIdentity
)

// RunRules are the rules of ReduceRuns that frameworks choose: what the
// indices say and what an empty run holds.
type RunRules struct {
	Index RunIndex
	Empty EmptyRun
	// EigenStart makes a run of more than one slice reduce from the
	// reduction's own start value (+0 for Add and Mean, 1 for Mul, the
	// lowest finite value for Max, the highest for Min), as the Eigen
	// reducers of TensorFlow's CPU kernels do, while a run of one slice
	// is copied: a float sum of -0s is +0, a float maximum of -Infs the
	// lowest finite value (see segment_start.go). Sub, the bitwise
	// reductions and complex products start from the first slice. Max and
	// Min take it with MinMaxNaN only (ErrArgument otherwise).
	EigenStart bool
	// PairwiseSum makes Add of floating-point and complex elements sum a
	// run as NumPy's reductions do: its first slice plus the pairwise sum
	// of the others (numpy/_core/src/umath/loops_utils.h.src), element by
	// element along the axis, float16 and bfloat16 in float32 rounded
	// once; see segment_pairwise.go. Integers and bool sum in order either
	// way.
	PairwiseSum bool
}

// RunOptions are the knobs of ReduceRuns.
type RunOptions struct {
	// Reduction combines the slices of a run, in order: any but None and
	// Div.
	// Add and Mul may write a dst of a wider type than src (see
	// ReduceRuns).
	Reduction Reduction
	Rules     RunRules
	// Arith says how the reduction computes where frameworks compute it
	// differently. HalfOnce is not taken.
	Arith Arith
}

// SegmentReason says which rule of RunIDs a segment id breaks.
type SegmentReason uint8

const (
	// SegmentNegativeLast: the last id, which sets the number of output
	// slices, is negative.
	SegmentNegativeLast SegmentReason = iota
	// SegmentDecreasing: an id is smaller than the one before it.
	SegmentDecreasing
	// SegmentOutOfRange: the id of a run lies outside [0, Rows): a
	// negative first id, or an id above the last one met before the
	// decrease that follows it.
	SegmentOutOfRange
)

// SegmentError reports segment ids that break RunIDs' rules. Ids are
// checked run by run, in order, as TensorFlow's CPU kernels check them:
// the last id first, then at the end of each run the next id's order and
// the run's own id's range. It wraps ErrIndex.
type SegmentError struct {
	Reason SegmentReason
	// Pos is the position in the ids of the id named: the last one, the
	// one smaller than its predecessor, or the first of the run out of
	// range.
	Pos int
	// Value is that id, and Prev, for SegmentDecreasing, the id before
	// it.
	Value, Prev int64
	// Rows is the number of output slices, the last id + 1.
	Rows int64
}

// Error describes the id, where it is and which rule it breaks.
func (e *SegmentError) Error() string {
	switch e.Reason {
	case SegmentNegativeLast:
		return fmt.Sprintf("segment ids must be >= 0: the last id, ids[%d], is %d", e.Pos, e.Value)
	case SegmentDecreasing:
		return fmt.Sprintf("segment ids are not increasing: ids[%d] = %d follows ids[%d] = %d", e.Pos, e.Value, e.Pos-1, e.Prev)
	}
	return fmt.Sprintf("segment id ids[%d] = %d is out of range [0, %d)", e.Pos, e.Value, e.Rows)
}

// Unwrap returns ErrIndex.
func (e *SegmentError) Unwrap() error { return ErrIndex }

// RunsShape returns the shape of ReduceRuns' output for src of shape src
// and the given indices: src's with the axis replaced by the number of
// runs (len(indices) for RunStarts, the last id + 1 for RunIDs).
func RunsShape(src tensor.Shape, indices tensor.Tensor, axis int, rules RunRules) (tensor.Shape, error) {
	return AppendRunsShape(nil, src, indices, axis, rules)
}

// AppendRunsShape is RunsShape appending the shape to buf[:0], for
// callers that keep a buffer for it.
func AppendRunsShape(buf, src tensor.Shape, indices tensor.Tensor, axis int, rules RunRules) (tensor.Shape, error) {
	runs, err := runCount(src, indices, axis, rules)
	if err != nil {
		return nil, err
	}
	out := append(buf[:0], src...)
	out[axis] = runs
	return out, nil
}

// runCount checks src's rank, the axis and the indices (see runArgs), and
// returns the number of runs.
func runCount(src tensor.Shape, indices tensor.Tensor, axis int, rules RunRules) (int, error) {
	if err := runArgs(src, indices, axis, rules); err != nil {
		return 0, err
	}
	n := indices.Len()
	if rules.Index == RunStarts {
		return n, nil
	}
	if n != src[axis] {
		return 0, shapeErr("indices has %d ids, dimension %d of src %v has %d slices", n, axis, src, src[axis])
	}
	if n == 0 {
		return 0, nil
	}
	last, _ := indices.IntAt(n - 1)
	if indices.DType() == tensor.Uint64 && last < 0 {
		last = math.MaxInt64 // its bits: an id too large for any output
	}
	if last < 0 {
		return 0, &SegmentError{Reason: SegmentNegativeLast, Pos: n - 1, Value: last}
	}
	if uint64(last) >= math.MaxInt {
		return 0, fmt.Errorf("%w: the last segment id %d asks for more output slices than an int holds", tensor.ErrTooLarge, last)
	}
	return int(last) + 1, nil
}

// runArgs checks src's rank, the axis, the indices' rank and type, and
// the rules.
func runArgs(src tensor.Shape, indices tensor.Tensor, axis int, rules RunRules) error {
	if rules.Index > RunIDs {
		return argErr("unknown run index %d", rules.Index)
	}
	if rules.Empty > EmptyIdentity {
		return argErr("unknown empty run rule %d", rules.Empty)
	}
	if len(src) == 0 {
		return shapeErr("src must have rank >= 1, got a scalar")
	}
	if axis < 0 || axis >= len(src) {
		return argErr("axis %d is out of range [0, %d] for src %v", axis, len(src)-1, src)
	}
	if indices.IsZero() {
		return argErr("indices must be given")
	}
	if !indices.DType().IsInteger() {
		return typeErr("indices must be integers, got %v", indices.DType())
	}
	if indices.Rank() != 1 {
		return shapeErr("indices must have rank 1, got shape %v", indices.Shape())
	}
	return nil
}

// ReduceRuns reduces runs of consecutive slices of src along axis into
// the slices of dst along the same axis: dst slice i is the reduction, in
// slice order, of the slices of run i, which indices and opt.Rules define
// (see RunIndex), and a run of one slice is that slice. dst has the shape
// RunsShape returns and src's type, or for Add and Mul, a wider type:
// int64 for bool, int8, int16 and int32 src, uint64 for uint8, uint16
// and uint32 (NumPy's add.reduceat and multiply.reduceat), each element
// converted before it takes part. dst must not overlap src or indices.
//
// Each output slice is computed by one worker, in order, so results do
// not depend on the number of threads. Nothing is written unless every
// index is valid.
func ReduceRuns(dst, src, indices tensor.Tensor, axis int, opt RunOptions) error {
	s := getScratch()
	defer s.release()
	return reduceRuns(s, &dst, &src, &indices, axis, opt)
}

func reduceRuns(s *scratch, dst, src, indices *tensor.Tensor, axis int, opt RunOptions) error {
	if src.IsZero() || dst.IsZero() {
		return argErr("dst and src must both be given")
	}
	if opt.Reduction == None || opt.Reduction == Div {
		return argErr("reduction %v does not reduce runs", opt.Reduction)
	}
	if opt.Rules.EigenStart && opt.Arith.MinMax != MinMaxNaN && (opt.Reduction == Max || opt.Reduction == Min) {
		// A run's first slice starts it: a NaN there would stay where a
		// comparison from Eigen's start would pass it by.
		return argErr("EigenStart takes max and min by MinMaxNaN only, not by rule %d", opt.Arith.MinMax)
	}
	if opt.Arith.HalfOnce {
		return argErr("runs are not reduced with HalfOnce")
	}
	ss := s.shape(dataShape, src)
	if err := runArgs(ss, *indices, axis, opt.Rules); err != nil {
		return err
	}
	wide, err := runTypes(dst, src, opt)
	if err != nil {
		return err
	}
	if wide == nil && opt.Rules.PairwiseSum && opt.Reduction == Add {
		wide = pairwiseRunOf(src.DType())
	}
	if wide == nil {
		wide = sumRunOf(src.DType(), opt)
	}
	runs, err := runCount(ss, *indices, axis, opt.Rules)
	if err != nil {
		return err
	}
	if err := checkRuns(s, dst, src, indices, ss, axis, runs); err != nil {
		return err
	}
	ind, err := s.indexInts(indices)
	if err != nil {
		return err
	}
	j := &s.runs
	j.lo, j.hi = resize(j.lo, runs), resize(j.hi, runs)
	if opt.Rules.Index == RunStarts {
		err = startRuns(j.lo, j.hi, ind, *indices, ss, axis)
	} else {
		err = idRuns(j.lo, j.hi, ind, *indices)
	}
	if err != nil {
		return err
	}
	outer, _ := ss[:axis].NumElements()
	inner, _ := ss[axis+1:].NumElements()
	units := outer * runs
	if units == 0 || inner == 0 {
		return nil
	}
	j.s, j.runs, j.size, j.inner, j.opt = s, runs, ss[axis], inner, opt
	j.wide, j.fix, j.dst = wide, nil, *dst
	if opt.Rules.EigenStart {
		j.fix = startFixOf(dst.DType(), opt.Reduction)
	}
	if wide == nil {
		j.m = s.apply.get(dst, src, s.views[vDst], s.views[vData], inner)
		j.red = s.reducer(dst, src, inner, &ScatterOptions{Reduction: opt.Reduction, Arith: opt.Arith})
	} else {
		j.src = *src
	}
	p := parts(src.Len() + dst.Len())
	s.workerPairs(2 * p)
	parallel(units, p, j, &s.done)
	j.dst, j.src, j.m, j.red, j.wide, j.fix = tensor.Tensor{}, tensor.Tensor{}, nil, nil, nil, nil
	return nil
}

// runTypes checks the element types of a ReduceRuns call, and returns the
// widening loop a dst wider than src needs, or nil.
func runTypes(dst, src *tensor.Tensor, opt RunOptions) (typedRun, error) {
	r := opt.Reduction
	var wide typedRun
	if dst.DType() != src.DType() {
		if wide = widenerOf(src.DType(), dst.DType()); wide == nil || (r != Add && r != Mul) {
			return nil, typeErr("dst has type %v, src has type %v; they must be equal, or for add and mul %v may widen to %v",
				dst.DType(), src.DType(), src.DType(), WiderType(src.DType()))
		}
	} else if err := checkReduction(src.DType(), &ScatterOptions{Reduction: r, Arith: opt.Arith}); err != nil {
		return nil, err
	}
	return wide, nil
}

// checkRuns checks dst's shape and the overlaps of a ReduceRuns call.
func checkRuns(s *scratch, dst, src, indices *tensor.Tensor, ss tensor.Shape, axis, runs int) error {
	ok := dst.Rank() == len(ss)
	for d := 0; ok && d < len(ss); d++ {
		want := ss[d]
		if d == axis {
			want = runs
		}
		ok = dst.Dim(d) == want
	}
	if !ok {
		return shapeErr("dst has shape %v, want src's %v with dimension %d of size %d", dst.Shape(), ss, axis, runs)
	}
	s.see(dst, src, indices, nil)
	if d := s.views[vDst].span(); d.overlaps(s.views[vData].span()) || d.overlaps(s.views[vInd].span()) {
		return argErr("dst overlaps src or indices")
	}
	return nil
}

// startRuns sets the runs of RunStarts: run i is [lo[i], hi[i]).
func startRuns(lo, hi []int, ind []int64, indices tensor.Tensor, ss tensor.Shape, axis int) error {
	size := int64(ss[axis])
	for i, v := range ind {
		if v < 0 || v >= size {
			return indexErr(IndexRules{}, indices, i, ss, axis, 0)
		}
	}
	for i, v := range ind {
		end := int(size)
		if i+1 < len(ind) {
			end = int(ind[i+1])
		}
		lo[i], hi[i] = int(v), max(end, int(v)+1)
	}
	return nil
}

// idRuns sets the runs of RunIDs, len(lo) being the last id + 1: run k is
// [lo[k], hi[k]), empty where no id is k. It checks the ids as
// TensorFlow's CPU kernels do, run by run (see SegmentError).
func idRuns(lo, hi []int, ind []int64, indices tensor.Tensor) error {
	rows := int64(len(lo))
	clear(lo)
	clear(hi)
	for start := 0; start < len(ind); {
		id := ind[start]
		end := start + 1
		for end < len(ind) && ind[end] == id {
			end++
		}
		if end < len(ind) && ind[end] < id {
			v, _ := indices.IntAt(end)
			return &SegmentError{Reason: SegmentDecreasing, Pos: end, Value: v, Prev: id, Rows: rows}
		}
		if id < 0 || id >= rows {
			v, _ := indices.IntAt(start)
			return &SegmentError{Reason: SegmentOutOfRange, Pos: start, Value: v, Rows: rows}
		}
		lo[id], hi[id] = start, end
		start = end
	}
	return nil
}

// runsJob is the parallel part of ReduceRuns: each worker owns a range
// of the output's slices, unit u being outer position u/runs and run
// u%runs.
type runsJob struct {
	s                 *scratch
	lo, hi            []int // each run's slices along the axis
	runs, size, inner int
	opt               RunOptions
	m                 mover
	red               reducer
	// wide is the typed loop of a dst wider than src or of PairwiseSum,
	// which reads dst and src.
	wide typedRun
	// fix is EigenStart's correction of a run of more than one slice, or
	// nil.
	fix      startFix
	dst, src tensor.Tensor
}

func (j *runsJob) work(w, lo, hi int) {
	if j.wide != nil {
		j.wide(j, lo, hi)
		return
	}
	// A batch of units at a time: first their first slices moved (or
	// their empty runs filled), then the rest reduced in order.
	firsts, rest := j.s.pairsOf(2 * w)[:0], j.s.pairsOf(2*w + 1)[:0]
	for u0 := lo; u0 < hi; u0 += batch {
		u1 := min(u0+batch, hi)
		firsts = firsts[:0]
		for u := u0; u < u1; u++ {
			d, base, r0, r1 := j.unit(u)
			s := base + r0*j.inner
			if r0 == r1 {
				s = -1 // moved as zeros
			}
			firsts = append(firsts, pair{d, s})
		}
		j.m.move(firsts)
		rest = rest[:0]
		for u := u0; u < u1; u++ {
			d, base, r0, r1 := j.unit(u)
			if r0 == r1 {
				if j.opt.Rules.Empty == EmptyIdentity {
					rest = append(rest, pair{d, 0})
					j.red.setIdentity(rest[len(rest)-1:])
					rest = rest[:len(rest)-1]
				}
				continue
			}
			for r := r0 + 1; r < r1; r++ {
				if rest = append(rest, pair{d, base + r*j.inner}); len(rest) == batch {
					j.red.reduce(rest)
					rest = rest[:0]
				}
			}
		}
		j.red.reduce(rest)
		if j.fix != nil {
			dst := j.dst.Data()
			for u := u0; u < u1; u++ {
				if d, _, r0, r1 := j.unit(u); r1-r0 > 1 {
					j.fix(dst, d, j.inner)
				}
			}
		}
		if j.opt.Reduction == Mean {
			for u := u0; u < u1; u++ {
				if d, _, r0, r1 := j.unit(u); r1 > r0 {
					j.red.divide(d, r1-r0)
				}
			}
		}
	}
}

// unit returns, for output unit u, its offset in dst, the offset of its
// outer position's first slice in src, and its run.
func (j *runsJob) unit(u int) (d, base, r0, r1 int) {
	o, i := u/j.runs, u%j.runs
	return u * j.inner, o * j.size * j.inner, j.lo[i], j.hi[i]
}

// typedRun computes the units [lo, hi) of a ReduceRuns call with typed
// loops of its own: a dst wider than src, or PairwiseSum.
type typedRun func(j *runsJob, lo, hi int)

// WiderType returns the type to which ReduceRuns' Add and Mul may widen
// src's type d: int64 for bool, int8, int16 and int32, uint64 for uint8,
// uint16 and uint32 (NumPy's default dtype of add and multiply
// reductions), Undefined for the others.
func WiderType(d tensor.DType) tensor.DType {
	switch d {
	case tensor.Bool, tensor.Int8, tensor.Int16, tensor.Int32:
		return tensor.Int64
	case tensor.Uint8, tensor.Uint16, tensor.Uint32:
		return tensor.Uint64
	}
	return tensor.Undefined
}

// widenerOf returns the loop of src type s widened to dst type d, or nil
// when d is not s's wider type.
func widenerOf(s, d tensor.DType) typedRun {
	if d != WiderType(s) {
		return nil
	}
	switch s {
	case tensor.Bool:
		return func(j *runsJob, lo, hi int) { typedRuns(j, lo, hi, func(x bool) int64 { return int64(b2i(x)) }) }
	case tensor.Int8:
		return widenInts[int8, int64]
	case tensor.Int16:
		return widenInts[int16, int64]
	case tensor.Int32:
		return widenInts[int32, int64]
	case tensor.Uint8:
		return widenInts[uint8, uint64]
	case tensor.Uint16:
		return widenInts[uint16, uint64]
	}
	return widenInts[uint32, uint64]
}

// widenInts is typedRuns of integers, converted by value.
func widenInts[S int8 | int16 | int32 | uint8 | uint16 | uint32, D int64 | uint64](j *runsJob, lo, hi int) {
	typedRuns(j, lo, hi, func(x S) D { return D(x) })
}

// typedRuns reduces the units [lo, hi) of src's elements (S) converted
// to dst's (D) by conv, by Add or Mul, which wrap.
func typedRuns[S any, D int64 | uint64](j *runsJob, lo, hi int, conv func(S) D) {
	dst, _ := j.dst.Data().([]D)
	src, _ := j.src.Data().([]S)
	mul := j.opt.Reduction == Mul
	for u := lo; u < hi; u++ {
		d0, base, r0, r1 := j.unit(u)
		out := dst[d0 : d0+j.inner]
		if r0 == r1 {
			var fill D
			if mul && j.opt.Rules.Empty == EmptyIdentity {
				fill = 1
			}
			for k := range out {
				out[k] = fill
			}
			continue
		}
		for k, x := range src[base+r0*j.inner:][:j.inner] {
			out[k] = conv(x)
		}
		for r := r0 + 1; r < r1; r++ {
			row := src[base+r*j.inner:][:j.inner]
			if mul {
				for k, x := range row {
					out[k] *= conv(x)
				}
				continue
			}
			for k, x := range row {
				out[k] += conv(x)
			}
		}
	}
}
