package tf_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// i32s returns a 1-D int32 tensor of v.
func i32s(v ...int32) tensor.Tensor { return tensortest.I32(shape{len(v)}, v...) }

// TestBincountValues transcribes tensorflow/python/kernel_tests/math_ops/
// bincount_op_test.py: BincountTest.test_empty, test_values,
// test_maxlength, test_zero_weights, and BincountOpTest.
// test_col_reduce_basic (gen_math_ops.dense_bincount of a 2-D input, which
// tf.math.bincount runs with axis=-1), and the docstring's examples of
// tensorflow/python/ops/bincount_ops.py.
func TestBincountValues(t *testing.T) {
	arr15 := []int32{1, 1, 2, 1, 2, 3, 1, 2, 3, 4, 1, 2, 3, 4, 5}
	arange := func(n int) tensor.Tensor {
		v := make([]int32, n)
		for i := range v {
			v[i] = int32(i)
		}
		return i32s(v...)
	}
	filled := func(d tensor.DType, n int, x float64) tensor.Tensor {
		out := tensor.Must(tensor.New(d, shape{n}))
		for i := range n {
			if d.IsInteger() {
				out.SetIntAt(i, int64(x))
			} else {
				out.SetFloatAt(i, x)
			}
		}
		return out
	}
	tests := []struct {
		name string
		arr  tensor.Tensor
		opts tf.BincountOptions
		want tensor.Tensor
	}{
		// test_empty
		{"empty minlength 5", i32s(), tf.BincountOptions{MinLength: 5}, i32s(0, 0, 0, 0, 0)},
		{"empty minlength 1", i32s(), tf.BincountOptions{MinLength: 1}, i32s(0)},
		{"empty minlength 0", i32s(), tf.BincountOptions{}, i32s()},
		{"empty float32", i32s(), tf.BincountOptions{DType: tensor.Float32}, tensortest.F32(shape{0})},
		{"empty minlength 3 float64", i32s(), tf.BincountOptions{MinLength: 3, DType: tensor.Float64}, tensortest.F64(shape{3}, 0, 0, 0)},
		{"empty binary", i32s(), tf.BincountOptions{MinLength: 5, BinaryOutput: true}, i32s(0, 0, 0, 0, 0)},
		// test_values
		{"values", i32s(1, 1, 1, 2, 2, 3), tf.BincountOptions{}, i32s(0, 3, 2, 1)},
		{"values 15", i32s(arr15...), tf.BincountOptions{}, i32s(0, 5, 4, 3, 2, 1)},
		{"values with zeros", i32s(append(arr15, 0, 0, 0, 0, 0, 0)...), tf.BincountOptions{}, i32s(6, 5, 4, 3, 2, 1)},
		{"zeros", i32s(0, 0, 0), tf.BincountOptions{}, i32s(3)},
		{"five", i32s(5), tf.BincountOptions{}, i32s(0, 0, 0, 0, 0, 1)},
		{"arange", arange(10000), tf.BincountOptions{}, filled(tensor.Int32, 10000, 1)},
		// test_maxlength
		{"maxlength skips", i32s(5), tf.BincountOptions{MaxLength: 3, HasMaxLength: true}, i32s(0, 0, 0)},
		{"maxlength caps", i32s(1), tf.BincountOptions{MaxLength: 3, HasMaxLength: true}, i32s(0, 1)},
		{"maxlength empty", i32s(), tf.BincountOptions{MaxLength: 3, HasMaxLength: true}, i32s()},
		// test_zero_weights
		{"zero weights", arange(1000), tf.BincountOptions{Weights: filled(tensor.Float64, 1000, 0)}, filled(tensor.Float64, 1000, 0)},
		// test_col_reduce_basic, with dtype float32 as the test's expected
		// values are written.
		{"rows", tensortest.I32(shape{2, 3}, 1, 2, 3, 0, 3, 2), tf.BincountOptions{Axis: -1, MinLength: 4, DType: tensor.Float32},
			tensortest.F32(shape{2, 4}, 0, 1, 1, 1, 1, 0, 1, 1)},
		// bincount_ops.py's docstring.
		{"doc", i32s(1, 1, 2, 3, 2, 4, 4, 5), tf.BincountOptions{}, i32s(0, 2, 2, 1, 2, 1)},
		{"doc weights", i32s(1, 1, 2, 3, 2, 4, 4, 5), tf.BincountOptions{Weights: i32s(1, 5, 0, 1, 0, 5, 4, 5)}, i32s(0, 6, 0, 1, 9, 5)},
		{"doc axis -1", tensortest.I32(shape{2, 4}, 1, 2, 3, 0, 0, 0, 1, 2), tf.BincountOptions{Axis: -1},
			tensortest.I32(shape{2, 4}, 1, 1, 1, 1, 2, 1, 1, 0)},
		{"doc binary", tensortest.I32(shape{2, 4}, 1, 2, 3, 0, 0, 0, 1, 2), tf.BincountOptions{Axis: -1, BinaryOutput: true},
			tensortest.I32(shape{2, 4}, 1, 1, 1, 1, 1, 1, 1, 0)},
		// Corners of this library's choosing.
		{"2-D flattened", tensortest.I64(shape{2, 2}, 3, 0, 3, 1), tf.BincountOptions{DType: tensor.Int64}, tensortest.I64(shape{4}, 1, 1, 0, 2)},
		// bincount_ops.py reshapes arr and weights to [-1] for axis 0:
		// only their sizes must agree.
		{"weights flattened too", tensortest.I64(shape{2, 2}, 3, 0, 3, 1), tf.BincountOptions{Weights: tensortest.F64(shape{4}, 1, 2, 4, 8)},
			tensortest.F64(shape{4}, 2, 8, 0, 5)},
		{"scalar arr", tensortest.I64(shape{}, 2), tf.BincountOptions{}, i32s(0, 0, 1)},
		{"axis -1 of 1-D", i32s(2, 0), tf.BincountOptions{Axis: -1}, i32s(1, 0, 1)},
		{"maxlength 0", i32s(2, 0), tf.BincountOptions{HasMaxLength: true}, i32s()},
		{"negative minlength is none", i32s(1), tf.BincountOptions{MinLength: -4}, i32s(0, 1)},
		{"empty weights count in their type", i32s(1, 1), tf.BincountOptions{Weights: tensortest.F64(shape{0})}, tensortest.F64(shape{2}, 0, 2)},
		{"weights in order", i32s(0, 0, 0), tf.BincountOptions{Weights: tensortest.F32(shape{3}, 1e8, 1, -1e8)}, tensortest.F32(shape{1}, 0)},
		// family.md 4.4 derives, UNCONFIRMED, that weights past maxlength
		// are an error: that was the unsorted_segment_sum path of
		// TensorFlow before 2.15. From 2.15 every dense call runs
		// DenseBincount (tensorflow/tensorflow#85065 quotes its "weights
		// must be the same shape as arr or a length-0 Tensor"), whose CPU
		// kernel skips a value at or past the size with weights too; we
		// follow 2.15 and later.
		{"weights past maxlength skipped", i32s(0, 4, 1), tf.BincountOptions{MaxLength: 2, HasMaxLength: true,
			Weights: tensortest.F32(shape{3}, 0.5, 8, 2)}, tensortest.F32(shape{2}, 0.5, 2)},
		{"rows weights skip", tensortest.I64(shape{2, 2}, 0, 5, 1, 1), tf.BincountOptions{Axis: -1, MaxLength: 2, HasMaxLength: true,
			Weights: tensortest.F64(shape{2, 2}, 0.5, 9, 0.25, 0.5)}, tensortest.F64(shape{2, 2}, 0.5, 0, 0, 0.75)},
	}
	for _, tt := range tests {
		got, err := tf.Bincount(tt.arr, tt.opts)
		if err != nil || !tensor.Equal(got, tt.want) {
			t.Errorf("%s: got %v, %v; want %v", tt.name, got, err, tt.want)
			continue
		}
		d, s, err := tf.BincountShape(tt.arr, tt.opts)
		if err != nil || d != tt.want.DType() || !s.Equal(tt.want.Shape()) {
			t.Errorf("%s: BincountShape = %v %v, %v", tt.name, d, s, err)
		}
		dst := tensortest.Junk(d, s)
		if err := tf.BincountInto(dst, tt.arr, tt.opts); err != nil || !tensor.Equal(dst, tt.want) {
			t.Errorf("%s: Into: got %v, %v; want %v", tt.name, dst, err, tt.want)
		}
	}
}

// TestBincountRandom transcribes test_random_with_weights,
// test_random_without_weights, test_bincount_all_count(_with_weights),
// test_bincount_all_binary and _test_bincount_col_count(_with_weights,
// _binary) of bincount_op_test.py, with np.bincount written as a plain
// loop: 10000 values in [0, 1000) with and without int64 or float64
// weights, and 128 rows of 27 values counted by row.
func TestBincountRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 42))
	for _, it := range []tensor.DType{tensor.Int32, tensor.Int64} {
		arr := tensor.Must(tensor.New(it, shape{10000}))
		for i := range arr.Len() {
			arr.SetIntAt(i, int64(rng.IntN(1000)))
		}
		wInt := tensor.Must(tensor.New(tensor.Int64, shape{10000}))
		wFloat := tensor.Must(tensor.New(tensor.Float64, shape{10000}))
		for i := range 10000 {
			wInt.SetIntAt(i, int64(rng.IntN(200)-100))
			wFloat.SetFloatAt(i, rng.Float64())
		}
		for _, w := range []tensor.Tensor{{}, wInt, wFloat} {
			got, err := tf.Bincount(arr, tf.BincountOptions{Weights: w})
			if want := loopBincount(arr, w, 1, false); err != nil || !tensor.Equal(got, want) {
				t.Errorf("%v weights %v: got %v, %v; want %v", it, w.DType(), got, err, want)
			}
		}
		got, err := tf.Bincount(arr, tf.BincountOptions{BinaryOutput: true})
		if want := loopBincount(arr, tensor.Tensor{}, 1, true); err != nil || !tensor.Equal(got, want) {
			t.Errorf("%v binary: got %v, %v", it, got, err)
		}

		rows := tensor.Must(tensor.New(it, shape{128, 27}))
		for i := range rows.Len() {
			rows.SetIntAt(i, int64(rng.IntN(100)))
		}
		rw := tensor.Must(tensor.New(tensor.Float64, shape{128, 27}))
		for i := range rw.Len() {
			rw.SetFloatAt(i, rng.Float64())
		}
		for _, c := range []struct {
			w      tensor.Tensor
			binary bool
		}{{tensor.Tensor{}, false}, {rw, false}, {tensor.Tensor{}, true}} {
			got, err := tf.Bincount(rows, tf.BincountOptions{Axis: -1, Weights: c.w, BinaryOutput: c.binary, MinLength: 100})
			if want := loopBincount(rows, c.w, 128, c.binary); err != nil || !tensor.Equal(got, want) {
				t.Errorf("%v rows weights %v binary %v: got %v, %v; want %v", it, c.w.DType(), c.binary, got, err, want)
			}
		}
	}
}

// loopBincount is np.bincount by rows (rows 1 for a flat arr), into
// int32 bins without weights and bins of the weights' type with them, as
// many as the largest value needs (at least 100 for rows): a plain loop
// over arr in order.
func loopBincount(arr, w tensor.Tensor, rows int, binary bool) tensor.Tensor {
	n := arr.Len() / rows
	size := 0
	for i := range arr.Len() {
		v, _ := arr.IntAt(i)
		size = max(size, int(v)+1)
	}
	if rows > 1 {
		size = max(size, 100)
	}
	d := tensor.Int32
	if !w.IsZero() {
		d = w.DType()
	}
	s := shape{size}
	if rows > 1 {
		s = shape{rows, size}
	}
	out := tensor.Must(tensor.New(d, s))
	for r := range rows {
		for j := range n {
			v, _ := arr.IntAt(r*n + j)
			at := r*size + int(v)
			switch {
			case binary:
				out.SetIntAt(at, 1)
			case w.IsZero():
				c, _ := out.IntAt(at)
				out.SetIntAt(at, c+1)
			case d.IsInteger():
				c, _ := out.IntAt(at)
				x, _ := w.IntAt(r*n + j)
				out.SetIntAt(at, c+x)
			default:
				c, _ := out.FloatAt(at)
				x, _ := w.FloatAt(r*n + j)
				out.SetFloatAt(at, c+x)
			}
		}
	}
	return out
}

// TestBincountRefusals: test_negative and test_invalid_rank of
// bincount_op_test.py, and what the Python layer refuses: weights with
// binary_output, an axis other than 0 and -1; then types, shapes, sizes.
func TestBincountRefusals(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 20))
	tests := []struct {
		name     string
		arr      tensor.Tensor
		opts     tf.BincountOptions
		sentinel error
		msg      string
	}{
		{"test_negative", i32s(1, 2, 3, -1, 6, 8), tf.BincountOptions{}, engine.ErrIndex,
			"tf.math.bincount: Input arr must be non-negative! arr[3] = -1"},
		{"test_negative rows", tensortest.I32(shape{2, 3}, 1, 1, 3, 0, -1, 2), tf.BincountOptions{Axis: -1, MinLength: 4}, engine.ErrIndex,
			"tf.math.bincount: Input arr must be non-negative! arr[1,1] = -1"},
		{"test_invalid_rank", tensortest.I32(shape{1, 2, 3}, 1, 2, 3, 0, 3, 2), tf.BincountOptions{Axis: -1, MinLength: 10}, engine.ErrShape,
			"tf.math.bincount: shape mismatch: Shape must be at most rank 2 but is rank 3 (arr [1,2,3], axis -1)"},
		{"weights and binary_output", i32s(1), tf.BincountOptions{Weights: tensortest.F32(shape{1}, 1), BinaryOutput: true}, engine.ErrArgument,
			"tf.math.bincount: invalid argument: arguments binary_output and weights are mutually exclusive; give only one"},
		{"axis 1", i32s(1), tf.BincountOptions{Axis: 1}, dialect.ErrAttribute,
			"tf.math.bincount: invalid attribute: unsupported value for argument axis=1; only 0 and -1 are supported"},
		{"negative maxlength", i32s(1), tf.BincountOptions{MaxLength: -1, HasMaxLength: true}, dialect.ErrAttribute,
			"tf.math.bincount: invalid attribute: size (-1) must be non-negative: maxlength is -1"},
		{"weights of another size", i32s(1, 2), tf.BincountOptions{Weights: tensortest.F32(shape{1}, 1)}, engine.ErrShape,
			"tf.math.bincount: shape mismatch: Input indices and weights must have the same size: arr [2], weights [1]"},
		{"rows of weights of another shape", tensortest.I32(shape{2, 2}, 1, 2, 0, 0), tf.BincountOptions{Axis: -1,
			Weights: tensortest.F32(shape{4}, 1, 2, 3, 4)}, engine.ErrShape,
			"tf.math.bincount: shape mismatch: weights must have the shape of arr [2,2] or no elements, got [4]"},
		{"float arr", tensortest.F32(shape{1}, 1), tf.BincountOptions{}, dialect.ErrInput, ""},
		{"int16 arr", tensortest.Of(shape{1}, int16(1)), tf.BincountOptions{}, dialect.ErrInput, ""},
		{"bool weights", i32s(1), tf.BincountOptions{Weights: tensortest.Of(shape{1}, true)}, engine.ErrType, ""},
		{"int8 dtype", i32s(1), tf.BincountOptions{DType: tensor.Int8}, engine.ErrType, ""},
		{"2^40 bins", tensortest.I64(shape{1}, 1<<40), tf.BincountOptions{}, tensor.ErrTooLarge, ""},
		{"minlength MaxInt", i32s(1), tf.BincountOptions{MinLength: math.MaxInt}, tensor.ErrTooLarge, ""},
		{"largest int64", tensortest.I64(shape{2}, 0, math.MaxInt64), tf.BincountOptions{}, engine.ErrIndex,
			"tf.math.bincount: arr[1] = 9223372036854775807: max(arr)+1 bins overflow int64"},
	}
	for _, tt := range tests {
		_, err := tf.Bincount(tt.arr, tt.opts)
		var oe *dialect.OpError
		if !errors.Is(err, tt.sentinel) || !errors.As(err, &oe) || tt.msg != "" && err.Error() != tt.msg {
			t.Errorf("%s: got %v\nwant %v %s", tt.name, err, tt.sentinel, tt.msg)
		}
		dst := tensortest.Junk(tensor.Int32, shape{4})
		if err := tf.BincountInto(dst, tt.arr, tt.opts); !errors.Is(err, tt.sentinel) && !errors.Is(err, engine.ErrShape) {
			t.Errorf("%s: Into: %v", tt.name, err)
		}
	}
	var ie *engine.IndexError
	_, err := tf.Bincount(tensortest.I64(shape{2, 2}, 0, 1, -7, 2), tf.BincountOptions{})
	if !errors.As(err, &ie) || ie.Value != -7 || len(ie.Pos) != 2 || ie.Pos[0] != 1 || ie.Pos[1] != 0 {
		t.Errorf("IndexError of a negative value: %+v (%v)", ie, err)
	}
	// A dst of the wrong shape or type.
	for _, dst := range []tensor.Tensor{tensortest.Junk(tensor.Int32, shape{3}), tensortest.Junk(tensor.Int64, shape{4})} {
		if err := tf.BincountInto(dst, i32s(3), tf.BincountOptions{}); err == nil {
			t.Errorf("dst %v: no error", dst)
		}
	}
}

// TestBincountRun: the operator through the table, with its attributes.
func TestBincountRun(t *testing.T) {
	op := lookup("tf.math.bincount")
	out, err := op.Run(dialect.Call{
		Inputs: map[string]tensor.Tensor{"arr": tensortest.I64(shape{2, 3}, 0, 4, 2, 1, 1, 9)},
		Attrs: map[string]dialect.Value{"maxlength": {Kind: dialect.Int, Int: 3}, "dtype": {Kind: dialect.String, Str: "float64"},
			"axis": {Kind: dialect.Int, Int: -1}},
	})
	if want := tensortest.F64(shape{2, 3}, 1, 0, 1, 0, 2, 0); err != nil || !tensor.Equal(out, want) {
		t.Errorf("got %v, %v; want %v", out, err, want)
	}
	_, err = op.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"arr": i32s(1)},
		Attrs: map[string]dialect.Value{"dtype": {Kind: dialect.String, Str: "int3"}}})
	if !errors.Is(err, dialect.ErrAttribute) {
		t.Errorf("dtype int3: %v", err)
	}
}
