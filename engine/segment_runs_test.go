package engine_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	. "github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
)

func runsOf(t *testing.T, dt tensor.DType, src, indices tensor.Tensor, axis int, opt RunOptions) (tensor.Tensor, error) {
	t.Helper()
	shape, err := RunsShape(src.Shape(), indices, axis, opt.Rules)
	if err != nil {
		return tensor.Tensor{}, err
	}
	dst := tensor.Must(tensor.New(dt, shape))
	return dst, ReduceRuns(dst, src, indices, axis, opt)
}

// negZero32 is -0.
var negZero32 = float32(math.Copysign(0, -1))

func TestReduceRuns(t *testing.T) {
	arange := func(n int) tensor.Tensor {
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(i)
		}
		return tensor.Must(tensor.From(tensor.Shape{n}, v))
	}
	i64 := func(v ...int64) tensor.Tensor { return tensor.Must(tensor.From(tensor.Shape{len(v)}, v)) }
	starts := RunRules{Index: RunStarts}
	ids := RunRules{Index: RunIDs}
	x4 := tensor.Must(tensor.From(tensor.Shape{4, 4}, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
	tf4 := tensor.Must(tensor.From(tensor.Shape{3, 4}, []int32{1, 2, 3, 4, 4, 3, 2, 1, 5, 6, 7, 8}))
	for _, c := range []struct {
		name         string
		dt           tensor.DType
		src, indices tensor.Tensor
		axis         int
		opt          RunOptions
		want         any
	}{
		// numpy/_core/_add_newdocs.py, ufunc.reduceat's examples.
		{"numpy doc running sum", tensor.Int64, arange(8), i64(0, 4, 1, 5, 2, 6, 3, 7), 0,
			RunOptions{Reduction: Add, Rules: starts}, []int64{6, 4, 10, 5, 14, 6, 18, 7}},
		{"numpy doc 4x4", tensor.Float64, x4, i64(0, 3, 1, 2, 0), 0, RunOptions{Reduction: Add, Rules: starts},
			[]float64{12, 15, 18, 21, 12, 13, 14, 15, 4, 5, 6, 7, 8, 9, 10, 11, 24, 28, 32, 36}},
		{"numpy doc multiply axis 1", tensor.Float64, x4, i64(0, 3), 1, RunOptions{Reduction: Mul, Rules: starts},
			[]float64{0, 3, 120, 7, 720, 11, 2184, 15}},
		// family.md 1.6, observed with NumPy 1.24.2.
		{"descending pair", tensor.Int64, arange(8), i64(5, 2), 0, RunOptions{Reduction: Add, Rules: starts}, []int64{5, 27}},
		{"equal pair", tensor.Int64, arange(8), i64(3, 3, 6), 0, RunOptions{Reduction: Add, Rules: starts}, []int64{3, 12, 13}},
		{"subtract", tensor.Int64, i64(10, 1, 2, 3), i64(0, 3), 0, RunOptions{Reduction: Sub, Rules: starts}, []int64{7, 3}},
		{"empty indices", tensor.Int64, arange(8), i64(), 0, RunOptions{Reduction: Add, Rules: starts}, []int64{}},
		{"int8 widened", tensor.Int64, tensor.Must(tensor.From(tensor.Shape{3}, []int8{100, 100, -1})), i64(0), 0,
			RunOptions{Reduction: Add, Rules: starts}, []int64{199}},
		{"int8 not widened wraps", tensor.Int8, tensor.Must(tensor.From(tensor.Shape{3}, []int8{100, 100, -1})), i64(0), 0,
			RunOptions{Reduction: Add, Rules: starts}, []int8{-57}},
		{"bool widened", tensor.Int64, tensor.Must(tensor.From(tensor.Shape{3}, []bool{true, true, false})), i64(0, 2), 0,
			RunOptions{Reduction: Add, Rules: starts}, []int64{2, 0}},
		{"uint8 widened product", tensor.Uint64, tensor.Must(tensor.From(tensor.Shape{2}, []uint8{200, 200})), i64(0), 0,
			RunOptions{Reduction: Mul, Rules: starts}, []uint64{40000}},
		// tensorflow/python/kernel_tests/math_ops/segment_reduction_ops_test.py,
		// the doc example of tf.math.segment_sum.
		{"tf segment_sum", tensor.Int32, tf4, i64(0, 0, 1), 0, RunOptions{Reduction: Add, Rules: ids},
			[]int32{5, 5, 5, 5, 5, 6, 7, 8}},
		// testSegmentIdsHole: the gap is zero, or one for a product.
		{"hole zero", tensor.Int32, tf4, i64(0, 0, 3), 0, RunOptions{Reduction: Max, Rules: ids},
			[]int32{4, 3, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 5, 6, 7, 8}},
		{"hole one", tensor.Int32, tf4, i64(0, 0, 2), 0, RunOptions{Reduction: Mul, Rules: RunRules{Index: RunIDs, Empty: EmptyIdentity}},
			[]int32{4, 6, 6, 4, 1, 1, 1, 1, 5, 6, 7, 8}},
		{"hole widened one", tensor.Int64, tf4, i64(0, 0, 2), 0, RunOptions{Reduction: Mul, Rules: RunRules{Index: RunIDs, Empty: EmptyIdentity}},
			[]int64{4, 6, 6, 4, 1, 1, 1, 1, 5, 6, 7, 8}},
		{"hole identity of max", tensor.Float32, tensor.Must(tensor.From(tensor.Shape{2}, []float32{1, 2})), i64(0, 2), 0,
			RunOptions{Reduction: Max, Rules: RunRules{Index: RunIDs, Empty: EmptyIdentity}}, []float32{1, float32(math.Inf(-1)), 2}},
		{"mean floor", tensor.Int32, tensor.Must(tensor.From(tensor.Shape{3}, []int32{-3, -4, 5})), i64(0, 0, 1), 0,
			RunOptions{Reduction: Mean, Rules: ids}, []int32{-4, 5}},
		{"mean toward zero", tensor.Int32, tensor.Must(tensor.From(tensor.Shape{3}, []int32{-3, -4, 5})), i64(0, 0, 1), 0,
			RunOptions{Reduction: Mean, Rules: ids, Arith: Arith{MeanTowardZero: true}}, []int32{-3, 5}},
		{"mean float inner", tensor.Float32, tensor.Must(tensor.From(tensor.Shape{3, 2}, []float32{1, 2, 3, 4, 5, 7})), i64(1, 1, 1), 0,
			RunOptions{Reduction: Mean, Rules: ids}, []float32{0, 0, 3, 13.0 / 3}},
		// EigenStart: a run of several slices reduces from the reducer's
		// start, one slice is copied.
		{"eigen max of -Infs", tensor.Float32, tensor.Must(tensor.From(tensor.Shape{3}, []float32{float32(math.Inf(-1)), float32(math.Inf(-1)), float32(math.Inf(-1))})),
			i64(0, 0, 1), 0, RunOptions{Reduction: Max, Rules: RunRules{Index: RunIDs, EigenStart: true}},
			[]float32{-math.MaxFloat32, float32(math.Inf(-1))}},
		{"eigen min of +Infs", tensor.Float64, tensor.Must(tensor.From(tensor.Shape{2}, []float64{math.Inf(1), math.Inf(1)})),
			i64(0, 0), 0, RunOptions{Reduction: Min, Rules: RunRules{Index: RunIDs, EigenStart: true}}, []float64{math.MaxFloat64}},
		{"eigen sum of -0s", tensor.Float32, tensor.Must(tensor.From(tensor.Shape{3}, []float32{negZero32, negZero32, negZero32})),
			i64(0, 0, 1), 0, RunOptions{Reduction: Add, Rules: RunRules{Index: RunIDs, EigenStart: true}}, "[0 -0]"},
		{"first sum of -0s", tensor.Float32, tensor.Must(tensor.From(tensor.Shape{3}, []float32{negZero32, negZero32, negZero32})),
			i64(0, 0, 1), 0, RunOptions{Reduction: Add, Rules: RunRules{Index: RunIDs}}, "[-0 -0]"},
		{"no ids", tensor.Float32, tensor.Must(tensor.New(tensor.Float32, tensor.Shape{0, 3})), i64(), 0,
			RunOptions{Reduction: Add, Rules: ids}, []float32{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := runsOf(t, c.dt, c.src, c.indices, c.axis, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprint(c.want)
			if w, ok := c.want.(string); ok {
				want = w
			}
			if fmt.Sprint(got.Data()) != want {
				t.Errorf("got %v, want %v", got.Data(), c.want)
			}
		})
	}
}

func TestReduceRunsRefusals(t *testing.T) {
	i64 := func(v ...int64) tensor.Tensor { return tensor.Must(tensor.From(tensor.Shape{len(v)}, v)) }
	src := tensor.Must(tensor.From(tensor.Shape{4}, []float32{1, 2, 3, 4}))
	starts := RunOptions{Reduction: Add}
	ids := RunOptions{Reduction: Add, Rules: RunRules{Index: RunIDs}}
	for _, c := range []struct {
		name    string
		indices tensor.Tensor
		opt     RunOptions
		class   error
		seg     *SegmentError
		pos     int // of an *IndexError, or -1
	}{
		// family.md 1.6: negative starts do not wrap; starts past the end fail.
		{"negative start", i64(0, -1), starts, ErrIndex, nil, 1},
		{"start past end", i64(4), starts, ErrIndex, nil, 0},
		// segment_reduction_ops_test.py, testSegmentIdsInvalid1..4 (as
		// family.md 4.1 quotes them).
		{"not increasing", i64(0, 1, 0, 1), ids, ErrIndex, &SegmentError{Reason: SegmentDecreasing, Pos: 2, Value: 0, Prev: 1, Rows: 2}, -1},
		{"beyond before decrease", i64(0, 1, 2, 0), ids, ErrIndex, &SegmentError{Reason: SegmentOutOfRange, Pos: 1, Value: 1, Rows: 1}, -1},
		{"negative first", i64(-1, -1, 0, 0), ids, ErrIndex, &SegmentError{Reason: SegmentOutOfRange, Pos: 0, Value: -1, Rows: 1}, -1},
		{"negative last", i64(0, 0, 0, -1), ids, ErrIndex, &SegmentError{Reason: SegmentNegativeLast, Pos: 3, Value: -1}, -1},
		{"ids too few", i64(0, 0, 1), ids, ErrShape, nil, -1},
		{"reduction none", i64(0), RunOptions{}, ErrArgument, nil, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := c.indices.Len()
			if shape, err := RunsShape(src.Shape(), c.indices, 0, c.opt.Rules); err == nil {
				n = shape[0]
			}
			dst := tensor.Must(tensor.From(tensor.Shape{n}, []float32{9, 9, 9, 9}[:n]))
			err := ReduceRuns(dst, src, c.indices, 0, c.opt)
			if !errors.Is(err, c.class) {
				t.Fatalf("got %v, want %v", err, c.class)
			}
			if c.seg != nil {
				var se *SegmentError
				if !errors.As(err, &se) || *se != *c.seg {
					t.Fatalf("got %#v, want %#v", err, c.seg)
				}
			}
			if c.pos >= 0 {
				var ie *IndexError
				if !errors.As(err, &ie) || ie.Pos[0] != c.pos {
					t.Fatalf("got %v, want an index error at %d", err, c.pos)
				}
			}
			for i, v := range dst.Data().([]float32) {
				if v != 9 {
					t.Fatalf("dst[%d] written: %v", i, v)
				}
			}
		})
	}
	dst := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{1}))
	if err := ReduceRuns(dst, tensor.Must(tensor.New(tensor.Int8, tensor.Shape{2})), i64(0), 0, RunOptions{Reduction: Max}); !errors.Is(err, ErrType) {
		t.Errorf("max widened: got %v, want ErrType", err)
	}
	if err := ReduceRuns(dst, tensor.Must(tensor.New(tensor.Int16, tensor.Shape{2})), i64(0), 0, RunOptions{Reduction: Add}); err != nil {
		t.Errorf("add widened: %v", err)
	}
	if err := ReduceRuns(src, src, i64(0, 1, 2, 3), 0, starts); !errors.Is(err, ErrArgument) {
		t.Errorf("in place: got %v, want ErrArgument", err)
	}
	if err := ReduceRuns(dst, src, i64(0), 1, starts); !errors.Is(err, ErrArgument) {
		t.Errorf("axis 1: got %v, want ErrArgument", err)
	}
}

// randRunIndices returns n starts in [0, size) (one in ten anywhere in
// [-2, size+2)), or n sorted ids from 0 with gaps (one call in ten with a
// decrease or a negative id).
func randRunIndices(rng *rand.Rand, n, size int, idsRule bool) []int64 {
	v := make([]int64, n)
	if !idsRule {
		for i := range v {
			if size > 0 {
				v[i] = int64(rng.IntN(size))
			}
			if rng.IntN(10) == 0 {
				v[i] = int64(rng.IntN(size+4) - 2)
			}
		}
		return v
	}
	id := int64(rng.IntN(2))
	for i := range v {
		v[i] = id
		id += int64(rng.IntN(3) / 2 * (1 + rng.IntN(2)))
	}
	if n > 0 && rng.IntN(10) == 0 {
		v[rng.IntN(n)] = int64(rng.IntN(5) - 2)
	}
	return v
}

func TestReduceRunsMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 2))
	var cases []runsCase
	for range 600 {
		dt := dtypes[rng.IntN(len(dtypes))]
		ss := RandShape(rng, 1+rng.IntN(3), 5)
		axis := rng.IntN(len(ss))
		opt := RunOptions{Rules: RunRules{Index: RunIndex(rng.IntN(2)), Empty: EmptyRun(rng.IntN(2)), PairwiseSum: rng.IntN(2) == 0,
			EigenStart: rng.IntN(2) == 0},
			Arith: Arith{Complex: ComplexArith(rng.IntN(2)), MinMax: MinMax(rng.IntN(4)), MeanTowardZero: rng.IntN(2) == 0}}
		reds := reductionsFor(dt)
		opt.Reduction = reds[rng.IntN(len(reds))]
		n := ss[axis]
		if opt.Rules.Index == RunStarts {
			n = rng.IntN(6)
		}
		src := randValues(rng, dt, ss)
		indices := indicesOf(rng, tensor.Shape{n}, randRunIndices(rng, n, ss[axis], opt.Rules.Index == RunIDs))
		wide := rng.IntN(2) == 0 && WiderType(dt) != tensor.Undefined && (opt.Reduction == Add || opt.Reduction == Mul)
		want, wantErr := reftest.ReduceRuns(src, indices, axis, opt, wide)
		outType := dt
		if wide {
			outType = WiderType(dt)
		}
		shape, err := RunsShape(ss, indices, axis, opt.Rules)
		if err != nil {
			shape = ss.Clone()
			shape[axis] = n
		}
		if c, err := shape.NumElements(); err != nil || c > 1<<12 {
			continue // ids wrapped in an unsigned type: an output too large to make
		}
		what := fmt.Sprintf("ReduceRuns(%v%v, %v, axis %d, %+v, wide %v)", dt, ss, indices.Data(), axis, opt, wide)
		cases = append(cases, runsCase{what: what, src: src, indices: indices, axis: axis, opt: opt,
			start: randValues(rng, outType, shape), want: want, wantErr: wantErr})
	}
	eachMode(t, func(t *testing.T) {
		for i := range cases {
			if f := cases[i].failure(); f != "" {
				t.Fatalf("%s, case %d: %s", cases[i].what, i, f)
			}
		}
	})
}

// runsCase is a random ReduceRuns call with the reference's outcome.
type runsCase struct {
	what         string
	src, indices tensor.Tensor
	axis         int
	opt          RunOptions
	start, want  tensor.Tensor
	wantErr      error
}

// segmentKinds are the reference's names of the SegmentReasons.
var segmentKinds = map[SegmentReason]string{
	SegmentNegativeLast: "negative last", SegmentDecreasing: "decreasing", SegmentOutOfRange: "out of range",
}

// failure returns how ReduceRuns' outcome disagrees with the reference's:
// its values, its error's class, the position its error names, or a
// failed call that wrote dst.
func (c *runsCase) failure() string {
	dst := c.start.Clone()
	err := ReduceRuns(dst, c.src, c.indices, c.axis, c.opt)
	if d := reftest.Disagreement(dst, err, c.want, c.wantErr, sameClass); d != "" || err == nil {
		return d
	}
	var ie *IndexError
	var se *SegmentError
	var rie *reftest.IndexError
	var rse *reftest.SegmentError
	switch {
	case errors.As(c.wantErr, &rie) && (!errors.As(err, &ie) || ie.Pos[0] != rie.Bad[0]):
		return fmt.Sprintf("error %v, want an *IndexError at %d", err, rie.Bad[0])
	case errors.As(c.wantErr, &rse) && (!errors.As(err, &se) || se.Pos != rse.Pos || segmentKinds[se.Reason] != rse.Kind):
		return fmt.Sprintf("error %v, want a *SegmentError %q at %d", err, rse.Kind, rse.Pos)
	}
	if d := reftest.Diff(dst, c.start); d != "" {
		return fmt.Sprintf("the failed call (%v) wrote dst: %s", err, d)
	}
	return ""
}

// TestReduceRunsPairwise checks PairwiseSum on runs long enough for each
// of NumPy's paths (fewer than 8, up to 128, split in halves) against the
// reference, and that it is not the sum in order.
func TestReduceRunsPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 7))
	differs := map[tensor.DType]bool{}
	var cases []runsCase
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Float16, tensor.BFloat16, tensor.Complex64, tensor.Complex128} {
		for _, n := range []int{2, 9, 16, 17, 100, 129, 300, 1000} {
			inner := 1 + rng.IntN(3)
			src := randValues(rng, dt, tensor.Shape{n, inner})
			if rng.IntN(2) == 0 { // random values without corners, which NaN would hide
				src = tensor.Must(tensor.New(dt, tensor.Shape{n, inner}))
				for i := range src.Len() {
					src.SetFloatAt(i, rng.NormFloat64()*float64(1+rng.IntN(1000)))
				}
			}
			indices := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, int64(n / 3), int64(n/3 + 1)}))
			opt := RunOptions{Reduction: Add, Rules: RunRules{PairwiseSum: true}}
			want, wantErr := reftest.ReduceRuns(src, indices, 0, opt, false)
			cases = append(cases, runsCase{what: fmt.Sprintf("%v[%d,%d]", dt, n, inner), src: src, indices: indices,
				opt: opt, start: randValues(rng, dt, tensor.Shape{3, inner}), want: want, wantErr: wantErr})
			inOrder, _ := runsOf(t, dt, src, indices, 0, RunOptions{Reduction: Add})
			if reftest.Diff(inOrder, want) != "" {
				differs[dt] = true
			}
		}
	}
	eachMode(t, func(t *testing.T) {
		for i := range cases {
			if f := cases[i].failure(); f != "" {
				t.Fatalf("%s, case %d: %s", cases[i].what, i, f)
			}
		}
	})
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Float16, tensor.Complex64} {
		if !differs[dt] {
			t.Errorf("%v: the pairwise sums equal the sums in order on every case", dt)
		}
	}
}

// TestReduceRunsDeterministic sums and averages float32 runs of sorted
// segment ids (some segments empty) and of starts, along either axis,
// with and without EigenStart, at GOMAXPROCS 1, 2 and 8 with the parallel
// threshold lowered so that the units are split, and requires the same
// bits each time: each run is summed in order by one worker.
func TestReduceRunsDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 7))
	v := make([]float32, 200*72)
	for i := range v {
		v[i] = rng.Float32()*2 - 1 // sums depend on order in the last bits
	}
	src := tensor.Must(tensor.From(tensor.Shape{200, 72}, v))
	sorted := func(n, below int) tensor.Tensor {
		ids := make([]int64, n)
		for i := range ids {
			ids[i] = int64(rng.IntN(below))
		}
		slices.Sort(ids)
		return tensor.Must(tensor.From(tensor.Shape{n}, ids))
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	defer SetMinWork(64)()
	for _, axis := range []int{0, 1} {
		ids := sorted(src.Dim(axis), src.Dim(axis)/3)
		for _, index := range []RunIndex{RunIDs, RunStarts} {
			for _, red := range []Reduction{Add, Mean} {
				for _, eigen := range []bool{false, true} {
					opt := RunOptions{Reduction: red, Rules: RunRules{Index: index, EigenStart: eigen}}
					var first tensor.Tensor
					for _, procs := range []int{1, 2, 8} {
						runtime.GOMAXPROCS(procs)
						got, err := runsOf(t, tensor.Float32, src, ids, axis, opt)
						if err != nil {
							t.Fatalf("axis %d, %+v at %d threads: %v", axis, opt, procs, err)
						}
						if procs == 1 {
							first = got
							continue
						}
						if i := tensor.FirstDiff(got, first); i >= 0 {
							t.Errorf("axis %d, %+v: element %d differs at %d threads: %v vs %v", axis, opt, i, procs, got.At(i), first.At(i))
						}
					}
				}
			}
		}
	}
}
