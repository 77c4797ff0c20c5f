package jax_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/jax"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

type segmentFunc func(data, ids tensor.Tensor, n int, opt jax.SegmentOptions) (tensor.Tensor, error)

// Transcribed from jax tests/lax_numpy_indexing_test.py,
// IndexedUpdateTest.testSegmentSum: explicit num_segments, a larger one,
// none (max + 1), and ids out of range and negative, which are dropped
// (the test's comment speaks of wrapping; its expected values drop
// them); and the case of family.md 5.1 with every id negative or past 5.
func TestSegmentSum(t *testing.T) {
	data := tensortest.I32(tensor.Shape{8}, 5, 1, 7, 2, 3, 4, 1, 3)
	ids := func(v ...int64) tensor.Tensor { return tensortest.I64(tensor.Shape{8}, v...) }
	none := -1 // num_segments=None
	for _, tc := range []struct {
		name string
		ids  tensor.Tensor
		n    int
		want []int32
	}{
		{"explicit num_segments", ids(0, 0, 0, 1, 2, 2, 3, 3), 4, []int32{13, 2, 7, 4}},
		{"num_segments larger than the highest id", ids(0, 0, 0, 1, 2, 2, 3, 3), 5, []int32{13, 2, 7, 4, 0}},
		{"without num_segments", ids(0, 0, 0, 1, 2, 2, 3, 3), none, []int32{13, 2, 7, 4}},
		{"ids negative and past the end, dropped", ids(0, 4, 8, 1, 2, -6, -1, 3), 4, []int32{5, 2, 3, 3}},
		{"without num_segments, negative ids", ids(3, 3, 3, 4, 5, 5, -7, -6), none, []int32{0, 0, 0, 13, 2, 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, it := range []tensor.DType{tensor.Int64, tensor.Int32, tensor.Int8, tensor.Uint64} {
				segIDs := tc.ids
				if it != tensor.Int64 {
					if it == tensor.Uint64 && strings.Contains(tc.name, "negative") {
						continue
					}
					segIDs = retype(tc.ids, it)
				}
				n := tc.n
				if n == none {
					var err error
					if n, err = jax.NumSegments(segIDs); err != nil {
						t.Fatal(err)
					}
				}
				got, err := jax.SegmentSum(data, segIDs, n, jax.SegmentOptions{})
				want := tensortest.I32(tensor.Shape{len(tc.want)}, tc.want...)
				if err != nil || !tensor.Equal(got, want) {
					t.Errorf("%v ids: got %v, %v, want %v", it, got, err, want)
				}
			}
		})
	}
}

// retype returns the int64 tensor x as integer type d.
func retype(x tensor.Tensor, d tensor.DType) tensor.Tensor {
	y := tensor.Must(tensor.New(d, x.Shape()))
	for i := range x.Len() {
		v, _ := x.IntAt(i)
		y.SetIntAt(i, v)
	}
	return y
}

// After jax tests/lax_numpy_indexing_test.py, testSegmentReduce and
// testSegmentReduceBoolean: the NumPy model of their np_fun (a segment
// starts as the identity, ids outside [0, size) are skipped), on fixed
// data of the shapes [8] and [7,4] with ids in [-2, 3), num_segments
// None, 1 and 3, and bucket_size None and 2 where it is taken.
func TestSegmentReduce(t *testing.T) {
	ids8 := tensortest.I32(tensor.Shape{8}, 2, -1, 0, 2, -2, 1, 0, 2)
	data8 := tensortest.I32(tensor.Shape{8}, 3, -4, 5, 1, 9, -2, -6, 7)
	ids7 := tensortest.I32(tensor.Shape{7}, 1, 1, -2, 0, 2, 1, -1)
	data7 := tensortest.FromInts(tensor.Float32, tensor.Shape{7, 4},
		1, 2, 3, 4, -1, 5, 0, 2, 9, 9, 9, 9, 4, -3, 2, 1, 6, 0, -5, 7, 2, 2, 8, -1, 9, 9, 9, 9)
	inf, ninf := math.Inf(1), math.Inf(-1)
	for _, tc := range []struct {
		name string
		f    segmentFunc
		data tensor.Tensor
		ids  tensor.Tensor
		n    int
		want tensor.Tensor
	}{
		// Segments of [8]: 0 gets 5, -6; 1 gets -2; 2 gets 3, 1, 7.
		{"sum", jax.SegmentSum, data8, ids8, 3, tensortest.I32(tensor.Shape{3}, -1, -2, 11)},
		{"prod", jax.SegmentProd, data8, ids8, 3, tensortest.I32(tensor.Shape{3}, -30, -2, 21)},
		{"max", jax.SegmentMax, data8, ids8, 3, tensortest.I32(tensor.Shape{3}, 5, -2, 7)},
		{"min", jax.SegmentMin, data8, ids8, 3, tensortest.I32(tensor.Shape{3}, -6, -2, 1)},
		{"sum, one segment", jax.SegmentSum, data8, ids8, 1, tensortest.I32(tensor.Shape{1}, -1)},
		{"max, four segments: the lowest int32", jax.SegmentMax, data8, ids8, 4, tensortest.I32(tensor.Shape{4}, 5, -2, 7, math.MinInt32)},
		{"min, four segments: the highest int32", jax.SegmentMin, data8, ids8, 4, tensortest.I32(tensor.Shape{4}, -6, -2, 1, math.MaxInt32)},
		// Rows of [7,4]: 0 gets row 3; 1 rows 0, 1, 5; 2 row 4.
		{"sum of rows", jax.SegmentSum, data7, ids7, 3, tensortest.FromInts(tensor.Float32, tensor.Shape{3, 4},
			4, -3, 2, 1, 2, 9, 11, 5, 6, 0, -5, 7)},
		{"max of rows, an empty segment is -inf", jax.SegmentMax, data7, ids7, 4, tensortest.F32(tensor.Shape{4, 4},
			4, -3, 2, 1, 2, 5, 8, 4, 6, 0, -5, 7, float32(ninf), float32(ninf), float32(ninf), float32(ninf))},
		{"min of rows, an empty segment is +inf", jax.SegmentMin, data7, ids7, 4, tensortest.F32(tensor.Shape{4, 4},
			4, -3, 2, 1, -1, 2, 0, -1, 6, 0, -5, 7, float32(inf), float32(inf), float32(inf), float32(inf))},
		{"prod of rows, an empty segment is 1", jax.SegmentProd, data7, ids7, 4, tensortest.FromInts(tensor.Float32, tensor.Shape{4, 4},
			4, -3, 2, 1, -2, 20, 0, -8, 6, 0, -5, 7, 1, 1, 1, 1)},
		// testSegmentReduceBoolean: max is OR onto false, min AND onto true.
		{"max of bool", jax.SegmentMax, tensortest.Of(tensor.Shape{4}, true, false, false, true), tensortest.I32(tensor.Shape{4}, 0, 0, 1, -1), 3,
			tensortest.Of(tensor.Shape{3}, true, false, false)},
		{"min of bool", jax.SegmentMin, tensortest.Of(tensor.Shape{4}, true, false, true, false), tensortest.I32(tensor.Shape{4}, 0, 0, 1, -1), 3,
			tensortest.Of(tensor.Shape{3}, false, true, true)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, opt := range []jax.SegmentOptions{{}, {BucketSize: 2}, {IndicesAreSorted: true, UniqueIndices: true}} {
				if opt.BucketSize > 0 && tc.data.DType().IsFloat() && (strings.HasPrefix(tc.name, "sum") || strings.HasPrefix(tc.name, "prod")) {
					continue // refused, below
				}
				got, err := tc.f(tc.data, tc.ids, tc.n, opt)
				if err != nil || !tensor.Equal(got, tc.want) {
					t.Errorf("%+v: got %v, %v, want %v", opt, got, err, tc.want)
				}
			}
		})
	}
}

// Mode clip moves an id to the nearest segment, a negative one to 0;
// drop, fill, promise_in_bounds and the default drop it; -0 and NaN
// follow XLA's maximum.
func TestSegmentModes(t *testing.T) {
	data := tensortest.F32(tensor.Shape{4}, 1, 2, 4, 8)
	ids := tensortest.I64(tensor.Shape{4}, -1, 0, 5, 1)
	for _, tc := range []struct {
		mode jax.Mode
		want []float32
	}{
		{jax.Default, []float32{2, 8}}, {jax.Drop, []float32{2, 8}}, {jax.Fill, []float32{2, 8}},
		{jax.PromiseInBounds, []float32{2, 8}}, {jax.Clip, []float32{3, 12}},
	} {
		got, err := jax.SegmentSum(data, ids, 2, jax.SegmentOptions{Mode: tc.mode})
		if want := tensortest.F32(tensor.Shape{2}, tc.want...); err != nil || !tensor.Equal(got, want) {
			t.Errorf("mode %q: got %v, %v, want %v", tc.mode, got, err, want)
		}
	}
	negZero, nan := float32(math.Copysign(0, -1)), float32(math.NaN())
	got, err := jax.SegmentMax(tensortest.F32(tensor.Shape{4}, negZero, 0, nan, 1), tensortest.I64(tensor.Shape{4}, 0, 0, 1, 1), 2, jax.SegmentOptions{})
	v, _ := got.Data().([]float32)
	if err != nil || len(v) != 2 || math.Signbit(float64(v[0])) || v[0] != 0 || v[1] == v[1] {
		t.Errorf("max of -0, +0 and of NaN, 1: got %v, %v, want [0 NaN]", got, err)
	}
}

// The refusals, of the error class each mistake belongs to, naming the
// operator.
func TestSegmentRefusals(t *testing.T) {
	f32 := tensortest.F32(tensor.Shape{3, 2}, 1, 2, 3, 4, 5, 6)
	ids := tensortest.I64(tensor.Shape{3}, 0, 1, 0)
	for _, tc := range []struct {
		name  string
		f     segmentFunc
		data  tensor.Tensor
		ids   tensor.Tensor
		n     int
		opt   jax.SegmentOptions
		class error
		text  string
	}{
		{"negative num_segments", jax.SegmentSum, f32, ids, -1, jax.SegmentOptions{}, dialect.ErrInput, "num_segments must be non-negative"},
		{"ids of another length", jax.SegmentSum, f32, tensortest.I64(tensor.Shape{2}, 0, 1), 2, jax.SegmentOptions{}, engine.ErrShape, "an id per row"},
		{"2-D ids", jax.SegmentSum, f32, tensortest.I64(tensor.Shape{3, 2}, 0, 0, 0, 0, 0, 0), 2, jax.SegmentOptions{}, engine.ErrShape, "1-D"},
		{"scalar data", jax.SegmentSum, tensor.Scalar(float32(1)), ids, 2, jax.SegmentOptions{}, engine.ErrShape, "rank >= 1"},
		{"float ids", jax.SegmentSum, f32, tensortest.F32(tensor.Shape{3}, 0, 1, 0), 2, jax.SegmentOptions{}, engine.ErrType, "segment_ids"},
		{"bool sum", jax.SegmentSum, tensortest.Of(tensor.Shape{3}, true, false, true), ids, 2, jax.SegmentOptions{}, engine.ErrType, "bool"},
		{"complex max", jax.SegmentMax, tensortest.FromInts(tensor.Complex64, tensor.Shape{3}, 1, 2, 3), ids, 2, jax.SegmentOptions{}, engine.ErrType, "complex64"},
		{"strings", jax.SegmentMax, tensortest.Str(tensor.Shape{3}, "a", "b", "c"), ids, 2, jax.SegmentOptions{}, engine.ErrType, "string"},
		{"bad mode", jax.SegmentSum, f32, ids, 2, jax.SegmentOptions{Mode: "wrap"}, dialect.ErrAttribute, "unknown mode \"wrap\""},
		{"negative bucket_size", jax.SegmentMax, f32, ids, 2, jax.SegmentOptions{BucketSize: -1}, dialect.ErrAttribute, "bucket_size"},
		{"bucket_size on a float sum", jax.SegmentSum, f32, ids, 2, jax.SegmentOptions{BucketSize: 2}, dialect.ErrAttribute, "bucket_size 2 on float32"},
		{"too many segments", jax.SegmentSum, f32, ids, math.MaxInt, jax.SegmentOptions{}, engine.ErrShape, "more elements"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.f(tc.data, tc.ids, tc.n, tc.opt)
			var oe *dialect.OpError
			if !errors.Is(err, tc.class) || !strings.Contains(err.Error(), tc.text) || !errors.As(err, &oe) || !strings.HasPrefix(oe.Op, "jax.ops.segment_") {
				t.Errorf("got %v, want %v with %q", err, tc.class, tc.text)
			}
		})
	}
	if _, err := jax.NumSegments(tensortest.I64(tensor.Shape{0})); !errors.Is(err, dialect.ErrInput) {
		t.Errorf("NumSegments of no ids: got %v, want ErrInput", err)
	}
	big := tensor.Must(tensor.From(tensor.Shape{1}, []uint64{math.MaxUint64}))
	if _, err := jax.NumSegments(big); !errors.Is(err, dialect.ErrInput) {
		t.Errorf("NumSegments of MaxUint64: got %v, want ErrInput", err)
	}
}

// Through the table: num_segments an input, an attribute, or left out
// (max + 1); bucket_size 0 refused, as JAX's ceil_of_ratio by 0 fails.
func TestSegmentTable(t *testing.T) {
	op, err := registry.Lookup("jax.ops.segment_sum")
	if err != nil {
		t.Fatal(err)
	}
	data, ids := tensortest.I32(tensor.Shape{4}, 1, 2, 3, 4), tensortest.I64(tensor.Shape{4}, 2, 0, 2, -1)
	want := tensortest.I32(tensor.Shape{3}, 2, 0, 4)
	for _, c := range []dialect.Call{
		{Inputs: map[string]tensor.Tensor{"data": data, "segment_ids": ids, "num_segments": tensor.Scalar(int32(3))}},
		{Inputs: map[string]tensor.Tensor{"data": data, "segment_ids": ids}, Attrs: map[string]dialect.Value{"num_segments": {Kind: dialect.Int, Int: 3}}},
		{Inputs: map[string]tensor.Tensor{"data": data, "segment_ids": ids}},
		{Inputs: map[string]tensor.Tensor{"data": data, "segment_ids": ids}, Attrs: map[string]dialect.Value{
			"bucket_size": {Kind: dialect.Int, Int: 3}, "mode": {Kind: dialect.String, Str: "drop"}}},
	} {
		got, err := op.Run(c)
		if err != nil || !tensor.Equal(got, want) {
			t.Errorf("%v: got %v, %v, want %v", c.Attrs, got, err, want)
		}
	}
	_, err = op.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"data": data, "segment_ids": ids},
		Attrs: map[string]dialect.Value{"bucket_size": {Kind: dialect.Int}}})
	if !errors.Is(err, dialect.ErrAttribute) {
		t.Errorf("bucket_size 0: got %v, want ErrAttribute", err)
	}
	_, err = op.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"data": data, "segment_ids": ids, "num_segments": tensortest.I64(tensor.Shape{1}, 3)}})
	if !errors.Is(err, dialect.ErrInput) {
		t.Errorf("num_segments of shape [1]: got %v, want ErrInput", err)
	}
}

// The Into forms take num_segments from dst.
func TestSegmentInto(t *testing.T) {
	dst := tensortest.F32(tensor.Shape{3}, 9, 9, 9)
	err := jax.SegmentMinInto(dst, tensortest.F32(tensor.Shape{2}, 4, 5), tensortest.I64(tensor.Shape{2}, 2, 2), jax.SegmentOptions{})
	if want := tensortest.F32(tensor.Shape{3}, float32(math.Inf(1)), float32(math.Inf(1)), 4); err != nil || !tensor.Equal(dst, want) {
		t.Errorf("got %v, %v, want %v", dst, err, want)
	}
	if err := jax.SegmentSumInto(tensortest.F32(tensor.Shape{}, 1), tensortest.F32(tensor.Shape{2}, 4, 5), tensortest.I64(tensor.Shape{2}, 0, 0),
		jax.SegmentOptions{}); !errors.Is(err, engine.ErrShape) {
		t.Errorf("scalar dst: got %v, want ErrShape", err)
	}
}
