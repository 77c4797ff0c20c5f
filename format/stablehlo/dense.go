package stablehlo

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/scatter-dev/scatter/internal/nest"
	"github.com/scatter-dev/scatter/internal/rawbytes"
	"github.com/scatter-dev/scatter/tensor"
)

// literal is a dense<...> literal as read, before the type that follows
// it gives its elements a meaning. Nested lists are read twice: once for
// their shape and form, then, once the type has been checked and the
// tensor allocated, for their elements, which go straight into it, so
// that a literal costs no memory an element besides the tensor's.
type literal struct {
	pos     int
	hex     []byte     // the bytes of a "0x..." string; nil otherwise
	list    bool       // written as nested lists (otherwise one element, a splat)
	listPos int        // where the outermost list starts
	shape   nest.Shape // of the lists
	splat   element    // the element of a splat
}

// element is one element token: a number, true/false, inf/nan, or a
// complex pair (re, im).
type element struct {
	pos    int
	text   string
	im     string // the imaginary part of a complex pair
	isPair bool
}

// dense reads "dense<...>" after the keyword dense, and its type.
func (p *parser) dense() (tensor.Tensor, Type, error) {
	lit, err := p.denseLiteral()
	if err != nil {
		return tensor.Tensor{}, Type{}, err
	}
	if err := p.expect(":"); err != nil {
		return tensor.Tensor{}, Type{}, err
	}
	typ, err := p.tensorType()
	if err != nil {
		return tensor.Tensor{}, Type{}, err
	}
	t, err := p.materialize(lit, typ)
	return t, typ, err
}

// denseLiteral reads "<...>" of a dense literal.
func (p *parser) denseLiteral() (*literal, error) {
	if err := p.expect("<"); err != nil {
		return nil, err
	}
	lit := &literal{pos: p.pos}
	switch p.peek() {
	case '"':
		at := p.pos
		s, err := p.stringLit()
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(s, "0x") && !strings.HasPrefix(s, "0X") {
			return nil, p.unsupported(at, "a dense string that is not hex bytes (\"0x...\")")
		}
		if lit.hex, err = hex.DecodeString(s[2:]); err != nil {
			return nil, p.errAt(at, ErrSyntax, "invalid hex bytes in dense literal: %v", err)
		}
	case '[':
		lit.list, lit.listPos = true, p.pos
		if err := p.denseList(&lit.shape, 0, func(element) error { return nil }); err != nil {
			return nil, err
		}
	default:
		e, err := p.denseElement()
		if err != nil {
			return nil, err
		}
		lit.splat = e
	}
	return lit, p.expect(">")
}

// denseList reads a bracketed list at nesting depth dim, recording its
// shape in shape and calling visit with each element in row-major order.
// Lists at one depth must all have the same length and hold all lists or
// all elements.
func (p *parser) denseList(shape *nest.Shape, dim int, visit func(element) error) error {
	if dim >= maxRank {
		return p.unsupported(p.pos, "dense literal nested over %d levels", maxRank)
	}
	p.pos++ // '['
	n := 0
	for p.peek() != ']' {
		if n > 0 {
			if err := p.expect(","); err != nil {
				return err
			}
		}
		nested := p.peek() == '['
		if err := shape.Item(dim, nested); err != nil {
			return p.errAt(p.pos, ErrSyntax, "ragged dense literal: %v", err)
		}
		if nested {
			if err := p.denseList(shape, dim+1, visit); err != nil {
				return err
			}
		} else {
			e, err := p.denseElement()
			if err == nil {
				err = visit(e)
			}
			if err != nil {
				return err
			}
		}
		n++
	}
	p.pos++ // ']'
	if err := shape.End(dim, n); err != nil {
		return p.errAt(p.pos-1, ErrSyntax, "ragged dense literal: %v", err)
	}
	return nil
}

// denseElement reads one element: a number, true, false, inf, nan, or
// a complex pair "(re, im)".
func (p *parser) denseElement() (element, error) {
	if p.punct("(") {
		re, err := p.numberToken()
		if err != nil {
			return element{}, err
		}
		if err := p.expect(","); err != nil {
			return element{}, err
		}
		im, err := p.numberToken()
		if err != nil {
			return element{}, err
		}
		return element{pos: re.pos, text: re.text, im: im.text, isPair: true}, p.expect(")")
	}
	return p.numberToken()
}

// numberToken reads a number token: an optional sign, then 0x and hex
// digits, or decimal digits with a fraction and exponent, or a word
// (true, false, inf, nan).
func (p *parser) numberToken() (element, error) {
	p.skipSpace()
	start := p.pos
	if p.pos < len(p.src) && (p.src[p.pos] == '-' || p.src[p.pos] == '+') {
		p.pos++
	}
	switch {
	case p.pos+1 < len(p.src) && p.src[p.pos] == '0' && (p.src[p.pos+1] == 'x' || p.src[p.pos+1] == 'X'):
		p.pos += 2
		for p.pos < len(p.src) && isHex(p.src[p.pos]) {
			p.pos++
		}
	case p.pos < len(p.src) && isLetter(p.src[p.pos]):
		for p.pos < len(p.src) && isLetter(p.src[p.pos]) {
			p.pos++
		}
	default:
		for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
			p.pos++
		}
		if p.pos < len(p.src) && p.src[p.pos] == '.' {
			p.pos++
			for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
				p.pos++
			}
		}
		if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
			p.pos++
			if p.pos < len(p.src) && (p.src[p.pos] == '-' || p.src[p.pos] == '+') {
				p.pos++
			}
			for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
				p.pos++
			}
		}
	}
	text := string(p.src[start:p.pos])
	if text == "" || text == "-" || text == "+" {
		p.pos = start
		return element{}, p.fail("a dense element (a number, true, false or a (re, im) pair)")
	}
	return element{pos: start, text: text}, nil
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// materialize builds the tensor of type typ that lit describes. A single
// element, or hex bytes of a single element, is a splat. The type's size
// and the literal's form (its shape, or its number of hex bytes) are
// checked before the tensor is allocated, so that a short literal of a
// huge type takes no memory.
func (p *parser) materialize(lit *literal, typ Type) (tensor.Tensor, error) {
	if err := tensor.CheckSize(typ.DType, typ.Shape); err != nil {
		return tensor.Tensor{}, p.errAt(lit.pos, err, "constant of type %v", typ)
	}
	n, _ := typ.Shape.NumElements() // CheckSize has checked the shape
	size := typ.DType.Size()
	switch {
	case lit.hex != nil:
		if n > 0 && len(lit.hex) != size && len(lit.hex) != n*size {
			return tensor.Tensor{}, p.errAt(lit.pos, ErrSyntax, "hex dense literal of %d bytes for type %v (%d bytes)", len(lit.hex), typ, n*size)
		}
	case lit.list:
		if !tensor.Shape(lit.shape.Dims).Equal(typ.Shape) {
			return tensor.Tensor{}, p.errAt(lit.pos, ErrSyntax, "dense literal of shape %v for type %v", tensor.Shape(lit.shape.Dims), typ)
		}
	}
	if err := p.hold(lit.pos, int64(n)*int64(size)); err != nil { // at most the limit: CheckSize said so
		return tensor.Tensor{}, err
	}
	t, err := tensor.New(typ.DType, typ.Shape)
	if err != nil {
		return tensor.Tensor{}, p.errAt(lit.pos, err, "constant of type %v", typ)
	}
	switch {
	case lit.hex != nil:
		return p.fromHex(lit, t, typ)
	case lit.list:
		// The second reading of the lists, which the first has checked.
		end, i := p.pos, 0
		p.pos = lit.listPos
		err := p.denseList(&nest.Shape{}, 0, func(e element) error {
			err := p.setElem(t, i, e)
			i++
			return err
		})
		p.pos = end
		if err != nil {
			return tensor.Tensor{}, err
		}
	case t.Len() > 0: // a splat
		if err := p.setElem(t, 0, lit.splat); err != nil {
			return tensor.Tensor{}, err
		}
		fillSplat(t)
	}
	return t, nil
}

// fillSplat copies element 0 of t into all the others, doubling the
// bytes copied at each step.
func fillSplat(t tensor.Tensor) {
	b := rawbytes.Bytes(t.Data())
	for n := t.DType().Size(); n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// fromHex fills t from the little-endian element bytes of a hex literal:
// one element's bytes (a splat) or every element's, as materialize has
// checked. i1 takes one byte
// per element, 0 or 1.
func (p *parser) fromHex(lit *literal, t tensor.Tensor, typ Type) (tensor.Tensor, error) {
	size, n, b := typ.DType.Size(), t.Len(), lit.hex
	if n == 0 {
		return t, nil
	}
	if typ.DType == tensor.Bool {
		for i, v := range b {
			if v > 1 {
				return tensor.Tensor{}, p.errAt(lit.pos, ErrSyntax, "hex dense literal of i1: byte %d is %#x, want 0 or 1", i, v)
			}
		}
	}
	dst := rawbytes.Bytes(t.Data())[:len(b)]
	rawbytes.FromLittleEndian(dst, b, rawbytes.WordSize(t.Data()))
	if len(b) < n*size {
		fillSplat(t)
	}
	return t, nil
}

// setElem stores element token e as element i of t.
func (p *parser) setElem(t tensor.Tensor, i int, e element) error {
	d := t.DType()
	bad := func(format string, args ...any) error {
		return p.errAt(e.pos, ErrSyntax, "dense element %q for %s: %s", e.text, ElemName(d), fmt.Sprintf(format, args...))
	}
	if e.isPair != d.IsComplex() {
		if e.isPair {
			return bad("a (re, im) pair for a type that is not complex")
		}
		return bad("want a (re, im) pair")
	}
	switch {
	case d == tensor.Bool:
		switch e.text {
		case "true", "1":
			t.Data().([]bool)[i] = true
		case "false", "0":
			t.Data().([]bool)[i] = false
		default:
			return bad("want true or false")
		}
		return nil
	case d.IsComplex():
		return setComplex(t, i, e, bad)
	case d.IsFloat():
		return p.setFloat(t, i, e, bad)
	}
	bits := 8 * d.Size()
	v, err := parseInt(e.text, bits, d.IsUnsigned())
	if err != nil {
		return bad("%v", err)
	}
	setBits(t, i, v)
	return nil
}

// setComplex stores a complex element, each part of which floatPart
// reads as a float of half the element's width.
func setComplex(t tensor.Tensor, i int, e element, bad func(string, ...any) error) error {
	bits := 4 * t.DType().Size() // of each part: half the element's 8*Size
	re, err1 := floatPart(e.text, bits)
	im, err2 := floatPart(e.im, bits)
	if err1 != nil || err2 != nil {
		return bad("want two numbers")
	}
	switch s := t.Data().(type) {
	case []complex64:
		s[i] = complex64(complex(re, im)) // exact: both parts are float32s
	case []complex128:
		s[i] = complex(re, im)
	}
	return nil
}

// setFloat stores a floating-point element: a decimal (rounded to
// nearest even), a hex bit pattern of the type's width (0x7FC00000 is a
// float32 NaN), or inf/nan.
func (p *parser) setFloat(t tensor.Tensor, i int, e element, bad func(string, ...any) error) error {
	d := t.DType()
	bits := 8 * d.Size()
	text := e.text
	if strings.HasPrefix(text, "0x") || strings.HasPrefix(text, "0X") {
		v, err := strconv.ParseUint(text[2:], 16, bits)
		if err != nil {
			return bad("a hex bit pattern must fit in %d bits", bits)
		}
		setBits(t, i, v)
		return nil
	}
	size := 64
	if d == tensor.Float32 {
		size = 32 // rounded from the decimal in one step
	}
	f, err := parseFloat(text, size)
	if err != nil {
		return bad("want a number")
	}
	t.SetFloatAt(i, f) // rounded once
	return nil
}

// parseFloat reads a decimal number, inf or nan (either sign), rounding to
// float32 when size is 32. Go's own spellings (Inf, NaN, hex floats) and
// numbers out of range are refused.
func parseFloat(s string, size int) (float64, error) {
	body := strings.TrimLeft(s, "+-") // numberToken lets one sign by
	switch body {
	case "inf":
		if s[0] == '-' {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	case "nan":
		return math.NaN(), nil
	}
	if body == "" || !isDigit(body[0]) || strings.ContainsAny(body, "xXpP_iInN") {
		return 0, fmt.Errorf("not a number")
	}
	return strconv.ParseFloat(s, size)
}

// floatPart reads a part of a complex element, a float32 (size 32) or
// float64: a decimal, inf, nan, or the hex bit pattern of the part.
func floatPart(s string, size int) (float64, error) {
	if !strings.HasPrefix(s, "0x") && !strings.HasPrefix(s, "0X") {
		return parseFloat(s, size)
	}
	v, err := strconv.ParseUint(s[2:], 16, size)
	if size == 32 {
		return float64(math.Float32frombits(uint32(v))), err
	}
	return math.Float64frombits(v), err
}

// parseInt reads a decimal or 0x integer for an integer type of the given
// width. As MLIR does for signless types, a signed type takes values in
// [-2^(bits-1), 2^bits-1] (255 is -1 in i8); an unsigned one [0, 2^bits-1].
func parseInt(s string, bits int, unsigned bool) (uint64, error) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimLeft(s, "+-") // numberToken lets one sign by
	base := 10
	if h, ok := strings.CutPrefix(body, "0x"); ok {
		body, base = h, 16
	}
	if body == "" || strings.ContainsAny(body, "_+-") {
		return 0, fmt.Errorf("want an integer")
	}
	mag, err := strconv.ParseUint(body, base, 64)
	if err != nil {
		return 0, fmt.Errorf("want an integer of at most %d bits", bits)
	}
	limit := uint64(math.MaxUint64)
	if bits < 64 {
		limit = 1<<bits - 1
	}
	switch {
	case neg && unsigned && mag != 0:
		return 0, fmt.Errorf("negative value for an unsigned type")
	case neg && mag > 1<<(bits-1):
		return 0, fmt.Errorf("below the %d-bit range", bits)
	case mag > limit:
		return 0, fmt.Errorf("above the %d-bit range", bits)
	case neg:
		return -mag, nil
	}
	return mag, nil
}

// setBits stores the low bits of v, little-endian, in element i of a
// tensor of a fixed-size type: an integer's two's complement, or a
// floating-point bit pattern.
func setBits(t tensor.Tensor, i int, v uint64) {
	size := t.DType().Size()
	var le [8]byte
	binary.LittleEndian.PutUint64(le[:], v)
	rawbytes.FromLittleEndian(rawbytes.Bytes(t.Data())[i*size:(i+1)*size], le[:size], size)
}
