package reftest

import (
	"fmt"
	"math"
	"reflect"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// each calls visit with the coordinates of every element of shape s, in
// row-major order: once with no coordinates for a scalar's shape, never
// when a dimension is 0.
func each(s tensor.Shape, visit func(c []int)) {
	for i := 0; i < tensortest.Count(s); i++ {
		visit(s.Coords(i))
	}
}

// replaced returns a copy of c with c[d] set to v.
func replaced(c []int, d, v int) []int {
	out := append([]int(nil), c...)
	out[d] = v
	return out
}

// verdict is what the rules make of one index value.
type verdict uint8

const (
	use  verdict = iota // the value addresses a position
	skip                // the value is dropped
	bad                 // the value is an error
)

// resolve returns the position that index value v addresses in a dimension
// of the given size, and what the rules make of it.
func resolve(r engine.IndexRules, v int64, size int) (int, verdict) {
	if v < 0 && r.Negative == engine.NegativeSkip {
		return 0, skip
	}
	if v < 0 && r.Negative == engine.NegativeRefused {
		return 0, bad
	}
	switch {
	case size > 0 && r.OutOfRange == engine.OutOfRangeWrap:
		m := v % int64(size)
		if m < 0 {
			m += int64(size)
		}
		return int(m), use
	case size > 0 && r.OutOfRange == engine.OutOfRangeClamp:
		return int(min(max(v, 0), int64(size-1))), use
	case size == 0 && r.OutOfRange > engine.OutOfRangeSkip:
		return 0, bad
	}
	if v < 0 && r.Negative == engine.NegativeFromEnd {
		v += int64(size)
	}
	if v >= 0 && v < int64(size) {
		return int(v), use
	}
	if r.OutOfRange == engine.OutOfRangeSkip {
		return 0, skip
	}
	return 0, bad
}

// tuple resolves the index tuple at position p of the leading dimensions
// of indices (its last dimension holds the components) against dimensions
// from, from+1, ... of ds. It returns the positions the components address
// and whether any was skipped or refused, and appends the flat positions in
// indices of the refused ones to refused.
func tuple(r engine.IndexRules, indices tensor.Tensor, p []int, ds tensor.Shape, from int, refused *[]int) ([]int, bool) {
	is := indices.Shape()
	pos := make([]int, is[len(is)-1])
	dropped := false
	for j := range pos {
		at := is.Offset(tensortest.Join(p, tensor.Shape{j}))
		var v verdict
		pos[j], v = resolve(r, indexValue(indices, at), ds[from+j])
		switch v {
		case bad:
			*refused = append(*refused, at)
			dropped = true
		case skip:
			dropped = true
		}
	}
	return pos, dropped
}

// indexValue returns the element at flat position i of an integer tensor as
// an int64. A uint64 above the int64 range reads as MaxInt64, which is
// larger than any dimension, as the value itself is.
func indexValue(indices tensor.Tensor, i int) int64 {
	v, ok := indices.IntAt(i)
	switch {
	case !ok:
		panic("reftest: indices are not integers") // callers check the type first
	case v < 0 && indices.DType() == tensor.Uint64: // IntAt gives its bits
		return math.MaxInt64
	}
	return v
}

func checkIndexType(indices tensor.Tensor) error {
	if !indices.DType().IsInteger() {
		return fmt.Errorf("reftest: %w: indices must be integers, got %v", engine.ErrType, indices.DType())
	}
	return nil
}

// build returns a tensor of type d and shape s holding vals, Go values of
// d's element type, in row-major order.
func build(d tensor.DType, s tensor.Shape, vals []any) tensor.Tensor {
	t := tensor.Must(tensor.New(d, s))
	slice := reflect.ValueOf(t.Data())
	for i, v := range vals {
		slice.Index(i).Set(reflect.ValueOf(v))
	}
	return t
}

// zero returns the zero element of type d: false, 0, +0, "".
func zero(d tensor.DType) any { return tensor.Must(tensor.New(d, tensor.Shape{})).At(0) }
