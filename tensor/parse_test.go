package tensor_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

func TestParse(t *testing.T) {
	tests := []struct {
		text string
		want tensor.Tensor
	}{
		{"float32:[[1, 2], [3, 4]]", tensor.Must(tensor.From(tensor.Shape{2, 2}, []float32{1, 2, 3, 4}))},
		{"float32:[[1 2] [3 4]]", tensor.Must(tensor.From(tensor.Shape{2, 2}, []float32{1, 2, 3, 4}))},
		{"int64:[4,3,1,7]", tensor.Must(tensor.From(tensor.Shape{4}, []int64{4, 3, 1, 7}))},
		{"int64:[[4],[3]]", tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{4, 3}))},
		{"int64:[]", tensor.Must(tensor.From(tensor.Shape{0}, []int64{}))},
		{"int64:[[], []]", tensor.Must(tensor.From(tensor.Shape{2, 0}, []int64{}))},
		{"int8: [ -128 , 0x7f ] ", tensor.Must(tensor.From(tensor.Shape{2}, []int8{-128, 127}))},
		{"uint64:[18446744073709551615]", tensor.Must(tensor.From(tensor.Shape{1}, []uint64{math.MaxUint64}))},
		{"double:-2.5", tensor.Scalar(-2.5)},
		{"float16:[0.1, Inf]", tensor.Must(tensor.From(tensor.Shape{2}, []float16.Float16{float16.Fromfloat32(0.1), float16.Inf(1)}))},
		{"bfloat16:[1.5]", tensor.Must(tensor.From(tensor.Shape{1}, []bfloat16.BFloat16{bfloat16.FromFloat32(1.5)}))},
		// Just above a half-way point by 2^-30, which the nearest float32
		// would turn into the tie and round down: rounded once, up.
		{"float16:[1.0004882822313226]", tensor.Must(tensor.From(tensor.Shape{1}, []float16.Float16{float16.Frombits(0x3C01)}))},
		{"bfloat16:[1.0039062509313226]", tensor.Must(tensor.From(tensor.Shape{1}, []bfloat16.BFloat16{bfloat16.FromBits(0x3F81)}))},
		{"float32:[1e39]", tensor.Must(tensor.From(tensor.Shape{1}, []float32{float32(math.Inf(1))}))},
		{"complex64:[1+2i, (3-1i)]", tensor.Must(tensor.From(tensor.Shape{2}, []complex64{1 + 2i, 3 - 1i}))},
		{"bool:[[true, false]]", tensor.Must(tensor.From(tensor.Shape{1, 2}, []bool{true, false}))},
		{`string:["a", "b c", "[,]", "q\""]`, tensor.Must(tensor.From(tensor.Shape{4}, []string{"a", "b c", "[,]", `q"`}))},
		{"tensor(int32):[[[1]],[[2]]]", tensor.Must(tensor.From(tensor.Shape{2, 1, 1}, []int32{1, 2}))},
	}
	for _, tt := range tests {
		got, err := tensor.Parse(tt.text)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.text, err)
			continue
		}
		if !tensor.Equal(got, tt.want) {
			t.Errorf("Parse(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestParseNaN(t *testing.T) {
	got, err := tensor.Parse("float32:[NaN, -NaN]")
	if err != nil {
		t.Fatal(err)
	}
	v := got.Data().([]float32)
	if !math.IsNaN(float64(v[0])) || math.Signbit(float64(v[0])) || !math.Signbit(float64(v[1])) {
		t.Errorf("Parse NaN, -NaN = %v (sign bits %v %v)", v, math.Signbit(float64(v[0])), math.Signbit(float64(v[1])))
	}
}

// TestParseStringOutput parses Tensor.String's output after its
// "type[shape] " prefix, which gives the tensor back but for the limits
// Parse documents: an elided tensor, and dimensions after a zero one.
func TestParseStringOutput(t *testing.T) {
	tests := []struct {
		x         tensor.Tensor
		roundTrip bool
	}{
		{tensor.Must(tensor.From(tensor.Shape{2, 3}, []float64{1.5, -0, 3e-300, 4, 5, 6})), true},
		{tensor.Must(tensor.From(tensor.Shape{2}, []float16.Float16{float16.Fromfloat32(0.1), float16.Fromfloat32(-65504)})), true},
		{tensor.Must(tensor.From(tensor.Shape{1, 2}, []bfloat16.BFloat16{bfloat16.FromFloat32(0.1), bfloat16.NaN})), true},
		{tensor.Must(tensor.From(tensor.Shape{2}, []string{"a b", `"[,]"`})), true},
		{tensor.Must(tensor.New(tensor.Int64, tensor.Shape{2, 0})), true},
		{tensor.Must(tensor.New(tensor.Int64, tensor.Shape{0})), true},
		{tensor.Must(tensor.New(tensor.Int32, tensor.Shape{1000})), true},
		// A zero dimension hides the ones after it: [] parses as shape [0].
		{tensor.Must(tensor.New(tensor.Int64, tensor.Shape{0, 3})), false},
		// More than 1000 elements are elided: "(1001 elements)" is no literal.
		{tensor.Must(tensor.New(tensor.Int32, tensor.Shape{1001})), false},
	}
	for _, tt := range tests {
		s := tt.x.String()
		_, body, _ := strings.Cut(s, " ")
		got, err := tensor.Parse(tt.x.DType().String() + ":" + body)
		if ok := err == nil && tensor.Equal(got, tt.x); ok != tt.roundTrip {
			t.Errorf("Parse of %q = %v, %v; round trip %v, want %v", s, got, err, ok, tt.roundTrip)
		}
	}
}

// TestFormatElemParsesBack formats every float16 and bfloat16 bit pattern
// and parses the lot back as one literal: each element reads back as the
// same pattern, or a NaN as a NaN.
func TestFormatElemParsesBack(t *testing.T) {
	tests := []struct {
		dtype tensor.DType
		elem  func(bits uint16) any
		isNaN func(v any) bool
	}{
		{tensor.Float16,
			func(b uint16) any { return float16.Frombits(b) },
			func(v any) bool { return v.(float16.Float16).IsNaN() }},
		{tensor.BFloat16,
			func(b uint16) any { return bfloat16.FromBits(b) },
			func(v any) bool { return v.(bfloat16.BFloat16).IsNaN() }},
	}
	for _, tt := range tests {
		elems := make([]string, 1<<16)
		for b := range elems {
			elems[b] = tensor.FormatElem(tt.elem(uint16(b)))
		}
		got, err := tensor.Parse(tt.dtype.String() + ":[" + strings.Join(elems, ",") + "]")
		if err != nil {
			t.Fatalf("%v: %v", tt.dtype, err)
		}
		for b := range elems {
			want, g := tt.elem(uint16(b)), got.At(b)
			if g != want && !(tt.isNaN(want) && tt.isNaN(g)) {
				t.Fatalf("%v %#04x: FormatElem = %q, which parses as %v", tt.dtype, b, elems[b], g)
			}
		}
	}
}

func TestFormatElem(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{float16.Fromfloat32(0.1), "0.1"}, // 0.099975586 as a float32
		{float16.Fromfloat32(65504), "65500"},
		{float16.Frombits(0x8000), "-0"},
		{float16.Inf(-1), "-Inf"},
		{bfloat16.FromFloat32(0.1), "0.1"},
		{float32(0.1), "0.1"},
		{0.1, "0.1"},
		{complex64(1 - 2i), "(1-2i)"},
		{int8(-3), "-3"},
		{true, "true"},
		{"a\"b", `"a\"b"`},
	}
	for _, tt := range tests {
		if got := tensor.FormatElem(tt.v); got != tt.want {
			t.Errorf("FormatElem(%T %v) = %q, want %q", tt.v, tt.v, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		text string
		want error
	}{
		{"[1,2]", tensor.ErrSyntax},
		{"int64:[1,2", tensor.ErrSyntax},
		{"int64:[1,,2]", tensor.ErrSyntax},
		{"int64:[1,2,]", tensor.ErrSyntax},
		{"int64:[1,2]]", tensor.ErrSyntax},
		{"int64:[[1,2],[3]]", tensor.ErrSyntax},
		{"int64:[[1],2]", tensor.ErrSyntax},
		{"int64:[[], [[1]]]", tensor.ErrSyntax},
		{"int8:[128]", tensor.ErrSyntax},
		{"uint8:[-1]", tensor.ErrSyntax},
		{"int64:[1.5]", tensor.ErrSyntax},
		{"float32:[x]", tensor.ErrSyntax},
		{"bool:[2]", tensor.ErrSyntax},
		{"string:[abc]", tensor.ErrSyntax},
		{`string:["abc]`, tensor.ErrSyntax},
		{"complex64:[1+]", tensor.ErrSyntax},
		{"int64:", tensor.ErrSyntax},
		{"int64:" + strings.Repeat("[", 65) + "1" + strings.Repeat("]", 65), tensor.ErrSyntax},
		{"int64:" + strings.Repeat("[", 1<<20), tensor.ErrSyntax},
	}
	for _, tt := range tests {
		if _, err := tensor.Parse(tt.text); !errors.Is(err, tt.want) {
			t.Errorf("Parse(%q) error = %v, want %v", tt.text, err, tt.want)
		}
	}
	if _, err := tensor.Parse("float8:[1]"); err == nil {
		t.Error("Parse of an unknown type succeeded")
	}
}

// TestParseErrorMessages pins what a literal without a type, or with a
// type that does not exist, is told.
func TestParseErrorMessages(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[1,2]", `tensor: invalid tensor literal: "[1,2]" has no element type: want TYPE:VALUES, e.g. float32:[1,2]`},
		{"7", `tensor: invalid tensor literal: "7" has no element type: want TYPE:VALUES, e.g. float32:[1,2]`},
		{"f32:[1,2]", `tensor: invalid tensor literal: "f32:[1,2]": unknown element type "f32": did you mean float32?`},
		{"BF16:[1]", `tensor: invalid tensor literal: "BF16:[1]": unknown element type "BF16": did you mean bfloat16?`},
		{"flaot32:[1]", `tensor: invalid tensor literal: "flaot32:[1]": unknown element type "flaot32": did you mean float32?`},
		{"int:[1]", `tensor: invalid tensor literal: "int:[1]": unknown element type "int": did you mean int64?`},
		{"int6:[1]", `tensor: invalid tensor literal: "int6:[1]": unknown element type "int6": did you mean int8 or int16 or int64?`},
		{"matrix:[1]", `tensor: invalid tensor literal: "matrix:[1]": unknown element type "matrix" (types: bool, int8, int16, int32, int64, ` +
			`uint8, uint16, uint32, uint64, float16, bfloat16, float32, float64, complex64, complex128, string)`},
	} {
		_, err := tensor.Parse(c.text)
		if err == nil || err.Error() != c.want || !errors.Is(err, tensor.ErrSyntax) {
			t.Errorf("Parse(%q) error\n got %v\nwant %s", c.text, err, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("float32:[[1, 2], [3, 4]]")
	f.Add(`string:["a", "b"]`)
	f.Add("int64:[[], []]")
	f.Add("complex128:(1+2i)")
	f.Fuzz(func(t *testing.T, text string) {
		x, err := tensor.Parse(text)
		if err != nil {
			return
		}
		if n, err := x.Shape().NumElements(); err != nil || n != x.Len() {
			t.Fatalf("Parse(%q) = %v: %d elements for shape %v (%v)", text, x, x.Len(), x.Shape(), err)
		}
	})
}

// TestParseEveryDType: every DType parses by the name its String gives,
// as a type of its own and in a literal, and an unknown type's error
// lists it.
func TestParseEveryDType(t *testing.T) {
	_, err := tensor.Parse("matrix:[1]")
	for _, d := range tensor.DTypes() {
		name := d.String()
		zero := map[tensor.DType]string{tensor.Bool: "false", tensor.String: `""`}[d]
		if zero == "" {
			zero = "0"
		}
		got, perr := tensor.Parse(name + ":[" + zero + "]")
		if want := tensor.Must(tensor.New(d, tensor.Shape{1})); perr != nil || !tensor.Equal(got, want) {
			t.Errorf("Parse(%s:[%s]) = %v, %v; want %v", name, zero, got, perr, want)
		}
		if p, err := tensor.ParseDType(name); err != nil || p != d {
			t.Errorf("ParseDType(%q) = %v, %v; want %v", name, p, err, d)
		}
		if err == nil || !strings.Contains(err.Error(), " "+name+",") && !strings.HasSuffix(err.Error(), " "+name+")") {
			t.Errorf("the error for an unknown type does not list %s: %v", name, err)
		}
	}
}
