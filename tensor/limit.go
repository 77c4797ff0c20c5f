package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sync/atomic"

	"github.com/scatter-dev/scatter/internal/hugepage"
)

// ErrTooLarge is matched (with errors.Is) by the error of New, and of the
// file decoders, for a tensor whose elements would take more bytes than
// the limit that SetMaxBytes sets.
var ErrTooLarge = errors.New("too large")

// DefaultMaxBytes is the limit on one tensor's element bytes until
// SetMaxBytes changes it: 16 GiB.
const DefaultMaxBytes = 16 << 30

// StringHeaderBytes is what a string element counts towards the limit
// besides the bytes of its contents: the size of a Go string header.
const StringHeaderBytes = 16

var maxBytes atomic.Int64

func init() { maxBytes.Store(DefaultMaxBytes) }

// SetMaxBytes sets the largest number of bytes that one tensor's elements
// may take when New allocates it or a decoder reads it, and returns the
// previous limit. A negative limit changes nothing and only reports the
// current one; zero allows no tensor with elements; math.MaxInt64 removes
// the limit. A string element counts StringHeaderBytes plus the bytes of
// its contents where they are read or parsed (CheckStrings); New, which
// allocates empty strings, and the operators, whose string outputs share
// their contents with the inputs, count the header only. The limit guards
// against inputs (a shape attribute, a gather's index count, a file
// header) that describe a tensor too large to allocate: the allocation is
// refused with an ErrTooLarge error before any memory is taken.
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
// A string element counts its header only: see CheckStrings.
func CheckSize(d DType, s Shape) error {
	if d == String {
		return CheckStrings(s, 0)
	}
	n, err := s.NumElements()
	if err != nil {
		return err
	}
	size := int64(d.Size())
	limit := byteLimit()
	if size > 0 && int64(n) > limit/size {
		return tooLarge(fmt.Sprintf("%v%v", d, s), uint64(n), uint64(size), 0, limit)
	}
	return nil
}

// CheckStrings returns an ErrTooLarge error if a string tensor of shape s
// whose elements hold contents bytes in all takes more bytes than the
// limit SetMaxBytes sets, counting StringHeaderBytes per element besides
// the contents; an ErrShape error if s is invalid. The decoders call it
// with the contents they have read so far, so a tensor that would pass the
// limit is refused before more is read.
func CheckStrings(s Shape, contents int64) error {
	n, err := s.NumElements()
	if err != nil {
		return err
	}
	if contents < 0 {
		return fmt.Errorf("tensor: %w: string contents of %d bytes", ErrShape, contents)
	}
	limit := byteLimit()
	if int64(n) > limit/StringHeaderBytes || int64(n)*StringHeaderBytes > limit-contents {
		return tooLarge(fmt.Sprintf("%v%v", String, s), uint64(n), StringHeaderBytes, uint64(contents), limit)
	}
	return nil
}

// CheckBytes returns an ErrTooLarge error naming what if n values of size
// bytes each take more bytes than the limit SetMaxBytes sets. It is for
// memory other than a tensor's that a caller bounds by the same limit.
func CheckBytes(what string, n, size int64) error {
	if n < 0 || size < 0 {
		return fmt.Errorf("tensor: %w: %s: %d values of %d bytes", ErrShape, what, n, size)
	}
	limit := byteLimit()
	if size > 0 && n > limit/size {
		return tooLarge(what, uint64(n), uint64(size), 0, limit)
	}
	return nil
}

// byteLimit returns the limit SetMaxBytes sets, or the largest int if
// that is smaller (on a 32-bit platform), since no Go slice can take more
// bytes than an int counts.
func byteLimit() int64 {
	return min(maxBytes.Load(), math.MaxInt)
}

// tooLarge returns the ErrTooLarge error for what, which takes n values of
// size bytes and extra bytes more, over limit.
func tooLarge(what string, n, size, extra uint64, limit int64) error {
	hi, lo := bits.Mul64(n, size)
	total, carry := bits.Add64(lo, extra, 0)
	bytes := "more than 2^63 bytes"
	if hi == 0 && carry == 0 && total <= math.MaxInt64 {
		bytes = fmt.Sprint(total, " bytes")
	}
	if extra > 0 {
		bytes += fmt.Sprintf(" (%d of contents)", extra)
	}
	if limit == math.MaxInt && limit < maxBytes.Load() {
		return fmt.Errorf("tensor: %w: %s takes %s, more than a %d-bit int counts", ErrTooLarge, what, bytes, bits.UintSize)
	}
	return fmt.Errorf("tensor: %w: %s takes %s, over the limit of %d bytes", ErrTooLarge, what, bytes, limit)
}

// SetHugePages says whether New and the module's operators put a tensor
// of 4 MiB or more on huge pages where the operating system has them
// (Linux's transparent huge pages, asked for with madvise, as NumPy does
// for its arrays), and returns the previous setting. It is on from the
// start: a gather or scatter at random over a large tensor then misses
// the TLB far less. Turn it off where huge pages cost more memory than
// they save time.
func SetHugePages(on bool) (was bool) { return hugepage.Enable(on) }
