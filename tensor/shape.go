package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// ErrShape is matched (with errors.Is) by every error about a shape that
// cannot describe a tensor: a negative dimension or an element count that
// overflows int.
var ErrShape = errors.New("invalid shape")

// Shape is a row-major tensor shape. The empty shape describes a scalar; a
// zero dimension describes a tensor with no elements.
type Shape []int

// NumElements returns the number of elements a tensor of shape s holds. It
// fails, before anything is allocated, when a dimension is negative or the
// product overflows int. A product that fits an int64 but not the
// platform's int (a 32-bit one) is refused with an error that matches
// ErrTooLarge as well as ErrShape and names the count: such a tensor is
// valid where int has 64 bits.
func (s Shape) NumElements() (int, error) {
	n := uint64(1)
	overflow := false
	for i, d := range s {
		if d < 0 {
			return 0, fmt.Errorf("tensor: %w: dimension %d of %v is negative", ErrShape, i, s)
		}
		hi, lo := bits.Mul64(n, uint64(d))
		if hi != 0 || lo > math.MaxInt64 {
			overflow = true
		}
		n = lo
	}
	// A zero dimension makes any product zero, however large the others.
	for _, d := range s {
		if d == 0 {
			return 0, nil
		}
	}
	if overflow {
		return 0, fmt.Errorf("tensor: %w: element count of %v overflows int", ErrShape, s)
	}
	if n > math.MaxInt {
		return 0, fmt.Errorf("tensor: %w: element count of %v overflows int: %d elements, more than a %d-bit int counts (%w)",
			ErrTooLarge, s, n, bits.UintSize, ErrShape)
	}
	return int(n), nil
}

// Coords returns the coordinates of the element at row-major position i
// of a tensor of shape s. Dimensions of size zero get coordinate zero.
func (s Shape) Coords(i int) []int {
	c := make([]int, len(s))
	for d := len(s) - 1; d >= 0; d-- {
		if s[d] > 0 {
			c[d] = i % s[d]
			i /= s[d]
		}
	}
	return c
}

// Offset returns the row-major position of the element at coordinates c
// (one per dimension) of a tensor of shape s: the inverse of Coords.
func (s Shape) Offset(c []int) int {
	off := 0
	for d, v := range c {
		off = off*s[d] + v
	}
	return off
}

// Rank returns the number of dimensions.
func (s Shape) Rank() int { return len(s) }

// Equal reports whether s and o have the same dimensions.
func (s Shape) Equal(o Shape) bool {
	if len(s) != len(o) {
		return false
	}
	for i := range s {
		if s[i] != o[i] {
			return false
		}
	}
	return true
}

// Clone returns a copy of s that shares no memory with it.
func (s Shape) Clone() Shape {
	if s == nil {
		return Shape{}
	}
	return append(Shape{}, s...)
}

// Strides returns the row-major strides of s, in elements. The shape must be
// valid (see NumElements).
func (s Shape) Strides() []int {
	st := make([]int, len(s))
	acc := 1
	for i := len(s) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= s[i]
	}
	return st
}

// String formats s as "[2,3,4]"; a scalar's shape is "[]".
func (s Shape) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(d))
	}
	b.WriteByte(']')
	return b.String()
}

// ParseShape reads a shape written as comma-separated dimensions, such as
// "4,4,4" or "[4, 4, 4]". The empty string and "[]" are a scalar's shape.
func ParseShape(text string) (Shape, error) {
	t := strings.TrimSpace(text)
	t = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, "["), "]"))
	if t == "" {
		return Shape{}, nil
	}
	parts := strings.Split(t, ",")
	s := make(Shape, len(parts))
	for i, p := range parts {
		d, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Errorf("tensor: %w: %q: dimension %d is beyond the range of int", ErrShape, text, i)
		}
		if err != nil {
			return nil, fmt.Errorf("tensor: %w: %q: dimension %d is not an integer", ErrShape, text, i)
		}
		if d > math.MaxInt || d < math.MinInt {
			return nil, fmt.Errorf("tensor: %w: %q: dimension %d is beyond the range of int: %d, more than a %d-bit int counts (%w)",
				ErrTooLarge, text, i, d, bits.UintSize, ErrShape)
		}
		s[i] = int(d)
	}
	if _, err := s.NumElements(); err != nil {
		return nil, err
	}
	return s, nil
}
