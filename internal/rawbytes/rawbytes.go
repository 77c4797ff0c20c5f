// Package rawbytes moves fixed-size tensor elements between typed slices
// and bytes without per-type code: moving an element needs only its size,
// and putting it in little-endian order needs only the size of the words
// to reverse.
package rawbytes

import (
	"encoding/binary"
	"fmt"
	"io"
	"reflect"
	"unsafe"
)

// littleEndianHost records the host's byte order. It is a variable only so
// that this package's tests can exercise the big-endian paths.
var littleEndianHost = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// LittleEndianHost reports whether the host stores multi-byte values
// least significant byte first, so that the memory Bytes returns is
// already in little-endian order.
func LittleEndianHost() bool { return littleEndianHost }

// Bytes returns the memory of data, a slice of fixed-size numbers (bool,
// the integers, the floats, the complex types, or types defined on them
// such as float16.Float16: any tensor's elements but strings), viewed as
// bytes in host byte order, without copying: len(Bytes(s)) is len(s)
// times the element size. It returns nil for nil, an empty slice and a
// slice of any other element type, and panics on a value that is not a
// slice (a tensor.Tensor passed for its Data, say).
//
// The view aliases the slice: writing through it changes the elements
// and vice versa, and it keeps the elements alive. Every byte written to
// a bool slice's view must be 0 or 1.
func Bytes(data any) []byte {
	v := reflect.ValueOf(data)
	if data != nil && v.Kind() != reflect.Slice {
		panic(fmt.Sprintf("rawbytes: Bytes of a %T, not a slice", data))
	}
	if data == nil || v.Len() == 0 || !fixedSize[v.Type().Elem().Kind()] {
		return nil
	}
	return unsafe.Slice((*byte)(v.UnsafePointer()), v.Len()*int(v.Type().Elem().Size()))
}

// WordSize returns the number of bytes whose order the host's byte order
// governs in an element of data, a slice as Bytes takes: the element size
// for the real types, half of it for complex types (whose real and
// imaginary parts are separate words: 4 bytes for complex64, 8 for
// complex128), and 0 for anything else. It is the size to pass to Swap,
// FromLittleEndian and ToLittleEndian.
func WordSize(data any) int {
	t := reflect.TypeOf(data)
	if t == nil || t.Kind() != reflect.Slice || !fixedSize[t.Elem().Kind()] {
		return 0
	}
	size := int(t.Elem().Size())
	if k := t.Elem().Kind(); k == reflect.Complex64 || k == reflect.Complex128 {
		size /= 2
	}
	return size
}

// fixedSize holds the kinds of the elements Bytes views.
var fixedSize = map[reflect.Kind]bool{
	reflect.Bool: true, reflect.Int8: true, reflect.Int16: true, reflect.Int32: true, reflect.Int64: true,
	reflect.Uint8: true, reflect.Uint16: true, reflect.Uint32: true, reflect.Uint64: true,
	reflect.Float32: true, reflect.Float64: true, reflect.Complex64: true, reflect.Complex128: true,
}

// FromLittleEndian copies src, a sequence of little-endian words of size
// bytes each, into dst in host byte order. dst and src must have the same
// length, a multiple of size, and may be the same slice.
func FromLittleEndian(dst, src []byte, size int) { copyLittleEndian(dst, src, size) }

// ToLittleEndian copies src, a sequence of words of size bytes each in host
// byte order, into dst in little-endian order. dst and src must have the
// same length, a multiple of size, and may be the same slice.
func ToLittleEndian(dst, src []byte, size int) { copyLittleEndian(dst, src, size) }

// copyLittleEndian is both FromLittleEndian and ToLittleEndian: converting
// between the two orders reverses the bytes of each word either way.
func copyLittleEndian(dst, src []byte, size int) {
	if len(dst) != len(src) {
		panic(fmt.Sprintf("rawbytes: copying %d bytes into %d", len(src), len(dst)))
	}
	checkSize(len(src), size)
	copy(dst, src)
	if !littleEndianHost {
		Swap(dst, size)
	}
}

// writeChunk is the most bytes WriteLittleEndian swaps at a time: a
// multiple of every word size.
const writeChunk = 256 << 10

// bufferedWriter is a writer with a buffer of its own, such as a
// *bufio.Writer, into whose free space words can be swapped.
type bufferedWriter interface {
	io.Writer
	AvailableBuffer() []byte
	Flush() error
}

// WriteLittleEndian writes b, which holds words of size bytes in host byte
// order, to w in little-endian order: as it is on a little-endian host
// (or for single bytes), and on a big-endian one swapped into w's own
// buffer if it has one (a *bufio.Writer: nothing is allocated), else
// through a swapped copy, a chunk at a time. It returns w's error as it is.
func WriteLittleEndian(w io.Writer, b []byte, size int) error {
	checkSize(len(b), size)
	if len(b) == 0 {
		return nil
	}
	if littleEndianHost || size == 1 {
		_, err := w.Write(b)
		return err
	}
	if bw, ok := w.(bufferedWriter); ok {
		var err error
		if b, err = writeBuffered(bw, b, size); err != nil || len(b) == 0 {
			return err
		}
	}
	buf := make([]byte, min(len(b), writeChunk))
	for len(b) > 0 {
		c := buf[:min(len(b), len(buf))]
		ToLittleEndian(c, b[:len(c)], size)
		if _, err := w.Write(c); err != nil {
			return err
		}
		b = b[len(c):]
	}
	return nil
}

// writeBuffered writes the words of b swapped into w's free buffer space,
// flushing it when it has no room for a word, and returns what it could
// not write that way: the rest of b if w's whole buffer holds less than a
// word.
func writeBuffered(w bufferedWriter, b []byte, size int) ([]byte, error) {
	for len(b) > 0 {
		free := w.AvailableBuffer()
		n := min(len(b), cap(free)-cap(free)%size)
		if n == 0 {
			if err := w.Flush(); err != nil {
				return b, err
			}
			if free = w.AvailableBuffer(); cap(free) < size {
				return b, nil
			}
			continue
		}
		c := free[:n]
		ToLittleEndian(c, b[:n], size)
		if _, err := w.Write(c); err != nil {
			return b, err
		}
		b = b[n:]
	}
	return nil, nil
}

// Swap reverses, in place, the order of the bytes of each size-byte word
// of b. A size of 1 leaves b as it is. len(b) must be a multiple of size,
// which must be positive. For complex elements, pass WordSize: the real and
// imaginary parts are swapped separately.
func Swap(b []byte, size int) {
	checkSize(len(b), size)
	switch size {
	case 1:
	case 2:
		for i := 0; i+1 < len(b); i += 2 {
			b[i], b[i+1] = b[i+1], b[i]
		}
	case 4:
		for i := 0; i+3 < len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], binary.BigEndian.Uint32(b[i:]))
		}
	case 8:
		for i := 0; i+7 < len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], binary.BigEndian.Uint64(b[i:]))
		}
	default:
		for i := 0; i < len(b); i += size {
			w := b[i : i+size]
			for j, k := 0, size-1; j < k; j, k = j+1, k-1 {
				w[j], w[k] = w[k], w[j]
			}
		}
	}
}

func checkSize(n, size int) {
	if size <= 0 || n%size != 0 {
		panic(fmt.Sprintf("rawbytes: %d bytes are not a whole number of %d-byte words", n, size))
	}
}
