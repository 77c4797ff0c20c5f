package tf_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// segmentFunc is one of the unsorted segment reductions.
type segmentFunc func(data, ids tensor.Tensor, n int) (tensor.Tensor, error)

// counting returns the values 1, 2, ... of type d in shape s, as
// SegmentReductionHelper._input of TensorFlow's test makes its data.
func counting(d tensor.DType, s tensor.Shape) tensor.Tensor {
	vals := make([]int, tensortest.Count(s))
	for i := range vals {
		vals[i] = i + 1
	}
	return tensortest.FromInts(d, s, vals...)
}

// Transcribed from tensorflow/python/kernel_tests/math_ops/segment_reduction_ops_test.py,
// UnsortedSegmentTest.testValues: ids [0,4,0,8,3,8,4,7,7,3] (flat, and
// as [5,2]) over 12 segments of data 1, 2, ... with an inner dimension of
// 2, for every type the test runs each op on. The expected values are
// the test's NumPy reference worked out: segment 0 holds rows [1,2] and
// [5,6], 3 [9,10] and [19,20], 4 [3,4] and [13,14], 7 [15,16] and
// [17,18], 8 [7,8] and [11,12]; the others are empty.
func TestUnsortedSegmentValues(t *testing.T) {
	filled := map[int][2]int{0: {}, 3: {}, 4: {}, 7: {}, 8: {}}
	rows := func(vals map[int][2]int, empty int) []int {
		out := make([]int, 24)
		for s := range 12 {
			v, ok := vals[s]
			if _, hit := filled[s]; !hit || !ok {
				v = [2]int{empty, empty}
			}
			out[2*s], out[2*s+1] = v[0], v[1]
		}
		return out
	}
	sums := rows(map[int][2]int{0: {6, 8}, 3: {28, 30}, 4: {16, 18}, 7: {32, 34}, 8: {18, 20}}, 0)
	prods := rows(map[int][2]int{0: {5, 12}, 3: {171, 200}, 4: {39, 56}, 7: {255, 288}, 8: {77, 96}}, 1)
	means := rows(map[int][2]int{0: {3, 4}, 3: {14, 15}, 4: {8, 9}, 7: {16, 17}, 8: {9, 10}}, 0)
	maxes := rows(map[int][2]int{0: {5, 6}, 3: {19, 20}, 4: {13, 14}, 7: {17, 18}, 8: {11, 12}}, 0)
	mins := rows(map[int][2]int{0: {1, 2}, 3: {9, 10}, 4: {3, 4}, 7: {15, 16}, 8: {7, 8}}, 0)
	emptyRows := []int{1, 2, 5, 6, 9, 10, 11}
	flat := []int64{0, 4, 0, 8, 3, 8, 4, 7, 7, 3}
	for _, ids := range []tensor.Tensor{tensortest.I64(shape{10}, flat...), tensortest.I64(shape{5, 2}, flat...)} {
		dshape := append(ids.Shape().Clone(), 2)
		for _, d := range []tensor.DType{tensor.Float16, tensor.Float32, tensor.Float64, tensor.BFloat16,
			tensor.Int64, tensor.Int32, tensor.Complex64, tensor.Complex128} {
			data := counting(d, dshape)
			type opCase struct {
				name string
				f    segmentFunc
				want tensor.Tensor
			}
			cases := []opCase{
				{"sum", tf.UnsortedSegmentSum, tensortest.FromInts(d, shape{12, 2}, sums...)},
				{"prod", tf.UnsortedSegmentProd, tensortest.FromInts(d, shape{12, 2}, prods...)},
			}
			if !d.IsComplex() {
				lowest, highest := tensortest.FromInts(d, shape{12, 2}, maxes...), tensortest.FromInts(d, shape{12, 2}, mins...)
				lo, hi := extremes(d)
				for _, r := range emptyRows {
					for j := range 2 {
						setNumber(lowest, 2*r+j, lo)
						setNumber(highest, 2*r+j, hi)
					}
				}
				cases = append(cases, opCase{"max", tf.UnsortedSegmentMax, lowest}, opCase{"min", tf.UnsortedSegmentMin, highest})
			}
			if d.IsInteger() {
				// The test skips sqrt_n for integers ("sqrt_n doesn't
				// support integers") and compares mean with NumPy's true
				// division: float64 for int32 and int64.
				cases = append(cases, opCase{"mean", tf.UnsortedSegmentMean, tensortest.FromInts(tensor.Float64, shape{12, 2}, means...)})
			}
			if d.IsFloat() {
				cases = append(cases, opCase{"mean", tf.UnsortedSegmentMean, tensortest.FromInts(d, shape{12, 2}, means...)})
				// sum / sqrt(2), rounded to the type: every segment holds two rows.
				sqrtN := tensortest.FromInts(d, shape{12, 2}, sums...)
				root := tensortest.FromInts(d, shape{}, 2)
				root.SetFloatAt(0, math.Sqrt(2))
				r, _ := root.FloatAt(0)
				for i := range 24 {
					s, _ := sqrtN.FloatAt(i)
					sqrtN.SetFloatAt(i, s/r)
				}
				cases = append(cases, opCase{"sqrt_n", tf.UnsortedSegmentSqrtN, sqrtN})
			}
			for _, c := range cases {
				t.Run(c.name+"/"+d.String()+"/"+ids.Shape().String(), func(t *testing.T) {
					bothIndexTypes(t, ids, func(t *testing.T, ids tensor.Tensor) {
						got, err := c.f(data, ids, 12)
						check(t, got, err, c.want)
					})
				})
			}
		}
	}
}

// extremes returns the lowest and highest finite values of the real type
// d, numeric_limits<T>::lowest() and max().
func extremes(d tensor.DType) (lo, hi float64) {
	switch d {
	case tensor.Float16:
		return -65504, 65504
	case tensor.BFloat16:
		return -3.3895313892515355e38, 3.3895313892515355e38
	case tensor.Float32:
		return -math.MaxFloat32, math.MaxFloat32
	case tensor.Float64:
		return -math.MaxFloat64, math.MaxFloat64
	case tensor.Int32:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64 // int64: exact as float64 at the ends, set below by SetIntAt
}

// setNumber sets element i of t to v, an integer type by its integer
// value.
func setNumber(t tensor.Tensor, i int, v float64) {
	if t.DType().IsInteger() {
		x := int64(math.MaxInt64)
		if v < 0 {
			x = math.MinInt64
		}
		if t.DType() == tensor.Int32 {
			x = int64(v)
		}
		t.SetIntAt(i, x)
		return
	}
	t.SetFloatAt(i, v)
}

// Transcribed from segment_reduction_ops_test.py,
// UnsortedSegmentTest.testDropNegatives: the ids 8 replaced by -1 drop
// their rows, so segment 8 is empty.
func TestUnsortedSegmentDropNegatives(t *testing.T) {
	ids := tensortest.I64(shape{10}, 0, 4, 0, -1, 3, -1, 4, 7, 7, 3)
	want := tensortest.FromInts(tensor.Float32, shape{12, 2},
		6, 8, 0, 0, 0, 0, 28, 30, 16, 18, 0, 0, 0, 0, 32, 34, 0, 0, 0, 0, 0, 0, 0, 0)
	bothIndexTypes(t, ids, func(t *testing.T, ids tensor.Tensor) {
		got, err := tf.UnsortedSegmentSum(counting(tensor.Float32, shape{10, 2}), ids, 12)
		check(t, got, err, want)
	})
}

// Transcribed from segment_reduction_ops_test.py,
// UnsortedSegmentTest.testBadIndices: an id at or past num_segments is an
// error in TensorFlow's words, naming its position in segment_ids; and
// the first such id, past negative ones.
func TestUnsortedSegmentBadIndices(t *testing.T) {
	for _, tc := range []struct {
		ids  tensor.Tensor
		n    int
		want string
		pos  []int
	}{
		{tensortest.I64(shape{1, 1}, 2), 2, "segment_ids[0,0] = 2 is out of range [0, 2)", []int{0, 0}},
		{tensortest.I64(shape{1, 1}, 7), 2, "segment_ids[0,0] = 7 is out of range [0, 2)", []int{0, 0}},
		{tensortest.I64(shape{4}, -3, 5, -1, 9), 3, "segment_ids[1] = 5 is out of range [0, 3)", []int{1}},
		{tensortest.I64(shape{}, 0), 0, "segment_ids = 0 is out of range [0, 0)", nil},
	} {
		bothIndexTypes(t, tc.ids, func(t *testing.T, ids tensor.Tensor) {
			data := tensortest.F32(append(tc.ids.Shape().Clone(), 1), make([]float32, tc.ids.Len())...)
			data.SetFloatAt(0, 17)
			_, err := tf.UnsortedSegmentSum(data, ids, tc.n)
			var ie *engine.IndexError
			var oe *dialect.OpError
			if !errors.As(err, &oe) || oe.Op != "tf.math.unsorted_segment_sum" || !errors.As(err, &ie) {
				t.Fatalf("got %v, want an index error of tf.math.unsorted_segment_sum", err)
			}
			if got := strings.TrimPrefix(err.Error(), "tf.math.unsorted_segment_sum: "); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if len(ie.Pos) != len(tc.pos) || (len(tc.pos) > 0 && ie.Pos[0] != tc.pos[0]) || ie.Size != tc.n {
				t.Errorf("IndexError %+v, want position %v of %d segments", ie, tc.pos, tc.n)
			}
		})
	}
}

// Transcribed from segment_reduction_ops_test.py,
// UnsortedSegmentTest.testEmptySecondDimension: data of shape [2,0] gives
// [2,0]; and data with no elements reads no id, as TensorFlow's kernel
// returns first: its segments keep the fill.
func TestUnsortedSegmentEmptyData(t *testing.T) {
	for _, d := range []tensor.DType{tensor.Float16, tensor.Float32, tensor.Float64, tensor.Int64, tensor.Int32,
		tensor.Complex64, tensor.Complex128} {
		bothIndexTypes(t, tensortest.I64(shape{2}, 0, 1), func(t *testing.T, ids tensor.Tensor) {
			got, err := tf.UnsortedSegmentSum(tensortest.FromInts(d, shape{2, 0}), ids, 2)
			check(t, got, err, tensortest.FromInts(d, shape{2, 0}))
		})
	}
	// No rows: three segments of 1; no elements and a bad id: no error.
	got, err := tf.UnsortedSegmentProd(tensortest.F32(shape{0, 2}), tensortest.I64(shape{0}), 3) // no ids at all
	check(t, got, err, tensortest.F32(shape{3, 2}, 1, 1, 1, 1, 1, 1))
	got, err = tf.UnsortedSegmentMax(tensortest.F32(shape{1, 0}), tensortest.I64(shape{1}, 9), 1)
	check(t, got, err, tensortest.F32(shape{1, 0}))
}

// Transcribed from segment_reduction_ops_test.py,
// UnsortedSegmentTest.testNumSegmentsTypes: num_segments an int32 or an
// int64 scalar, through the table; and the refusals of other kinds.
func TestUnsortedSegmentNumSegments(t *testing.T) {
	op, err := registry.Lookup("tf.math.unsorted_segment_sum")
	if err != nil {
		t.Fatal(err)
	}
	ids := tensortest.I64(shape{5, 2}, 0, 4, 0, 8, 3, 8, 4, 7, 7, 3)
	want := tensortest.FromInts(tensor.Float32, shape{12, 2},
		6, 8, 0, 0, 0, 0, 28, 30, 16, 18, 0, 0, 0, 0, 32, 34, 18, 20, 0, 0, 0, 0, 0, 0)
	for _, n := range []tensor.Tensor{tensor.Scalar(int32(12)), tensor.Scalar(int64(12))} {
		got, err := op.Run(dialect.Call{Inputs: map[string]tensor.Tensor{
			"data": counting(tensor.Float32, shape{5, 2, 2}), "segment_ids": ids, "num_segments": n}})
		check(t, got, err, want)
	}
	got, err := op.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"data": counting(tensor.Float32, shape{5, 2, 2}), "segment_ids": ids},
		Attrs: map[string]dialect.Value{"num_segments": {Kind: dialect.Int, Int: 12}}})
	check(t, got, err, want)
	for _, tc := range []struct {
		n     tensor.Tensor
		class error
		text  string
	}{
		{tensor.Scalar(float32(12)), engine.ErrType, "num_segments must be int32 or int64, got float32"},
		{tensortest.I64(shape{1}, 12), dialect.ErrInput, "num_segments should be a scalar, not shape [1]"},
		{tensor.Scalar(int64(-1)), dialect.ErrInput, "Input num_segments == -1 must not be negative."},
	} {
		_, err := op.Run(dialect.Call{Inputs: map[string]tensor.Tensor{
			"data": counting(tensor.Float32, shape{5, 2, 2}), "segment_ids": ids, "num_segments": tc.n}})
		if !errors.Is(err, tc.class) || !strings.Contains(err.Error(), tc.text) || !strings.HasPrefix(err.Error(), "tf.math.unsorted_segment_sum: ") {
			t.Errorf("num_segments %v: got %v, want %v with %q", tc.n, err, tc.class, tc.text)
		}
	}
}

// The corners TensorFlow's CPU kernels decide: an empty segment of every
// type, max and min comparing as std::max(update, value), integer sums
// wrapping, a float16 mean counted in float16.
func TestUnsortedSegmentCorners(t *testing.T) {
	nan := float32(math.NaN())
	ids := tensortest.I64(shape{3}, 0, 0, 2)
	for _, tc := range []struct {
		name string
		f    segmentFunc
		data tensor.Tensor
		want tensor.Tensor
	}{
		{"max of uint8: empty is 0", tf.UnsortedSegmentMax, tensortest.Of(shape{3}, uint8(3), 9, 4),
			tensortest.Of(shape{3}, uint8(9), 0, 4)},
		{"min of uint8: empty is 255", tf.UnsortedSegmentMin, tensortest.Of(shape{3}, uint8(3), 9, 4),
			tensortest.Of(shape{3}, uint8(3), 255, 4)},
		{"max of int8: empty is -128", tf.UnsortedSegmentMax, tensortest.Of(shape{3}, int8(-3), -9, 4),
			tensortest.Of(shape{3}, int8(-3), -128, 4)},
		{"max: a NaN update wins", tf.UnsortedSegmentMax, tensortest.F32(shape{3}, 1, nan, 4),
			tensortest.F32(shape{3}, nan, -math.MaxFloat32, 4)},
		{"max: a NaN in place gives way", tf.UnsortedSegmentMax, tensortest.F32(shape{3}, nan, 1, 4),
			tensortest.F32(shape{3}, 1, -math.MaxFloat32, 4)},
		{"max of -inf is the lowest finite value", tf.UnsortedSegmentMax, tensortest.F32(shape{3}, float32(math.Inf(-1)), float32(math.Inf(-1)), 4),
			tensortest.F32(shape{3}, -math.MaxFloat32, -math.MaxFloat32, 4)},
		{"min: a NaN update wins", tf.UnsortedSegmentMin, tensortest.F32(shape{3}, 1, nan, 4),
			tensortest.F32(shape{3}, nan, math.MaxFloat32, 4)},
		{"sum of int8 wraps", tf.UnsortedSegmentSum, tensortest.Of(shape{3}, int8(100), 100, 1),
			tensortest.Of(shape{3}, int8(-56), 0, 1)},
		{"sum of -0 is +0", tf.UnsortedSegmentSum, tensortest.F32(shape{3}, float32(math.Copysign(0, -1)), float32(math.Copysign(0, -1)), 1),
			tensortest.F32(shape{3}, 0, 0, 1)},
		{"mean of -0 is +0", tf.UnsortedSegmentMean, tensortest.F32(shape{3}, float32(math.Copysign(0, -1)), float32(math.Copysign(0, -1)), 1),
			tensortest.F32(shape{3}, 0, 0, 1)},
		{"mean of three", tf.UnsortedSegmentMean, tensortest.F64(shape{3}, 1, 2, 7),
			tensortest.F64(shape{3}, 1.5, 0, 7)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.f(tc.data, ids, 3)
			if err != nil || !tensor.Equal(got, tc.want) || !sameBits(got, tc.want) {
				t.Errorf("got %v, %v, want %v", got, err, tc.want)
			}
		})
	}
}

// sameBits reports whether two float32 tensors hold the same bits (NaN
// and the sign of zero included); other types compare as Equal does.
func sameBits(x, y tensor.Tensor) bool {
	a, ok := x.Data().([]float32)
	b, _ := y.Data().([]float32)
	if !ok {
		return true
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
	}
	return true
}

// The refusals: what TensorFlow refuses, in its words, of the error class
// each mistake belongs to.
func TestUnsortedSegmentRefusals(t *testing.T) {
	f32 := counting(tensor.Float32, shape{3, 2})
	ids := tensortest.I64(shape{3}, 0, 1, 2)
	for _, tc := range []struct {
		name  string
		f     segmentFunc
		data  tensor.Tensor
		ids   tensor.Tensor
		n     int
		class error
		text  string
	}{
		{"ids not a prefix", tf.UnsortedSegmentSum, f32, tensortest.I64(shape{2}, 0, 1), 3, engine.ErrShape,
			"data.shape = [3,2] does not start with segment_ids.shape = [2]"},
		{"ids longer than data", tf.UnsortedSegmentSum, f32, tensortest.I64(shape{3, 2, 1}, 0, 0, 0, 0, 0, 0), 3, engine.ErrShape,
			"does not start with segment_ids.shape = [3,2,1]"},
		{"negative num_segments", tf.UnsortedSegmentSum, f32, ids, -2, dialect.ErrInput, "Input num_segments == -2 must not be negative."},
		{"bool data", tf.UnsortedSegmentSum, tensortest.Of(shape{3}, true, false, true), ids, 3, engine.ErrType, "data of type bool is not supported"},
		{"string data", tf.UnsortedSegmentMax, tensortest.Str(shape{3}, "a", "b", "c"), ids, 3, engine.ErrType, "data of type string"},
		{"complex max", tf.UnsortedSegmentMax, tensortest.FromInts(tensor.Complex64, shape{3}, 1, 2, 3), ids, 3, engine.ErrType, "complex64"},
		{"complex mean", tf.UnsortedSegmentMean, tensortest.FromInts(tensor.Complex64, shape{3}, 1, 2, 3), ids, 3, engine.ErrType, "complex64"},
		{"complex sqrt_n", tf.UnsortedSegmentSqrtN, tensortest.FromInts(tensor.Complex128, shape{3}, 1, 2, 3), ids, 3, engine.ErrType, "complex128"},
		{"float ids", tf.UnsortedSegmentSum, f32, tensortest.F32(shape{3}, 0, 1, 2), 3, engine.ErrType, "segment_ids must be int32 or int64"},
		{"missing ids", tf.UnsortedSegmentSum, f32, tensor.Tensor{}, 3, dialect.ErrInput, "missing input \"segment_ids\""},
		{"too many segments", tf.UnsortedSegmentSum, f32, ids, math.MaxInt, engine.ErrShape, "more elements than an int can count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.f(tc.data, tc.ids, tc.n)
			if !errors.Is(err, tc.class) || !strings.Contains(err.Error(), tc.text) || !strings.HasPrefix(err.Error(), "tf.math.unsorted_segment_") {
				t.Errorf("got %v, want %v with %q", err, tc.class, tc.text)
			}
		})
	}
}

// The Into forms take num_segments from dst, and refuse a dst of another
// shape or type.
func TestUnsortedSegmentInto(t *testing.T) {
	data := counting(tensor.Float32, shape{3, 2})
	ids := tensortest.I64(shape{3}, 2, -1, 2)
	dst := tensortest.F32(shape{3, 2}, 9, 9, 9, 9, 9, 9)
	if err := tf.UnsortedSegmentSumInto(dst, data, ids); err != nil {
		t.Fatal(err)
	}
	check(t, dst, nil, tensortest.F32(shape{3, 2}, 0, 0, 0, 0, 6, 8))
	for _, bad := range []tensor.Tensor{tensortest.FromInts(tensor.Float32, shape{3, 3}, make([]int, 9)...),
		tensortest.FromInts(tensor.Float64, shape{3, 2}, make([]int, 6)...), tensortest.F32(shape{}, 1)} {
		if err := tf.UnsortedSegmentMeanInto(bad, data, ids); err == nil || !strings.HasPrefix(err.Error(), "tf.math.unsorted_segment_mean: ") {
			t.Errorf("dst %v: got %v, want an error", bad, err)
		}
	}
}

// TestUnsortedSegmentIntegerMean checks the integer mean of TensorFlow's
// composite where its types show: the sum and the count N wrap in data's
// type (130 ones of int8 sum to -126, and N, 130, is -126 too, so that
// maximum(N, 1) divides by 1), 8- and 16-bit integers give float32 and
// wider ones float64, uint64 sums past MaxInt64 are read unsigned, an
// empty segment is 0, a negative id is dropped from the sum and the
// count; and the Into form takes a dst of the output's type only.
func TestUnsortedSegmentIntegerMean(t *testing.T) {
	ones := make([]int, 130)
	onesIDs := make([]int64, 130)
	for i := range ones {
		ones[i] = 1
	}
	big := uint64(1) << 63
	u64 := tensor.Must(tensor.From(shape{3}, []uint64{big, big / 2, 7}))
	for _, c := range []struct {
		name      string
		data, ids tensor.Tensor
		n         int
		want      tensor.Tensor
	}{
		{"int8 wraps", tensortest.FromInts(tensor.Int8, shape{130}, ones...), tensortest.I64(shape{130}, onesIDs...), 2,
			tensortest.F32(shape{2}, -126, 0)},
		{"int16 to float32", tensortest.FromInts(tensor.Int16, shape{3}, 1, 2, 4), tensortest.I64(shape{3}, 1, 1, 1), 2,
			tensortest.F32(shape{2}, 0, float32(7)/3)},
		{"uint8, a dropped id", tensortest.FromInts(tensor.Uint8, shape{3}, 200, 100, 9), tensortest.I64(shape{3}, 0, 0, -1), 1,
			tensortest.F32(shape{1}, 22)}, // 300 wraps to 44 in uint8; N is 2
		{"uint64 past MaxInt64", u64, tensortest.I64(shape{3}, 0, 0, 1), 2,
			tensortest.F64(shape{2}, float64(big+big/2)/2, 7)},
		{"int32 rows", tensortest.FromInts(tensor.Int32, shape{3, 2}, 1, 2, 4, 7, 5, 5), tensortest.I64(shape{3}, 0, 0, 2), 3,
			tensortest.F64(shape{3, 2}, 2.5, 4.5, 0, 0, 5, 5)},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := tf.UnsortedSegmentMean(c.data, c.ids, c.n)
			check(t, got, err, c.want)
			dst := tensor.Must(tensor.New(c.want.DType(), c.want.Shape()))
			check(t, dst, tf.UnsortedSegmentMeanInto(dst, c.data, c.ids), c.want)
			wrong := tensor.Must(tensor.New(c.data.DType(), c.want.Shape()))
			if err := tf.UnsortedSegmentMeanInto(wrong, c.data, c.ids); !errors.Is(err, engine.ErrType) {
				t.Errorf("dst of data's type %v: error %v, want one matching engine.ErrType", c.data.DType(), err)
			}
		})
	}
}
