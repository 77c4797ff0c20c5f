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

func TestParseRoundTrip(t *testing.T) {
	x := tensor.Must(tensor.From(tensor.Shape{2, 3}, []float64{1.5, -0, 3e-300, 4, 5, 6}))
	s := x.String()
	got, err := tensor.Parse("float64:" + s[len("float64[2,3] "):])
	if err != nil || !tensor.Equal(got, x) {
		t.Errorf("Parse(String()) = %v, %v; want %v", got, err, x)
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
