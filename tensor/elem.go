package tensor

import "math"

// SetIntAt stores v in element i of an integer tensor, truncated to the
// element's width (the low bits of its two's complement, as a Go
// conversion does), and reports true; it stores nothing and reports
// false for a tensor of another type. It is IntAt's inverse.
func (t Tensor) SetIntAt(i int, v int64) bool {
	if set := t.dtype.info().setIntAt; set != nil {
		set(t.data, i, v)
		return true
	}
	return false
}

// FloatAt returns element i of a floating-point tensor (float16,
// bfloat16, float32, float64) as a float64, exactly, with ok set; 0 and
// false for a tensor of another type.
func (t Tensor) FloatAt(i int) (v float64, ok bool) {
	if get := t.dtype.info().floatAt; get != nil {
		return get(t.data, i), true
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
	if set := t.dtype.info().setFloatAt; set != nil {
		set(t.data, i, f)
		return true
	}
	return false
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
