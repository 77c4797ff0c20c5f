package torch

import (
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// divideByOne finishes scatter_reduce's mean over an empty index:
// PyTorch divides every element of t by its count, 1, which leaves every
// real value as it was (but, perhaps, a NaN's payload) and turns a
// complex value with a NaN or infinite part into NaN+NaNi.
func divideByOne(t tensor.Tensor, a engine.Arith) {
	switch s := t.Data().(type) {
	case []complex64:
		for i := range s {
			s[i] = engine.ComplexQuo(a.Complex, s[i], 1)
		}
	case []complex128:
		for i := range s {
			s[i] = engine.ComplexQuo(a.Complex, s[i], 1)
		}
	}
}
