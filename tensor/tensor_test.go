package tensor_test

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
	"github.com/x448/float16"
)

func TestNumElements(t *testing.T) {
	tests := []struct {
		shape tensor.Shape
		n     int
		err   bool
	}{
		{tensor.Shape{}, 1, false},
		{tensor.Shape{0}, 0, false},
		{tensor.Shape{2, 3, 4}, 24, false},
		{tensor.Shape{3, 0, 5}, 0, false},
		{tensor.Shape{math.MaxInt, 0}, 0, false}, // a zero dimension makes any product zero
		{tensor.Shape{math.MaxInt}, math.MaxInt, false},
		{tensor.Shape{math.MaxInt, 2}, 0, true},
		{tensor.Shape{1 << (bits.UintSize / 2), 1 << (bits.UintSize / 2)}, 0, true}, // the product wraps to 0 in an int's bits
		{tensor.Shape{1 << (bits.UintSize/2 - 1), 1 << (bits.UintSize/2 - 1), 4}, 0, true},
		{tensor.Shape{2, -1}, 0, true},
	}
	for _, tt := range tests {
		n, err := tt.shape.NumElements()
		if (err != nil) != tt.err || n != tt.n {
			t.Errorf("%v: got %d, %v", tt.shape, n, err)
		}
		if err != nil && !errors.Is(err, tensor.ErrShape) {
			t.Errorf("%v: %v does not match ErrShape", tt.shape, err)
		}
	}
}

func TestNewChecksBeforeAllocating(t *testing.T) {
	if _, err := tensor.New(tensor.Float32, tensor.Shape{math.MaxInt, math.MaxInt}); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("got %v", err)
	}
	if _, err := tensor.New(tensor.DType(99), tensor.Shape{1}); !errors.Is(err, tensor.ErrDType) {
		t.Errorf("got %v", err)
	}
	for _, d := range tensor.DTypes() {
		x, err := tensor.New(d, tensor.Shape{2, 0, 3})
		if err != nil || x.Len() != 0 || x.DType() != d || !x.Shape().Equal(tensor.Shape{2, 0, 3}) {
			t.Errorf("%v: %v %v", d, x, err)
		}
		s, err := tensor.New(d, tensor.Shape{})
		if err != nil || s.Len() != 1 || s.Rank() != 0 {
			t.Errorf("%v scalar: %v %v", d, s, err)
		}
	}
}

func TestWrapSharesMemory(t *testing.T) {
	buf := []float32{1, 2, 3, 4, 5, 6}
	x, err := tensor.From(tensor.Shape{2, 3}, buf)
	if err != nil {
		t.Fatal(err)
	}
	x.Data().([]float32)[0] = 9
	if buf[0] != 9 {
		t.Error("From copied the slice")
	}
	if _, err := tensor.From(tensor.Shape{4}, buf); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("length mismatch: %v", err)
	}
	if _, err := tensor.Wrap(tensor.Shape{1}, []int{1}); !errors.Is(err, tensor.ErrDType) {
		t.Errorf("[]int: %v", err)
	}
	empty, err := tensor.From[int64](tensor.Shape{0}, nil)
	if err != nil || empty.Data().([]int64) == nil {
		t.Errorf("nil slice: %v", err)
	}
	v, err := tensor.Values[float32](x)
	if err != nil || &v[0] != &buf[0] {
		t.Errorf("Values: %v", err)
	}
	if _, err := tensor.Values[int64](x); !errors.Is(err, tensor.ErrDType) {
		t.Errorf("Values of the wrong type: %v", err)
	}
	r, err := x.Reshape(tensor.Shape{3, 2})
	if err != nil || r.Data().([]float32)[0] != 9 {
		t.Errorf("Reshape: %v", err)
	}
	if _, err := x.Reshape(tensor.Shape{4}); err == nil {
		t.Error("Reshape to another element count succeeded")
	}
	c := x.Clone()
	c.Data().([]float32)[1] = 7
	if buf[1] == 7 {
		t.Error("Clone shares memory")
	}
}

func TestEqualComparesBits(t *testing.T) {
	nan := math.NaN()
	negZero := math.Copysign(0, -1)
	f := func(v ...float64) tensor.Tensor { return tensor.Must(tensor.From(tensor.Shape{len(v)}, v)) }
	if !tensor.Equal(f(nan, 1), f(nan, 1)) {
		t.Error("NaN with the same bits differs")
	}
	if tensor.Equal(f(0), f(negZero)) {
		t.Error("+0 equals -0")
	}
	if i := tensor.FirstDiff(f(1, 2, 3), f(1, 2, 4)); i != 2 {
		t.Errorf("FirstDiff = %d", i)
	}
	if tensor.Equal(f(1, 2), tensor.Must(tensor.From(tensor.Shape{2}, []float32{1, 2}))) {
		t.Error("float64 equals float32")
	}
	if tensor.Equal(f(1, 2), tensor.Must(f(1, 2).Reshape(tensor.Shape{2, 1}))) {
		t.Error("shapes differ but Equal")
	}
	c := func(v complex64) tensor.Tensor { return tensor.Scalar(v) }
	if tensor.Equal(c(complex(0, 1)), c(complex(float32(negZero), 1))) {
		t.Error("complex -0 equals +0")
	}
	h := tensor.Scalar(float16.Fromfloat32(1))
	if !tensor.Equal(h, tensor.Scalar(float16.Fromfloat32(1))) || tensor.Equal(h, tensor.Scalar(float16.Fromfloat32(2))) {
		t.Error("float16 comparison")
	}
}

func TestDTypes(t *testing.T) {
	if len(tensor.DTypes()) != 16 {
		t.Fatalf("%d types", len(tensor.DTypes()))
	}
	for _, d := range tensor.DTypes() {
		p, err := tensor.ParseDType(d.String())
		if err != nil || p != d {
			t.Errorf("ParseDType(%q) = %v, %v", d, p, err)
		}
	}
	for name, want := range map[string]tensor.DType{"float": tensor.Float32, "double": tensor.Float64,
		"tensor(int64)": tensor.Int64, "FLOAT16": tensor.Float16, "half": tensor.Float16} {
		if d, err := tensor.ParseDType(name); err != nil || d != want {
			t.Errorf("ParseDType(%q) = %v, %v", name, d, err)
		}
	}
	// IntegerTypes: every integer type once, signed first, each group from
	// the narrowest.
	rank := func(d tensor.DType) int {
		if d.IsUnsigned() {
			return 100 + d.Size()
		}
		return d.Size()
	}
	got, n := tensor.IntegerTypes(), 0
	for _, d := range tensor.DTypes() {
		if d.IsInteger() {
			n++
		}
	}
	sorted := slices.IsSortedFunc(got, func(a, b tensor.DType) int { return rank(a) - rank(b) })
	if len(got) != n || !sorted || len(slices.Compact(slices.Clone(got))) != n ||
		slices.ContainsFunc(got, func(d tensor.DType) bool { return !d.IsInteger() }) {
		t.Errorf("IntegerTypes() = %v, want the %d integer types, signed first, each group from the narrowest", got, n)
	}
	if _, err := tensor.ParseDType("float128"); err == nil {
		t.Error("float128 parsed")
	}
	// Numbering is ONNX's TensorProto.DataType.
	if tensor.Float32 != 1 || tensor.String != 8 || tensor.BFloat16 != 16 || tensor.Complex128 != 15 {
		t.Error("numbering differs from ONNX")
	}
	if tensor.DTypeOf[bfloat16.BFloat16]() != tensor.BFloat16 || tensor.DTypeOf[string]() != tensor.String {
		t.Error("DTypeOf")
	}
	if tensor.Complex128.Size() != 16 || tensor.String.Size() != 0 || tensor.Bool.Size() != 1 {
		t.Error("Size")
	}
}

func TestString(t *testing.T) {
	x := tensor.Must(tensor.From(tensor.Shape{2, 2}, []float32{1, 2.5, 3, 4}))
	if got := x.String(); got != "float32[2,2] [[1 2.5] [3 4]]" {
		t.Errorf("got %q", got)
	}
	s := tensor.Must(tensor.From(tensor.Shape{2}, []string{"a", "b c"}))
	if got := s.String(); got != `string[2] ["a" "b c"]` {
		t.Errorf("got %q", got)
	}
	if got := tensor.Scalar(bfloat16.FromFloat32(1.5)).String(); got != "bfloat16[] 1.5" {
		t.Errorf("got %q", got)
	}
}

func TestParseShape(t *testing.T) {
	for text, want := range map[string]tensor.Shape{"4,4,4": {4, 4, 4}, "[2, 3]": {2, 3}, "": {}, "[]": {}, "0": {0}} {
		s, err := tensor.ParseShape(text)
		if err != nil || !s.Equal(want) {
			t.Errorf("ParseShape(%q) = %v, %v", text, s, err)
		}
	}
	for _, text := range []string{"a", "1,,2", "-1", "4294967296,4294967296"} {
		if _, err := tensor.ParseShape(text); err == nil {
			t.Errorf("ParseShape(%q) succeeded", text)
		}
	}
}

func TestShapeCoordsOffset(t *testing.T) {
	tests := []struct {
		shape  tensor.Shape
		i      int
		coords []int
	}{
		{tensor.Shape{}, 0, []int{}},
		{tensor.Shape{5}, 3, []int{3}},
		{tensor.Shape{2, 3, 4}, 23, []int{1, 2, 3}},
		{tensor.Shape{2, 3, 4}, 13, []int{1, 0, 1}},
		{tensor.Shape{3, 0, 2}, 0, []int{0, 0, 0}},
	}
	for _, tt := range tests {
		c := tt.shape.Coords(tt.i)
		if !slices.Equal(c, tt.coords) {
			t.Errorf("%v.Coords(%d) = %v, want %v", tt.shape, tt.i, c, tt.coords)
		}
		if n, _ := tt.shape.NumElements(); n > 0 && tt.shape.Offset(c) != tt.i {
			t.Errorf("%v.Offset(%v) = %d, want %d", tt.shape, c, tt.shape.Offset(c), tt.i)
		}
	}
}

// TestIntAt: every integer type widens (uint64 by its bits); other types
// are refused.
func TestIntAt(t *testing.T) {
	for _, c := range []struct {
		t    tensor.Tensor
		want int64
		ok   bool
	}{
		{tensor.Must(tensor.From(tensor.Shape{2}, []int8{3, -128})), -128, true},
		{tensor.Must(tensor.From(tensor.Shape{2}, []int16{3, -300})), -300, true},
		{tensor.Must(tensor.From(tensor.Shape{2}, []int32{3, -70000})), -70000, true},
		{tensor.Must(tensor.From(tensor.Shape{2}, []int64{3, math.MinInt64})), math.MinInt64, true},
		{tensor.Must(tensor.From(tensor.Shape{2}, []uint8{3, 255})), 255, true},
		{tensor.Must(tensor.From(tensor.Shape{2}, []uint16{3, 65535})), 65535, true},
		{tensor.Must(tensor.From(tensor.Shape{2}, []uint32{3, math.MaxUint32})), math.MaxUint32, true},
		{tensor.Must(tensor.From(tensor.Shape{2}, []uint64{3, math.MaxUint64})), -1, true},
		{tensor.Must(tensor.From(tensor.Shape{2}, []float32{3, 4})), 0, false},
		{tensor.Must(tensor.From(tensor.Shape{2}, []bool{true, false})), 0, false},
	} {
		if got, ok := c.t.IntAt(1); got != c.want || ok != c.ok {
			t.Errorf("%v.IntAt(1) = %d, %v; want %d, %v", c.t.DType(), got, ok, c.want, c.ok)
		}
	}
}

func TestShapeQueries(t *testing.T) {
	a := tensor.Must(tensor.Wrap(tensor.Shape{2, 3}, make([]float32, 6)))
	tests := []struct {
		name      string
		u         tensor.Tensor
		wantShape tensor.Shape
		want      bool
	}{
		{"same", tensor.Must(tensor.Wrap(tensor.Shape{2, 3}, make([]int8, 6))), tensor.Shape{2, 3}, true},
		{"transposed", tensor.Must(tensor.Wrap(tensor.Shape{3, 2}, make([]float32, 6))), tensor.Shape{3, 2}, false},
		{"flat", tensor.Must(tensor.Wrap(tensor.Shape{6}, make([]float32, 6))), tensor.Shape{6}, false},
		{"scalar", tensor.Scalar(float32(1)), tensor.Shape{}, false},
		{"zero tensor", tensor.Tensor{}, nil, false},
	}
	for _, tt := range tests {
		if got := a.SameShape(tt.u); got != tt.want {
			t.Errorf("%s: SameShape = %v, want %v", tt.name, got, tt.want)
		}
		if got := a.HasShape(tt.u.Shape()); got != tt.want {
			t.Errorf("%s: HasShape(%v) = %v, want %v", tt.name, tt.u.Shape(), got, tt.want)
		}
		if !tt.u.HasShape(tt.wantShape) {
			t.Errorf("%s: HasShape(%v) = false for its own shape", tt.name, tt.wantShape)
		}
	}
}

func TestViewSharesShapeAndData(t *testing.T) {
	data := []int32{1, 2, 3, 4, 5, 6}
	a := tensor.Must(tensor.Wrap(tensor.Shape{6}, data))
	shape := tensor.Shape{3, 2}
	v, err := a.View(&shape)
	if err != nil {
		t.Fatal(err)
	}
	if !v.HasShape(tensor.Shape{3, 2}) {
		t.Fatalf("view has shape %v, want [3 2]", v.Shape())
	}
	data[5] = 60
	if got := v.Data().([]int32)[5]; got != 60 {
		t.Errorf("view element 5 = %d after writing 60 to the data, want it shared", got)
	}
	shape[0], shape[1] = 2, 3
	if !v.HasShape(tensor.Shape{2, 3}) {
		t.Errorf("view has shape %v after its shape changed to [2 3], want it shared", v.Shape())
	}
	s := v.Shape()
	s[0] = 99
	if v.Dim(0) != 2 {
		t.Errorf("Dim(0) = %d after changing the copy Shape returned, want 2", v.Dim(0))
	}
	bad := tensor.Shape{4, 2}
	if _, err := a.View(&bad); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("View as [4 2] of 6 elements: err = %v, want ErrShape", err)
	}
}

// TestFirstDiffEveryType checks FirstDiff for each element type: equal
// tensors, a difference at the last of three places and a shorter
// tensor, and for complex types a difference in the imaginary part only.
func TestFirstDiffEveryType(t *testing.T) {
	for _, d := range tensor.DTypes() {
		a := tensortest.FromInts(d, tensor.Shape{3}, 1, 0, 1)
		for _, c := range []struct {
			b    tensor.Tensor
			want int
		}{
			{tensortest.FromInts(d, tensor.Shape{3}, 1, 0, 1), -1},
			{tensortest.FromInts(d, tensor.Shape{3}, 1, 0, 0), 2},
			{tensortest.FromInts(d, tensor.Shape{2}, 1, 0), 2},
			{tensortest.FromInts(d, tensor.Shape{3}, 0, 0, 1), 0},
		} {
			if got := tensor.FirstDiff(a, c.b); got != c.want {
				t.Errorf("%v: FirstDiff(%v, %v) = %d, want %d", d, a, c.b, got, c.want)
			}
		}
	}
	for _, c := range []struct{ a, b tensor.Tensor }{
		{tensor.Scalar(complex64(complex(1, 2))), tensor.Scalar(complex64(complex(1, 3)))},
		{tensor.Scalar(complex(1, 2)), tensor.Scalar(complex(1, -2))},
	} {
		if got := tensor.FirstDiff(c.a, c.b); got != 0 {
			t.Errorf("FirstDiff(%v, %v) = %d, want 0", c.a, c.b, got)
		}
	}
}

// TestAppendShape: AppendShape appends the dimensions after what the
// buffer holds (nothing for the zero Tensor and a scalar), reuses the
// buffer's room, and shares nothing with the tensor.
func TestAppendShape(t *testing.T) {
	a := tensor.Must(tensor.Wrap(tensor.Shape{2, 3, 4}, make([]float32, 24)))
	buf := make(tensor.Shape, 1, 8)
	buf[0] = 9
	got := a.AppendShape(buf)
	if !got.Equal(tensor.Shape{9, 2, 3, 4}) || &got[0] != &buf[0] {
		t.Fatalf("AppendShape = %v (in the buffer: %v), want [9 2 3 4] in the buffer", got, &got[0] == &buf[0])
	}
	got[1] = 7
	if !a.HasShape(tensor.Shape{2, 3, 4}) {
		t.Errorf("writing the appended shape changed the tensor's to %v", a.Shape())
	}
	for _, u := range []tensor.Tensor{{}, tensor.Scalar(float32(1))} {
		if got := u.AppendShape(tensor.Shape{5}); !got.Equal(tensor.Shape{5}) {
			t.Errorf("AppendShape of %v = %v, want [5]", u, got)
		}
	}
}
