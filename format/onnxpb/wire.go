package onnxpb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
)

// This file reads protobuf's wire format a field at a time, from a byte
// slice or from a file, so that TensorProto's elements can be checked
// against its dims and data_type before they are read, and read straight
// into the tensor's memory. What it accepts is what proto.Unmarshal
// accepts (a test compares the two).

// source is the bytes of one serialized message: a byte slice in memory,
// or a file read through io.ReaderAt, so that a field can be skipped
// without reading it.
type source struct {
	b     []byte      // the message, when r is nil
	r     io.ReaderAt // the message's bytes are [0, size) of r
	size  int64
	chunk int // bytes a cursor buffers from r at a time
}

// bufSize is the chunk of a source that reads from a file.
const bufSize = 64 << 10

// memSource returns the source of a message held in b.
func memSource(b []byte) *source { return &source{b: b, size: int64(len(b))} }

// fileSource returns the source of a message that is the first size bytes
// of r.
func fileSource(r io.ReaderAt, size int64) *source {
	return &source{r: r, size: size, chunk: bufSize}
}

// readAt fills dst with the bytes at offset off, which the caller has
// checked lie within the message.
func (s *source) readAt(dst []byte, off int64) error {
	if s.r == nil {
		copy(dst, s.b[off:])
		return nil
	}
	n, err := s.r.ReadAt(dst, off)
	if n == len(dst) {
		return nil
	}
	if errors.Is(err, io.EOF) {
		return malformed("the file ended at byte %d, before the message did", off+int64(n))
	}
	return err
}

// cursor reads the span [pos, end) of a source in order.
type cursor struct {
	src      *source
	pos, end int64
	buf      []byte // bytes of a file source from offset at
	at       int64
}

// cursor returns a cursor over the bytes [off, off+n) of s.
func (s *source) cursor(off, n int64) *cursor {
	return &cursor{src: s, pos: off, end: off + n}
}

// left returns the number of bytes of the span not yet read.
func (c *cursor) left() int64 { return c.end - c.pos }

// peek returns the next bytes of the span without consuming them: n of
// them, or all that are left if fewer. n is at most the source's chunk.
func (c *cursor) peek(n int) ([]byte, error) {
	n = int(min(int64(n), c.left()))
	if c.src.r == nil {
		return c.src.b[c.pos : c.pos+int64(n)], nil
	}
	if c.pos < c.at || c.pos+int64(n) > c.at+int64(len(c.buf)) {
		if c.buf == nil {
			c.buf = make([]byte, 0, c.src.chunk)
		}
		c.buf = c.buf[:min(int64(cap(c.buf)), c.left())]
		if err := c.src.readAt(c.buf, c.pos); err != nil {
			return nil, err
		}
		c.at = c.pos
	}
	i := c.pos - c.at
	return c.buf[i : i+int64(n)], nil
}

// skip consumes n bytes, which must not be more than are left.
func (c *cursor) skip(n int64) { c.pos += n }

// malformedError is the cause of a "malformed protobuf" error.
type malformedError struct{ msg string }

func (e *malformedError) Error() string { return e.msg }

func malformed(format string, args ...any) error {
	return &malformedError{msg: fmt.Sprintf(format, args...)}
}

// varint reads a varint.
func (c *cursor) varint() (uint64, error) {
	b, err := c.peek(binary.MaxVarintLen64)
	if err != nil {
		return 0, err
	}
	v, n := protowire.ConsumeVarint(b)
	if n < 0 {
		return 0, malformed("bad varint at byte %d: %v", c.pos, protowire.ParseError(n))
	}
	c.skip(int64(n))
	return v, nil
}

// fixed reads a little-endian value of size 4 or 8 bytes.
func (c *cursor) fixed(size int) (uint64, error) {
	b, err := c.peek(size)
	if err != nil {
		return 0, err
	}
	if len(b) < size {
		return 0, malformed("the message ends inside a %d-byte value at byte %d", size, c.pos)
	}
	c.skip(int64(size))
	if size == 4 {
		return uint64(binary.LittleEndian.Uint32(b)), nil
	}
	return binary.LittleEndian.Uint64(b), nil
}

// field is one field of a message: its number and wire type, and its
// value: a varint, fixed32 or fixed64 in val, or the place of a
// length-delimited value's bytes in the source.
type field struct {
	num  protowire.Number
	typ  protowire.Type
	val  uint64
	off  int64
	size int64
}

// maxGroupDepth bounds the nesting of the groups skipped in unknown
// fields, as proto.Unmarshal's recursion limit does: the outermost group
// and maxGroupDepth groups inside it.
const maxGroupDepth = protowire.DefaultRecursionLimit

// next reads the next field of the message and moves past it; ok is false
// at the end of the span. A group, which no field this package reads is,
// is skipped whole and returned without a value.
func (c *cursor) next() (f field, ok bool, err error) {
	if c.left() == 0 {
		return field{}, false, nil
	}
	if f, err = c.tag(); err != nil {
		return field{}, false, err
	}
	if f.num > protowire.MaxValidNumber {
		return field{}, false, malformed("field number %d is out of range, at byte %d", f.num, c.pos)
	}
	if f.typ == protowire.EndGroupType {
		return field{}, false, malformed("end of group %d that did not start, at byte %d", f.num, c.pos)
	}
	if f.typ != protowire.StartGroupType {
		return f, true, c.value(&f)
	}
	open := []protowire.Number{f.num}
	for len(open) > 0 {
		g, err := c.tag()
		if err != nil {
			return field{}, false, err
		}
		switch g.typ {
		case protowire.StartGroupType:
			if len(open) > maxGroupDepth {
				return field{}, false, malformed("groups nested more than %d deep", maxGroupDepth)
			}
			open = append(open, g.num)
		case protowire.EndGroupType:
			if g.num != open[len(open)-1] {
				return field{}, false, malformed("group %d ends as group %d", open[len(open)-1], g.num)
			}
			open = open[:len(open)-1]
		default:
			if err := c.value(&g); err != nil {
				return field{}, false, err
			}
		}
	}
	return f, true, nil
}

// tag reads a field's number and wire type.
func (c *cursor) tag() (field, error) {
	if c.left() == 0 {
		return field{}, malformed("the message ends inside a group")
	}
	b, err := c.peek(binary.MaxVarintLen64)
	if err != nil {
		return field{}, err
	}
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return field{}, malformed("bad field tag at byte %d: %v", c.pos, protowire.ParseError(n))
	}
	c.skip(int64(n))
	return field{num: num, typ: typ}, nil
}

// value reads the value of f, whose tag has been read, other than a
// group's.
func (c *cursor) value(f *field) (err error) {
	switch f.typ {
	case protowire.VarintType:
		f.val, err = c.varint()
	case protowire.Fixed32Type:
		f.val, err = c.fixed(4)
	case protowire.Fixed64Type:
		f.val, err = c.fixed(8)
	case protowire.BytesType:
		var n uint64
		if n, err = c.varint(); err != nil {
			return err
		}
		if n > uint64(c.left()) {
			return malformed("field %d holds %d bytes, only %d are left", f.num, n, c.left())
		}
		f.off, f.size = c.pos, int64(n)
		c.skip(f.size)
	default:
		return malformed("field %d has unknown wire type %d", f.num, f.typ)
	}
	return err
}

// encoding is how a repeated scalar field holds its values.
type encoding uint8

const (
	varints encoding = iota
	fixed32s
	fixed64s
)

// wireType is the wire type of one value written unpacked.
func (e encoding) wireType() protowire.Type {
	return [...]protowire.Type{varints: protowire.VarintType, fixed32s: protowire.Fixed32Type, fixed64s: protowire.Fixed64Type}[e]
}

// batch is the most values a repeated field hands on at a time.
const batch = 1024

// values reads the values of f, a repeated scalar field held by encoding
// e, packed (its bytes) or not (one value), and passes them to put in
// order, a batch at a time. put's error ends the reading. vals is scratch
// space for a batch.
func (s *source) values(f field, e encoding, vals *[batch]uint64, put func([]uint64) error) error {
	if f.typ != protowire.BytesType {
		vals[0] = f.val
		return put(vals[:1])
	}
	size := 8 // bytes of a value, the most of a varint's that a batch can need
	switch e {
	case fixed32s:
		size = 4
	case varints:
		size = binary.MaxVarintLen64
	}
	if e != varints && f.size%int64(size) != 0 {
		return malformed("packed field %d has %d bytes, not a whole number of %d-byte values", f.num, f.size, size)
	}
	c := s.cursor(f.off, f.size)
	for c.left() > 0 {
		want := batch * size
		if s.r != nil {
			want = min(want, s.chunk)
		}
		b, err := c.peek(want)
		if err != nil {
			return err
		}
		k, used := 0, 0
		for k < batch && used < len(b) {
			if e != varints {
				if e == fixed32s {
					vals[k] = uint64(binary.LittleEndian.Uint32(b[used:]))
				} else {
					vals[k] = binary.LittleEndian.Uint64(b[used:])
				}
				used += size
				k++
				continue
			}
			v, n := protowire.ConsumeVarint(b[used:])
			if n < 0 {
				// A varint that runs past the buffer is read again
				// from the next one, unless the field ends there.
				if int64(len(b)) < c.left() && len(b)-used < binary.MaxVarintLen64 && used > 0 {
					break
				}
				return malformed("bad varint in packed field %d at byte %d: %v", f.num, c.pos+int64(used), protowire.ParseError(n))
			}
			vals[k] = v
			used += n
			k++
		}
		c.skip(int64(used))
		if err := put(vals[:k]); err != nil {
			return err
		}
	}
	return nil
}

// checkMessage checks that f, a length-delimited field, holds a well-formed
// message, as proto.Unmarshal checks a message field it does not keep.
func (s *source) checkMessage(f field) error {
	c := s.cursor(f.off, f.size)
	for {
		_, ok, err := c.next()
		if err != nil || !ok {
			return err
		}
	}
}
