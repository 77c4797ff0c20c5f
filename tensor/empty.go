package tensor

import (
	"fmt"
	"reflect"

	"github.com/scatter-dev/scatter/internal/rawalloc"
)

// Empty returns a tensor of the given type and shape whose elements are
// whatever its memory held, as NumPy's empty does: for a destination that
// an Into form is about to overwrite whole, it saves clearing the memory
// first, which for a large tensor costs about as much as the write. Read
// no element before writing it. Tensors under a MiB, and those of bool
// and string elements, are New's, zeroed; the checks and errors are
// New's.
func Empty(dtype DType, shape Shape) (Tensor, error) {
	if !dtype.Valid() {
		return Tensor{}, fmt.Errorf("tensor: %w: %v", ErrDType, dtype)
	}
	if err := CheckSize(dtype, shape); err != nil {
		return Tensor{}, err
	}
	if dtype == Bool || dtype == String {
		return New(dtype, shape) // a bool must be 0 or 1, a string a valid header
	}
	n, _ := shape.NumElements()
	info := dtype.info()
	p := rawalloc.Unzeroed(uintptr(n) * uintptr(info.size))
	if p == nil {
		return New(dtype, shape)
	}
	return Tensor{dtype: dtype, shape: boxed(shape), data: reflect.SliceAt(info.elem, p, n).Interface()}, nil
}
