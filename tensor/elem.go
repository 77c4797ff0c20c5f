package tensor

import (
	"math"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/x448/float16"
)

// SetIntAt stores v in element i of an integer tensor, truncated to the
// element's width (the low bits of its two's complement, as a Go
// conversion does), and reports true; it stores nothing and reports
// false for a tensor of another type. It is IntAt's inverse.
func (t Tensor) SetIntAt(i int, v int64) bool {
	switch d := t.data.(type) {
	case []int64:
		d[i] = v
	case []int32:
		d[i] = int32(v)
	case []int16:
		d[i] = int16(v)
	case []int8:
		d[i] = int8(v)
	case []uint64:
		d[i] = uint64(v)
	case []uint32:
		d[i] = uint32(v)
	case []uint16:
		d[i] = uint16(v)
	case []uint8:
		d[i] = uint8(v)
	default:
		return false
	}
	return true
}

// FloatAt returns element i of a floating-point tensor (float16,
// bfloat16, float32, float64) as a float64, exactly, with ok set; 0 and
// false for a tensor of another type.
func (t Tensor) FloatAt(i int) (v float64, ok bool) {
	switch d := t.data.(type) {
	case []float64:
		return d[i], true
	case []float32:
		return float64(d[i]), true
	case []float16.Float16:
		return float64(d[i].Float32()), true
	case []bfloat16.BFloat16:
		return float64(d[i].Float32()), true
	}
	return 0, false
}

// SetFloatAt stores f in element i of a floating-point tensor, rounded to
// nearest even once, and reports true; it stores nothing and reports
// false for a tensor of another type. float16 and bfloat16 are reached by
// way of a float32 rounded to odd, which the second rounding, to a type
// at least two bits narrower, cannot make wrong. NaN stays NaN; values
// beyond float32's range become infinities in float16 and bfloat16.
func (t Tensor) SetFloatAt(i int, f float64) bool {
	switch d := t.data.(type) {
	case []float64:
		d[i] = f
	case []float32:
		d[i] = float32(f)
	case []float16.Float16:
		d[i] = float16.Fromfloat32(float32Odd(f))
	case []bfloat16.BFloat16:
		d[i] = bfloat16.FromFloat32(float32Odd(f))
	default:
		return false
	}
	return true
}

// float32Odd rounds f to float32 by rounding to odd: toward zero, with
// the last bit of the mantissa set when that loses anything. Values
// beyond float32's range become its largest finite value with their sign.
func float32Odd(f float64) float32 {
	r := float32(f)
	if float64(r) == f || f != f {
		return r
	}
	b := math.Float32bits(r)
	if math.Abs(float64(r)) > math.Abs(f) { // rounded away from zero: step back
		b--
	}
	return math.Float32frombits(b | 1)
}
