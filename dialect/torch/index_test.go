package torch_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/torch"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// The index operators' documented examples and the tests transcribed from
// PyTorch (test/test_indexing.py), each run out of place and in place
// where the operator has an in-place form.

func f32s(shape tensor.Shape, v ...float32) tensor.Tensor { return tensortest.F32(shape, v...) }
func i64s(v ...int64) tensor.Tensor                       { return tensortest.I64(tensor.Shape{len(v)}, v...) }

// ones returns a float32 tensor of the given shape filled with v.
func full32(shape tensor.Shape, v float32) tensor.Tensor {
	t := tensor.Must(tensor.New(tensor.Float32, shape))
	for i := range t.Len() {
		t.SetFloatAt(i, float64(v))
	}
	return t
}

// inPlace runs f into a copy of input as its own dst, and out of place
// into a fresh dst, and checks both against want.
func inPlace(t *testing.T, name string, input tensor.Tensor, f func(dst, input tensor.Tensor) error, want tensor.Tensor) {
	t.Helper()
	x := input.Clone()
	err := f(x, x)
	same(t, name+" in place", x, err, want)
	dst := tensor.Must(tensor.New(input.DType(), input.Shape()))
	err = f(dst, input)
	same(t, name+" into dst", dst, err, want)
}

func TestIndexDocExamples(t *testing.T) {
	t33 := f32s(tensor.Shape{3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	t43 := f32s(tensor.Shape{4, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
	// torch.Tensor.index_add_ docstring: x = torch.ones(5, 3), index
	// [0, 4, 2] along dim 0.
	inPlace(t, "index_add", full32(tensor.Shape{5, 3}, 1), func(dst, in tensor.Tensor) error {
		return torch.IndexAddInto(dst, in, 0, i64s(0, 4, 2), t33, torch.Int(1))
	}, f32s(tensor.Shape{5, 3}, 2, 3, 4, 1, 1, 1, 8, 9, 10, 1, 1, 1, 5, 6, 7))
	// torch.Tensor.index_copy_ docstring: x = torch.zeros(5, 3).
	inPlace(t, "index_copy", full32(tensor.Shape{5, 3}, 0), func(dst, in tensor.Tensor) error {
		return torch.IndexCopyInto(dst, in, 0, i64s(0, 4, 2), t33)
	}, f32s(tensor.Shape{5, 3}, 1, 2, 3, 0, 0, 0, 7, 8, 9, 0, 0, 0, 4, 5, 6))
	// torch.Tensor.index_fill_ docstring: columns 0 and 2 set to -1.
	inPlace(t, "index_fill", t33, func(dst, in tensor.Tensor) error {
		return torch.IndexFillInto(dst, in, 1, i64s(0, 2), torch.Int(-1))
	}, f32s(tensor.Shape{3, 3}, -1, 2, -1, -1, 5, -1, -1, 8, -1))
	// torch.Tensor.index_reduce_ docstring: x = torch.empty(5, 3).fill_(2),
	// index [0, 4, 2, 0], prod with and without self.
	inPlace(t, "index_reduce prod", full32(tensor.Shape{5, 3}, 2), func(dst, in tensor.Tensor) error {
		return torch.IndexReduceInto(dst, in, 0, i64s(0, 4, 2, 0), t43, torch.ReduceProd, true)
	}, f32s(tensor.Shape{5, 3}, 20, 44, 72, 2, 2, 2, 14, 16, 18, 2, 2, 2, 8, 10, 12))
	inPlace(t, "index_reduce prod without self", full32(tensor.Shape{5, 3}, 2), func(dst, in tensor.Tensor) error {
		return torch.IndexReduceInto(dst, in, 0, i64s(0, 4, 2, 0), t43, torch.ReduceProd, false)
	}, f32s(tensor.Shape{5, 3}, 10, 22, 36, 2, 2, 2, 7, 8, 9, 2, 2, 2, 4, 5, 6))
	// torch.take docstring.
	src := f32s(tensor.Shape{2, 3}, 4, 3, 5, 6, 7, 8)
	got, err := torch.Take(src, i64s(0, 2, 5))
	same(t, "take", got, err, f32s(tensor.Shape{3}, 4, 5, 8))
	// torch.take_along_dim docstring: t = [[10, 30, 20], [60, 40, 50]];
	// the flat argmax 3, and argsort along dim 1.
	tt := f32s(tensor.Shape{2, 3}, 10, 30, 20, 60, 40, 50)
	got, err = torch.TakeAlongDimFlat(tt, tensortest.I64(tensor.Shape{}, 3))
	same(t, "take_along_dim flat", got, err, f32s(tensor.Shape{1}, 60))
	got, err = torch.TakeAlongDim(tt, tensortest.I64(tensor.Shape{2, 3}, 0, 2, 1, 1, 2, 0), 1)
	same(t, "take_along_dim sorted", got, err, f32s(tensor.Shape{2, 3}, 10, 20, 30, 40, 50, 60))
	// torch.Tensor.put_ docstring.
	inPlace(t, "put", src, func(dst, in tensor.Tensor) error {
		return torch.PutInto(dst, in, i64s(1, 3), f32s(tensor.Shape{2}, 9, 10), false)
	}, f32s(tensor.Shape{2, 3}, 4, 9, 5, 10, 7, 8))
	// torch.Tensor.masked_scatter_ docstring.
	mask := tensortest.Of(tensor.Shape{2, 5}, false, false, false, true, true, true, true, false, true, true)
	source := f32s(tensor.Shape{2, 5}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	inPlace(t, "masked_scatter", full32(tensor.Shape{2, 5}, 0), func(dst, in tensor.Tensor) error {
		return torch.MaskedScatterInto(dst, in, mask, source)
	}, f32s(tensor.Shape{2, 5}, 0, 0, 0, 0, 1, 2, 3, 0, 4, 5))
}

// test/test_indexing.py, test_index_put_accumulate_large_tensor: int8
// accumulation with negative and duplicate indices, on a tensor of N
// elements (2^31+5 there, 8 here: the rule does not depend on N).
func TestIndexPutAccumulateLargeTensor(t *testing.T) {
	const n = 8
	ones := func(shape tensor.Shape) tensor.Tensor {
		x := tensor.Must(tensor.New(tensor.Int8, shape))
		for i := range x.Len() {
			x.SetIntAt(i, 1)
		}
		return x
	}
	a := ones(tensor.Shape{n})
	err := torch.IndexPutInto(a, a, []tensor.Tensor{i64s(-2, 0, -2, -1, 0, -1, 1)},
		tensortest.Of(tensor.Shape{7}, int8(6), 5, 6, 6, 5, 7, 11), true)
	same(t, "1-D", a, err, tensortest.Of(tensor.Shape{n}, int8(11), 12, 1, 1, 1, 1, 13, 14))

	b := ones(tensor.Shape{2, n})
	err = torch.IndexPutInto(b, b, []tensor.Tensor{i64s(0, -1, 0, 1), i64s(-2, -1, 0, 1)},
		tensortest.Of(tensor.Shape{4}, int8(12), 13, 10, 11), true)
	same(t, "2-D", b, err, tensortest.Of(tensor.Shape{2, n},
		int8(11), 1, 1, 1, 1, 1, 13, 1,
		1, 12, 1, 1, 1, 1, 1, 14))
}

// test/test_indexing.py, test_index_put_accumulate_expanded_values: index
// tensors [0], arange(3)[:, None] and arange(2)[None, :] broadcast to
// [3, 2]; values [-1, -2] (and [[-1, -2]]) broadcast to that.
func TestIndexPutAccumulateExpandedValues(t *testing.T) {
	indices := []tensor.Tensor{i64s(0), tensortest.I64(tensor.Shape{3, 1}, 0, 1, 2), tensortest.I64(tensor.Shape{1, 2}, 0, 1)}
	want := full32(tensor.Shape{4, 3, 2}, 0)
	for i := range 3 {
		want.SetFloatAt(i*2, -1)
		want.SetFloatAt(i*2+1, -2)
	}
	for _, values := range []tensor.Tensor{f32s(tensor.Shape{2}, -1, -2), f32s(tensor.Shape{1, 2}, -1, -2)} {
		got, err := torch.IndexPut(full32(tensor.Shape{4, 3, 2}, 0), indices, values, true)
		same(t, "values "+values.Shape().String(), got, err, want)
	}
}

func TestIndexAdd(t *testing.T) {
	x := f32s(tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 6)
	tests := []struct {
		name   string
		dim    int
		index  tensor.Tensor
		source tensor.Tensor
		alpha  torch.Scalar
		want   tensor.Tensor
	}{
		{"dim 1 duplicates", 1, i64s(2, 2, 0), f32s(tensor.Shape{2, 3}, 1, 10, 100, 2, 20, 200), torch.Int(1),
			f32s(tensor.Shape{2, 3}, 101, 2, 14, 204, 5, 28)},
		{"alpha -2 int32 index", 0, tensortest.I32(tensor.Shape{1}, 1), f32s(tensor.Shape{1, 3}, 1, 2, 3), torch.Int(-2),
			f32s(tensor.Shape{2, 3}, 1, 2, 3, 2, 1, 0)},
		{"alpha 0.5", 1, i64s(0), f32s(tensor.Shape{2, 1}, 3, 5), torch.Float(0.5),
			f32s(tensor.Shape{2, 3}, 2.5, 2, 3, 6.5, 5, 6)},
		{"empty index", 0, i64s(), f32s(tensor.Shape{0, 3}), torch.Int(1), x},
	}
	for _, tc := range tests {
		inPlace(t, tc.name, x, func(dst, in tensor.Tensor) error {
			return torch.IndexAddInto(dst, in, tc.dim, tc.index, tc.source, tc.alpha)
		}, tc.want)
	}
	// Integers: alpha is cast as PyTorch casts a Python number (2.7
	// truncates to 2); sums wrap.
	got, err := torch.IndexAdd(tensortest.Of(tensor.Shape{2}, int8(100), 1), 0, i64s(0, 0), tensortest.Of(tensor.Shape{2}, int8(10), 5), torch.Float(2.7))
	same(t, "int8 alpha 2.7", got, err, tensortest.Of(tensor.Shape{2}, int8(-126), 1))
	// bool: self || (alpha && source).
	got, err = torch.IndexAdd(tensortest.Of(tensor.Shape{3}, false, true, false), 0, i64s(0, 2), tensortest.Of(tensor.Shape{2}, true, false), torch.Bool(true))
	same(t, "bool", got, err, tensortest.Of(tensor.Shape{3}, true, true, false))
	// 0-d input and source take one index value.
	got, err = torch.IndexAdd(tensor.Scalar(float32(1)), 0, i64s(0), tensor.Scalar(float32(2)), torch.Int(3))
	same(t, "0-d", got, err, tensor.Scalar(float32(7)))
	// Complex: source is multiplied by alpha even when it is 1, and
	// (1+0i)*(-inf+1i) is (-inf+nani) as c10::complex multiplies: PyTorch
	// 1.13 gives tensor([-inf+nanj]) for this call.
	inf := float32(math.Inf(-1))
	nan := float32(math.NaN())
	got, err = torch.IndexAdd(tensortest.Of(tensor.Shape{1}, complex64(complex(4.5, 1))), 0, i64s(0, 0),
		tensortest.Of(tensor.Shape{2}, complex(inf, 1), complex64(complex(4.5, 1))), torch.Int(1))
	if c := got.Data().([]complex64); err != nil || real(c[0]) != inf || imag(c[0]) == imag(c[0]) {
		t.Errorf("complex alpha 1: got %v, %v, want [(-Inf+NaNi)] (%v)", got, err, complex(inf, nan))
	}
}

// TestIndexAddHalf checks the float16 sums of both of PyTorch's paths:
// along dim 0 with alpha 1, an int64 index and rows of 16 elements or more
// (scatter_add's expanded-index kernel, can_use_expanded_index_path in
// aten/src/ATen/native/cpu/ScatterGatherKernel.cpp) in float32, rounded
// once; otherwise every step rounded.
func TestIndexAddHalf(t *testing.T) {
	// 1024 + 0.5 + 0.5: rounded once, 1025; every step, 1024 (1024.5
	// rounds to even).
	rows := func(width int, v ...float32) tensor.Tensor {
		all := make([]float32, 0, len(v)*width)
		for _, x := range v {
			for range width {
				all = append(all, x)
			}
		}
		return tensor.Must(tensor.FromFloat32s(tensor.Float16, tensor.Shape{len(v), width}, all))
	}
	tests := []struct {
		name  string
		width int
		index tensor.Tensor
		want  float32
	}{
		{"rows of 16", 16, i64s(0, 0), 1025},
		{"rows of 15", 15, i64s(0, 0), 1024},
		{"int32 index", 16, tensortest.I32(tensor.Shape{2}, 0, 0), 1024},
	}
	for _, tc := range tests {
		got, err := torch.IndexAdd(rows(tc.width, 1024), 0, tc.index, rows(tc.width, 0.5, 0.5), torch.Int(1))
		same(t, tc.name, got, err, rows(tc.width, tc.want))
	}
	// Along dim 1 every step rounds.
	got, err := torch.IndexAdd(rows(1, 1024), 1, i64s(0, 0), tensor.Must(tensor.FromFloat32s(tensor.Float16, tensor.Shape{1, 2}, []float32{0.5, 0.5})), torch.Int(1))
	same(t, "dim 1", got, err, rows(1, 1024))
}

func TestIndexReduce(t *testing.T) {
	x := f32s(tensor.Shape{3, 2}, 1, 2, 3, 4, 5, 6)
	src := f32s(tensor.Shape{3, 2}, 2, -1, float32(math.NaN()), 7, 3, 9)
	nan := float32(math.NaN())
	tests := []struct {
		name string
		red  torch.Reduce
		self bool
		want tensor.Tensor
	}{
		// index [2, 0, 2]: row 2 gets src rows 0 and 2, row 0 src row 1.
		{"amax", torch.ReduceAmax, true, f32s(tensor.Shape{3, 2}, nan, 7, 3, 4, 5, 9)},
		{"amin without self", torch.ReduceAmin, false, f32s(tensor.Shape{3, 2}, nan, 7, 3, 4, 2, -1)},
		{"mean", torch.ReduceMean, true, f32s(tensor.Shape{3, 2}, nan, 4.5, 3, 4, 10.0/3, 14.0/3)},
		{"mean without self", torch.ReduceMean, false, f32s(tensor.Shape{3, 2}, nan, 7, 3, 4, 2.5, 4)},
		{"prod", torch.ReduceProd, true, f32s(tensor.Shape{3, 2}, nan, 14, 3, 4, 30, -54)},
	}
	for _, tc := range tests {
		got, err := torch.IndexReduce(x, 0, i64s(2, 0, 2), src, tc.red, tc.self)
		if err != nil || !sameFloats(got, tc.want) {
			t.Errorf("%s: got %v, %v, want %v", tc.name, got, err, tc.want)
		}
	}
	// Integer mean divides rounding toward negative infinity; amax
	// without self starts from the lowest int8.
	ints := tensortest.Of(tensor.Shape{2}, int8(-7), 3)
	got, err := torch.IndexReduce(ints, 0, i64s(0, 0), tensortest.Of(tensor.Shape{2}, int8(0), 2), torch.ReduceMean, true)
	same(t, "int8 mean", got, err, tensortest.Of(tensor.Shape{2}, int8(-2), 3))
	got, err = torch.IndexReduce(ints, 0, i64s(1), tensortest.Of(tensor.Shape{1}, int8(-128)), torch.ReduceAmax, false)
	same(t, "int8 amax without self", got, err, tensortest.Of(tensor.Shape{2}, int8(-7), -128))
	// -Inf updates with include_self false: the start is -Inf, not the
	// lowest finite float.
	inf := float32(math.Inf(-1))
	got, err = torch.IndexReduce(f32s(tensor.Shape{1}, 5), 0, i64s(0), f32s(tensor.Shape{1}, inf), torch.ReduceAmax, false)
	same(t, "amax of -inf", got, err, f32s(tensor.Shape{1}, inf))
}

// sameFloats reports whether two float32 tensors are equal, NaN equal to
// NaN.
func sameFloats(a, b tensor.Tensor) bool {
	x, y := a.Data().([]float32), b.Data().([]float32)
	if !a.SameShape(b) {
		return false
	}
	for i := range x {
		if x[i] != y[i] && !(x[i] != x[i] && y[i] != y[i]) && math.Abs(float64(x[i]-y[i])) > 1e-6 {
			return false
		}
	}
	return true
}

func TestIndexCopyAndFill(t *testing.T) {
	x := f32s(tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 6)
	// Duplicates: the last in index order wins.
	got, err := torch.IndexCopy(x, 1, i64s(1, 1), f32s(tensor.Shape{2, 2}, 7, 8, 9, 10))
	same(t, "copy duplicates", got, err, f32s(tensor.Shape{2, 3}, 1, 8, 3, 4, 10, 6))
	// A 0-d source into a 1-D input, one index value.
	got, err = torch.IndexCopy(f32s(tensor.Shape{3}, 1, 2, 3), 0, i64s(2), tensor.Scalar(float32(9)))
	same(t, "copy 0-d source", got, err, f32s(tensor.Shape{3}, 1, 2, 9))
	// index_fill counts a negative index from the end.
	got, err = torch.IndexFill(x, 0, i64s(-1), torch.Float(0.25))
	same(t, "fill negative", got, err, f32s(tensor.Shape{2, 3}, 1, 2, 3, 0.25, 0.25, 0.25))
	// test/test_torch.py test_index_fill: x = [[1, 2], [4, 5]] filled
	// with 0 at column 0; a complex value into a real tensor is refused;
	// a 0-d input stays 0-d.
	y := tensortest.Of(tensor.Shape{2, 2}, int16(1), 2, 4, 5)
	err = torch.IndexFillInto(y, y, 1, i64s(0), torch.Int(0))
	same(t, "fill int16", y, err, tensortest.Of(tensor.Shape{2, 2}, int16(0), 2, 0, 5))
	if _, err := torch.IndexFill(y, 1, i64s(0), torch.Complex(1+1i)); !errors.Is(err, dialect.ErrInput) {
		t.Errorf("complex value: %v, want ErrInput", err)
	}
	got, err = torch.IndexFill(tensor.Scalar(int16(1)), 0, i64s(0), torch.Int(-1))
	same(t, "fill 0-d", got, err, tensor.Scalar(int16(-1)))
	// uint8: -1 wraps to 255, 300 overflows (family.md errata 4).
	got, err = torch.IndexFill(tensortest.Of(tensor.Shape{2}, uint8(1), 2), 0, i64s(1), torch.Int(-1))
	same(t, "fill uint8 -1", got, err, tensortest.Of(tensor.Shape{2}, uint8(1), 255))
	if _, err := torch.IndexFill(tensortest.Of(tensor.Shape{2}, uint8(1), 2), 0, i64s(1), torch.Int(300)); !errors.Is(err, dialect.ErrInput) {
		t.Errorf("uint8 300: %v, want ErrInput", err)
	}
}

func TestTakePut(t *testing.T) {
	x := f32s(tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 6)
	// take counts a negative index from the end of the flattened input
	// and keeps index's shape.
	got, err := torch.Take(x, tensortest.I64(tensor.Shape{2, 2}, -1, 0, -6, 3))
	same(t, "take negative", got, err, f32s(tensor.Shape{2, 2}, 6, 1, 1, 4))
	// take_along_dim broadcasts input and indices.
	got, err = torch.TakeAlongDim(x, tensortest.I64(tensor.Shape{1, 2}, 2, 0), 1)
	same(t, "take_along_dim broadcast indices", got, err, f32s(tensor.Shape{2, 2}, 3, 1, 6, 4))
	got, err = torch.TakeAlongDim(f32s(tensor.Shape{1, 3}, 1, 2, 3), tensortest.I64(tensor.Shape{2, 1}, 2, 0), 1)
	same(t, "take_along_dim broadcast input", got, err, f32s(tensor.Shape{2, 1}, 3, 1))
	// put: duplicates without accumulate, the last wins; with, summed; the
	// source's shape does not matter.
	got, err = torch.Put(x, i64s(-1, 5, 0), f32s(tensor.Shape{1, 3}, 7, 8, 9), false)
	same(t, "put duplicates", got, err, f32s(tensor.Shape{2, 3}, 9, 2, 3, 4, 5, 8))
	got, err = torch.Put(x, i64s(-1, 5, 0), f32s(tensor.Shape{3}, 7, 8, 9), true)
	same(t, "put accumulate", got, err, f32s(tensor.Shape{2, 3}, 10, 2, 3, 4, 5, 21))
	// masked_scatter: a mask broadcast over rows, source consumed in
	// order; test/test_torch.py test_masked_scatter_bool_tensor.
	got, err = torch.MaskedScatter(x, tensortest.Of(tensor.Shape{3}, true, false, true), f32s(tensor.Shape{5}, 10, 20, 30, 40, 50))
	same(t, "masked_scatter broadcast", got, err, f32s(tensor.Shape{2, 3}, 10, 2, 20, 30, 5, 40))
	dst := tensortest.Of(tensor.Shape{3}, false, false, false)
	err = torch.MaskedScatterInto(dst, dst, tensortest.Of(tensor.Shape{3}, false, true, false), tensortest.Of(tensor.Shape{3}, true, true, true))
	same(t, "masked_scatter bool", dst, err, tensortest.Of(tensor.Shape{3}, false, true, false))
	got, err = torch.MaskedScatter(dst, tensortest.Of(tensor.Shape{3}, true, false, true), tensortest.Of(tensor.Shape{3}, true, true, true))
	same(t, "masked_scatter bool 2", got, err, tensortest.Of(tensor.Shape{3}, true, true, true))
	// index_put with a mask and a scalar value.
	got, err = torch.IndexPut(x, []tensor.Tensor{tensortest.Of(tensor.Shape{2}, true, false)}, tensor.Scalar(float32(0)), false)
	same(t, "index_put mask", got, err, f32s(tensor.Shape{2, 3}, 0, 0, 0, 4, 5, 6))
}

// TestIndexRefusals checks the errors of bad calls: their class, the
// operator and what they name; in place, the target is left as it was.
func TestIndexRefusals(t *testing.T) {
	x := f32s(tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 6)
	row := f32s(tensor.Shape{1, 3}, 7, 8, 9)
	tests := []struct {
		name  string
		op    string
		call  func(dst tensor.Tensor) error
		class error
		says  string
	}{
		{"index_add negative", "torch.index_add", func(d tensor.Tensor) error { return torch.IndexAddInto(d, d, 0, i64s(-1), row, torch.Int(1)) },
			engine.ErrIndex, "index[0] = -1 is out of bounds for dimension 0 with size 2"},
		{"index_add 2-D index", "torch.index_add", func(d tensor.Tensor) error {
			return torch.IndexAddInto(d, d, 0, tensortest.I64(tensor.Shape{1, 1}, 0), row, torch.Int(1))
		}, engine.ErrShape, "index must be 0-d or 1-D"},
		{"index_add source size", "torch.index_add", func(d tensor.Tensor) error { return torch.IndexAddInto(d, d, 0, i64s(0, 1), row, torch.Int(1)) },
			engine.ErrShape, "index has 2 values, source.size(0) is 1"},
		{"index_add int16 index", "torch.index_add", func(d tensor.Tensor) error {
			return torch.IndexAddInto(d, d, 0, tensortest.Of(tensor.Shape{1}, int16(0)), row, torch.Int(1))
		}, engine.ErrType, "int16"},
		{"index_add alpha overflow", "torch.index_add", func(d tensor.Tensor) error {
			return torch.IndexAddInto(d, d, 0, i64s(0), row, torch.Float(1e300))
		}, dialect.ErrInput, "alpha"},
		{"index_copy int32 index", "torch.index_copy", func(d tensor.Tensor) error {
			return torch.IndexCopyInto(d, d, 0, tensortest.I32(tensor.Shape{1}, 0), row)
		}, engine.ErrType, "int32"},
		{"index_copy out of range", "torch.index_copy", func(d tensor.Tensor) error {
			return torch.IndexCopyInto(d, d, 0, i64s(0, 2), full32(tensor.Shape{2, 3}, 0))
		},
			engine.ErrIndex, "index[1] = 2"},
		{"index_fill out of range", "torch.index_fill", func(d tensor.Tensor) error { return torch.IndexFillInto(d, d, 1, i64s(1, -4), torch.Int(0)) },
			engine.ErrIndex, "index[1] = -4"},
		{"index_reduce sum", "torch.index_reduce", func(d tensor.Tensor) error {
			return torch.IndexReduceInto(d, d, 0, i64s(0), row, torch.ReduceSum, true)
		}, dialect.ErrAttribute, "sum"},
		{"index_reduce bool", "torch.index_reduce", func(d tensor.Tensor) error {
			b := tensortest.Of(tensor.Shape{1}, true)
			return torch.IndexReduceInto(b, b, 0, i64s(0), b.Clone(), torch.ReduceAmax, true)
		}, engine.ErrType, "bool"},
		{"put out of range", "torch.put", func(d tensor.Tensor) error { return torch.PutInto(d, d, i64s(0, 6), f32s(tensor.Shape{2}, 1, 2), true) },
			engine.ErrIndex, "index[1] = 6"},
		{"put source size", "torch.put", func(d tensor.Tensor) error { return torch.PutInto(d, d, i64s(0, 1), f32s(tensor.Shape{1}, 1), false) },
			engine.ErrShape, "source has 1 elements, index 2"},
		{"take negative beyond", "torch.take", func(d tensor.Tensor) error { _, err := torch.Take(d, i64s(-7)); return err },
			engine.ErrIndex, "index[0] = -7"},
		{"take_along_dim negative", "torch.take_along_dim", func(d tensor.Tensor) error {
			_, err := torch.TakeAlongDim(d, tensortest.I64(tensor.Shape{2, 1}, 0, -1), 1)
			return err
		}, engine.ErrIndex, "-1"},
		{"take_along_dim ranks", "torch.take_along_dim", func(d tensor.Tensor) error { _, err := torch.TakeAlongDim(d, i64s(0), 0); return err },
			engine.ErrShape, "rank"},
		{"index_put too many", "torch.index_put", func(d tensor.Tensor) error {
			return torch.IndexPutInto(d, d, []tensor.Tensor{i64s(0), i64s(0), i64s(0)}, tensor.Scalar(float32(1)), false)
		}, engine.ErrShape, "too many indices"},
		{"index_put out of range", "torch.index_put", func(d tensor.Tensor) error {
			return torch.IndexPutInto(d, d, []tensor.Tensor{i64s(1, 2)}, tensor.Scalar(float32(1)), false)
		}, engine.ErrIndex, "= 2 is out of bounds for dimension 0 with size 2"},
		{"index_put values shape", "torch.index_put", func(d tensor.Tensor) error {
			return torch.IndexPutInto(d, d, []tensor.Tensor{i64s(1)}, f32s(tensor.Shape{2}, 1, 2), false)
		}, engine.ErrShape, "cannot be broadcast"},
		{"masked_scatter too few", "torch.masked_scatter", func(d tensor.Tensor) error {
			return torch.MaskedScatterInto(d, d, tensortest.Of(tensor.Shape{3}, true, true, false), f32s(tensor.Shape{3}, 1, 2, 3))
		}, engine.ErrShape, "source has 3 elements, fewer than the 4 true positions"},
		{"masked_scatter int mask", "torch.masked_scatter", func(d tensor.Tensor) error {
			return torch.MaskedScatterInto(d, d, i64s(1, 0, 1), full32(tensor.Shape{4}, 0))
		}, engine.ErrType, "mask"},
	}
	for _, tc := range tests {
		d := x.Clone()
		err := tc.call(d)
		var oe *dialect.OpError
		if !errors.Is(err, tc.class) || !errors.As(err, &oe) || oe.Op != tc.op || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want %v from %s saying %q", tc.name, err, tc.class, tc.op, tc.says)
		}
		if !tensor.Equal(d, x) {
			t.Errorf("%s: the target changed: %v", tc.name, d)
		}
	}
}

// TestIndexOpRun runs the operators by name, as the command line does.
func TestIndexOpRun(t *testing.T) {
	x := f32s(tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 6)
	in := func(kv ...any) map[string]tensor.Tensor {
		m := map[string]tensor.Tensor{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1].(tensor.Tensor)
		}
		return m
	}
	dim := func(d int64) dialect.Value { return dialect.Value{Kind: dialect.Int, Int: d} }
	tests := []struct {
		op   string
		c    dialect.Call
		want tensor.Tensor
	}{
		{"torch.index_add", dialect.Call{Inputs: in("input", x, "index", i64s(1), "source", f32s(tensor.Shape{1, 3}, 1, 1, 1)),
			Attrs: map[string]dialect.Value{"dim": dim(0), "alpha": {Kind: dialect.Float, Float: 2}}},
			f32s(tensor.Shape{2, 3}, 1, 2, 3, 6, 7, 8)},
		{"torch.index_fill", dialect.Call{Inputs: in("input", x, "index", i64s(0), "value", tensor.Scalar(-1.0)),
			Attrs: map[string]dialect.Value{"dim": dim(1)}}, f32s(tensor.Shape{2, 3}, -1, 2, 3, -1, 5, 6)},
		{"torch.take_along_dim", dialect.Call{Inputs: in("input", x, "indices", i64s(5, 0))}, f32s(tensor.Shape{2}, 6, 1)},
		{"torch.index_put", dialect.Call{Inputs: in("input", x, "indices.0", i64s(1), "indices.1", i64s(2), "values", f32s(tensor.Shape{1}, 9))},
			f32s(tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 9)},
		{"torch.index_reduce", dialect.Call{Inputs: in("input", x, "index", i64s(0), "source", f32s(tensor.Shape{1, 3}, 0, 9, 9)),
			Attrs: map[string]dialect.Value{"dim": dim(0), "reduce": {Kind: dialect.String, Str: "amin"},
				"include_self": {Kind: dialect.Bool, Bool: false}}}, f32s(tensor.Shape{2, 3}, 0, 9, 9, 4, 5, 6)},
	}
	for _, tc := range tests {
		got, err := lookup(tc.op).Run(tc.c)
		same(t, tc.op, got, err, tc.want)
	}
}

// test/test_torch.py, test_masked_scatter (PyTorch's, read through a
// downstream copy of the test): mask (0,0,0,0,1,0,1,0,1,0) over
// 1..10 in every element type, source zeros and ones; a source one
// element short is refused; empty tensors, the mask broadcast over an
// empty dimension.
func TestMaskedScatterTorchTest(t *testing.T) {
	mask := tensortest.Of(tensor.Shape{10}, false, false, false, false, true, false, true, false, true, false)
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Uint8,
		tensor.Int16, tensor.Int32, tensor.Int64, tensor.Complex64, tensor.Complex128} {
		ints := func(v ...int) tensor.Tensor { return tensortest.FromInts(dt, tensor.Shape{len(v)}, v...) }
		for _, fill := range []int{0, 1} {
			dest := ints(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
			src := ints(fill, fill, fill, fill, fill, fill, fill, fill, fill, fill)
			err := torch.MaskedScatterInto(dest, dest, mask, src)
			same(t, dt.String()+" source", dest, err, ints(1, 2, 3, 4, fill, 6, fill, 8, fill, 10))
		}
		dest := ints(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
		if err := torch.MaskedScatterInto(dest, dest, mask, ints(0, 0)); !errors.Is(err, engine.ErrShape) {
			t.Errorf("%v: a short source: %v, want ErrShape", dt, err)
		}
		empty := tensor.Must(tensor.New(dt, tensor.Shape{5, 0, 5}))
		none := tensor.Must(tensor.New(dt, tensor.Shape{0}))
		for _, m := range []tensor.Tensor{tensor.Must(tensor.New(tensor.Bool, tensor.Shape{5, 0, 5})), full(tensor.Shape{5, 1, 5})} {
			err := torch.MaskedScatterInto(empty, empty, m, none)
			same(t, dt.String()+" empty", empty, err, tensor.Must(tensor.New(dt, tensor.Shape{5, 0, 5})))
		}
	}
}

// full returns a bool tensor of the given shape, every element true.
func full(shape tensor.Shape) tensor.Tensor {
	n, _ := shape.NumElements()
	v := make([]bool, n)
	for i := range v {
		v[i] = true
	}
	return tensor.Must(tensor.From(shape, v))
}

// test/test_torch.py, test_masked_scatter_inplace_noncontiguous: the
// contiguous case (this library's tensors are all contiguous), the mask
// transposed to [2,5], source consumed in row-major order.
func TestMaskedScatterInplaceNoncontiguous(t *testing.T) {
	x := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{2, 5}))
	mask := tensortest.Of(tensor.Shape{2, 5}, false, false, false, true, true, true, true, false, true, true)
	source := tensortest.I64(tensor.Shape{2, 5}, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9)
	err := torch.MaskedScatterInto(x, x, mask, source)
	same(t, "in place", x, err, tensortest.I64(tensor.Shape{2, 5}, 0, 0, 0, 1, 2, 3, 4, 0, 5, 6))
}

// test/test_torch.py, test_put_accumulate (an older version of the file):
// dst = ones(2, 2), idx [[0, 1], [0, 1]], src [1, 2, 3, 4], accumulate.
// And take and put refuse any index into an empty input ("tried to take
// from an empty tensor").
func TestPutAccumulateTorchTest(t *testing.T) {
	dst := full32(tensor.Shape{2, 2}, 1)
	err := torch.PutInto(dst, dst, tensortest.I64(tensor.Shape{2, 2}, 0, 1, 0, 1), f32s(tensor.Shape{4}, 1, 2, 3, 4), true)
	same(t, "put_ accumulate", dst, err, f32s(tensor.Shape{2, 2}, 5, 7, 1, 1))

	empty := full32(tensor.Shape{0, 3}, 0)
	if _, err := torch.Take(empty, i64s(0)); !errors.Is(err, engine.ErrIndex) {
		t.Errorf("take from an empty tensor: %v, want ErrIndex", err)
	}
	if _, err := torch.Put(empty, i64s(-1), f32s(tensor.Shape{1}, 1), false); !errors.Is(err, engine.ErrIndex) {
		t.Errorf("put into an empty tensor: %v, want ErrIndex", err)
	}
	got, err := torch.Take(empty, i64s())
	same(t, "take nothing from an empty tensor", got, err, full32(tensor.Shape{0}, 0))
}

// TestIndexEmptyInput holds each index operator to PyTorch's rule for an
// input without elements and an index value out of its range: index_add
// returns input unchanged from rank 2 ("numel == 0 || self.numel() ==
// 0") and checks the value at rank 1, index_copy and index_fill return it
// unchanged at any rank, index_reduce always checks.
func TestIndexEmptyInput(t *testing.T) {
	cases := []struct {
		op    string
		shape tensor.Shape // of input; source the same but one slice along dim 0
		ok    bool         // returned unchanged, else ErrIndex
	}{
		{"index_add", tensor.Shape{0}, false},
		{"index_add", tensor.Shape{2, 0}, true},
		{"index_add", tensor.Shape{2, 0, 3}, true},
		{"index_copy", tensor.Shape{0}, true},
		{"index_copy", tensor.Shape{2, 0}, true},
		{"index_fill", tensor.Shape{0}, true},
		{"index_fill", tensor.Shape{2, 0}, true},
		{"index_reduce", tensor.Shape{0}, false},
		{"index_reduce", tensor.Shape{2, 0}, false},
	}
	for _, c := range cases {
		input := full32(c.shape, 0)
		ss := c.shape.Clone()
		ss[0] = 1
		source, index := full32(ss, 1), i64s(7) // past dim 0 whatever its size
		var got tensor.Tensor
		var err error
		switch c.op {
		case "index_add":
			got, err = torch.IndexAdd(input, 0, index, source, torch.Int(1))
		case "index_copy":
			got, err = torch.IndexCopy(input, 0, index, source)
		case "index_fill":
			got, err = torch.IndexFill(input, 0, index, torch.Int(1))
		case "index_reduce":
			got, err = torch.IndexReduce(input, 0, index, source, torch.ReduceProd, true)
		}
		name := fmt.Sprintf("%s of %v", c.op, c.shape)
		if !c.ok {
			if !errors.Is(err, engine.ErrIndex) {
				t.Errorf("%s: %v, want ErrIndex", name, err)
			}
			continue
		}
		same(t, name, got, err, full32(c.shape, 0))
	}
}
