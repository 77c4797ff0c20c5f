package engine

import (
	"unsafe"

	"github.com/scatter-dev/scatter/tensor"
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
// size of one (see elemTypes); nil and zeros for the zero Tensor.
func sliceOf(t *tensor.Tensor) (p unsafe.Pointer, n int, size uintptr) {
	et := elemTypeOf(t.DType())
	if et.header == nil {
		return nil, 0, 0
	}
	p, n = et.header(t.Data())
	return p, n, et.size
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
