package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/scatter-dev/scatter/tensor"
)

const (
	// magic starts every .npy file; the format version's two bytes follow.
	magic = "\x93NUMPY"
	// maxHeaderLen bounds the header a file may declare. NumPy's own
	// headers are a few hundred bytes at most.
	maxHeaderLen = 1 << 20
	// maxRank is NumPy's limit on the number of dimensions.
	maxRank = 64
	// align is the multiple of bytes at which NumPy starts the data.
	align = 64
	// growthDigits is the number of characters NumPy reserves for the first
	// dimension, padding the header with spaces so that the array can grow
	// along it without the header growing.
	growthDigits = 21
)

// header is a parsed .npy header.
type header struct {
	descr   string
	elem    elemType
	fortran bool
	shape   tensor.Shape
	count   int   // number of elements
	size    int64 // bytes of data
}

// readHeader reads the magic string, version and header of a .npy file.
func readHeader(r io.Reader) (*header, error) {
	var pre [12]byte
	if n, err := io.ReadFull(r, pre[:8]); err != nil {
		if n == 0 && errors.Is(err, io.EOF) {
			return nil, formatErrorf("empty input, want a .npy file")
		}
		return nil, shortErr(err, "magic string and version", 8, n)
	}
	if string(pre[:6]) != magic {
		return nil, formatErrorf("not a .npy file: it starts with %q, want %q", pre[:6], magic)
	}
	major, minor := pre[6], pre[7]
	var lenSize int
	switch {
	case major == 1 && minor == 0:
		lenSize = 2
	case (major == 2 || major == 3) && minor == 0:
		lenSize = 4
	default:
		return nil, formatErrorf("unsupported format version %d.%d, want 1.0, 2.0 or 3.0", major, minor)
	}
	if n, err := io.ReadFull(r, pre[8:8+lenSize]); err != nil {
		return nil, shortErr(err, "header length", lenSize, n)
	}
	var hlen uint32
	if lenSize == 2 {
		hlen = uint32(binary.LittleEndian.Uint16(pre[8:]))
	} else {
		hlen = binary.LittleEndian.Uint32(pre[8:])
	}
	if hlen > maxHeaderLen {
		return nil, formatErrorf("header length %d exceeds the limit of %d bytes", hlen, maxHeaderLen)
	}
	text, err := readExact(r, nil, int(hlen))
	if err != nil {
		return nil, shortErr(err, "header", int(hlen), len(text))
	}
	if major == 3 && !utf8.Valid(text) {
		return nil, formatErrorf("version 3.0 header is not valid utf-8")
	}
	return parseHeader(text)
}

// shortErr describes a failure to read want bytes of what, got of which
// arrived. The input ending early is a format error; anything else is the
// reader's error.
func shortErr(err error, what string, want, got int) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return formatErrorf("input ends inside the %s: want %d bytes, got %d: %w",
			what, want, got, io.ErrUnexpectedEOF)
	}
	return ioErrorf("reading %s: %w", what, err)
}

// parseHeader parses the header text, a Python dict literal such as
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }, and checks
// that it describes an array this package can read.
func parseHeader(text []byte) (*header, error) {
	p := &parser{s: text}
	h := &header{}
	var seenDescr, seenFortran, seenShape bool
	p.skipSpace()
	if err := p.expect('{', "the opening '{' of the header dict"); err != nil {
		return nil, err
	}
	for {
		p.skipSpace()
		if p.peek() == '}' {
			p.pos++
			break
		}
		keyPos := p.pos
		key, err := p.parseString("a quoted header key")
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if err := p.expect(':', "':' after header key "+strconv.Quote(key)); err != nil {
			return nil, err
		}
		p.skipSpace()
		var seen *bool
		switch key {
		case "descr":
			seen = &seenDescr
			if p.peek() == '[' {
				return nil, formatErrorf("header key 'descr': structured dtypes (a list of fields) are not supported")
			}
			h.descr, err = p.parseString("a quoted dtype descr for header key 'descr'")
		case "fortran_order":
			seen = &seenFortran
			h.fortran, err = p.parseBool()
		case "shape":
			seen = &seenShape
			h.shape, err = p.parseShape()
		default:
			return nil, formatErrorf("header has unknown key %q at offset %d", key, keyPos)
		}
		if err != nil {
			return nil, err
		}
		if *seen {
			return nil, formatErrorf("header has key %q twice", key)
		}
		*seen = true
		p.skipSpace()
		if p.peek() == ',' {
			p.pos++
			continue
		}
		if err := p.expect('}', "',' or '}' after the value of header key "+strconv.Quote(key)); err != nil {
			return nil, err
		}
		break
	}
	p.skipSpace()
	if p.pos < len(p.s) {
		return nil, formatErrorf("header has %s after the closing '}'", p.describe())
	}
	for _, k := range []struct {
		name string
		seen bool
	}{{"descr", seenDescr}, {"fortran_order", seenFortran}, {"shape", seenShape}} {
		if !k.seen {
			return nil, formatErrorf("header is missing key '%s'", k.name)
		}
	}

	elem, err := parseDescr(h.descr)
	if err != nil {
		return nil, err
	}
	h.elem = elem
	h.count, err = h.shape.NumElements()
	if err != nil {
		return nil, formatErrorf("header key 'shape': %w", err)
	}
	if h.count > 0 && h.elem.size > math.MaxInt/h.count {
		return nil, formatErrorf("%w: header declares %d elements of %d bytes (descr %q), more bytes than an int holds",
			tensor.ErrTooLarge, h.count, h.elem.size, h.descr)
	}
	h.size = int64(h.count) * int64(h.elem.size)
	return h, nil
}

// parser reads the tiny subset of Python literal syntax that .npy headers
// use: a dict of quoted-string keys whose values are strings, booleans or
// tuples of integers.
type parser struct {
	s   []byte
	pos int
}

// peek returns the next byte, or 0 at the end.
func (p *parser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

// skipSpace skips the whitespace Python allows inside brackets.
func (p *parser) skipSpace() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r', '\f':
			p.pos++
		default:
			return
		}
	}
}

// describe names what is at the current position, for error messages.
func (p *parser) describe() string {
	if p.pos >= len(p.s) {
		return "the end of the header"
	}
	return strconv.QuoteRune(rune(p.s[p.pos])) + " at offset " + strconv.Itoa(p.pos)
}

// expect consumes the byte c, or fails saying what was wanted.
func (p *parser) expect(c byte, want string) error {
	if p.peek() != c || p.pos >= len(p.s) {
		return formatErrorf("header: want %s, found %s", want, p.describe())
	}
	p.pos++
	return nil
}

// parseString reads a string in single or double quotes. Escape sequences
// and prefixes are not allowed; no valid .npy header needs them.
func (p *parser) parseString(want string) (string, error) {
	q := p.peek()
	if q != '\'' && q != '"' {
		return "", formatErrorf("header: want %s, found %s", want, p.describe())
	}
	start := p.pos
	for i := p.pos + 1; i < len(p.s); i++ {
		switch p.s[i] {
		case q:
			p.pos = i + 1
			return string(p.s[start+1 : i]), nil
		case '\\':
			return "", formatErrorf("header: string at offset %d has an escape sequence, which is not supported", start)
		case '\n', '\r':
			i = len(p.s)
		}
	}
	return "", formatErrorf("header: string at offset %d is not terminated", start)
}

// parseBool reads True or False, the value of 'fortran_order'.
func (p *parser) parseBool() (bool, error) {
	for _, lit := range []string{"True", "False"} {
		if bytes.HasPrefix(p.s[p.pos:], []byte(lit)) && !isIdentByte(p.byteAt(p.pos+len(lit))) {
			p.pos += len(lit)
			return lit == "True", nil
		}
	}
	return false, formatErrorf("header key 'fortran_order': want True or False, found %s", p.describe())
}

func (p *parser) byteAt(i int) byte {
	if i < len(p.s) {
		return p.s[i]
	}
	return 0
}

func isIdentByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// parseShape reads a tuple of non-negative integers: (), (3,), (2, 3) or
// (2, 3,). A parenthesised integer such as (3) is not a tuple and is
// rejected, as NumPy rejects it.
func (p *parser) parseShape() (tensor.Shape, error) {
	if err := p.expect('(', "a tuple for header key 'shape'"); err != nil {
		return nil, err
	}
	shape := tensor.Shape{}
	p.skipSpace()
	if p.peek() == ')' {
		p.pos++
		return shape, nil
	}
	for {
		if len(shape) == maxRank {
			return nil, formatErrorf("header key 'shape': more than %d dimensions", maxRank)
		}
		d, err := p.parseDim(len(shape))
		if err != nil {
			return nil, err
		}
		shape = append(shape, d)
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.pos++
			p.skipSpace()
			if p.peek() == ')' {
				p.pos++
				return shape, nil
			}
		case ')':
			if len(shape) == 1 {
				return nil, formatErrorf("header key 'shape': (%d) is not a tuple, want (%d,)", d, d)
			}
			p.pos++
			return shape, nil
		default:
			return nil, formatErrorf("header key 'shape': want ',' or ')' after dimension %d, found %s",
				len(shape)-1, p.describe())
		}
	}
}

// parseDim reads dimension i of a shape: a decimal integer with an optional
// sign and, as Python 2 wrote long integers, an optional 'L' suffix.
func (p *parser) parseDim(i int) (int, error) {
	start := p.pos
	if c := p.peek(); c == '-' || c == '+' {
		p.pos++
	}
	digits := p.pos
	for p.pos < len(p.s) && '0' <= p.s[p.pos] && p.s[p.pos] <= '9' {
		p.pos++
	}
	if p.pos == digits {
		p.pos = start
		return 0, formatErrorf("header key 'shape': dimension %d: want an integer, found %s", i, p.describe())
	}
	lit := string(p.s[start:p.pos])
	if c := p.peek(); c == 'L' || c == 'l' {
		p.pos++
	}
	if isIdentByte(p.peek()) {
		return 0, formatErrorf("header key 'shape': dimension %d: want an integer, found %s", i, p.describe())
	}
	d, err := strconv.ParseInt(lit, 10, 64)
	if err != nil {
		if strings.HasPrefix(lit, "-") {
			return 0, formatErrorf("header key 'shape': dimension %d is negative (%s)", i, lit)
		}
		return 0, formatErrorf("header key 'shape': dimension %d (%s) is out of range", i, lit)
	}
	if d < 0 {
		return 0, formatErrorf("header key 'shape': dimension %d is negative (%s)", i, lit)
	}
	if d > math.MaxInt {
		// A valid dimension where int has 64 bits, too large where it has 32.
		return 0, formatErrorf("header key 'shape': %w: dimension %d (%s) is more than a %d-bit int counts (%w)",
			tensor.ErrTooLarge, i, lit, strconv.IntSize, tensor.ErrShape)
	}
	return int(d), nil
}

// headerText returns the header dict NumPy writes for a C-order array,
// including the spaces it reserves for the first dimension to grow.
func headerText(descr string, shape tensor.Shape) string {
	var b strings.Builder
	b.WriteString("{'descr': '")
	b.WriteString(descr)
	b.WriteString("', 'fortran_order': False, 'shape': (")
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	if len(shape) == 1 {
		b.WriteByte(',')
	}
	b.WriteString("), }")
	if len(shape) > 0 {
		if n := growthDigits - len(strconv.Itoa(shape[0])); n > 0 {
			b.WriteString(strings.Repeat(" ", n))
		}
	}
	return b.String()
}

// preamble returns the magic string, version, header length and header
// text, padded with spaces and ended by a newline to a multiple of 64 bytes.
// As NumPy does, it picks version 1.0 when the header length fits in 16
// bits and 2.0 otherwise, and always adds at least one space.
func preamble(text string) ([]byte, error) {
	for _, v := range []struct {
		major   byte
		lenSize int
		max     uint64
	}{{1, 2, math.MaxUint16}, {2, 4, math.MaxUint32}} {
		fixed := len(magic) + 2 + v.lenSize
		hlen := len(text) + 1 // the newline
		pad := align - (fixed+hlen)%align
		total := hlen + pad
		if uint64(total) > v.max {
			continue
		}
		b := make([]byte, 0, fixed+total)
		b = append(b, magic...)
		b = append(b, v.major, 0)
		if v.lenSize == 2 {
			b = binary.LittleEndian.AppendUint16(b, uint16(total))
		} else {
			b = binary.LittleEndian.AppendUint32(b, uint32(total))
		}
		b = append(b, text...)
		for range pad {
			b = append(b, ' ')
		}
		return append(b, '\n'), nil
	}
	return nil, formatErrorf("header of %d bytes is too long for any format version", len(text))
}

// readExact reads exactly n bytes, reusing buf's storage. It grows the
// buffer no further ahead of the data read so far than chunkSize or the
// bytes already read, so an input that ends early never causes an
// allocation much larger than itself. On error it returns what it read.
func readExact(r io.Reader, buf []byte, n int) ([]byte, error) {
	buf = buf[:0]
	for len(buf) < n {
		start := len(buf)
		step := min(n-start, max(chunkSize, start))
		buf = slices.Grow(buf, step)[:start+step]
		m, err := io.ReadFull(r, buf[start:])
		buf = buf[:start+m]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}
