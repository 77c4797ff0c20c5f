package reftest

import (
	"fmt"
	"math"
	"slices"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
	"github.com/x448/float16"
)

// SegmentError reports segment ids that RunIDs refuses: the kind of the
// first failure as TensorFlow's CPU kernel checks them (the last id's
// sign, then run by run the next id's order and the run's id), and the
// position in the ids it names.
type SegmentError struct {
	Kind string // "negative last", "decreasing" or "out of range"
	Pos  int
}

// Error names the kind and the position.
func (e *SegmentError) Error() string {
	return fmt.Sprintf("reftest: segment ids: %s at position %d", e.Kind, e.Pos)
}

// Unwrap returns ErrIndex.
func (e *SegmentError) Unwrap() error { return engine.ErrIndex }

// ReduceRuns returns src with each run of consecutive slices along axis
// reduced to one slice: out[..., i, ...] is the fold under opt, in slice
// order, of src[..., r, ...] for every r in run i, which opt.Rules define
// as the engine's ReduceRuns documents them. This package reads them so:
// under RunStarts, run i ends where run i+1 starts, and a run whose start
// is not below the next one's is the slice at its start alone; under
// RunIDs, the output has (last id) + 1 slices, ids checked as TensorFlow's
// CPU kernel checks them (a *SegmentError). EmptyIdentity fills a run of
// no slice with the identity of the reduction (-0 for a float sum, 1 for
// a product, -Inf or the lowest integer for Max, +Inf or the highest for
// Min), otherwise zero. EigenStart folds a run of more than one value
// from the reduction's start value (+0 for Add and Mean, 1 for Mul of real
// numbers, the lowest finite value for Max and the highest for Min), and
// PairwiseSum makes Add of floats and complex numbers the first value of a
// run plus NumPy's pairwise sum of the others (see pairwiseSum). widen
// computes Add and Mul of bool, int8, int16 and int32 in int64, and of
// uint8, uint16 and uint32 in uint64, the output's type.
func ReduceRuns(src, indices tensor.Tensor, axis int, opt engine.RunOptions, widen bool) (tensor.Tensor, error) {
	rules, sopt := opt.Rules, engine.ScatterOptions{Reduction: opt.Reduction, Arith: opt.Arith}
	if opt.Reduction == engine.None || opt.Reduction == engine.Div {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: reduction %v", engine.ErrArgument, opt.Reduction)
	}
	if rules.EigenStart && opt.Arith.MinMax != engine.MinMaxNaN && (opt.Reduction == engine.Max || opt.Reduction == engine.Min) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: EigenStart with a rule for max and min other than NaN's propagation", engine.ErrArgument)
	}
	ss := src.Shape()
	if len(ss) == 0 || axis < 0 || axis >= len(ss) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: axis %d for src %v", engine.ErrArgument, axis, ss)
	}
	if err := checkIndexType(indices); err != nil {
		return tensor.Tensor{}, err
	}
	if indices.Rank() != 1 {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: indices %v are not 1-D", engine.ErrShape, indices.Shape())
	}
	out := src.DType()
	if w, ok := widened[out]; ok && widen && (opt.Reduction == engine.Add || opt.Reduction == engine.Mul) {
		out = w
	}
	if err := checkReduction(out, sopt); err != nil {
		return tensor.Tensor{}, err
	}
	var runs [][2]int
	var err error
	if rules.Index == engine.RunIDs {
		runs, err = idRuns(indices, ss[axis])
	} else {
		runs, err = startRuns(indices, ss[axis])
	}
	if err != nil {
		return tensor.Tensor{}, err
	}
	os := ss.Clone()
	os[axis] = len(runs)
	vals := make([]any, tensortest.Count(os))
	i := 0
	each(os, func(c []int) {
		run := runs[c[axis]]
		if run[0] == run[1] {
			vals[i] = zero(out)
			if rules.Empty == engine.EmptyIdentity {
				vals[i] = identity(out, opt.Reduction)
			}
			i++
			return
		}
		var vs []any
		for r := run[0]; r < run[1]; r++ {
			vs = append(vs, element(src, ss.Offset(replaced(c, axis, r)), out))
		}
		vals[i] = reduce(out, vs[0], vs[1:], sopt)
		if r := opt.Reduction; rules.EigenStart && len(vs) > 1 && r != engine.Sub && !(r == engine.Mul && out.IsComplex()) {
			vals[i] = foldFrom(out, start(out, opt.Reduction), vs, sopt)
		}
		if rules.PairwiseSum && opt.Reduction == engine.Add && len(vs) > 1 && (out.IsFloat() || out.IsComplex()) {
			vals[i] = numpySum(out, vs[0], vs[1:])
		}
		i++
	})
	return build(out, os, vals), nil
}

// startRuns returns the runs of starts: each must lie in [0, size).
func startRuns(indices tensor.Tensor, size int) ([][2]int, error) {
	var bad []int
	for i := 0; i < indices.Len(); i++ {
		if v := indexValue(indices, i); v < 0 || v >= int64(size) {
			bad = append(bad, i)
		}
	}
	if bad != nil {
		return nil, &IndexError{Bad: bad}
	}
	runs := make([][2]int, indices.Len())
	for i := range runs {
		start, end := int(indexValue(indices, i)), size
		if i+1 < len(runs) {
			end = int(indexValue(indices, i+1))
		}
		if end <= start {
			end = start + 1
		}
		runs[i] = [2]int{start, end}
	}
	return runs, nil
}

// idRuns returns the runs of sorted segment ids, one per id up to the
// last, checked as TensorFlow's CPU kernel checks them.
func idRuns(indices tensor.Tensor, size int) ([][2]int, error) {
	n := indices.Len()
	if n != size {
		return nil, fmt.Errorf("reftest: %w: %d ids for %d slices", engine.ErrShape, n, size)
	}
	if n == 0 {
		return nil, nil
	}
	last := indexValue(indices, n-1)
	if last < 0 {
		return nil, &SegmentError{Kind: "negative last", Pos: n - 1}
	}
	if last >= math.MaxInt32 {
		return nil, fmt.Errorf("reftest: %w: last id %d", tensor.ErrTooLarge, last)
	}
	runs := make([][2]int, last+1)
	for start := 0; start < n; {
		id := indexValue(indices, start)
		end := start
		for end < n && indexValue(indices, end) == id {
			end++
		}
		if end < n && indexValue(indices, end) < id {
			return nil, &SegmentError{Kind: "decreasing", Pos: end}
		}
		if id < 0 || id > last {
			return nil, &SegmentError{Kind: "out of range", Pos: start}
		}
		runs[id] = [2]int{start, end}
		start = end
	}
	return runs, nil
}

// widened holds the types NumPy's add and multiply reduce bool and the
// integers narrower than 64 bits in (intp, or uint64 for the unsigned
// ones); every other type reduces in itself.
var widened = map[tensor.DType]tensor.DType{
	tensor.Bool: tensor.Int64, tensor.Int8: tensor.Int64, tensor.Int16: tensor.Int64, tensor.Int32: tensor.Int64,
	tensor.Uint8: tensor.Uint64, tensor.Uint16: tensor.Uint64, tensor.Uint32: tensor.Uint64,
}

// element returns src's element at flat position i as type d: itself,
// or (d being the type widened holds for src's) a bool or an integer as
// an int64 or a uint64.
func element(src tensor.Tensor, i int, d tensor.DType) any {
	v := src.At(i)
	if d == src.DType() {
		return v
	}
	n, _ := src.IntAt(i)
	if b, ok := v.(bool); ok && b {
		n = 1
	}
	if d == tensor.Uint64 {
		return uint64(n)
	}
	return n
}

// identity returns the value i of type d with i op u == u for reduction r:
// -0 for a float sum (0 for other sums and for Sub), 1 for a product, the
// lowest value for Max, the highest for Min.
func identity(d tensor.DType, r engine.Reduction) any {
	t := tensor.Must(tensor.New(d, tensor.Shape{}))
	var f float64
	switch r {
	case engine.Mul:
		return arithOf(d).one
	case engine.Add, engine.Mean:
		f = math.Copysign(0, -1)
	case engine.Max:
		f = math.Inf(-1)
	case engine.Min:
		f = math.Inf(1)
	default:
		return zero(d)
	}
	switch d {
	case tensor.Bool:
		return r == engine.Min
	case tensor.Float16:
		return float16.Fromfloat32(float32(f))
	case tensor.BFloat16:
		return bfloat16.FromFloat32(float32(f))
	case tensor.Complex64:
		return complex(float32(f), float32(f))
	case tensor.Complex128:
		return complex(f, f)
	}
	if d.IsInteger() {
		lo, hi := integerRange(d)
		switch r {
		case engine.Max:
			t.SetIntAt(0, lo)
			return t.At(0)
		case engine.Min:
			if d == tensor.Uint64 {
				return uint64(math.MaxUint64)
			}
			t.SetIntAt(0, hi)
			return t.At(0)
		}
		return zero(d)
	}
	t.SetFloatAt(0, f)
	return t.At(0)
}

// integerRange returns the lowest and highest values of integer type d
// (the highest of uint64 as MaxInt64, which callers special-case).
func integerRange(d tensor.DType) (lo, hi int64) {
	bits := d.Size() * 8
	if d.IsUnsigned() {
		if bits == 64 {
			return 0, math.MaxInt64
		}
		return 0, 1<<bits - 1
	}
	return -1 << (bits - 1), 1<<(bits-1) - 1
}

// numpySum returns first + pairwise(rest) in type d, as NumPy's add
// reduction of a run computes it: float16 and bfloat16 in float32,
// rounded once; complex numbers part by part.
func numpySum(d tensor.DType, first any, rest []any) any {
	switch d {
	case tensor.Float16, tensor.BFloat16:
		wide := make([]any, len(rest))
		for i, v := range rest {
			wide[i] = widen(v)
		}
		f32 := arithOf(tensor.Float32)
		return narrow(d, f32.step(engine.Add, widen(first), pairwiseSum(tensor.Float32, wide, 8), engine.ScatterOptions{}).(float32))
	case tensor.Complex64, tensor.Complex128:
		pd := tensor.Float32
		if d == tensor.Complex128 {
			pd = tensor.Float64
		}
		re, im := make([]any, len(rest)), make([]any, len(rest))
		for i, v := range rest {
			re[i], im[i] = part(v, false), part(v, true)
		}
		sum := build(pd, tensor.Shape{2}, []any{pairwiseSum(pd, re, 4), pairwiseSum(pd, im, 4)})
		a := arithOf(d)
		s0, s1 := sum.At(0), sum.At(1)
		var u any
		if d == tensor.Complex64 {
			u = complex(s0.(float32), s1.(float32))
		} else {
			u = complex(s0.(float64), s1.(float64))
		}
		return a.step(engine.Add, first, u, engine.ScatterOptions{})
	}
	return arithOf(d).step(engine.Add, first, pairwiseSum(d, rest, 8), engine.ScatterOptions{})
}

// part returns the real (or imaginary) part of a complex value.
func part(v any, im bool) any {
	switch c := v.(type) {
	case complex64:
		if im {
			return imag(c)
		}
		return real(c)
	case complex128:
		if im {
			return imag(c)
		}
		return real(c)
	}
	panic("reftest: not a complex value")
}

// pairwiseSum returns NumPy's pairwise sum of xs, values of type d, with
// lanes accumulators (8 for real numbers; 4 for a part of complex
// numbers, which NumPy sums with the parts interleaved):
//   - fewer than lanes values: -0 plus each value in turn;
//   - up to 16*lanes: the first lanes values start one accumulator each,
//     the next whole groups of lanes add value k to accumulator k of the
//     group, the accumulators are summed as a balanced tree of pairs, and
//     the values past the last whole group are added in turn;
//   - more: the sums of the two halves, the first of which is cut to a
//     multiple of 8 (of NumPy's units: values for real numbers, parts of
//     complex ones).
func pairwiseSum(d tensor.DType, xs []any, lanes int) any {
	a := arithOf(d)
	sum := func(v, u any) any { return a.step(engine.Add, v, u, engine.ScatterOptions{}) }
	n := len(xs)
	if n < lanes {
		acc := identity(d, engine.Add)
		for _, x := range xs {
			acc = sum(acc, x)
		}
		return acc
	}
	if n <= 16*lanes {
		r := slices.Clone(xs[:lanes])
		i := lanes
		for ; i+lanes <= n; i += lanes {
			for k := range r {
				r[k] = sum(r[k], xs[i+k])
			}
		}
		for len(r) > 1 { // pairs, then pairs of pairs
			next := make([]any, len(r)/2)
			for k := range next {
				next[k] = sum(r[2*k], r[2*k+1])
			}
			r = next
		}
		acc := r[0]
		for ; i < n; i++ {
			acc = sum(acc, xs[i])
		}
		return acc
	}
	var half int
	if lanes == 8 {
		half = n/2 - n/2%8
	} else {
		half = (n - n%8) / 2 // of 2n parts, half (n) cut to a multiple of 8, in values
	}
	return sum(pairwiseSum(d, xs[:half], lanes), pairwiseSum(d, xs[half:], lanes))
}

// foldFrom folds vs into acc under opt's reduction, in order, and divides
// a mean by len(vs).
func foldFrom(d tensor.DType, acc any, vs []any, opt engine.ScatterOptions) any {
	a, step := arithOf(d), opt.Reduction
	if step == engine.Mean {
		step = engine.Add
	}
	for _, v := range vs {
		acc = a.step(step, acc, v, opt)
	}
	if opt.Reduction == engine.Mean {
		return a.mean(acc, len(vs), opt)
	}
	return acc
}

// start returns the value an Eigen reducer starts from for reduction r on
// type d: +0 (false) for Add and Mean, 1 for Mul, the lowest finite value
// for Max and the highest for Min.
func start(d tensor.DType, r engine.Reduction) any {
	t := tensor.Must(tensor.New(d, tensor.Shape{}))
	switch {
	case r == engine.Mul:
		return arithOf(d).one
	case r != engine.Max && r != engine.Min:
		return zero(d)
	case d == tensor.Bool:
		return r == engine.Min
	case d.IsInteger():
		return identity(d, r)
	}
	top := map[tensor.DType]float64{tensor.Float16: 65504, tensor.BFloat16: 0x1.fep127, tensor.Float32: math.MaxFloat32, tensor.Float64: math.MaxFloat64}[d]
	if r == engine.Max {
		top = -top
	}
	t.SetFloatAt(0, top)
	return t.At(0)
}
