package tensor_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// TestIntAccess checks that SetIntAt truncates to the element's width as
// a Go conversion does, that IntAt reads it back, and that both refuse
// tensors of other types.
func TestIntAccess(t *testing.T) {
	for _, d := range tensor.IntegerTypes() {
		x := tensor.Must(tensor.New(d, tensor.Shape{2}))
		bits := 8 * d.Size()
		for _, v := range []int64{-1, 300, -129, 1 << 40, math.MinInt64, 0x1234_5678_9abc_def0} {
			if !x.SetIntAt(1, v) {
				t.Fatalf("%v: SetIntAt refused", d)
			}
			want := v
			if bits < 64 {
				want = v << (64 - bits) >> (64 - bits) // the low bits, sign-extended
				if d.IsUnsigned() {
					want = int64(uint64(v) << (64 - bits) >> (64 - bits))
				}
			}
			if got, ok := x.IntAt(1); !ok || got != want {
				t.Errorf("%v: SetIntAt(1, %#x) then IntAt = %#x, %v; want %#x", d, v, got, ok, want)
			}
			if got, _ := x.IntAt(0); got != 0 {
				t.Errorf("%v: SetIntAt(1, %#x) changed element 0 to %#x", d, v, got)
			}
		}
	}
	for _, d := range []tensor.DType{tensor.Float32, tensor.Bool, tensor.String, tensor.Complex64} {
		x := tensor.Must(tensor.New(d, tensor.Shape{1}))
		if x.SetIntAt(0, 1) {
			t.Errorf("%v: SetIntAt accepted", d)
		}
		if _, ok := x.IntAt(0); ok {
			t.Errorf("%v: IntAt accepted", d)
		}
	}
}

// TestFloatAt checks that FloatAt reads every floating-point type
// exactly, and refuses the others.
func TestFloatAt(t *testing.T) {
	for _, c := range []struct {
		x    tensor.Tensor
		want float64
	}{
		{tensor.Scalar(0.1), 0.1},
		{tensor.Scalar(float32(0.1)), float64(float32(0.1))},
		{tensor.Scalar(float16.Fromfloat32(-2.5)), -2.5},
		{tensor.Scalar(bfloat16.FromBits(0x3F81)), 1 + 1.0/128},
	} {
		if got, ok := c.x.FloatAt(0); !ok || got != c.want {
			t.Errorf("%v: FloatAt = %v, %v; want %v", c.x, got, ok, c.want)
		}
		if !c.x.SetFloatAt(0, 3) {
			t.Errorf("%v: SetFloatAt refused", c.x)
		} else if got, _ := c.x.FloatAt(0); got != 3 {
			t.Errorf("SetFloatAt(0, 3) then FloatAt = %v", got)
		}
	}
	for _, x := range []tensor.Tensor{tensor.Scalar(int32(1)), tensor.Scalar(complex64(1)), tensor.Scalar(true)} {
		if _, ok := x.FloatAt(0); ok {
			t.Errorf("%v: FloatAt accepted", x)
		}
		if x.SetFloatAt(0, 2) {
			t.Errorf("%v: SetFloatAt accepted", x)
		}
	}
}

// TestSetFloatAt: storing a float64 in a float16 or bfloat16 element rounds
// it once, to nearest even, as rounding it directly does (computed here
// with math/big), including values one float64 ulp away from a half-way
// point, where rounding to float32 first, to nearest, would go wrong.
func TestSetFloatAt(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var xs []float64
	for range 4000 {
		m := float64(r.IntN(1<<12)|1<<12) * math.Exp2(float64(r.IntN(20)-22))
		xs = append(xs, m, math.Nextafter(m, 0), math.Nextafter(m, math.Inf(1)), -m, r.NormFloat64()*1000)
	}
	b := tensor.Must(tensor.New(tensor.BFloat16, tensor.Shape{1}))
	h := tensor.Must(tensor.New(tensor.Float16, tensor.Shape{1}))
	for _, x := range xs {
		b.SetFloatAt(0, x)
		if got, want := b.Data().([]bfloat16.BFloat16)[0].Float32(), roundBig(x, 8); got != want {
			t.Fatalf("bfloat16(%v) = %v, want %v", x, got, want)
		}
		if math.Abs(x) < 60000 && math.Abs(x) > 1e-4 {
			h.SetFloatAt(0, x)
			if got, want := h.Data().([]float16.Float16)[0].Float32(), roundBig(x, 11); got != want {
				t.Fatalf("float16(%v) = %v, want %v", x, got, want)
			}
		}
	}
	for x, want := range map[float64]uint16{math.NaN(): 0x7FC0, 1e300: 0x7F80, -1e300: 0xFF80, 3.3895313892515355e38: 0x7F7F} {
		b.SetFloatAt(0, x)
		if got := b.Data().([]bfloat16.BFloat16)[0].Bits(); got != want {
			t.Errorf("bfloat16(%v) = %#x, want %#x", x, got, want)
		}
	}
	// The nearest float32 of 2049 + 2^-30 is 2049, a float16 tie that
	// would round down to 2048; the value itself rounds up to 2050.
	h.SetFloatAt(0, 2049+math.Exp2(-30))
	if got := h.Data().([]float16.Float16)[0].Float32(); got != 2050 {
		t.Errorf("float16(2049 + 2^-30) = %v, want 2050", got)
	}
}

// roundBig rounds x to prec significant bits, to nearest even.
func roundBig(x float64, prec uint) float32 {
	f, _ := new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven).SetFloat64(x).Float32()
	return f
}
