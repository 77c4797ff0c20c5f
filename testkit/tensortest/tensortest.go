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

// Of returns a tensor of the given shape over vals, without copying them.
// It panics if the shape is invalid or does not hold len(vals) elements.
func Of[T tensor.Elem](shape tensor.Shape, vals ...T) tensor.Tensor {
	return tensor.Must(tensor.From(shape, vals))
}

// F32 returns a float32 tensor of the given shape over vals (see Of).
func F32(shape tensor.Shape, vals ...float32) tensor.Tensor { return Of(shape, vals...) }

// F64 returns a float64 tensor of the given shape over vals (see Of).
func F64(shape tensor.Shape, vals ...float64) tensor.Tensor { return Of(shape, vals...) }

// I32 returns an int32 tensor of the given shape over vals (see Of).
func I32(shape tensor.Shape, vals ...int32) tensor.Tensor { return Of(shape, vals...) }

// I64 returns an int64 tensor of the given shape over vals (see Of).
func I64(shape tensor.Shape, vals ...int64) tensor.Tensor { return Of(shape, vals...) }

// Str returns a string tensor of the given shape over vals (see Of).
func Str(shape tensor.Shape, vals ...string) tensor.Tensor { return Of(shape, vals...) }
