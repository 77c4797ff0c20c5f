// Package tensortest builds tensors of any element type from small
// integers, for tests.
//
// Like every package under testkit/, it serves this module's own tests:
// no non-test package of the module imports it, and its API may change
// with them.
package tensortest

import (
	"strings"

	"github.com/scatter-dev/scatter/tensor"
)

// FromInts returns a tensor of type d and the given shape whose elements
// are vals converted to d: bool is v != 0, complex has v as its real part
// and string is v letters "s" (none for v <= 0). It panics if the shape is invalid
// or does not hold len(vals) elements.
func FromInts(d tensor.DType, shape tensor.Shape, vals ...int) tensor.Tensor {
	x := tensor.Must(tensor.New(d, shape))
	if x.Len() != len(vals) {
		panic("tensortest: shape and values differ in length")
	}
	for i, v := range vals {
		switch s := x.Data().(type) {
		case []bool:
			s[i] = v != 0
		case []complex64:
			s[i] = complex(float32(v), 0)
		case []complex128:
			s[i] = complex(float64(v), 0)
		case []string:
			s[i] = strings.Repeat("s", max(v, 0))
		default: // an integer (converted as Go converts) or a real float
			if !x.SetIntAt(i, int64(v)) {
				x.SetFloatAt(i, float64(v))
			}
		}
	}
	return x
}
