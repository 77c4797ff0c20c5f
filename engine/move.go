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
	gatherRows(e *elemWalk, r0, r1 int, skip bool) (bad, touched int)
	// setFill makes move fill a block whose s < 0 with the one element of
	// fill, a scalar of dst's type, instead of zeros.
	setFill(fill tensor.Tensor)
}

// newMover returns a mover of blocks of the given size from src to dst,
// which have the same element type. src may be the zero Tensor for a
// mover that only clears.
func newMover(dst, src tensor.Tensor, block int) mover {
	switch dst.DType().Size() {
	case 1:
		return &wordMover[word8]{dst: words[word8](dst), src: words[word8](src), block: block}
	case 2:
		return &wordMover[word16]{dst: words[word16](dst), src: words[word16](src), block: block}
	case 4:
		return &wordMover[word32]{dst: words[word32](dst), src: words[word32](src), block: block}
	case 8:
		return &wordMover[word64]{dst: words[word64](dst), src: words[word64](src), block: block}
	case 16:
		return &wordMover[word128]{dst: words[word128](dst), src: words[word128](src), block: block}
	}
	s, _ := src.Data().([]string)
	return &wordMover[string]{dst: dst.Data().([]string), src: s, block: block}
}

type wordMover[E comparable] struct {
	dst, src []E
	block    int
	fill     E // what a skipped block is filled with
}

func (m *wordMover[E]) move(ps []pair) {
	dst, src, b := m.dst, m.src, m.block
	fill := m.fill
	if b == 1 {
		for _, p := range ps {
			if p.s < 0 {
				dst[p.d] = fill
			} else {
				dst[p.d] = src[p.s]
			}
		}
		return
	}
	var zero E
	for _, p := range ps {
		switch {
		case p.s >= 0:
			copy(dst[p.d:p.d+b], src[p.s:p.s+b])
		case fill == zero:
			clear(dst[p.d : p.d+b])
		default:
			for j := range dst[p.d : p.d+b] {
				dst[p.d+j] = fill
			}
		}
	}
}

func (m *wordMover[E]) setFill(fill tensor.Tensor) {
	if w := words[E](fill); len(w) > 0 {
		m.fill = w[0]
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

// span returns the address range of t's elements, for overlap checks.
func span(t tensor.Tensor) (lo, hi uintptr) {
	v := reflect.ValueOf(t.Data())
	if !v.IsValid() || v.Len() == 0 {
		return 0, 0
	}
	lo = uintptr(v.UnsafePointer())
	return lo, lo + uintptr(v.Len())*v.Type().Elem().Size()
}

// SameMemory reports whether a and b are views of exactly the same
// elements, as a scatter's dst and data are for an in-place update.
func SameMemory(a, b tensor.Tensor) bool {
	alo, ahi := span(a)
	blo, bhi := span(b)
	return alo == blo && ahi == bhi && alo != 0
}

// Overlap reports whether a and b share any element.
func Overlap(a, b tensor.Tensor) bool {
	alo, ahi := span(a)
	blo, bhi := span(b)
	return alo < bhi && blo < ahi
}
