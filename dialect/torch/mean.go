package torch

import (
	"slices"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// lastNaNs finishes amax and amin on float32 and float64: PyTorch's
// kernel takes the update whenever it is NaN, so a position that ends as
// NaN holds the last NaN update it received (its own NaN if it received
// none), where the engine keeps the first NaN it met. The two differ only
// in which NaN's bits survive.
func lastNaNs(out, src, index tensor.Tensor, dim int) {
	switch o := out.Data().(type) {
	case []float32:
		lastNaN(o, src.Data().([]float32), out.Shape(), src.Shape(), index, dim)
	case []float64:
		lastNaN(o, src.Data().([]float64), out.Shape(), src.Shape(), index, dim)
	}
}

func lastNaN[T float32 | float64](out, src []T, os, ss tensor.Shape, index tensor.Tensor, dim int) {
	// Only a position that ends as NaN can change, and a NaN update leaves
	// its position NaN: without a NaN in out there is nothing to do. (A
	// NaN-free input is not enough: two NaN updates to one position still
	// need the last; and src may hold far more elements than index reads.)
	if !slices.ContainsFunc(out, func(v T) bool { return v != v }) {
		return
	}
	is := index.Shape()
	ostr, sstr := os.Strides(), ss.Strides()
	coord := make([]int, len(is))
	last := map[int]int{} // output offset -> src offset of its last NaN update
	for i := 0; i < index.Len(); i++ {
		if i > 0 {
			for d := len(is) - 1; d >= 0; d-- {
				if coord[d]++; coord[d] < is[d] {
					break
				}
				coord[d] = 0
			}
		}
		so := 0
		for d, c := range coord {
			so += c * sstr[d]
		}
		if v := src[so]; v == v {
			continue
		}
		oo := 0
		for d, c := range coord {
			if d == dim {
				v, _ := index.IntAt(i)
				c = int(v)
			}
			oo += c * ostr[d]
		}
		last[oo] = so
	}
	for oo, so := range last {
		if v := out[oo]; v != v {
			out[oo] = src[so]
		}
	}
}

// divide finishes scatter_reduce's mean: it divides each element of t, a
// sum, by counts[i], the number of values that took part, counted as
// PyTorch counts them: in t's own type, so that integer counts wrap,
// floating-point counts accumulate in float32 (and stop growing at 2^24)
// and float16 and bfloat16 counts are rounded; a count of 0 is taken as 1.
// Integers divide rounding toward negative infinity (uint8 truncates,
// which is the same); float16 and bfloat16 divide in float32 and round;
// complex numbers divide by a complex count in the arithmetic of a.
func divide(t tensor.Tensor, counts []int64, a engine.Arith) {
	switch s := t.Data().(type) {
	case []int8:
		divFloor(s, counts)
	case []int16:
		divFloor(s, counts)
	case []int32:
		divFloor(s, counts)
	case []int64:
		divFloor(s, counts)
	case []uint8:
		for i := range s {
			c := uint8(counts[i])
			if c == 0 {
				c = 1
			}
			s[i] /= c
		}
	case []float32:
		for i := range s {
			s[i] /= count32(counts[i])
		}
	case []float64:
		for i := range s {
			c := float64(counts[i])
			if c == 0 {
				c = 1
			}
			s[i] /= c
		}
	case []float16.Float16:
		for i := range s {
			c := float16.Fromfloat32(count32(counts[i])).Float32()
			s[i] = float16.Fromfloat32(s[i].Float32() / c)
		}
	case []bfloat16.BFloat16:
		for i := range s {
			c := bfloat16.FromFloat32(count32(counts[i])).Float32()
			s[i] = bfloat16.FromFloat32(s[i].Float32() / c)
		}
	case []complex64:
		for i := range s {
			s[i] = engine.ComplexQuo(a.Complex, s[i], complex(count32(counts[i]), 0))
		}
	case []complex128:
		for i := range s {
			c := float64(counts[i])
			if c == 0 {
				c = 1
			}
			s[i] = engine.ComplexQuo(a.Complex, s[i], complex(c, 0))
		}
	}
}

// count32 is n counted by adding ones in float32, 0 taken as 1.
func count32(n int64) float32 {
	if n == 0 {
		return 1
	}
	return float32(min(n, 1<<24))
}

// divFloor divides each a by its count in T, rounding toward negative
// infinity. The most negative value divided by -1 stays itself, as the
// two's-complement arithmetic of PyTorch's kernel gives.
func divFloor[T int8 | int16 | int32 | int64](s []T, counts []int64) {
	for i, a := range s {
		b := T(counts[i])
		if b == 0 {
			b = 1
		}
		q := a / b
		if a%b != 0 && (a < 0) != (b < 0) {
			q--
		}
		s[i] = q
	}
}
