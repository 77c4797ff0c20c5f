package engine

import (
	"reflect"
	"unsafe"

	"github.com/scatter-dev/scatter/tensor"
)

// The kernels walk indices with type-free code that yields pairs of
// offsets, and hand them in batches to an applier that was typed once per
// call: a mover (reduction none, and every gather) or a reducer. So there
// is no per-element interface call, and the inner loops are typed.

// pair is one block to move or reduce: the block of dst at d with the
// block of src at s. A negative s (a skipped gather index) zeroes the
// destination block.
type pair struct{ d, s int }

// batch is the number of pairs collected before an applier runs them.
const batch = 512

// Moving elements needs only their size: a mover views every fixed-size
// element type as an unsigned word of the same size, and strings as
// strings.
type (
	word8   = uint8
	word16  = uint16
	word32  = uint32
	word64  = uint64
	word128 = [2]uint64
)

// mover moves blocks of src's elements into dst.
type mover interface {
	// move sets each dst block to its src block (zeros when s < 0).
	move(ps []pair)
	// copyRange sets dst[lo:hi] to src[lo:hi].
	copyRange(lo, hi int)
	// clearRange sets dst[lo:hi] to zero values.
	clearRange(lo, hi int)
	fastScatter
	// gatherRows returns the first rejected index, or -1, and a count
	// that only keeps its cache-warming reads from being optimised away.
	gatherRows(e *elemWalk, w, r0, r1 int, skip bool) (bad, touched int)
}

// movers holds a mover of each element size, for a scratch to hand out
// without allocating.
type movers struct {
	m8   wordMover[word8]
	m16  wordMover[word16]
	m32  wordMover[word32]
	m64  wordMover[word64]
	m128 wordMover[word128]
	ms   wordMover[string]
}

// get returns a mover of blocks of the given size from src to dst, which
// have the same element type. src may be the zero Tensor for a mover that
// only clears. The mover is one of ms's, valid until the next get.
func (ms *movers) get(dst, src tensor.Tensor, block int) mover {
	switch dst.DType().Size() {
	case 1:
		return ms.m8.set(dst, src, block)
	case 2:
		return ms.m16.set(dst, src, block)
	case 4:
		return ms.m32.set(dst, src, block)
	case 8:
		return ms.m64.set(dst, src, block)
	case 16:
		return ms.m128.set(dst, src, block)
	}
	s, _ := src.Data().([]string)
	d, _ := dst.Data().([]string)
	ms.ms = wordMover[string]{d, s, block}
	return &ms.ms
}

// forget drops the movers' tensors.
func (ms *movers) forget() { *ms = movers{} }

type wordMover[E comparable] struct {
	dst, src []E
	block    int
}

// set points m at dst and src and returns it.
func (m *wordMover[E]) set(dst, src tensor.Tensor, block int) *wordMover[E] {
	*m = wordMover[E]{words[E](dst), words[E](src), block}
	return m
}

func (m *wordMover[E]) move(ps []pair) {
	dst, src, b := m.dst, m.src, m.block
	var zero E
	if b == 1 {
		for _, p := range ps {
			if p.s < 0 {
				dst[p.d] = zero
			} else {
				dst[p.d] = src[p.s]
			}
		}
		return
	}
	for _, p := range ps {
		if p.s < 0 {
			clear(dst[p.d : p.d+b])
		} else {
			copy(dst[p.d:p.d+b], src[p.s:p.s+b])
		}
	}
}

func (m *wordMover[E]) copyRange(lo, hi int) { copy(m.dst[lo:hi], m.src[lo:hi]) }

func (m *wordMover[E]) clearRange(lo, hi int) { clear(m.dst[lo:hi]) }

// words returns the elements of t viewed as E, which must have the size of
// t's element type; nil for the zero Tensor.
func words[E any](t tensor.Tensor) []E {
	if t.Data() == nil {
		return nil
	}
	v := reflect.ValueOf(t.Data())
	n := v.Len()
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*E)(v.UnsafePointer()), n)
}

// span is the address range [lo, hi) of a tensor's elements, for overlap
// checks; empty (0, 0) for a tensor without elements.
type span struct{ lo, hi uintptr }

// spanOf returns the span of t's elements.
func spanOf(t tensor.Tensor) span {
	v := reflect.ValueOf(t.Data())
	if !v.IsValid() || v.Len() == 0 {
		return span{}
	}
	lo := uintptr(v.UnsafePointer())
	return span{lo, lo + uintptr(v.Len())*v.Type().Elem().Size()}
}

// same reports whether a and b are the same non-empty range.
func (a span) same(b span) bool { return a == b && a.lo != 0 }

// overlaps reports whether a and b share any byte.
func (a span) overlaps(b span) bool { return a.lo < b.hi && b.lo < a.hi }

// SameMemory reports whether a and b are views of exactly the same
// elements, as a scatter's dst and data are for an in-place update.
func SameMemory(a, b tensor.Tensor) bool { return spanOf(a).same(spanOf(b)) }

// Overlap reports whether a and b share any element.
func Overlap(a, b tensor.Tensor) bool { return spanOf(a).overlaps(spanOf(b)) }
