package tensor

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"
)

// ErrTooLarge is matched (with errors.Is) by the error of New, and of the
// file decoders, for a tensor whose elements would take more bytes than
// the limit that SetMaxBytes sets.
var ErrTooLarge = errors.New("too large")

// DefaultMaxBytes is the limit on one tensor's element bytes until
// SetMaxBytes changes it: 16 GiB.
const DefaultMaxBytes = 16 << 30

// stringBytes is what a string element counts towards the limit: its
// header, as the bytes it points to are not allocated by New.
const stringBytes = 16

var maxBytes atomic.Int64

func init() { maxBytes.Store(DefaultMaxBytes) }

// SetMaxBytes sets the largest number of bytes that one tensor's elements
// may take when New allocates it or a decoder reads it, and returns the
// previous limit. A negative limit changes nothing and only reports the
// current one; zero allows no tensor with elements; math.MaxInt64 removes
// the limit. Strings count 16 bytes each. The limit guards against
// inputs (a shape attribute, a gather's index count, a file header) that
// describe a tensor too large to allocate: the allocation is refused with
// an ErrTooLarge error before any memory is taken.
//
// It is safe to call from several goroutines; a change applies to
// allocations that start after it.
func SetMaxBytes(limit int64) int64 {
	if limit < 0 {
		return maxBytes.Load()
	}
	return maxBytes.Swap(limit)
}

// CheckSize returns an ErrTooLarge error if a tensor of type d and shape
// s would take more bytes than the limit SetMaxBytes sets, or an ErrShape
// error if s is invalid. New calls it; decoders call it before reading.
func CheckSize(d DType, s Shape) error {
	n, err := s.NumElements()
	if err != nil {
		return err
	}
	size := int64(d.Size())
	if d == String {
		size = stringBytes
	}
	limit := maxBytes.Load()
	if size > 0 && int64(n) > limit/size {
		bytes := "more than 2^63"
		if int64(n) <= math.MaxInt64/size {
			bytes = fmt.Sprint(int64(n) * size)
		}
		return fmt.Errorf("tensor: %w: %v%v takes %s bytes, over the limit of %d bytes",
			ErrTooLarge, d, s, bytes, limit)
	}
	return nil
}
