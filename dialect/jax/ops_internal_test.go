package jax

import (
	"errors"
	"math"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// TestFillOf: a number attribute becomes a fill value of operand's type,
// floats rounded once (1.0004882822313226 lies just above the midpoint of
// float16's 1 and 1.0009765625, and just below float32's rounding of it
// onto that midpoint, so rounding twice gives 1), integers and bool only
// when exact.
func TestFillOf(t *testing.T) {
	num := func(x float64) tensor.Tensor { return tensor.Scalar(x) }
	for _, c := range []struct {
		x    float64
		d    tensor.DType
		want any // the element; nil for an error
	}{
		{1.0004882822313226, tensor.Float16, float16.Float16(0x3c01)},
		{1.5, tensor.Float32, float32(1.5)},
		{math.Pi, tensor.Float64, math.Pi},
		{-2, tensor.BFloat16, bfloat16.FromFloat32(-2)},
		{7, tensor.Int8, int8(7)},
		{300, tensor.Int8, nil},
		{2.5, tensor.Int32, nil},
		{1, tensor.Bool, true},
		{2, tensor.Bool, nil},
		// The bounds of the integer types, at and past each end.
		{-128, tensor.Int8, int8(-128)},
		{-129, tensor.Int8, nil},
		{255, tensor.Uint8, uint8(255)},
		{256, tensor.Uint8, nil},
		{-1, tensor.Uint16, nil},
		{-1 << 31, tensor.Int32, int32(math.MinInt32)},
		{1 << 31, tensor.Int32, nil},
		{-1 << 63, tensor.Int64, int64(math.MinInt64)},
		{1 << 63, tensor.Int64, nil},
		{1 << 63, tensor.Uint64, uint64(1 << 63)},
		{1 << 64, tensor.Uint64, nil},
		{1 << 32, tensor.Uint32, nil},
	} {
		got, err := fillOf(num(c.x), c.d)
		if c.want == nil {
			if !errors.Is(err, dialect.ErrAttribute) {
				t.Errorf("fillOf(%v, %v) = %v, %v; want an attribute error", c.x, c.d, got, err)
			}
			continue
		}
		if err != nil || got.DType() != c.d || got.At(0) != c.want {
			t.Errorf("fillOf(%v, %v) = %v, %v; want %v", c.x, c.d, got, err, c.want)
		}
	}
}
