// Package tensortest builds tensors of any element type from small
// integers, for tests.
package tensortest

import (
	"strings"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
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
		case []int8:
			s[i] = int8(v)
		case []int16:
			s[i] = int16(v)
		case []int32:
			s[i] = int32(v)
		case []int64:
			s[i] = int64(v)
		case []uint8:
			s[i] = uint8(v)
		case []uint16:
			s[i] = uint16(v)
		case []uint32:
			s[i] = uint32(v)
		case []uint64:
			s[i] = uint64(v)
		case []float16.Float16:
			s[i] = float16.Fromfloat32(float32(v))
		case []bfloat16.BFloat16:
			s[i] = bfloat16.FromFloat32(float32(v))
		case []float32:
			s[i] = float32(v)
		case []float64:
			s[i] = float64(v)
		case []complex64:
			s[i] = complex(float32(v), 0)
		case []complex128:
			s[i] = complex(float64(v), 0)
		case []string:
			s[i] = strings.Repeat("s", max(v, 0))
		}
	}
	return x
}
