package torch

import (
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// lastNaNs finishes amax and amin on float32 and float64: PyTorch's
// kernel takes the update whenever it is NaN, so a position that ends as
// NaN holds the last NaN update it received (its own NaN if it received
// none), where the engine keeps the first NaN it met. The two differ only
// in which NaN's bits survive. It reads the updates that index reads, in
// order, and writes each NaN one over its position if that is NaN: the
// last one stays. Its coordinates and strides come from sh.
func lastNaNs(sh *dialect.Shapes, out, src, index tensor.Tensor, dim int) {
	switch o := out.Data().(type) {
	case []float32:
		lastNaN(sh, o, src.Data().([]float32), out, src, index, dim)
	case []float64:
		lastNaN(sh, o, src.Data().([]float64), out, src, index, dim)
	}
}

func lastNaN[T float32 | float64](sh *dialect.Shapes, out, s []T, outT, srcT, index tensor.Tensor, dim int) {
	rank := index.Rank()
	coord := sh.Buf(rank)[:rank]
	clear(coord)
	ostr, sstr := strides(sh, outT), strides(sh, srcT)
	ind := index.Data().([]int64)
	for i, v := range ind {
		if i > 0 {
			for d := rank - 1; d >= 0; d-- {
				if coord[d]++; coord[d] < index.Dim(d) {
					break
				}
				coord[d] = 0
			}
		}
		so, oo := 0, 0
		for d, c := range coord {
			so += c * sstr[d]
			if d == dim {
				c = int(v)
			}
			oo += c * ostr[d]
		}
		if u := s[so]; u != u && out[oo] != out[oo] {
			out[oo] = u
		}
	}
}

// strides returns the row-major strides of t, from sh.
func strides(sh *dialect.Shapes, t tensor.Tensor) []int {
	st := sh.Buf(t.Rank())[:t.Rank()]
	acc := 1
	for d := t.Rank() - 1; d >= 0; d-- {
		st[d] = acc
		acc *= t.Dim(d)
	}
	return st
}

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
