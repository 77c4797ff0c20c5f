package reftest

import (
	"fmt"
	"math"
	"reflect"

	"github.com/scatter-dev/scatter/tensor"
)

// count returns the number of elements of shape s: the product of its
// dimensions, 1 for a scalar's shape.
func count(s tensor.Shape) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// coords returns the coordinates of flat row-major position i in shape s.
func coords(i int, s tensor.Shape) []int {
	c := make([]int, len(s))
	for d := len(s) - 1; d >= 0; d-- {
		c[d] = i % s[d]
		i /= s[d]
	}
	return c
}

// offset returns the flat row-major position of coordinates c in shape s.
func offset(c []int, s tensor.Shape) int {
	f := 0
	for d := range s {
		f = f*s[d] + c[d]
	}
	return f
}

// each calls visit with the coordinates of every element of shape s, in
// row-major order: once with no coordinates for a scalar's shape, never
// when a dimension is 0.
func each(s tensor.Shape, visit func(c []int)) {
	for i := 0; i < count(s); i++ {
		visit(coords(i, s))
	}
}

// join returns the concatenation of coordinate lists.
func join(parts ...[]int) []int {
	var c []int
	for _, p := range parts {
		c = append(c, p...)
	}
	return c
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
func (r Rules) resolve(v int64, size int) (int, verdict) {
	if v < 0 && r.Negative == NegativeFromEnd {
		v += int64(size)
	}
	if v >= 0 && v < int64(size) {
		return int(v), use
	}
	if r.OutOfRange == OutOfRangeSkip {
		return 0, skip
	}
	return 0, bad
}

// indexValue returns the element at flat position i of an integer tensor as
// an int64. A uint64 above the int64 range reads as MaxInt64, which is
// larger than any dimension, as the value itself is.
func indexValue(indices tensor.Tensor, i int) int64 {
	switch v := indices.At(i).(type) {
	case int8:
		return int64(v)
	case int16:
		return int64(v)
	case int32:
		return int64(v)
	case int64:
		return v
	case uint8:
		return int64(v)
	case uint16:
		return int64(v)
	case uint32:
		return int64(v)
	case uint64:
		if v > math.MaxInt64 {
			return math.MaxInt64
		}
		return int64(v)
	}
	panic("reftest: indices are not integers") // callers check the type first
}

func checkIndexType(indices tensor.Tensor) error {
	if !indices.DType().IsInteger() {
		return fmt.Errorf("%w: indices must be integers, got %v", ErrType, indices.DType())
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
