package torch_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/torch"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
	"github.com/x448/float16"
)

func arange(n int) []int64 {
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(i + 1)
	}
	return v
}

// same fails the test unless got is want, bit for bit, and err is nil.
func same(t *testing.T, name string, got tensor.Tensor, err error, want tensor.Tensor) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: unexpected error %v", name, err)
		return
	}
	if !tensor.Equal(got, want) {
		t.Errorf("%s:\n got  %v\n want %v", name, got, want)
	}
}

// The examples of the torch.Tensor.scatter_ docstring, run in place as
// scatter_ does and out of place as torch.scatter does.
func TestScatterDocExamples(t *testing.T) {
	src := tensortest.I64(tensor.Shape{2, 5}, arange(10)...)
	zeros := func() tensor.Tensor { return tensor.Must(tensor.New(tensor.Int64, tensor.Shape{3, 5})) }
	full := func() tensor.Tensor { return tensortest.F32(tensor.Shape{2, 4}, 2, 2, 2, 2, 2, 2, 2, 2) }
	v := float32(1.23)
	tests := []struct {
		name  string
		input func() tensor.Tensor
		run   func(dst, input tensor.Tensor) error
		want  tensor.Tensor
	}{
		{"dim 0", zeros, func(dst, in tensor.Tensor) error {
			return torch.ScatterInto(dst, in, 0, tensortest.I64(tensor.Shape{1, 4}, 0, 1, 2, 0), src, "")
		}, tensortest.I64(tensor.Shape{3, 5}, 1, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0)},
		{"dim 1", zeros, func(dst, in tensor.Tensor) error {
			return torch.ScatterInto(dst, in, 1, tensortest.I64(tensor.Shape{2, 3}, 0, 1, 2, 0, 1, 4), src, "")
		}, tensortest.I64(tensor.Shape{3, 5}, 1, 2, 3, 0, 0, 6, 7, 0, 0, 8, 0, 0, 0, 0, 0)},
		{"multiply 1.23", full, func(dst, in tensor.Tensor) error {
			return torch.ScatterValueInto(dst, in, 1, tensortest.I64(tensor.Shape{2, 1}, 2, 3), torch.Float(1.23), "multiply")
		}, tensortest.F32(tensor.Shape{2, 4}, 2, 2, 2*v, 2, 2, 2, 2, 2*v)},
		{"add 1.23", full, func(dst, in tensor.Tensor) error {
			return torch.ScatterValueInto(dst, in, 1, tensortest.I64(tensor.Shape{2, 1}, 2, 3), torch.Float(1.23), "add")
		}, tensortest.F32(tensor.Shape{2, 4}, 2, 2, 2+v, 2, 2, 2, 2, 2+v)},
	}
	for _, tt := range tests {
		x := tt.input()
		err := tt.run(x, x) // in place
		same(t, tt.name+" in place", x, err, tt.want)
		in := tt.input()
		out := tensor.Must(tensor.New(in.DType(), in.Shape()))
		err = tt.run(out, in)
		same(t, tt.name, out, err, tt.want)
		if !tensor.Equal(in, tt.input()) {
			t.Errorf("%s: the out-of-place form changed its input", tt.name)
		}
	}
	// The allocating forms.
	got, err := torch.Scatter(zeros(), 0, tensortest.I64(tensor.Shape{1, 4}, 0, 1, 2, 0), src, "")
	same(t, "Scatter", got, err, tests[0].want)
	got, err = torch.ScatterValue(full(), 1, tensortest.I64(tensor.Shape{2, 1}, 2, 3), torch.Float(1.23), "add")
	same(t, "ScatterValue", got, err, tests[3].want)
}

// The examples of the torch.Tensor.scatter_add_ docstring.
func TestScatterAddDocExamples(t *testing.T) {
	src := tensortest.F32(tensor.Shape{2, 5}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
	zeros := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{3, 5}))
	got, err := torch.ScatterAdd(zeros, 0, tensortest.I64(tensor.Shape{1, 5}, 0, 1, 2, 0, 0), src)
	same(t, "one row", got, err, tensortest.F32(tensor.Shape{3, 5}, 1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0))
	got, err = torch.ScatterAdd(zeros, 0, tensortest.I64(tensor.Shape{2, 5}, 0, 1, 2, 0, 0, 0, 1, 2, 2, 2), src)
	same(t, "two rows", got, err, tensortest.F32(tensor.Shape{3, 5}, 2, 0, 0, 1, 1, 0, 2, 0, 0, 0, 0, 0, 2, 1, 1))
}

// The examples of the torch.Tensor.scatter_reduce_ docstring.
func TestScatterReduceDocExamples(t *testing.T) {
	src := tensortest.F32(tensor.Shape{6}, 1, 2, 3, 4, 5, 6)
	index := tensortest.I64(tensor.Shape{6}, 0, 1, 0, 1, 2, 1)
	input := tensortest.F32(tensor.Shape{4}, 1, 2, 3, 4)
	input2 := tensortest.F32(tensor.Shape{4}, 5, 4, 3, 2)
	tests := []struct {
		input       tensor.Tensor
		reduce      string
		includeSelf bool
		want        tensor.Tensor
	}{
		{input, "sum", true, tensortest.F32(tensor.Shape{4}, 5, 14, 8, 4)},
		{input, "sum", false, tensortest.F32(tensor.Shape{4}, 4, 12, 5, 4)},
		{input2, "amax", true, tensortest.F32(tensor.Shape{4}, 5, 6, 5, 2)},
		{input2, "amax", false, tensortest.F32(tensor.Shape{4}, 3, 6, 5, 2)},
	}
	for _, tt := range tests {
		got, err := torch.ScatterReduce(tt.input, 0, index, src, torch.Reduce(tt.reduce), tt.includeSelf)
		same(t, tt.reduce, got, err, tt.want)
	}
}

// The examples of the torch.gather and torch.index_select docstrings (the
// latter with its printed random input).
func TestGatherAndIndexSelectDocExamples(t *testing.T) {
	got, err := torch.Gather(tensortest.I64(tensor.Shape{2, 2}, 1, 2, 3, 4), 1, tensortest.I64(tensor.Shape{2, 2}, 0, 0, 1, 0))
	same(t, "gather", got, err, tensortest.I64(tensor.Shape{2, 2}, 1, 1, 4, 3))

	x := tensortest.F32(tensor.Shape{3, 4}, 0.1427, 0.0231, -0.5414, -1.0009, -0.4664, 0.2647, -0.1228, -1.1068,
		-1.1734, -0.6571, 0.7230, -0.6004)
	indices := tensortest.I64(tensor.Shape{2}, 0, 2)
	got, err = torch.IndexSelect(x, 0, indices)
	same(t, "index_select dim 0", got, err,
		tensortest.F32(tensor.Shape{2, 4}, 0.1427, 0.0231, -0.5414, -1.0009, -1.1734, -0.6571, 0.7230, -0.6004))
	got, err = torch.IndexSelect(x, 1, indices)
	same(t, "index_select dim 1", got, err, tensortest.F32(tensor.Shape{3, 2}, 0.1427, -0.5414, -0.4664, -0.1228, -1.1734, 0.7230))
}

// Every reduction, with include_self both ways, on duplicate indices and a
// position no update reaches.
func TestReductions(t *testing.T) {
	input := tensortest.F64(tensor.Shape{3}, 10, -4, 7)
	index := tensortest.I64(tensor.Shape{4}, 1, 0, 1, 1)
	src := tensortest.F64(tensor.Shape{4}, 2, 8, -3, 5)
	tests := []struct {
		reduce      string
		includeSelf bool
		want        []float64
	}{
		{"sum", true, []float64{18, -4 + 2 - 3 + 5, 7}},
		{"sum", false, []float64{8, 4, 7}},
		{"prod", true, []float64{80, -4 * 2 * -3 * 5, 7}},
		{"prod", false, []float64{8, -30, 7}},
		{"mean", true, []float64{9, 0, 7}},
		{"mean", false, []float64{8, 4.0 / 3, 7}},
		{"amax", true, []float64{10, 5, 7}},
		{"amax", false, []float64{8, 5, 7}},
		{"amin", true, []float64{8, -4, 7}},
		{"amin", false, []float64{8, -3, 7}},
	}
	for _, tt := range tests {
		got, err := torch.ScatterReduce(input, 0, index, src, torch.Reduce(tt.reduce), tt.includeSelf)
		same(t, tt.reduce, got, err, tensortest.F64(tensor.Shape{3}, tt.want...))
	}
	// The legacy reductions of torch.scatter, and scatter_add.
	got, err := torch.Scatter(input, 0, index, src, "add")
	same(t, "scatter add", got, err, tensortest.F64(tensor.Shape{3}, 18, 0, 7))
	got, err = torch.Scatter(input, 0, index, src, "multiply")
	same(t, "scatter multiply", got, err, tensortest.F64(tensor.Shape{3}, 80, 120, 7))
	got, err = torch.ScatterAdd(input, 0, index, src)
	same(t, "scatter_add", got, err, tensortest.F64(tensor.Shape{3}, 18, 0, 7))
	// Without a reduction the last duplicate in index order wins.
	got, err = torch.Scatter(input, 0, index, src, "")
	same(t, "scatter", got, err, tensortest.F64(tensor.Shape{3}, 8, 5, 7))
	got, err = torch.ScatterValue(input, 0, index, torch.Int(-1), "")
	same(t, "scatter value", got, err, tensortest.F64(tensor.Shape{3}, -1, -1, 7))
}

func TestIntegerMean(t *testing.T) {
	// Integer mean rounds toward negative infinity: (-7 + 1 + 0) / 3 = -2,
	// 7 / 2 = 3, and -7 / 2 = -4.
	got, err := torch.ScatterReduce(tensortest.I64(tensor.Shape{3}, -7, 7, -7), 0, tensortest.I64(tensor.Shape{4}, 0, 0, 1, 2),
		tensortest.I64(tensor.Shape{4}, 1, 0, 0, 0), "mean", true)
	same(t, "int64", got, err, tensortest.I64(tensor.Shape{3}, -2, 3, -4))
	got, err = torch.ScatterReduce(tensortest.I64(tensor.Shape{2}, 5, 5), 0, tensortest.I64(tensor.Shape{3}, 0, 0, 0),
		tensortest.I64(tensor.Shape{3}, -1, -1, 0), "mean", false)
	same(t, "int64 exclude self", got, err, tensortest.I64(tensor.Shape{2}, -1, 5))
	// PyTorch counts in the input's type: 127 updates and the input's own
	// value make a count of 128, which is -128 in int8, and 127 / -128
	// rounds down to -1.
	idx := tensortest.I64(tensor.Shape{127}, make([]int64, 127)...)
	src := tensortest.FromInts(tensor.Int8, tensor.Shape{127}, repeat(1, 127)...)
	got, err = torch.ScatterReduce(tensortest.FromInts(tensor.Int8, tensor.Shape{1}, 0), 0, idx, src, "mean", true)
	same(t, "int8 count wraps", got, err, tensortest.FromInts(tensor.Int8, tensor.Shape{1}, -1))
	got, err = torch.ScatterReduce(tensortest.FromInts(tensor.Uint8, tensor.Shape{2}, 10, 200), 0,
		tensortest.I64(tensor.Shape{2}, 1, 1), tensortest.FromInts(tensor.Uint8, tensor.Shape{2}, 100, 3), "mean", true)
	// 200 + 100 + 3 wraps to 47 in uint8; 47 / 3 = 15.
	same(t, "uint8", got, err, tensortest.FromInts(tensor.Uint8, tensor.Shape{2}, 10, 15))
}

func repeat(v, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// float16 and bfloat16 sums accumulate in float32 and round once: 2048 + 1
// + 1 is 2050, where rounding after each step would stay at 2048.
func TestHalfAccumulation(t *testing.T) {
	for _, d := range []tensor.DType{tensor.Float16, tensor.BFloat16} {
		big := 2048
		if d == tensor.BFloat16 {
			big = 256 // bfloat16 has 8 significant bits: 256 + 1 rounds to 256
		}
		input := tensortest.FromInts(d, tensor.Shape{1}, big)
		idx := tensortest.I64(tensor.Shape{2}, 0, 0)
		src := tensortest.FromInts(d, tensor.Shape{2}, 1, 1)
		want := tensortest.FromInts(d, tensor.Shape{1}, big+2)
		got, err := torch.ScatterAdd(input, 0, idx, src)
		same(t, d.String()+" scatter_add", got, err, want)
		got, err = torch.ScatterReduce(input, 0, idx, src, "sum", true)
		same(t, d.String()+" sum", got, err, want)
		got, err = torch.Scatter(input, 0, idx, src, "add")
		same(t, d.String()+" add", got, err, want)
		got, err = torch.ScatterValue(input, 0, idx, torch.Int(1), "add")
		same(t, d.String()+" value add", got, err, want)
		// mean: the sum rounded to the type, then divided by 3 and rounded.
		got, err = torch.ScatterReduce(input, 0, idx, src, "mean", true)
		sum := tensortest.FromInts(d, tensor.Shape{1}, big+2)
		var wantMean tensor.Tensor
		switch s := sum.Data().(type) {
		case []float16.Float16:
			wantMean = tensor.Scalar(float16.Fromfloat32(s[0].Float32() / 3))
		case []bfloat16.BFloat16:
			wantMean = tensor.Scalar(bfloat16.FromFloat32(s[0].Float32() / 3))
		}
		wantMean, _ = wantMean.Reshape(tensor.Shape{1})
		same(t, d.String()+" mean", got, err, wantMean)
	}
}

// With include_self false, an updated position starts from +0, so -0
// updates sum to +0, as in PyTorch.
func TestExcludeSelfStartsAtPositiveZero(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	for _, reduce := range []string{"sum", "mean"} {
		got, err := torch.ScatterReduce(tensortest.F32(tensor.Shape{2}, 5, negZero), 0, tensortest.I64(tensor.Shape{2}, 0, 0),
			tensortest.F32(tensor.Shape{2}, negZero, negZero), torch.Reduce(reduce), false)
		same(t, reduce, got, err, tensortest.F32(tensor.Shape{2}, 0, negZero))
	}
}

func TestNaN(t *testing.T) {
	nan := float32(math.NaN())
	for _, reduce := range []string{"amax", "amin"} {
		for _, self := range []bool{true, false} {
			got, err := torch.ScatterReduce(tensortest.F32(tensor.Shape{2}, 1, nan), 0, tensortest.I64(tensor.Shape{3}, 0, 0, 1),
				tensortest.F32(tensor.Shape{3}, nan, 2, 3), torch.Reduce(reduce), self)
			if err != nil {
				t.Fatal(err)
			}
			v := got.Data().([]float32)
			if !math.IsNaN(float64(v[0])) || self && !math.IsNaN(float64(v[1])) || !self && v[1] != 3 {
				t.Errorf("%s include_self=%v: got %v", reduce, self, v)
			}
		}
	}
}

// A position that ends as NaN under amax or amin holds the last NaN update
// it received, bit for bit, as PyTorch's kernel (which takes every NaN
// update) leaves it.
func TestNaNBits(t *testing.T) {
	a, b := math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc00002)
	for _, reduce := range []string{"amax", "amin"} {
		for _, tt := range []struct {
			input, src []float32
			self       bool
			want       uint32
		}{
			{[]float32{a}, []float32{b, 1}, true, 0xffc00002},
			{[]float32{a}, []float32{b, 1}, false, 0xffc00002},
			{[]float32{1}, []float32{a, 2, b, 3}, true, 0xffc00002},
			{[]float32{a}, []float32{2, 3}, true, 0x7fc00001},
		} {
			idx := tensortest.I64(tensor.Shape{len(tt.src)}, make([]int64, len(tt.src))...)
			got, err := torch.ScatterReduce(tensortest.F32(tensor.Shape{1}, tt.input...), 0, idx, tensortest.F32(tensor.Shape{len(tt.src)}, tt.src...), torch.Reduce(reduce), tt.self)
			if err != nil || math.Float32bits(got.Data().([]float32)[0]) != tt.want {
				t.Errorf("%s %v %v include_self=%v: got %#x, %v; want %#x", reduce, tt.input, tt.src, tt.self,
					math.Float32bits(got.Data().([]float32)[0]), err, tt.want)
			}
		}
	}
	// float64, with a 2-D input.
	c, d := math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff8000000000002)
	got, err := torch.ScatterReduce(tensortest.F64(tensor.Shape{2, 2}, c, 0, 0, 0), 1, tensortest.I64(tensor.Shape{2, 2}, 0, 0, 1, 1),
		tensortest.F64(tensor.Shape{2, 2}, d, 1, 5, 6), "amax", true)
	if v := got.Data().([]float64); err != nil || math.Float64bits(v[0]) != 0xfff8000000000002 || v[3] != 6 {
		t.Errorf("float64: %v %v", got, err)
	}
}

// Every element type through every operator: supported types give the
// same answers; the others are refused as PyTorch's CPU kernels refuse
// them.
func TestElementTypes(t *testing.T) {
	for _, d := range tensor.DTypes() {
		input := tensortest.FromInts(d, tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 6)
		want := func(v ...int) tensor.Tensor { return tensortest.FromInts(d, tensor.Shape{2, 3}, v...) }
		kernel := d != tensor.String && d != tensor.Uint16 && d != tensor.Uint32 && d != tensor.Uint64
		check := func(name string, ok bool, got tensor.Tensor, err error, w tensor.Tensor) {
			t.Helper()
			if !ok {
				if !errors.Is(err, dialect.ErrInput) {
					t.Errorf("%s %v: got %v, %v; want ErrInput", name, d, got, err)
				}
				return
			}
			same(t, name+" "+d.String(), got, err, w)
		}
		idx := tensortest.I64(tensor.Shape{1, 2}, 2, 0)
		src := tensortest.FromInts(d, tensor.Shape{1, 2}, 1, 0)
		got, err := torch.Scatter(input, 1, idx, src, "")
		check("scatter", kernel, got, err, want(0, 2, 1, 4, 5, 6))
		got, err = torch.ScatterValue(input, 1, idx, torch.Int(0), "")
		check("scatter value", kernel, got, err, want(0, 2, 0, 4, 5, 6))
		got, err = torch.Gather(input, 0, tensortest.I64(tensor.Shape{1, 3}, 1, 0, 1))
		check("gather", kernel, got, err, tensortest.FromInts(d, tensor.Shape{1, 3}, 4, 2, 6))
		got, err = torch.IndexSelect(input, 1, tensortest.I32(tensor.Shape{2}, 2, 2))
		check("index_select", d != tensor.String, got, err, tensortest.FromInts(d, tensor.Shape{2, 2}, 3, 3, 6, 6))
		got, err = torch.IndexSelect(tensortest.FromInts(d, tensor.Shape{3}, 1, 2, 3), 0, tensortest.I32(tensor.Shape{1}, 1))
		check("index_select 1-D", kernel, got, err, tensortest.FromInts(d, tensor.Shape{1}, 2))
		// With an empty index every type but string passes.
		got, err = torch.Scatter(input, 1, tensortest.I64(tensor.Shape{0}), src, "")
		check("scatter empty", d != tensor.String, got, err, input)

		// Reductions: 1 * 1 = 1 and max(3, 1) = 3 hold for every type.
		got, err = torch.Scatter(input, 1, idx, src, "multiply")
		check("multiply", kernel, got, err, want(0, 2, 3, 4, 5, 6))
		got, err = torch.ScatterReduce(input, 1, idx, tensortest.FromInts(d, tensor.Shape{1, 2}, 1, 1), "prod", true)
		check("prod", kernel, got, err, input)
		got, err = torch.ScatterReduce(input, 1, idx, tensortest.FromInts(d, tensor.Shape{1, 2}, 1, 1), "amax", true)
		check("amax", kernel && !d.IsComplex(), got, err, input)
		got, err = torch.ScatterReduce(input, 1, idx, tensortest.FromInts(d, tensor.Shape{1, 2}, 1, 0), "amin", false)
		check("amin", kernel && !d.IsComplex(), got, err, want(0, 2, 1, 4, 5, 6))
		got, err = torch.ScatterReduce(input, 1, idx, tensortest.FromInts(d, tensor.Shape{1, 2}, 0, 0), "sum", true)
		check("sum", kernel, got, err, input)
		got, err = torch.ScatterAdd(input, 1, idx, tensortest.FromInts(d, tensor.Shape{1, 2}, 0, 0))
		check("scatter_add", kernel, got, err, input)
		got, err = torch.ScatterReduce(input, 1, tensortest.I64(tensor.Shape{1, 2}, 1, 1),
			tensortest.FromInts(d, tensor.Shape{1, 2}, 3, 4), "mean", true)
		check("mean", kernel && d != tensor.Bool, got, err, want(1, 3, 3, 4, 5, 6))
	}
}

// Bool arithmetic: sum and add are OR, prod and multiply AND, amax OR and
// amin AND.
func TestBool(t *testing.T) {
	b := func(v ...bool) tensor.Tensor { return tensor.Must(tensor.From(tensor.Shape{len(v)}, v)) }
	input := b(true, false, true, false)
	idx := tensortest.I64(tensor.Shape{4}, 0, 1, 2, 1)
	src := b(false, true, false, true)
	for _, tt := range []struct {
		reduce string
		want   tensor.Tensor
	}{
		{"sum", b(true, true, true, false)},
		{"prod", b(false, false, false, false)},
		{"amax", b(true, true, true, false)},
		{"amin", b(false, false, false, false)},
	} {
		got, err := torch.ScatterReduce(input, 0, idx, src, torch.Reduce(tt.reduce), true)
		same(t, tt.reduce, got, err, tt.want)
	}
	got, err := torch.ScatterReduce(input, 0, idx, src, "prod", false)
	same(t, "prod exclude self", got, err, b(false, true, false, false))
	got, err = torch.ScatterReduce(input, 0, idx, src, "mean", true)
	if !errors.Is(err, dialect.ErrInput) {
		t.Errorf("bool mean: got %v, %v", got, err)
	}
}

// A src larger than index: only the part index covers is read.
func TestSrcLargerThanIndex(t *testing.T) {
	input := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{2, 3}))
	src := tensortest.I64(tensor.Shape{3, 4}, arange(12)...)
	got, err := torch.Scatter(input, 1, tensortest.I64(tensor.Shape{2, 2}, 2, 0, 1, 1), src, "")
	same(t, "scatter", got, err, tensortest.I64(tensor.Shape{2, 3}, 2, 0, 1, 0, 6, 0))
	got, err = torch.ScatterReduce(input, 0, tensortest.I64(tensor.Shape{1, 3}, 1, 1, 0), src, "sum", true)
	same(t, "scatter_reduce", got, err, tensortest.I64(tensor.Shape{2, 3}, 0, 0, 3, 1, 2, 0))
	// index larger than input apart from dim is an error; along dim it is
	// not.
	_, err = torch.Scatter(input, 1, tensortest.I64(tensor.Shape{3, 1}, 0, 0, 0), src, "")
	if !errors.Is(err, engine.ErrShape) {
		t.Errorf("index too large: %v", err)
	}
	got, err = torch.ScatterAdd(input, 1, tensortest.I64(tensor.Shape{1, 4}, 0, 0, 0, 2), src)
	same(t, "index longer than input along dim", got, err, tensortest.I64(tensor.Shape{2, 3}, 6, 0, 4, 0, 0, 0))
}

// An empty index: any rank and type; scatters return input, gather an
// empty tensor shaped like index.
func TestEmptyIndex(t *testing.T) {
	input := tensortest.F32(tensor.Shape{2, 2}, 1, 2, 3, 4)
	for _, index := range []tensor.Tensor{
		tensortest.I64(tensor.Shape{0}),
		tensor.Must(tensor.New(tensor.Float32, tensor.Shape{3, 0, 2})),
		tensor.Must(tensor.New(tensor.String, tensor.Shape{0, 7})),
	} {
		got, err := torch.Scatter(input, 1, index, tensortest.F32(tensor.Shape{1}, 9), "")
		same(t, "scatter "+index.DType().String(), got, err, input)
		got, err = torch.ScatterValue(input, -1, index, torch.Float(1e300), "multiply")
		same(t, "scatter value "+index.DType().String(), got, err, input)
		got, err = torch.ScatterAdd(input, 0, index, tensortest.F32(tensor.Shape{}, 9))
		same(t, "scatter_add "+index.DType().String(), got, err, input)
		for _, r := range []torch.Reduce{torch.ReduceSum, torch.ReduceProd, torch.ReduceMean, torch.ReduceAmax, torch.ReduceAmin} {
			got, err = torch.ScatterReduce(input, 0, index, tensortest.F32(tensor.Shape{}, 9), r, false)
			same(t, "scatter_reduce "+string(r), got, err, input)
		}
		got, err = torch.Gather(input, 1, index)
		same(t, "gather", got, err, tensor.Must(tensor.New(tensor.Float32, index.Shape())))
	}
	// dim is still checked.
	if _, err := torch.Gather(input, 2, tensortest.I64(tensor.Shape{0})); !errors.Is(err, dialect.ErrAttribute) {
		t.Errorf("gather dim 2: %v", err)
	}
	// src's type is still checked.
	if _, err := torch.Scatter(input, 0, tensortest.I64(tensor.Shape{0}), tensortest.I64(tensor.Shape{1}, 1), ""); !errors.Is(err, engine.ErrType) {
		t.Errorf("scatter src type: %v", err)
	}
	// index_select: an empty index selects nothing but must be int32 or
	// int64 and at most 1-D.
	got, err := torch.IndexSelect(input, 1, tensortest.I32(tensor.Shape{0}))
	same(t, "index_select", got, err, tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2, 0})))
	if _, err := torch.IndexSelect(input, 1, tensortest.F32(tensor.Shape{0})); !errors.Is(err, dialect.ErrInput) {
		t.Errorf("index_select float index: %v", err)
	}
	// A complex amax with an empty index never reaches the kernel.
	c := tensor.Must(tensor.From(tensor.Shape{1}, []complex64{1 + 2i}))
	got, err = torch.ScatterReduce(c, 0, tensortest.I64(tensor.Shape{0}), c, "amax", true)
	same(t, "complex amax", got, err, c)
}

// 0-d tensors count as 1-D tensors of size 1.
func TestZeroDim(t *testing.T) {
	s := tensor.Scalar(float32(5))
	zero := tensor.Scalar(int64(0))
	got, err := torch.Scatter(s, 0, zero, tensor.Scalar(float32(7)), "")
	same(t, "scatter", got, err, tensor.Scalar(float32(7)))
	got, err = torch.ScatterValue(s, -1, zero, torch.Float(2), "multiply")
	same(t, "scatter value", got, err, tensor.Scalar(float32(10)))
	got, err = torch.ScatterReduce(s, 0, tensortest.I64(tensor.Shape{2}, 0, 0), tensortest.F32(tensor.Shape{2}, 1, 3), "mean", true)
	same(t, "scatter_reduce 0-d input, 1-D index", got, err, tensor.Scalar(float32(3)))
	got, err = torch.ScatterAdd(tensortest.F32(tensor.Shape{3}, 1, 2, 3), 0, tensor.Scalar(int64(2)), tensor.Scalar(float32(10)))
	same(t, "scatter_add 1-D input, 0-d index", got, err, tensortest.F32(tensor.Shape{3}, 1, 2, 13))
	got, err = torch.Gather(s, 0, zero)
	same(t, "gather", got, err, s)
	got, err = torch.Gather(s, -1, tensortest.I64(tensor.Shape{3}, 0, 0, 0))
	same(t, "gather 0-d input, 1-D index", got, err, tensortest.F32(tensor.Shape{3}, 5, 5, 5))
	got, err = torch.Gather(tensortest.F32(tensor.Shape{3}, 1, 2, 3), 0, tensor.Scalar(int64(1)))
	same(t, "gather 1-D input, 0-d index", got, err, tensor.Scalar(float32(2)))
	got, err = torch.IndexSelect(s, 0, tensortest.I64(tensor.Shape{1}, 0))
	same(t, "index_select 0-d input", got, err, s)
	got, err = torch.IndexSelect(tensortest.F32(tensor.Shape{2, 2}, 1, 2, 3, 4), 0, tensor.Scalar(int64(1)))
	same(t, "index_select 0-d index", got, err, tensortest.F32(tensor.Shape{1, 2}, 3, 4))

	for _, tt := range []struct {
		name string
		err  error
		want error
	}{
		{"scatter index 1", err1(torch.Scatter(s, 0, tensor.Scalar(int64(1)), s, "")), engine.ErrIndex},
		{"dim 1 of a 0-d input", err1(torch.Gather(s, 1, zero)), dialect.ErrAttribute},
		{"dim -2 of a 0-d input", err1(torch.Gather(s, -2, zero)), dialect.ErrAttribute},
		{"0-d input, 2-D index", err1(torch.Gather(s, 0, tensortest.I64(tensor.Shape{1, 1}, 0))), engine.ErrShape},
		{"index_select two values into a 0-d input", err1(torch.IndexSelect(s, 0, tensortest.I64(tensor.Shape{2}, 0, 0))), engine.ErrShape},
		{"index_select 2-D index", err1(torch.IndexSelect(tensortest.F32(tensor.Shape{2}, 1, 2), 0, tensortest.I64(tensor.Shape{1, 1}, 0))), engine.ErrShape},
	} {
		if !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, tt.err, tt.want)
		}
	}
}

func err1(_ tensor.Tensor, err error) error { return err }

// Errors name the operator and say what is wrong and where.
func TestErrorMessages(t *testing.T) {
	x := tensortest.F32(tensor.Shape{3, 4}, make([]float32, 12)...)
	src := tensortest.F32(tensor.Shape{3, 4}, make([]float32, 12)...)
	tests := []struct {
		err  error
		kind error
		msg  string
	}{
		{err1(torch.Gather(x, 1, tensortest.I64(tensor.Shape{2, 2}, 0, 1, 4, 0))), engine.ErrIndex,
			"torch.gather: index out of range: index[1,0] = 4 is out of bounds for dimension 1 with size 4 (input [3,4], allowed range [0, 3])"},
		{err1(torch.Scatter(x, 0, tensortest.I64(tensor.Shape{1, 2}, 0, -1), src, "")), engine.ErrIndex,
			"torch.scatter: index out of range: index[0,1] = -1 is out of bounds for dimension 0 with size 3 (input [3,4], allowed range [0, 2])"},
		{err1(torch.ScatterReduce(x, -1, tensortest.I64(tensor.Shape{1, 1}, 5), src, "sum", true)), engine.ErrIndex,
			"torch.scatter_reduce: index out of range: index[0,0] = 5 is out of bounds for dimension 1 with size 4 (input [3,4], allowed range [0, 3])"},
		{err1(torch.ScatterReduce(x, -1, tensortest.I64(tensor.Shape{1, 1}, 5), src, "amin", false)), engine.ErrIndex,
			"torch.scatter_reduce: index out of range: index[0,0] = 5 is out of bounds for dimension 1 with size 4 (input [3,4], allowed range [0, 3])"},
		{err1(torch.IndexSelect(x, 0, tensortest.I32(tensor.Shape{3}, 0, 2, 3))), engine.ErrIndex,
			"torch.index_select: index out of range: index[2] = 3 is out of bounds for dimension 0 with size 3 (input [3,4], allowed range [0, 2])"},
		{err1(torch.ScatterValue(tensor.Scalar(int8(0)), 0, tensor.Scalar(int64(1)), torch.Int(1), "")), engine.ErrIndex,
			"torch.scatter: index out of range: index = 1 is out of bounds for dimension 0 with size 1 (input [], allowed range [0, 0])"},
		{err1(torch.Gather(tensortest.F32(tensor.Shape{2, 0}), 1, tensortest.I64(tensor.Shape{1, 1}, 0))), engine.ErrIndex,
			"torch.gather: index out of range: index[0,0] = 0 is out of bounds for dimension 1 with size 0 (input [2,0])"},
		{err1(torch.Scatter(x, 0, tensortest.I64(tensor.Shape{1, 1}, 0), tensortest.I64(tensor.Shape{1, 1}, 1), "")), engine.ErrType,
			"torch.scatter: unsupported element type: src has type int64, input has type float32; they must be equal"},
		{err1(torch.ScatterAdd(x, 0, tensortest.I64(tensor.Shape{1, 1}, 0), tensortest.F64(tensor.Shape{1, 1}, 1))), engine.ErrType,
			"torch.scatter_add: unsupported element type: src has type float64, input has type float32; they must be equal"},
		{err1(torch.Gather(x, 0, tensor.Must(tensor.From(tensor.Shape{1, 1}, []int16{0})))), dialect.ErrInput,
			"torch.gather: invalid input: index must be int64, got int16"},
		{err1(torch.Scatter(x, 0, tensortest.I32(tensor.Shape{1, 1}, 0), tensortest.F32(tensor.Shape{1, 1}, 1), "")), dialect.ErrInput,
			"torch.scatter: invalid input: index must be int64, got int32"},
		{err1(torch.Gather(x, 2, tensortest.I64(tensor.Shape{1, 1}, 0))), dialect.ErrAttribute,
			"torch.gather: invalid attribute: dim 2 is out of range [-2, 1] for input of rank 2"},
		{err1(torch.Gather(x, 0, tensortest.I64(tensor.Shape{1}, 0))), engine.ErrShape,
			"torch.gather: shape mismatch: index has rank 1, input has rank 2; they must be equal (0-d counts as 1-D)"},
		{err1(torch.Gather(x, 0, tensortest.I64(tensor.Shape{1, 5}, 0, 0, 0, 0, 0))), engine.ErrShape,
			"torch.gather: shape mismatch: index [1,5] is larger than input [3,4] in dimension 1 (only dimension dim = 0 may be larger)"},
		{err1(torch.Scatter(x, 0, tensortest.I64(tensor.Shape{1, 2}, 0, 0), tensortest.F32(tensor.Shape{1, 1}, 0), "")), engine.ErrShape,
			"torch.scatter: shape mismatch: index [1,2] is larger than src [1,1] in dimension 1"},
		{err1(torch.Scatter(x, 0, tensortest.I64(tensor.Shape{1, 2}, 0, 0), tensortest.F32(tensor.Shape{2}, 0, 0), "")), engine.ErrShape,
			"torch.scatter: shape mismatch: index has rank 2, src has rank 1; they must be equal (0-d counts as 1-D)"},
		{err1(torch.Scatter(x, 0, tensortest.I64(tensor.Shape{1, 1}, 0), src, "sum")), dialect.ErrAttribute,
			`torch.scatter: invalid attribute: reduce "sum" is not one of add, multiply; leave reduce out for a plain write`},
		{err1(torch.ScatterReduce(x, 0, tensortest.I64(tensor.Shape{1, 1}, 0), src, "max", true)), dialect.ErrAttribute,
			`torch.scatter_reduce: invalid attribute: reduce "max" is not one of sum, prod, mean, amax, amin`},
		{err1(torch.ScatterReduce(x, 0, tensortest.I64(tensor.Shape{1, 1}, 0), src, "", true)), dialect.ErrAttribute,
			"torch.scatter_reduce: invalid attribute: reduce is required (sum, prod, mean, amax, amin)"},
		{err1(torch.ScatterValue(tensortest.FromInts(tensor.Int8, tensor.Shape{2}, 0, 0), 0, tensortest.I64(tensor.Shape{1}, 0), torch.Int(300), "")),
			dialect.ErrInput, "torch.scatter: invalid input: value 300 cannot be converted to int8 without overflow"},
		{err1(torch.ScatterValue(x, 0, tensortest.I64(tensor.Shape{1, 1}, 0), torch.Complex(1+2i), "")),
			dialect.ErrInput, "torch.scatter: invalid input: value (1+2j) cannot be converted to float32 without overflow"},
		{err1(torch.ScatterReduce(tensor.Must(tensor.From(tensor.Shape{1}, []complex128{1})), 0, tensortest.I64(tensor.Shape{1}, 0),
			tensor.Must(tensor.From(tensor.Shape{1}, []complex128{1})), "amax", true)),
			dialect.ErrInput, `torch.scatter_reduce: invalid input: reduce "amax" is not defined for complex128 input, which has no order`},
		{err1(torch.Gather(tensortest.FromInts(tensor.Uint32, tensor.Shape{1}, 1), 0, tensortest.I64(tensor.Shape{1}, 0))),
			dialect.ErrInput, "torch.gather: invalid input: uint32 input is not supported (PyTorch's CPU kernels are not built for uint32)"},
		{err1(torch.Gather(tensortest.FromInts(tensor.String, tensor.Shape{1}, 1), 0, tensortest.I64(tensor.Shape{1}, 0))),
			dialect.ErrInput, "torch.gather: invalid input: input is a string tensor; torch has no string tensors"},
		{err1(torch.Scatter(x, 0, tensor.Tensor{}, src, "")), dialect.ErrInput, `torch.scatter: invalid input: missing input "index"`},
		{err1(torch.Scatter(x, 0, tensortest.I64(tensor.Shape{1, 1}, 0), tensor.Tensor{}, "")), dialect.ErrInput, `torch.scatter: invalid input: missing input "src"`},
		{err1(torch.ScatterAdd(tensor.Tensor{}, 0, tensortest.I64(tensor.Shape{1, 1}, 0), src)), dialect.ErrInput, `torch.scatter_add: invalid input: missing input "input"`},
		{err1(torch.IndexSelect(x, 0, tensortest.I64(tensor.Shape{1, 1}, 0))), engine.ErrShape, "torch.index_select: shape mismatch: index must be 0-d or 1-D, got shape [1,1]"},
	}
	for _, tt := range tests {
		var oe *dialect.OpError
		switch {
		case tt.err == nil:
			t.Errorf("no error, want %q", tt.msg)
		case !errors.Is(tt.err, tt.kind) || !errors.As(tt.err, &oe):
			t.Errorf("%v: not a %v in an *OpError", tt.err, tt.kind)
		case tt.err.Error() != tt.msg:
			t.Errorf("got  %s\nwant %s", tt.err, tt.msg)
		}
	}
	// An index error carries the engine's details.
	var ie *engine.IndexError
	err := err1(torch.Gather(x, 1, tensortest.I64(tensor.Shape{2, 2}, 0, 1, 4, 0)))
	if !errors.As(err, &ie) || ie.Value != 4 || ie.Dim != 1 || ie.Size != 4 || len(ie.Pos) != 2 || ie.Pos[0] != 1 {
		t.Errorf("IndexError: %+v", ie)
	}
}

// In place, nothing is written when an index is out of range.
func TestNothingWrittenOnError(t *testing.T) {
	buf := []float32{1, 2, 3, 4}
	x := tensor.Must(tensor.From(tensor.Shape{4}, buf))
	for _, r := range []torch.Reduce{torch.ReduceSum, torch.ReduceMean, torch.ReduceAmax} {
		err := torch.ScatterReduceInto(x, x, 0, tensortest.I64(tensor.Shape{3}, 0, 1, 9), tensortest.F32(tensor.Shape{3}, 5, 5, 5), r, false)
		if !errors.Is(err, engine.ErrIndex) || buf[0] != 1 || buf[1] != 2 {
			t.Errorf("%s: %v, %v", r, err, buf)
		}
	}
	err := torch.ScatterValueInto(x, x, 0, tensortest.I64(tensor.Shape{2}, 0, -1), torch.Float(9), "")
	if !errors.Is(err, engine.ErrIndex) || buf[0] != 1 {
		t.Errorf("value: %v, %v", err, buf)
	}
}

func TestScalarConversion(t *testing.T) {
	tests := []struct {
		value torch.Scalar
		dtype tensor.DType
		want  any // nil: overflow
	}{
		{torch.Float(1.9), tensor.Int32, int32(1)},
		{torch.Float(-1.9), tensor.Int64, int64(-1)},
		{torch.Float(127.5), tensor.Int8, nil},
		{torch.Float(-128.5), tensor.Int8, nil},
		{torch.Float(-128), tensor.Int8, int8(-128)},
		{torch.Float(math.NaN()), tensor.Int16, nil},
		{torch.Float(math.Inf(1)), tensor.Int64, nil},
		{torch.Float(255), tensor.Uint8, uint8(255)},
		{torch.Float(255.5), tensor.Uint8, nil},
		{torch.Float(math.Copysign(0, -1)), tensor.Uint8, uint8(0)},
		{torch.Float(-0.5), tensor.Uint8, nil},
		{torch.Float(9.223372036854775807e18), tensor.Int64, int64(math.MinInt64)},
		{torch.Int(-1), tensor.Uint8, uint8(255)},
		{torch.Int(-255), tensor.Uint8, uint8(1)},
		{torch.Int(-256), tensor.Uint8, nil},
		{torch.Int(256), tensor.Uint8, nil},
		{torch.Int(-129), tensor.Int8, nil},
		{torch.Int(math.MaxInt64), tensor.Int64, int64(math.MaxInt64)},
		{torch.Int(1 << 40), tensor.Int32, nil},
		{torch.Int(2), tensor.Bool, true},
		{torch.Float(math.NaN()), tensor.Bool, true},
		{torch.Float(0), tensor.Bool, false},
		{torch.Complex(1i), tensor.Bool, false},
		{torch.Bool(true), tensor.Float32, float32(1)},
		{torch.Bool(true), tensor.Int8, int8(1)},
		{torch.Float(1e39), tensor.Float32, nil},
		{torch.Float(math.Inf(-1)), tensor.Float32, float32(math.Inf(-1))},
		{torch.Float(65504), tensor.Float16, float16.Fromfloat32(65504)},
		{torch.Float(65519), tensor.Float16, nil},
		{torch.Int(65505), tensor.Float16, nil},
		{torch.Int(-65504), tensor.Float16, float16.Fromfloat32(-65504)},
		{torch.Float(3.38e38), tensor.BFloat16, bfloat16.FromFloat32(3.38e38)},
		{torch.Float(3.4e38), tensor.BFloat16, nil}, // above bfloat16's largest finite value, 3.3895e38
		{torch.Float(1.23), tensor.BFloat16, bfloat16.FromFloat32(1.23)},
		{torch.Int(1<<53 + 1), tensor.Float64, float64(1 << 53)},
		{torch.Complex(2), tensor.Int16, int16(2)},
		{torch.Complex(2 + 1i), tensor.Int16, nil},
		{torch.Complex(2 + 1i), tensor.Complex64, complex64(2 + 1i)},
		{torch.Complex(complex(1e39, 0)), tensor.Complex64, nil},
		{torch.Float(1.5), tensor.Complex128, complex(1.5, 0)},
		{torch.Int(3), tensor.Complex64, complex64(3)},
	}
	for _, tt := range tests {
		input := tensor.Must(tensor.New(tt.dtype, tensor.Shape{1}))
		got, err := torch.ScatterValue(input, 0, tensortest.I64(tensor.Shape{1}, 0), tt.value, "")
		if tt.want == nil {
			if !errors.Is(err, dialect.ErrInput) || !strings.Contains(err.Error(), "without overflow") {
				t.Errorf("%v to %v: got %v, %v; want an overflow", tt.value, tt.dtype, got, err)
			}
			continue
		}
		if err != nil || got.At(0) != tt.want {
			t.Errorf("%v to %v: got %v, %v; want %v", tt.value, tt.dtype, got, err, tt.want)
		}
	}
}

func TestScalarOf(t *testing.T) {
	tests := []struct {
		in   tensor.Tensor
		want string
	}{
		{tensor.Scalar(true), "True"},
		{tensor.Scalar(int64(-3)), "-3"},
		{tensor.Scalar(uint8(200)), "200"},
		{tensor.Scalar(float32(2.5)), "2.5"},
		{tensor.Scalar(math.Inf(-1)), "-inf"},
		{tensor.Scalar(complex64(1 - 2i)), "(1-2j)"},
	}
	for _, tt := range tests {
		s, err := torch.ScalarOf(tt.in)
		if err != nil || s.String() != tt.want {
			t.Errorf("%v: got %v, %v; want %s", tt.in, s, err, tt.want)
		}
	}
	for _, bad := range []tensor.Tensor{tensor.Scalar("x"), tensor.Scalar(uint64(math.MaxUint64)), tensortest.F32(tensor.Shape{1}, 1), {}} {
		if _, err := torch.ScalarOf(bad); !errors.Is(err, dialect.ErrInput) {
			t.Errorf("%v: got %v, want ErrInput", bad, err)
		}
	}
	// The zero Scalar is the int 0.
	if s := (torch.Scalar{}); s.String() != "0" {
		t.Errorf("zero Scalar is %v", s)
	}
}

func TestInto(t *testing.T) {
	input := tensortest.F32(tensor.Shape{2, 2}, 1, 2, 3, 4)
	index := tensortest.I64(tensor.Shape{1, 2}, 1, 0)
	out := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1, 2}))
	if err := torch.GatherInto(out, input, 0, index); err != nil || !tensor.Equal(out, tensortest.F32(tensor.Shape{1, 2}, 3, 2)) {
		t.Errorf("GatherInto: %v %v", out, err)
	}
	sel := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2, 1}))
	if err := torch.IndexSelectInto(sel, input, 1, tensortest.I64(tensor.Shape{1}, 1)); err != nil || !tensor.Equal(sel, tensortest.F32(tensor.Shape{2, 1}, 2, 4)) {
		t.Errorf("IndexSelectInto: %v %v", sel, err)
	}
	if err := torch.ScatterAddInto(input, input, 0, index, tensortest.F32(tensor.Shape{1, 2}, 10, 20)); err != nil ||
		!tensor.Equal(input, tensortest.F32(tensor.Shape{2, 2}, 1, 22, 13, 4)) {
		t.Errorf("ScatterAddInto in place: %v %v", input, err)
	}
	wrong := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2, 2}))
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"gather dst shape", torch.GatherInto(wrong, input, 0, index), engine.ErrShape},
		{"gather dst type", torch.GatherInto(tensor.Must(tensor.New(tensor.Float64, tensor.Shape{1, 2})), input, 0, index), engine.ErrType},
		{"gather dst is input", torch.GatherInto(input, input, 0, tensor.Must(tensor.New(tensor.Int64, tensor.Shape{2, 2}))), engine.ErrArgument},
		{"index_select dst shape", torch.IndexSelectInto(wrong, input, 1, tensortest.I64(tensor.Shape{1}, 1)), engine.ErrShape},
		{"scatter dst shape", torch.ScatterInto(sel, input, 0, index, input, ""), engine.ErrShape},
		{"scatter dst is src", torch.ScatterInto(wrong, input, 0, index, wrong, ""), engine.ErrArgument},
		{"scatter no dst", torch.ScatterReduceInto(tensor.Tensor{}, input, 0, index, input, "sum", true), engine.ErrArgument},
	}
	for _, tt := range tests {
		var oe *dialect.OpError
		if !errors.Is(tt.err, tt.want) || !errors.As(tt.err, &oe) {
			t.Errorf("%s: got %v, want %v", tt.name, tt.err, tt.want)
		}
	}
}

func lookup(name string) *dialect.Op { return dialect.Find(torch.Ops(), name) }

func TestOpTable(t *testing.T) {
	i64, both := dialect.Types(tensor.Int64), dialect.Types(tensor.Int32, tensor.Int64) // index is a LongTensor, or also an IntTensor
	type want struct {
		family string
		types  dialect.TypeSet
		neg    engine.Negative
	}
	names := map[string]want{
		"torch.scatter": {"scatter_elements", i64, engine.NegativeError}, "torch.scatter_add": {"scatter_elements", i64, engine.NegativeError},
		"torch.scatter_reduce": {"scatter_elements", i64, engine.NegativeError}, "torch.gather": {"gather_elements", i64, engine.NegativeError},
		"torch.index_select": {"gather", both, engine.NegativeError},
		"torch.index_add":    {"segment_sum", both, engine.NegativeError}, "torch.index_copy": {"index_copy", i64, engine.NegativeError},
		"torch.index_fill": {"index_fill", i64, engine.NegativeFromEnd}, "torch.index_reduce": {"segment_max", both, engine.NegativeError},
		"torch.take": {"take", i64, engine.NegativeFromEnd}, "torch.take_along_dim": {"take_along_axis", i64, engine.NegativeError},
		"torch.put":            {"put", i64, engine.NegativeFromEnd},
		"torch.index_put":      {"index_put", dialect.Types(tensor.Int32, tensor.Int64, tensor.Bool, tensor.Uint8), engine.NegativeFromEnd},
		"torch.masked_scatter": {"masked_scatter", dialect.Types(tensor.Bool), engine.NegativeError},
	}
	for _, op := range torch.Ops() {
		w, ok := names[op.Name]
		if !ok || op.Family != w.family {
			t.Errorf("%s: unexpected operator or family %q", op.Name, op.Family)
		}
		delete(names, op.Name)
		if v, err := op.Version(0); err != nil || v != 1 {
			t.Errorf("%s: version %d, %v", op.Name, v, err)
		}
		b := op.Behavior(1)
		if b.Index.Negative != w.neg || b.Index.OutOfRange != engine.OutOfRangeError || b.IndexTypes != w.types {
			t.Errorf("%s: behavior %+v", op.Name, b)
		}
	}
	if len(names) != 0 {
		t.Errorf("missing operators: %v", names)
	}
	if b := lookup("torch.scatter_reduce").Behavior(1); b.IncludeSelf != "include_self" || b.Reductions["mean"] != engine.Mean {
		t.Errorf("scatter_reduce behavior %+v", b)
	}
}

func TestOpRun(t *testing.T) {
	attrs := func(kv ...any) map[string]dialect.Value {
		m := map[string]dialect.Value{}
		for i := 0; i < len(kv); i += 2 {
			switch v := kv[i+1].(type) {
			case int:
				m[kv[i].(string)] = dialect.Value{Kind: dialect.Int, Int: int64(v)}
			case float64:
				m[kv[i].(string)] = dialect.Value{Kind: dialect.Float, Float: v}
			case string:
				m[kv[i].(string)] = dialect.Value{Kind: dialect.String, Str: v}
			case bool:
				m[kv[i].(string)] = dialect.Value{Kind: dialect.Bool, Bool: v}
			}
		}
		return m
	}
	full := tensortest.F32(tensor.Shape{2, 4}, 2, 2, 2, 2, 2, 2, 2, 2)
	index := tensortest.I64(tensor.Shape{2, 1}, 2, 3)
	scatter := lookup("torch.scatter")
	// value given as an attribute, as --attr value=1.23 gives it.
	out, err := scatter.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"input": full, "index": index},
		Attrs: attrs("dim", 1, "value", 1.23, "reduce", "multiply")})
	v := float32(1.23)
	same(t, "value attribute", out, err, tensortest.F32(tensor.Shape{2, 4}, 2, 2, 2*v, 2, 2, 2, 2, 2*v))
	// value given as an int64 or bool tensor.
	out, err = scatter.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"input": full, "index": index, "value": tensor.Scalar(int64(7))},
		Attrs: attrs("dim", -1)})
	same(t, "value int64 input", out, err, tensortest.F32(tensor.Shape{2, 4}, 2, 2, 7, 2, 2, 2, 2, 7))
	out, err = scatter.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"input": full, "index": index, "value": tensor.Scalar(true)},
		Attrs: attrs("dim", -1)})
	same(t, "value bool input", out, err, tensortest.F32(tensor.Shape{2, 4}, 2, 2, 1, 2, 2, 2, 2, 1))
	out, err = scatter.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"input": full, "index": index, "src": full},
		Attrs: attrs("dim", 1, "reduce", "add")})
	same(t, "src", out, err, tensortest.F32(tensor.Shape{2, 4}, 2, 2, 4, 2, 2, 2, 2, 4))

	reduce := lookup("torch.scatter_reduce")
	in := map[string]tensor.Tensor{"input": tensortest.F32(tensor.Shape{4}, 1, 2, 3, 4), "index": tensortest.I64(tensor.Shape{6}, 0, 1, 0, 1, 2, 1),
		"src": tensortest.F32(tensor.Shape{6}, 1, 2, 3, 4, 5, 6)}
	out, err = reduce.Run(dialect.Call{Inputs: in, Attrs: attrs("dim", 0, "reduce", "sum")})
	same(t, "include_self default", out, err, tensortest.F32(tensor.Shape{4}, 5, 14, 8, 4))
	out, err = reduce.Run(dialect.Call{Inputs: in, Attrs: attrs("dim", 0, "reduce", "sum", "include_self", false)})
	same(t, "include_self false", out, err, tensortest.F32(tensor.Shape{4}, 4, 12, 5, 4))
	for name, want := range map[string]tensor.Tensor{
		"torch.scatter_add":  tensortest.F32(tensor.Shape{4}, 5, 14, 8, 4),
		"torch.gather":       tensortest.F32(tensor.Shape{6}, 1, 2, 1, 2, 3, 2),
		"torch.index_select": tensortest.F32(tensor.Shape{6}, 1, 2, 1, 2, 3, 2),
	} {
		call := dialect.Call{Inputs: map[string]tensor.Tensor{"input": in["input"], "index": in["index"]}, Attrs: attrs("dim", 0)}
		if name == "torch.scatter_add" {
			call.Inputs["src"] = in["src"]
		}
		out, err := lookup(name).Run(call)
		same(t, name, out, err, want)
	}

	tests := []struct {
		name string
		op   *dialect.Op
		call dialect.Call
		want error
	}{
		{"no dim", scatter, dialect.Call{Inputs: map[string]tensor.Tensor{"input": full, "index": index, "src": full}}, dialect.ErrAttribute},
		{"src and value", scatter, dialect.Call{Inputs: map[string]tensor.Tensor{"input": full, "index": index, "src": full},
			Attrs: attrs("dim", 1, "value", 1.0)}, dialect.ErrInput},
		{"neither src nor value", scatter, dialect.Call{Inputs: map[string]tensor.Tensor{"input": full, "index": index},
			Attrs: attrs("dim", 1)}, dialect.ErrInput},
		{"value of rank 1", scatter, dialect.Call{Inputs: map[string]tensor.Tensor{"input": full, "index": index, "value": tensortest.F32(tensor.Shape{1}, 1)},
			Attrs: attrs("dim", 1)}, dialect.ErrInput},
		{"reduce none", scatter, dialect.Call{Inputs: map[string]tensor.Tensor{"input": full, "index": index, "src": full},
			Attrs: attrs("dim", 1, "reduce", "none")}, dialect.ErrAttribute},
		{"no reduce", reduce, dialect.Call{Inputs: in, Attrs: attrs("dim", 0)}, dialect.ErrAttribute},
		{"unknown attribute", reduce, dialect.Call{Inputs: in, Attrs: attrs("dim", 0, "reduce", "sum", "axis", 0)}, dialect.ErrAttribute},
		{"missing src", reduce, dialect.Call{Inputs: map[string]tensor.Tensor{"input": full, "index": index},
			Attrs: attrs("dim", 0, "reduce", "sum")}, dialect.ErrInput},
	}
	for _, tt := range tests {
		_, err := tt.op.Run(tt.call)
		var oe *dialect.OpError
		if !errors.Is(err, tt.want) || !errors.As(err, &oe) || oe.Op != tt.op.Name {
			t.Errorf("%s: got %v, want %v from %s", tt.name, err, tt.want, tt.op.Name)
		}
	}
}

// Complex products and a mean's division are PyTorch's c10::complex
// arithmetic, every operation rounded to the parts' precision, not Go's.
// (1+e + ei)(1+e - ei) with e = 2^-12 is 1 + 2^-11 + 2^-23 exactly (Go's
// complex64 product), but c10::complex rounds (1+e)^2 to 1 + 2^-11 first
// and adding e^2 = 2^-24 is then a tie, to 1 + 2^-11. The mean of 1, 2
// and 2 multiplies 5 by the rounded 1/3: 0x3fd55556, where 5/3 is
// 0x3fd55555 (and in float64 0x3ffaaaaaaaaaaaaa, where 5/3 is ...ab).
func TestComplexArithmetic(t *testing.T) {
	e := float32(math.Ldexp(1, -12))
	c64 := func(v ...complex64) tensor.Tensor { return tensor.Must(tensor.From(tensor.Shape{len(v)}, v)) }
	x, y := c64(complex(1+e, e)), c64(complex(1+e, -e))
	want := c64(complex(1+2*e, 0))
	got, err := torch.ScatterReduce(x, 0, tensortest.I64(tensor.Shape{1}, 0), y, "prod", true)
	same(t, "scatter_reduce prod", got, err, want)
	got, err = torch.ScatterReduce(x, 0, tensortest.I64(tensor.Shape{1}, 0), y, "prod", false)
	same(t, "scatter_reduce prod without self", got, err, c64(complex(1+e, -e)))
	got, err = torch.ScatterReduce(c64(1), 0, tensortest.I64(tensor.Shape{2}, 0, 0), tensor.Must(tensor.From(tensor.Shape{2}, []complex64{complex(1+e, e), complex(1+e, -e)})), "prod", false)
	same(t, "scatter_reduce prod of two updates", got, err, want)
	got, err = torch.Scatter(x, 0, tensortest.I64(tensor.Shape{1}, 0), y, "multiply")
	same(t, "scatter multiply", got, err, want)

	got, err = torch.ScatterReduce(c64(1, 7), 0, tensortest.I64(tensor.Shape{2}, 0, 0), c64(2, 2), "mean", true)
	same(t, "complex64 mean", got, err, c64(complex(math.Float32frombits(0x3fd55556), 0), 7))
	c128 := tensor.Must(tensor.From(tensor.Shape{1}, []complex128{1}))
	got, err = torch.ScatterReduce(c128, 0, tensortest.I64(tensor.Shape{2}, 0, 0), tensor.Must(tensor.From(tensor.Shape{2}, []complex128{2, 2})), "mean", true)
	same(t, "complex128 mean", got, err, tensor.Must(tensor.From(tensor.Shape{1}, []complex128{complex(math.Float64frombits(0x3ffaaaaaaaaaaaaa), 0)})))
	// Every position divides, by 1 where nothing landed: inf+inf i / 1
	// is (inf + inf*0) + (inf - inf*0)i, NaN+NaN i, where Go's division
	// recovers inf+inf i.
	inf := float32(math.Inf(1))
	got, err = torch.ScatterReduce(c64(complex(inf, inf), 1), 0, tensortest.I64(tensor.Shape{1}, 1), c64(3), "mean", true)
	if v := got.Data().([]complex64); err != nil || real(v[0]) == real(v[0]) || imag(v[0]) == imag(v[0]) || v[1] != 2 {
		t.Errorf("mean of inf+inf i: got %v, %v; want [NaN+NaNi 2]", got, err)
	}
}
