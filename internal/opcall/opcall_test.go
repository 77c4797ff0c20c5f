package opcall

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/internal/optest"
	"github.com/scatter-dev/scatter/tensor"
)

func TestIntsOfAndIntOf(t *testing.T) {
	if v, err := IntsOf(tensor.Scalar(int64(3)), "axis"); err != nil || len(v) != 1 || v[0] != 3 {
		t.Errorf("scalar: %v %v", v, err)
	}
	if v, err := IntOf(tensor.Must(tensor.From(tensor.Shape{1}, []int32{-2})), "axis"); err != nil || v != -2 {
		t.Errorf("1-D: %v %v", v, err)
	}
	if v, err := IntOf(tensor.Scalar(uint8(200)), "axis"); err != nil || v != 200 {
		t.Errorf("uint8: %v %v", v, err)
	}
	if v, err := IntsOf(tensor.Must(tensor.From(tensor.Shape{2}, []int16{-1, 4})), "shape"); err != nil || v[0] != -1 || v[1] != 4 {
		t.Errorf("int16: %v %v", v, err)
	}
	bad := []tensor.Tensor{
		tensor.Scalar(uint64(1 << 63)),
		tensor.Must(tensor.New(tensor.Int64, tensor.Shape{1, 1})),
		tensor.Scalar(float32(1)),
		tensor.Must(tensor.New(tensor.Int64, tensor.Shape{2})),
	}
	for _, b := range bad {
		if _, err := IntOf(b, "axis"); !errors.Is(err, dialect.ErrInput) {
			t.Errorf("%v: %v", b, err)
		}
	}
}

func TestCheckDst(t *testing.T) {
	f32 := func(shape ...int) tensor.Tensor { return tensor.Must(tensor.New(tensor.Float32, tensor.Shape(shape))) }
	tests := []struct {
		name  string
		dst   tensor.Tensor
		dtype tensor.DType
		shape tensor.Shape
		want  error
		msg   string
	}{
		{"fits", f32(2, 3), tensor.Float32, tensor.Shape{2, 3}, nil, ""},
		{"scalar fits", f32(), tensor.Float32, tensor.Shape{}, nil, ""},
		{"empty fits", f32(0, 2), tensor.Float32, tensor.Shape{0, 2}, nil, ""},
		{"missing", tensor.Tensor{}, tensor.Float32, tensor.Shape{0}, engine.ErrArgument,
			"invalid argument: dst must be given"},
		{"wrong type", f32(2, 3), tensor.Float64, tensor.Shape{2, 3}, engine.ErrType,
			"unsupported element type: dst has type float32, want float64"},
		{"wrong shape", f32(3, 2), tensor.Float32, tensor.Shape{2, 3}, engine.ErrShape,
			"shape mismatch: dst has shape [3,2], want [2,3]"},
		{"wrong rank", f32(6), tensor.Float32, tensor.Shape{2, 3}, engine.ErrShape,
			"shape mismatch: dst has shape [6], want [2,3]"},
	}
	for _, tt := range tests {
		err := CheckDst(tt.dst, tt.dtype, tt.shape)
		if !errors.Is(err, tt.want) || tt.want == nil && err != nil || err != nil && err.Error() != tt.msg {
			t.Errorf("%s: got %v, want %v (%q)", tt.name, err, tt.want, tt.msg)
		}
		// CheckDstType agrees but for the shape.
		err = CheckDstType(tt.dst, tt.dtype)
		if want := tt.want; errors.Is(want, engine.ErrShape) && err != nil || !errors.Is(want, engine.ErrShape) && !errors.Is(err, want) {
			t.Errorf("%s: CheckDstType gave %v", tt.name, err)
		}
	}
}

func TestCheckIndices(t *testing.T) {
	i32or64 := []tensor.DType{tensor.Int32, tensor.Int64}
	var anyInt []tensor.DType
	for _, d := range tensor.DTypes() {
		if d.IsInteger() {
			anyInt = append(anyInt, d)
		}
	}
	idx := func(d tensor.DType, shape ...int) tensor.Tensor {
		return tensor.Must(tensor.New(d, tensor.Shape(shape)))
	}
	tests := []struct {
		name    string
		indices tensor.Tensor
		input   string
		types   []tensor.DType
		msg     string // "" for no error
	}{
		{"int64 of int64", idx(tensor.Int64, 2), "indices", []tensor.DType{tensor.Int64}, ""},
		{"int32 of both", idx(tensor.Int32, 2, 1), "indices", i32or64, ""},
		{"empty int32", idx(tensor.Int32, 0), "index", i32or64, ""},
		{"uint16 of any integer", idx(tensor.Uint16), "indices", anyInt, ""},
		{"missing", tensor.Tensor{}, "index", i32or64, `invalid input: missing input "index"`},
		{"int32 of int64", idx(tensor.Int32, 2), "index", []tensor.DType{tensor.Int64},
			"invalid input: index must be int64, got int32"},
		{"float of both", idx(tensor.Float32, 2), "indices", i32or64,
			"invalid input: indices must be int32 or int64, got float32"},
		{"uint8 of both", idx(tensor.Uint8, 2), "indices", i32or64,
			"invalid input: indices must be int32 or int64, got uint8"},
		{"bool of any integer", idx(tensor.Bool, 2), "indices", anyInt,
			"invalid input: indices must be of an integer type, got bool"},
		{"float of all but one integer", idx(tensor.Float64), "indices", []tensor.DType{tensor.Int8, tensor.Int16,
			tensor.Int32, tensor.Int64, tensor.Uint8, tensor.Uint16, tensor.Uint32},
			"invalid input: indices must be int8 or int16 or int32 or int64 or uint8 or uint16 or uint32, got float64"},
	}
	for _, tt := range tests {
		err := CheckIndices(tt.indices, tt.input, tt.types)
		if tt.msg == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if !errors.Is(err, dialect.ErrInput) || err.Error() != tt.msg {
			t.Errorf("%s: got %v, want %q wrapping ErrInput", tt.name, err, tt.msg)
		}
	}
}

func TestNormAxis(t *testing.T) {
	tests := []struct {
		axis, rank, want int
		msg              string // "" for no error
	}{
		{0, 1, 0, ""},
		{-1, 1, 0, ""},
		{2, 3, 2, ""},
		{-3, 3, 0, ""},
		{-2, 3, 1, ""},
		{3, 3, 0, "axis 3 is out of range [-3, 2] for data of rank 3"},
		{-4, 3, 0, "axis -4 is out of range [-3, 2] for data of rank 3"},
		{0, 0, 0, "axis 0 is out of range [0, -1] for data of rank 0"},
	}
	norms := []struct {
		name     string
		norm     func(axis, rank int, of string) (int, error)
		sentinel error
	}{
		{"NormAxis", NormAxis, dialect.ErrAttribute},
		{"NormAxisInput", NormAxisInput, dialect.ErrInput},
	}
	for _, n := range norms {
		for _, tt := range tests {
			got, err := n.norm(tt.axis, tt.rank, "data")
			switch {
			case tt.msg == "" && (err != nil || got != tt.want):
				t.Errorf("%s(%d, %d) = %d, %v; want %d", n.name, tt.axis, tt.rank, got, err, tt.want)
			case tt.msg != "" && (!errors.Is(err, n.sentinel) || err.Error() != n.sentinel.Error()+": "+tt.msg):
				t.Errorf("%s(%d, %d): got %v, want %q wrapping %v", n.name, tt.axis, tt.rank, err, tt.msg, n.sentinel)
			}
		}
	}
	if _, err := NormAxisInput(5, 2, "data"); errors.Is(err, dialect.ErrAttribute) {
		t.Errorf("NormAxisInput's error wraps ErrAttribute: %v", err)
	}
}

func TestCheckUpdatesShape(t *testing.T) {
	idx := func(shape ...int) tensor.Tensor { return tensor.Must(tensor.New(tensor.Int64, tensor.Shape(shape))) }
	upd := func(shape ...int) tensor.Tensor { return tensor.Must(tensor.New(tensor.Float32, tensor.Shape(shape))) }
	tests := []struct {
		name             string
		indices, updates tensor.Tensor
		msg              string // "" for no error
	}{
		{"equal", idx(2, 3), upd(2, 3), ""},
		{"scalars", idx(), upd(), ""},
		{"empty", idx(0, 2), upd(0, 2), ""},
		{"larger updates", idx(2, 1), upd(2, 3),
			"shape mismatch: updates has shape [2,3], indices has shape [2,1]; they must be equal"},
		{"smaller updates", idx(2, 3), upd(2),
			"shape mismatch: updates has shape [2], indices has shape [2,3]; they must be equal"},
		{"same size, other shape", idx(2, 3), upd(3, 2),
			"shape mismatch: updates has shape [3,2], indices has shape [2,3]; they must be equal"},
	}
	for _, tt := range tests {
		err := CheckUpdatesShape(tt.indices, tt.updates)
		if tt.msg == "" && err != nil || tt.msg != "" && (!errors.Is(err, engine.ErrShape) || err.Error() != tt.msg) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.msg)
		}
	}
}

func TestAllIntegers(t *testing.T) {
	var ints []tensor.DType
	for _, d := range tensor.DTypes() {
		if d.IsInteger() {
			ints = append(ints, d)
		}
	}
	noUint64 := slices.DeleteFunc(slices.Clone(ints), func(d tensor.DType) bool { return d == tensor.Uint64 })
	tests := []struct {
		name  string
		types []tensor.DType
		want  bool
	}{
		{"every integer type", ints, true},
		{"in another order", reversed(ints), true},
		{"none", nil, false},
		{"int32 or int64", []tensor.DType{tensor.Int32, tensor.Int64}, false},
		{"as many, one twice and uint64 left out", append(noUint64, tensor.Int8), false},
		{"and a float", append(slices.Clone(ints), tensor.Float32), false},
	}
	for _, tt := range tests {
		if got := AllIntegers(tt.types); got != tt.want {
			t.Errorf("%s: got %v", tt.name, got)
		}
	}
}

// TestAxisExtremes checks NormAxis and NormAxisInput on the extreme int
// values: refused with their class, quoting the value itself.
func TestAxisExtremes(t *testing.T) {
	for _, f := range []struct {
		name  string
		norm  func(axis, rank int, of string) (int, error)
		class error
	}{
		{"NormAxis", NormAxis, dialect.ErrAttribute},
		{"NormAxisInput", NormAxisInput, dialect.ErrInput},
	} {
		for _, axis := range []int{math.MinInt, math.MinInt + 1, math.MaxInt, math.MaxInt - 1} {
			for _, rank := range []int{0, 1, 3} {
				got, err := f.norm(axis, rank, "data")
				if !errors.Is(err, f.class) || !strings.Contains(err.Error(), "axis "+strconv.Itoa(axis)+" is out of range") ||
					optest.QuotesShifted(err.Error(), int64(axis)) {
					t.Errorf("%s(%d, %d) = %d, %v; want %v quoting the axis", f.name, axis, rank, got, err, f.class)
				}
			}
		}
	}
}

// TestIntsOfExtremes reads the extreme values of int64 and uint64 tensors
// as ints: every int that fits as it is, a uint64 above MaxInt64 refused as
// too large, quoted as it is, and where int has 32 bits, an int64 beyond
// it refused as too large, never truncated.
func TestIntsOfExtremes(t *testing.T) {
	// Variables, not constants, so that the 64-bit cases compile anywhere.
	minInt64, maxInt64, maxUint32 := int64(math.MinInt64), int64(math.MaxInt64), int64(math.MaxUint32)
	tests := []struct {
		x    tensor.Tensor
		want []int
		err  string
	}{
		{tensor.Must(tensor.From(tensor.Shape{2}, []int64{math.MinInt, math.MaxInt})), []int{math.MinInt, math.MaxInt}, ""},
		{tensor.Must(tensor.From(tensor.Shape{1}, []uint64{math.MaxInt})), []int{math.MaxInt}, ""},
		{tensor.Must(tensor.From(tensor.Shape{2}, []uint64{1, math.MaxInt64 + 1})), nil, "x[1] = 9223372036854775808 is too large"},
		{tensor.Must(tensor.From(tensor.Shape{1}, []uint64{math.MaxUint64})), nil, "x[0] = 18446744073709551615 is too large"},
		{tensor.Must(tensor.From(tensor.Shape{1}, []int32{math.MinInt32})), []int{math.MinInt32}, ""},
	}
	if bits.UintSize == 64 {
		tests = append(tests, []struct {
			x    tensor.Tensor
			want []int
			err  string
		}{
			{tensor.Must(tensor.From(tensor.Shape{2}, []int64{math.MinInt64, math.MaxInt64})), []int{int(minInt64), int(maxInt64)}, ""},
			{tensor.Must(tensor.From(tensor.Shape{1}, []uint32{math.MaxUint32})), []int{int(maxUint32)}, ""},
		}...)
	} else {
		tests = append(tests, []struct {
			x    tensor.Tensor
			want []int
			err  string
		}{
			{tensor.Must(tensor.From(tensor.Shape{2}, []int64{0, math.MinInt64})), nil, "x[1] = -9223372036854775808 is beyond a 32-bit int (too large)"},
			{tensor.Must(tensor.From(tensor.Shape{1}, []uint32{math.MaxUint32})), nil, "x[0] = 4294967295 is beyond a 32-bit int (too large)"},
		}...)
	}
	for _, tt := range tests {
		got, err := IntsOf(tt.x, "x")
		if tt.err != "" {
			if !errors.Is(err, dialect.ErrInput) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("IntsOf(%v): %v, %v; want ErrInput saying %q", tt.x, got, err, tt.err)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) || got[0] != tt.want[0] || got[len(got)-1] != tt.want[len(got)-1] {
			t.Errorf("IntsOf(%v) = %v, %v; want %v", tt.x, got, err, tt.want)
		}
		if one, err := IntOf(tensor.Must(tt.x.Reshape(tensor.Shape{tt.x.Len()})), "x"); tt.x.Len() == 1 && (err != nil || one != tt.want[0]) {
			t.Errorf("IntOf(%v) = %d, %v", tt.x, one, err)
		}
	}
	if _, err := ShapeOf(tensor.Must(tensor.From(tensor.Shape{1}, []uint64{math.MaxUint64})), "shape"); !errors.Is(err, dialect.ErrInput) {
		t.Errorf("ShapeOf of a uint64 shape: %v, want ErrInput", err)
	}
}

func reversed(s []tensor.DType) []tensor.DType {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}
