package engine

import (
	"unsafe"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// view is where a tensor's elements are: the address of the first, their
// number and the size of one.
type view struct {
	p    unsafe.Pointer
	n    int
	size uintptr
}

// viewOf returns the view of t's elements.
func viewOf(t *tensor.Tensor) view {
	p, n, size := sliceOf(t)
	return view{p, n, size}
}

// span returns the address range of v's elements.
func (v view) span() span {
	if v.n == 0 {
		return span{}
	}
	lo := uintptr(v.p)
	return span{lo, lo + uintptr(v.n)*v.size}
}

// words returns the elements of v as E, which must have their size; nil
// for no elements.
func words[E any](v view) []E {
	if v.n == 0 {
		return nil
	}
	return unsafe.Slice((*E)(v.p), v.n)
}

// sliceOf returns the address of t's first element, their number and the
// size of one; nil and zeros for the zero Tensor. It switches on the
// element type and asserts the slice's type, which cost less than
// reflection, or a type switch, does: the small calls read a few tensors
// this way and move little else.
func sliceOf(t *tensor.Tensor) (p unsafe.Pointer, n int, size uintptr) {
	return sliceOfData(t.DType(), t.Data())
}

func sliceOfData(dt tensor.DType, data any) (p unsafe.Pointer, n int, size uintptr) {
	switch dt {
	case tensor.Float32:
		return elems[float32](data)
	case tensor.Int64:
		return elems[int64](data)
	case tensor.Float16:
		return elems[float16.Float16](data)
	case tensor.Int32:
		return elems[int32](data)
	case tensor.Float64:
		return elems[float64](data)
	case tensor.BFloat16:
		return elems[bfloat16.BFloat16](data)
	case tensor.Uint8:
		return elems[uint8](data)
	case tensor.Int8:
		return elems[int8](data)
	case tensor.Bool:
		return elems[bool](data)
	case tensor.Int16:
		return elems[int16](data)
	case tensor.Uint16:
		return elems[uint16](data)
	case tensor.Uint32:
		return elems[uint32](data)
	case tensor.Uint64:
		return elems[uint64](data)
	case tensor.Complex64:
		return elems[complex64](data)
	case tensor.Complex128:
		return elems[complex128](data)
	case tensor.String:
		return elems[string](data)
	}
	return nil, 0, 0
}

func elems[E any](data any) (unsafe.Pointer, int, uintptr) {
	v, _ := data.([]E)
	var zero E
	return unsafe.Pointer(unsafe.SliceData(v)), len(v), unsafe.Sizeof(zero)
}

// span is the address range [lo, hi) of a tensor's elements, for overlap
// checks; empty (0, 0) for a tensor without elements.
type span struct{ lo, hi uintptr }

// spanOf returns the span of t's elements.
func spanOf(t *tensor.Tensor) span { return viewOf(t).span() }

// same reports whether a and b are the same non-empty range.
func (a span) same(b span) bool { return a == b && a.lo != 0 }

// overlaps reports whether a and b share any byte.
func (a span) overlaps(b span) bool { return a.lo < b.hi && b.lo < a.hi }

// SameMemory reports whether a and b are views of exactly the same
// elements, as a scatter's dst and data are for an in-place update.
func SameMemory(a, b tensor.Tensor) bool { return spanOf(&a).same(spanOf(&b)) }

// Overlap reports whether a and b share any element.
func Overlap(a, b tensor.Tensor) bool { return spanOf(&a).overlaps(spanOf(&b)) }
