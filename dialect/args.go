package dialect

import (
	"fmt"
	"math/bits"

	"github.com/scatter-dev/scatter/tensor"
)

// The functions below read an operator's arguments as the dialects read
// them: integer lists and scalars given as tensors, and axes that count
// from the end. Their errors wrap ErrInput or ErrAttribute.

// IntsOf reads an integer tensor of rank 0 or 1 (a shape, or a list of
// axes) of any integer type as ints. name is the input's name, for the
// error.
func IntsOf(t tensor.Tensor, name string) ([]int, error) {
	if t.Rank() > 1 {
		return nil, fmt.Errorf("%w: %s must be a scalar or a 1-D tensor, got shape %v", ErrInput, name, t.Shape())
	}
	if !t.DType().IsInteger() {
		return nil, TypeError(fmt.Sprintf("%s must be integers, got %v", name, t.DType()))
	}
	out := make([]int, t.Len())
	for i := range out {
		v, _ := t.IntAt(i) // a uint64 as its bits
		if v < 0 && t.DType() == tensor.Uint64 {
			return nil, fmt.Errorf("%w: %s[%d] = %d is too large", ErrInput, name, i, uint64(v))
		}
		if int64(int(v)) != v {
			// Only where int has 32 bits: refused rather than truncated.
			return nil, fmt.Errorf("%w: %s[%d] = %d is beyond a %d-bit int (%w)",
				ErrInput, name, i, v, bits.UintSize, tensor.ErrTooLarge)
		}
		out[i] = int(v)
	}
	return out, nil
}

// IntOf reads an integer tensor holding exactly one element (a scalar, or a
// 1-D tensor of one element) as an int. name is the input's name, for the
// error.
func IntOf(t tensor.Tensor, name string) (int, error) {
	v, err := IntsOf(t, name)
	if err != nil {
		return 0, err
	}
	if len(v) != 1 {
		return 0, fmt.Errorf("%w: %s must hold one value, got shape %v", ErrInput, name, t.Shape())
	}
	return v[0], nil
}

// NormAxis maps an axis in [-rank, rank-1] to [0, rank): negative axes
// count from the end. of names the tensor whose rank it is, for the error,
// which wraps ErrAttribute.
func NormAxis(axis, rank int, of string) (int, error) {
	return normAxis(axis, rank, of, ErrAttribute)
}

// NormAxisInput is NormAxis for an axis that the operator takes as an
// input tensor rather than as an attribute (OpenVINO's
// ScatterElementsUpdate): its error wraps ErrInput instead.
func NormAxisInput(axis, rank int, of string) (int, error) {
	return normAxis(axis, rank, of, ErrInput)
}

func normAxis(axis, rank int, of string, sentinel error) (int, error) {
	if axis < -rank || axis >= rank {
		return 0, fmt.Errorf("%w: axis %d is out of range [%d, %d] for %s of rank %d",
			sentinel, axis, -rank, rank-1, of, rank)
	}
	if axis < 0 {
		axis += rank
	}
	return axis, nil
}
