package tf_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// segmentFuncs are the sorted segment reductions by name, allocating and
// Into.
var segmentFuncs = map[string]struct {
	call func(data, ids tensor.Tensor) (tensor.Tensor, error)
	into func(dst, data, ids tensor.Tensor) error
}{
	"segment_sum":  {tf.SegmentSum, tf.SegmentSumInto},
	"segment_prod": {tf.SegmentProd, tf.SegmentProdInto},
	"segment_min":  {tf.SegmentMin, tf.SegmentMinInto},
	"segment_max":  {tf.SegmentMax, tf.SegmentMaxInto},
	"segment_mean": {tf.SegmentMean, tf.SegmentMeanInto},
}

// arange returns 1, 2, ... in a tensor of the given shape, as the
// _input helper of segment_reduction_ops_test.py makes its data.
func arange(d tensor.DType, s tensor.Shape) tensor.Tensor {
	v := make([]int, tensortest.Count(s))
	for i := range v {
		v[i] = i + 1
	}
	return tensortest.FromInts(d, s, v...)
}

// Transcribed from tensorflow/python/kernel_tests/math_ops/
// segment_reduction_ops_test.py, SegmentReductionOpTest: testValues (shape
// [10, 2], indices i // 3, the expected values worked out from its numpy
// loop), testSegmentIdsValid, testSegmentIdsGreaterThanZero,
// testSegmentIdsHole and testSegmentIdsHoleEmptyValue.
func TestSegmentReductionValues(t *testing.T) {
	ids10 := tensortest.I64(shape{10}, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3)
	x10 := arange(tensor.Int32, shape{10, 2})
	x4 := arange(tensor.Float32, shape{4, 4})
	tests := []struct {
		name, op  string
		data, ids tensor.Tensor
		want      tensor.Tensor
	}{
		{"testValues sum", "segment_sum", x10, ids10, tensortest.FromInts(tensor.Int32, shape{4, 2}, 9, 12, 27, 30, 45, 48, 19, 20)},
		{"testValues mean", "segment_mean", x10, ids10, tensortest.FromInts(tensor.Int32, shape{4, 2}, 3, 4, 9, 10, 15, 16, 19, 20)},
		{"testValues prod", "segment_prod", x10, ids10, tensortest.FromInts(tensor.Int32, shape{4, 2}, 15, 48, 693, 960, 3315, 4032, 19, 20)},
		{"testValues min", "segment_min", x10, ids10, tensortest.FromInts(tensor.Int32, shape{4, 2}, 1, 2, 7, 8, 13, 14, 19, 20)},
		{"testValues max", "segment_max", x10, ids10, tensortest.FromInts(tensor.Int32, shape{4, 2}, 5, 6, 11, 12, 17, 18, 19, 20)},
		{"testSegmentIdsValid", "segment_sum", x4, tensortest.I64(shape{4}, 0, 0, 0, 1),
			tensortest.FromInts(tensor.Float32, shape{2, 4}, 15, 18, 21, 24, 13, 14, 15, 16)},
		{"testSegmentIdsGreaterThanZero", "segment_sum", x4, tensortest.I64(shape{4}, 1, 1, 2, 2),
			tensortest.FromInts(tensor.Float32, shape{3, 4}, 0, 0, 0, 0, 6, 8, 10, 12, 22, 24, 26, 28)},
		{"testSegmentIdsHole", "segment_sum", x4, tensortest.I64(shape{4}, 0, 0, 3, 3),
			tensortest.FromInts(tensor.Float32, shape{4, 4}, 6, 8, 10, 12, 0, 0, 0, 0, 0, 0, 0, 0, 22, 24, 26, 28)},
		{"testSegmentIdsHoleEmptyValue", "segment_max", x4, tensortest.I64(shape{4}, 0, 0, 3, 3),
			tensortest.FromInts(tensor.Float32, shape{4, 4}, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 0, 13, 14, 15, 16)},
		// An empty segment of a product holds 1 (the CPU kernel's
		// registered default, segment_reduction_ops_impl_1.cc).
		{"prod hole", "segment_prod", x4, tensortest.I64(shape{4}, 0, 0, 2, 2),
			tensortest.FromInts(tensor.Float32, shape{3, 4}, 5, 12, 21, 32, 1, 1, 1, 1, 117, 140, 165, 192)},
		// Our choice, from Eigen's MeanReducer (C++'s /): an integer mean
		// rounds toward zero; -7 / 2 is -3.
		{"integer mean toward zero", "segment_mean", tensortest.FromInts(tensor.Int64, shape{3}, -3, -4, 7), tensortest.I64(shape{3}, 0, 0, 1),
			tensortest.FromInts(tensor.Int64, shape{2}, -3, 7)},
		// segment_reduction_ops_impl.h copies a segment of one row and
		// reduces a longer one with an Eigen reducer, which starts from
		// its own value: MaxReducer's lowest() (the lowest finite value;
		// tf.reduce_max of nothing is -3.4028235e+38) and SumReducer's 0.
		{"max of -Infs", "segment_max", floats(tensor.Float32, shape{3}, math.Inf(-1), math.Inf(-1), math.Inf(-1)),
			tensortest.I64(shape{3}, 0, 0, 1), floats(tensor.Float32, shape{2}, -math.MaxFloat32, math.Inf(-1))},
		{"min of +Infs", "segment_min", floats(tensor.Float64, shape{2}, math.Inf(1), math.Inf(1)),
			tensortest.I64(shape{2}, 0, 0), floats(tensor.Float64, shape{1}, math.MaxFloat64)},
		{"sum of -0s", "segment_sum", floats(tensor.Float32, shape{3}, math.Copysign(0, -1), math.Copysign(0, -1), math.Copysign(0, -1)),
			tensortest.I64(shape{3}, 0, 0, 1), floats(tensor.Float32, shape{2}, 0, math.Copysign(0, -1))},
		{"no rows", "segment_sum", tensor.Must(tensor.New(tensor.Float32, shape{0, 3})), tensortest.I64(shape{0}),
			tensor.Must(tensor.New(tensor.Float32, shape{0, 3}))},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			bothIndexTypes(t, c.ids, func(t *testing.T, ids tensor.Tensor) {
				f := segmentFuncs[c.op]
				got, err := f.call(c.data, ids)
				check(t, got, err, c.want)
				dst := tensortest.FromInts(c.want.DType(), c.want.Shape(), make([]int, c.want.Len())...)
				if err := f.into(dst, c.data, ids); err != nil {
					t.Fatal(err)
				}
				check(t, dst, nil, c.want)
				op := dialect.Find(tf.Ops(), "tf.math."+c.op)
				got, err = op.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"data": c.data, "segment_ids": ids}})
				check(t, got, err, c.want)
			})
		})
	}
}

// segment_reduction_ops_test.py, testNaNPropagation: a NaN anywhere in a
// segment makes its minimum and maximum NaN, column by column.
func TestSegmentReductionNaN(t *testing.T) {
	nan := math.NaN()
	ids := tensortest.I64(shape{3}, 0, 0, 0)
	for _, d := range []tensor.DType{tensor.Float16, tensor.BFloat16, tensor.Float32, tensor.Float64} {
		data := floats(d, shape{3, 2}, 1, 2, nan, 3, 3, 1)
		for _, c := range []struct {
			f     func(data, ids tensor.Tensor) (tensor.Tensor, error)
			other float64
		}{{tf.SegmentMin, 1}, {tf.SegmentMax, 3}} {
			got, err := c.f(data, ids)
			if err != nil {
				t.Fatal(err)
			}
			if v, _ := got.FloatAt(0); !math.IsNaN(v) {
				t.Errorf("%v: got %v, want NaN in column 0", d, got)
			}
			if v, _ := got.FloatAt(1); v != c.other {
				t.Errorf("%v: got %v, want %v in column 1", d, got, c.other)
			}
		}
	}
}

// The refusals of segment_reduction_ops_test.py (testSegmentIdsShape,
// testSegmentIdsSize, testSegmentIdsInvalid1..5, testDataInvalid,
// testInvalidIds), in TensorFlow's words, and ours: each names the
// operator and the first position at fault, and leaves dst as it was.
// overflowClass and overflowWords are the error of an output whose shape
// overflows: its elements' count where an int is 64 bits, its first
// dimension already where an int is 32 bits (a size too large for int).
var overflowClass, overflowWords = func() (error, []string) {
	if strconv.IntSize == 32 {
		return tensor.ErrTooLarge, []string{"more output slices than an int holds"}
	}
	return tensor.ErrShape, []string{"overflows"}
}()

func TestSegmentReductionRefusals(t *testing.T) {
	x4 := arange(tensor.Int32, shape{4, 4})
	tests := []struct {
		name      string
		data, ids tensor.Tensor
		class     error
		words     []string
	}{
		{"testSegmentIdsShape", x4, tensortest.I64(shape{2, 2}, 0, 1, 2, 2), engine.ErrShape, []string{"segment_ids should be a vector"}},
		{"testSegmentIdsSize", x4, tensortest.I64(shape{2}, 0, 1), engine.ErrShape, []string{"segment_ids should be the same size"}},
		{"testSegmentIdsInvalid1", x4, tensortest.I64(shape{4}, -1, -1, 0, 0), engine.ErrIndex,
			[]string{"Segment id -1 out of range [0, 1), possibly because 'segment_ids' input is not sorted.", "segment_ids[0] = -1"}},
		{"testSegmentIdsInvalid2", x4, tensortest.I64(shape{4}, 0, 1, 0, 1), engine.ErrIndex,
			[]string{"segment ids are not increasing", "segment_ids[2] = 0 follows segment_ids[1] = 1"}},
		{"testSegmentIdsInvalid3", x4, tensortest.I64(shape{4}, 0, 1, 2, 0), engine.ErrIndex,
			[]string{"Segment id 1 out of range [0, 1), possibly because 'segment_ids' input is not sorted.", "segment_ids[1] = 1"}},
		{"testSegmentIdsInvalid4", x4, tensortest.I64(shape{4}, 0, 0, 0, -1), engine.ErrIndex,
			[]string{"segment ids must be >= 0", "segment_ids[3] = -1"}},
		{"testSegmentIdsInvalid5", x4, tensortest.I64(shape{4}, 0, 0, 0, -2), engine.ErrIndex,
			[]string{"segment ids must be >= 0", "segment_ids[3] = -2"}},
		{"testDataInvalid", tensortest.FromInts(tensor.Uint16, shape{}, 10), tensortest.I64(shape{0}), engine.ErrShape,
			[]string{"must be at least rank 1"}},
		{"testInvalidIds", tensortest.FromInts(tensor.Float64, shape{1, 10, 1}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
			tensortest.I64(shape{1}, 1676240524292489355), overflowClass, overflowWords},
		{"an output over the size limit", tensortest.FromInts(tensor.Float64, shape{1, 10, 1}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
			tensortest.I64(shape{1}, 1<<40), tensor.ErrTooLarge, nil},
		{"string data", tensortest.Str(shape{1}, "a"), tensortest.I64(shape{1}, 0), engine.ErrType, []string{"not supported"}},
		{"float ids", x4, floats(tensor.Float32, shape{4}, 0, 0, 0, 0), engine.ErrType, []string{"segment_ids"}},
	}
	for _, c := range tests {
		for name, f := range segmentFuncs {
			_, err := f.call(c.data, c.ids)
			var oe *dialect.OpError
			if !errors.Is(err, c.class) || !errors.As(err, &oe) || oe.Op != "tf.math."+name {
				t.Errorf("%s %s: got %v, want a %v error naming the operator", c.name, name, err, c.class)
				continue
			}
			for _, w := range c.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s %s: %q does not say %q", c.name, name, err, w)
				}
			}
		}
	}
	// A failed Into call leaves dst as it was.
	dst := tensortest.FromInts(tensor.Int32, shape{2, 4}, 9, 9, 9, 9, 9, 9, 9, 9)
	if err := tf.SegmentSumInto(dst, x4, tensortest.I64(shape{4}, 0, 1, 0, 1)); !errors.Is(err, engine.ErrIndex) {
		t.Fatalf("got %v, want an index error", err)
	}
	if want := tensortest.FromInts(tensor.Int32, shape{2, 4}, 9, 9, 9, 9, 9, 9, 9, 9); !tensor.Equal(dst, want) {
		t.Errorf("a failed call wrote dst: %v", dst)
	}
	// A dst of another type (even a wider one the engine could fill) or
	// shape is refused.
	for _, dst := range []tensor.Tensor{tensor.Must(tensor.New(tensor.Int64, shape{2, 4})), tensor.Must(tensor.New(tensor.Int32, shape{3, 4}))} {
		if err := tf.SegmentSumInto(dst, x4, tensortest.I64(shape{4}, 0, 0, 1, 1)); err == nil {
			t.Errorf("dst %v%v accepted", dst.DType(), dst.Shape())
		}
	}
}

// floats returns a tensor of type d and shape s holding vals, each
// rounded once to d.
func floats(d tensor.DType, s tensor.Shape, vals ...float64) tensor.Tensor {
	x := tensor.Must(tensor.New(d, s))
	for i, v := range vals {
		x.SetFloatAt(i, v)
	}
	return x
}
