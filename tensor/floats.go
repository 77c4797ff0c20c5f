package tensor

import "fmt"

// FromFloat32s returns a new tensor of the floating-point type dtype
// (Float16, BFloat16, Float32 or Float64) and the given shape, holding
// values converted as SetFloatAt converts them: each rounded once, to
// nearest even. It is the way to make a float16 or bfloat16 tensor from
// Go floats without converting element by element.
func FromFloat32s(dtype DType, shape Shape, values []float32) (Tensor, error) {
	return fromFloats(dtype, shape, values)
}

// FromFloat64s is FromFloat32s for float64 values.
func FromFloat64s(dtype DType, shape Shape, values []float64) (Tensor, error) {
	return fromFloats(dtype, shape, values)
}

// Float32s returns a new slice holding the elements of a floating-point
// tensor as float32s: exactly from float16, bfloat16 and float32, rounded
// once to nearest even from float64. A tensor of another type is an
// ErrDType error.
func Float32s(t Tensor) ([]float32, error) { return floats[float32](t) }

// Float64s is Float32s for float64s, all of which are exact.
func Float64s(t Tensor) ([]float64, error) { return floats[float64](t) }

func fromFloats[F float32 | float64](dtype DType, shape Shape, values []F) (Tensor, error) {
	if !dtype.IsFloat() {
		return Tensor{}, fmt.Errorf("tensor: %w: %v is not a floating-point type", ErrDType, dtype)
	}
	n, err := shape.NumElements()
	if err != nil {
		return Tensor{}, err
	}
	if n != len(values) {
		return Tensor{}, fmt.Errorf("tensor: %w: shape %v holds %d elements, %d values given", ErrShape, shape, n, len(values))
	}
	t, err := Empty(dtype, shape) // every element is written below
	if err != nil {
		return Tensor{}, err
	}
	if dst, ok := t.data.([]F); ok {
		copy(dst, values)
		return t, nil
	}
	for i, v := range values {
		t.SetFloatAt(i, float64(v))
	}
	return t, nil
}

func floats[F float32 | float64](t Tensor) ([]F, error) {
	if !t.dtype.IsFloat() {
		return nil, fmt.Errorf("tensor: %w: %v is not a floating-point type", ErrDType, t.dtype)
	}
	out := make([]F, t.Len())
	if src, ok := t.data.([]F); ok {
		copy(out, src)
		return out, nil
	}
	for i := range out {
		f, _ := t.FloatAt(i)
		out[i] = F(f)
	}
	return out, nil
}
