package tensor

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/x448/float16"
)

// TestFromFloats converts float32 and float64 values into every
// floating-point type and back: values each type holds exactly come back
// as they were, the others rounded once to nearest even.
func TestFromFloats(t *testing.T) {
	// 1 + 2^-11 lies halfway between two float16s (ties to the even 1);
	// 1 + 3*2^-11 halfway too (ties up to 1 + 2^-9); 2^-24 is the least
	// float16 subnormal; 1e-40 is a float32 subnormal.
	in := []float64{0, math.Copysign(0, -1), 1.5, -2.25, 1 + 0x1p-11, 1 + 3*0x1p-11, 0x1p-24, 65504, math.Inf(-1), 1e-40}
	want := map[DType][]float64{
		Float16:  {0, math.Copysign(0, -1), 1.5, -2.25, 1, 1 + 0x1p-9, 0x1p-24, 65504, math.Inf(-1), 0},
		BFloat16: {0, math.Copysign(0, -1), 1.5, -2.25, 1, 1, float64(bfloat16.FromFloat32(0x1p-24).Float32()), 65536, math.Inf(-1), float64(bfloat16.FromFloat32(1e-40).Float32())},
		Float32:  {0, math.Copysign(0, -1), 1.5, -2.25, float64(float32(1 + 0x1p-11)), float64(float32(1 + 3*0x1p-11)), 0x1p-24, 65504, math.Inf(-1), float64(float32(1e-40))},
		Float64:  in,
	}
	for d, w := range want {
		x, err := FromFloat64s(d, Shape{2, 5}, in)
		if err != nil {
			t.Fatalf("%v: %v", d, err)
		}
		got, err := Float64s(x)
		if err != nil {
			t.Fatalf("%v: %v", d, err)
		}
		for i := range w {
			if math.Float64bits(got[i]) != math.Float64bits(w[i]) {
				t.Errorf("%v: element %d of %v is %v, want %v", d, i, in[i], got[i], w[i])
			}
		}
		if !x.HasShape(Shape{2, 5}) || x.DType() != d {
			t.Errorf("%v: made %v %v", d, x.DType(), x.Shape())
		}
	}
	f32 := []float32{1.5, -0.25, float32(math.NaN())}
	h, err := FromFloat32s(Float16, Shape{3}, f32)
	if err != nil {
		t.Fatal(err)
	}
	if d := h.Data().([]float16.Float16); d[0] != float16.Fromfloat32(1.5) || d[1] != float16.Fromfloat32(-0.25) || !d[2].IsNaN() {
		t.Errorf("FromFloat32s(Float16) = %v", d)
	}
	back, err := Float32s(h)
	if err != nil || back[0] != 1.5 || back[1] != -0.25 || back[2] == back[2] {
		t.Errorf("Float32s = %v, %v; want [1.5 -0.25 NaN]", back, err)
	}
	// float64 to float32 rounds once; float32 copies.
	x := Must(From(Shape{2}, []float64{1 + 0x1p-24, 0.1}))
	if got, _ := Float32s(x); !slices.Equal(got, []float32{1, 0.1}) {
		t.Errorf("Float32s of float64s = %v, want [1 0.1]", got)
	}
	src := []float32{3, 4}
	y := Must(FromFloat32s(Float32, Shape{2}, src))
	src[0] = 9
	if got, _ := Float32s(y); !slices.Equal(got, []float32{3, 4}) {
		t.Errorf("FromFloat32s kept the caller's slice: %v", got)
	}
}

// TestFromFloatsErrors: a type other than a float, a length that is not
// the shape's, a negative dimension and a size over the limit are refused
// with their classes.
func TestFromFloatsErrors(t *testing.T) {
	if _, err := FromFloat32s(Int32, Shape{1}, []float32{1}); !errors.Is(err, ErrDType) {
		t.Errorf("int32: %v, want ErrDType", err)
	}
	if _, err := FromFloat64s(Float16, Shape{3}, []float64{1, 2}); !errors.Is(err, ErrShape) {
		t.Errorf("2 values for 3 elements: %v, want ErrShape", err)
	}
	if _, err := FromFloat32s(Float32, Shape{-1}, nil); !errors.Is(err, ErrShape) {
		t.Errorf("negative dimension: %v, want ErrShape", err)
	}
	defer SetMaxBytes(SetMaxBytes(8))
	if _, err := FromFloat64s(Float64, Shape{2}, []float64{1, 2}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("16 bytes over a limit of 8: %v, want ErrTooLarge", err)
	}
	if _, err := Float32s(Must(From(Shape{1}, []int8{1}))); !errors.Is(err, ErrDType) {
		t.Errorf("Float32s of int8: %v, want ErrDType", err)
	}
	if _, err := Float64s(Scalar(complex64(1))); !errors.Is(err, ErrDType) {
		t.Errorf("Float64s of complex64: %v, want ErrDType", err)
	}
}
