package npy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/scatter-dev/scatter/internal/rawbytes"
	"github.com/scatter-dev/scatter/tensor"
)

// chunkSize is the most bytes read at a time, and written at a time when
// the data must be converted on the way out.
const chunkSize = 256 << 10

// readData reads the data section that h describes and returns the tensor.
func readData(r io.Reader, h *header) (tensor.Tensor, error) {
	if err := tensor.CheckSize(h.elem.dtype, h.shape); err != nil {
		return tensor.Tensor{}, formatErrorf("%w", err)
	}
	avail := remaining(r)
	if avail >= 0 && avail < h.size {
		return tensor.Tensor{}, formatErrorf("data section is truncated: shape %v of dtype %q needs %d bytes, the input has %d",
			h.shape, h.descr, h.size, avail)
	}
	switch {
	case h.elem.dtype == tensor.String:
		return readStrings(r, h, avail)
	case h.elem.dtype.Size() > 0:
		return readFixed(r, h, avail)
	}
	return tensor.Tensor{}, formatErrorf("dtype descr %q is not supported", h.descr)
}

// remaining returns the number of bytes left in r, or -1 if that is not
// known.
func remaining(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Len() int }:
		return int64(r.Len())
	case *os.File:
		fi, err := r.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		pos, err := r.Seek(0, io.SeekCurrent)
		if err != nil || pos > fi.Size() {
			return -1
		}
		return fi.Size() - pos
	}
	return -1
}

// readFixed reads fixed-size elements straight into the memory of a new
// tensor, a chunk of at most chunkSize bytes at a time, putting each chunk
// into host byte order. Unless the input is known to hold all the data
// (avail >= 0), the tensor grows with the data that actually arrives, so
// that a short input declaring a huge array fails before much is allocated.
func readFixed(r io.Reader, h *header, avail int64) (tensor.Tensor, error) {
	dtype, n, size := h.elem.dtype, h.count, h.elem.size
	perChunk := max(1, chunkSize/size)
	capacity := n
	if avail < 0 {
		capacity = min(n, perChunk)
	}
	t, err := tensor.New(dtype, tensor.Shape{capacity})
	if err != nil {
		return tensor.Tensor{}, formatErrorf("%w", err)
	}
	word := rawbytes.WordSize(t.Data())
	// Data of the other byte order than the host's has its words reversed.
	swap := h.elem.bigEndian == rawbytes.LittleEndianHost()
	for done := 0; done < n; {
		if done == capacity {
			// Grow no further ahead of the data read so far than its size.
			capacity = min(n, 2*done)
			if t, err = grow(t, capacity); err != nil {
				return tensor.Tensor{}, formatErrorf("%w", err)
			}
		}
		k := min(perChunk, capacity-done)
		b := rawbytes.Bytes(t.Data())[done*size : (done+k)*size]
		if m, err := io.ReadFull(r, b); err != nil {
			return tensor.Tensor{}, readError(h, int64(done)*int64(size)+int64(m), err)
		}
		if swap {
			rawbytes.Swap(b, word)
		}
		if dtype == tensor.Bool {
			if i := slices.IndexFunc(b, func(c byte) bool { return c > 1 }); i >= 0 {
				return tensor.Tensor{}, formatErrorf("dtype '|b1': element %d is byte %#02x, want 0 or 1", done+i, b[i])
			}
		}
		done += k
	}
	if h.fortran && len(h.shape) >= 2 && n > 0 {
		u, err := tensor.New(dtype, h.shape)
		if err != nil {
			return tensor.Tensor{}, formatErrorf("%w", err)
		}
		fromFortran(rawbytes.Bytes(u.Data()), rawbytes.Bytes(t.Data()), h.shape, size)
		return u, nil
	}
	t, err = t.Reshape(h.shape)
	if err != nil {
		return tensor.Tensor{}, formatErrorf("%w", err)
	}
	return t, nil
}

// grow returns a one-dimensional tensor of n elements of t's type that
// starts with t's elements.
func grow(t tensor.Tensor, n int) (tensor.Tensor, error) {
	u, err := tensor.New(t.DType(), tensor.Shape{n})
	if err != nil {
		return tensor.Tensor{}, err
	}
	copy(rawbytes.Bytes(u.Data()), rawbytes.Bytes(t.Data()))
	return u, nil
}

// readStrings reads unicode string elements a chunk of at most chunkSize
// bytes at a time, decoding them as they arrive, so that a chunk may end
// inside an element however wide the dtype is. The tensor is held to the
// size limit with its contents (tensor.CheckStrings) after every chunk, so
// a tensor over it is refused before much more than the limit has been
// read. As in readFixed, the element slice grows with the data unless
// avail >= 0.
func readStrings(r io.Reader, h *header, avail int64) (tensor.Tensor, error) {
	capacity := h.count
	if avail < 0 {
		capacity = min(h.count, max(1, chunkSize/h.elem.size))
	}
	d := &stringDecoder{width: h.elem.width, dst: make([]string, 0, capacity)}
	buf := make([]byte, min(h.size, chunkSize)) // chunkSize is a multiple of 4
	for done := int64(0); done < h.size; {
		b := buf[:min(h.size-done, chunkSize)]
		if m, err := io.ReadFull(r, b); err != nil {
			return tensor.Tensor{}, readError(h, done+int64(m), err)
		}
		if h.elem.bigEndian {
			rawbytes.Swap(b, 4) // decode reads little-endian code units
		}
		if err := d.decode(b); err != nil {
			return tensor.Tensor{}, err
		}
		done += int64(len(b))
		if err := tensor.CheckStrings(h.shape, d.contents+int64(len(d.cur))); err != nil {
			if done < h.size {
				return tensor.Tensor{}, formatErrorf("after %d of %d bytes of data: %w", done, h.size, err)
			}
			return tensor.Tensor{}, formatErrorf("%w", err)
		}
	}
	dst := d.dst
	if h.fortran && len(h.shape) >= 2 && h.count > 0 {
		rows := make([]string, h.count)
		fromFortran(rows, dst, h.shape, 1)
		dst = rows
	}
	t, err := tensor.From(h.shape, dst)
	if err != nil {
		return tensor.Tensor{}, formatErrorf("%w", err)
	}
	return t, nil
}

// readError returns the error for a data section whose reading failed
// with err after got bytes.
func readError(h *header, got int64, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return formatErrorf("data section is truncated: shape %v of dtype %q needs %d bytes, got %d: %w",
			h.shape, h.descr, h.size, got, io.ErrUnexpectedEOF)
	}
	return ioErrorf("reading data: %w", err)
}

// fromFortran moves the elements of src, stored in column-major (Fortran)
// order for shape, into dst in row-major order. Each element is k
// consecutive values: one string, or the bytes of one fixed-size element.
// shape has at least two dimensions and holds at least one element.
func fromFortran[T any](dst, src []T, shape tensor.Shape, k int) {
	// The Fortran stride of dimension i is the product of shape[:i].
	strides := make([]int, len(shape))
	acc := 1
	for i, d := range shape {
		strides[i] = acc
		acc *= d
	}
	idx := make([]int, len(shape)-1) // row-major index of all but the last dimension
	last, lastStride := shape[len(shape)-1], strides[len(shape)-1]
	off := 0 // element offset in src of the start of the current row
	for i := 0; i < len(dst); i += last * k {
		row := dst[i : i+last*k]
		if k == 1 {
			for j := range row {
				row[j] = src[off+j*lastStride]
			}
		} else {
			for j := range last {
				copy(row[j*k:(j+1)*k], src[(off+j*lastStride)*k:])
			}
		}
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			off += strides[d]
			if idx[d] < shape[d] {
				break
			}
			off -= strides[d] * shape[d]
			idx[d] = 0
		}
	}
}

// stringDecoder decodes elements of width UTF-32 code units each,
// dropping trailing NULs, from code units that arrive in pieces of any
// size.
type stringDecoder struct {
	width    int
	dst      []string // the elements decoded
	contents int64    // the bytes of dst's elements
	cur      []byte   // the element being decoded, without its last NULs
	nuls     int      // NULs read since its last other code unit
	units    int      // code units read of it
}

// decode decodes the little-endian code units in src, a multiple of 4
// bytes.
func (d *stringDecoder) decode(src []byte) error {
	for i := 0; i < len(src); i += 4 {
		c := binary.LittleEndian.Uint32(src[i:])
		if c == 0 {
			d.nuls++
		} else {
			if c > utf8.MaxRune || !utf8.ValidRune(rune(c)) {
				return formatErrorf("dtype '<U%d': element %d has code unit %#x, which is not a unicode code point",
					d.width, len(d.dst), c)
			}
			for ; d.nuls > 0; d.nuls-- {
				d.cur = append(d.cur, 0)
			}
			d.cur = utf8.AppendRune(d.cur, rune(c))
		}
		if d.units++; d.units == d.width {
			d.dst = append(d.dst, string(d.cur))
			d.contents += int64(len(d.cur))
			d.cur, d.nuls, d.units = d.cur[:0], 0, 0
		}
	}
	return nil
}

// encoder writes the data section of one tensor.
type encoder struct {
	descr string
	write func(w io.Writer) error
}

// encode writes the whole file for a tensor of the given shape to w: the
// preamble, then the data section.
func (e *encoder) encode(w io.Writer, shape tensor.Shape) error {
	pre, err := preamble(headerText(e.descr, shape))
	if err != nil {
		return err
	}
	if _, err := w.Write(pre); err != nil {
		return ioErrorf("writing header: %w", err)
	}
	return e.write(w)
}

// newEncoder returns the descr and data writer for t, or an error if a .npy
// file cannot hold t or its data would take more bytes than the limit of
// tensor.SetMaxBytes (strings take 4 bytes a code unit, as many as the
// longest has: one long string repeated takes little memory but many
// bytes in the file).
func newEncoder(t tensor.Tensor) (*encoder, error) {
	if t.IsZero() {
		return nil, formatErrorf("cannot write the zero tensor.Tensor, which has no element type")
	}
	if t.Rank() > maxRank {
		return nil, formatErrorf("cannot write a tensor of rank %d; numpy allows at most %d dimensions", t.Rank(), maxRank)
	}
	switch d := t.DType(); d {
	case tensor.String:
		data, err := tensor.Values[string](t)
		if err != nil {
			return nil, formatErrorf("%w", err)
		}
		width := 1
		for _, s := range data {
			if len(s) > width { // a string has no more runes than bytes
				width = max(width, utf8.RuneCountInString(s))
			}
		}
		if width > math.MaxInt/4/max(1, len(data)) {
			return nil, formatErrorf("cannot write %d strings of up to %d runes: too many bytes", len(data), width)
		}
		// Every string takes width code units in the file, however short:
		// the file is held to the size limit before anything is written.
		if err := tensor.CheckBytes(fmt.Sprintf("the .npy data of %d strings of %d UTF-32 code units", len(data), width),
			int64(len(data)), 4*int64(width)); err != nil {
			return nil, &npyError{err: err}
		}
		descr := "<U" + strconv.Itoa(width)
		return &encoder{descr: descr, write: func(w io.Writer) error {
			return writeStrings(w, data, width)
		}}, nil
	case tensor.BFloat16:
		return nil, formatErrorf("bfloat16 has no numpy dtype; write a .pb (onnx TensorProto) file instead")
	}
	descr, ok := numericDescr(t.DType())
	if !ok {
		return nil, formatErrorf("cannot write a tensor of element type %v", t.DType())
	}
	b, word := rawbytes.Bytes(t.Data()), rawbytes.WordSize(t.Data())
	if err := tensor.CheckBytes("the .npy data", int64(len(b)), 1); err != nil {
		return nil, &npyError{err: err}
	}
	return &encoder{descr: descr, write: func(w io.Writer) error {
		if err := rawbytes.WriteLittleEndian(w, b, word); err != nil {
			return ioErrorf("writing data: %w", err)
		}
		return nil
	}}, nil
}

// writeStrings writes data as UTF-32 elements of width code units, a chunk
// of at most chunkSize bytes (or one element) at a time.
func writeStrings(w io.Writer, data []string, width int) error {
	size := 4 * width
	perChunk := max(1, chunkSize/size)
	buf := make([]byte, min(len(data), perChunk)*size)
	for src := data; len(src) > 0; {
		k := min(perChunk, len(src))
		b := buf[:k*size]
		encodeStrings(b, src[:k], width)
		if _, err := w.Write(b); err != nil {
			return ioErrorf("writing data: %w", err)
		}
		src = src[k:]
	}
	return nil
}

// encodeStrings encodes each string as width UTF-32 code units, padded
// with NULs. Each byte of invalid UTF-8 becomes U+FFFD.
func encodeStrings(dst []byte, src []string, width int) {
	clear(dst)
	for i, s := range src {
		off := 4 * width * i
		for _, r := range s {
			binary.LittleEndian.PutUint32(dst[off:], uint32(r))
			off += 4
		}
	}
}
