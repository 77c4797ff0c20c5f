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

// at returns the address of v's element i.
func (v view) at(i int) unsafe.Pointer { return unsafe.Add(v.p, uintptr(i)*v.size) }

// copyBytes copies the n bytes at src to dst: moving elements needs only
// their size.
func copyBytes(dst, src unsafe.Pointer, n uintptr) {
	copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
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
// size of one (see elemTypes); nil and zeros for the zero Tensor. It
// reads the slice's header without asking its type, which costs less
// than a type switch or reflection: the small calls read a few tensors
// this way and move little else.
func sliceOf(t *tensor.Tensor) (p unsafe.Pointer, n int, size uintptr) {
	p, n = sliceHeader(t.Data())
	return p, n, elemTypeOf(t.DType()).size
}

// sliceHeader returns the address of the first element and the length
// of the slice that data holds, or nil and 0 for a nil data. An interface
// value is a pair of words, its type and a pointer to its value; for a
// slice, which does not fit in a word, that value is the slice's header,
// whose first words are the address and the length. A tensor's data is
// always a slice.
func sliceHeader(data any) (unsafe.Pointer, int) {
	type iface struct{ typ, val unsafe.Pointer }
	type header struct {
		p    unsafe.Pointer
		n, c int
	}
	v := (*iface)(unsafe.Pointer(&data)).val
	if v == nil {
		return nil, 0
	}
	h := (*header)(v)
	return h.p, h.n
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
