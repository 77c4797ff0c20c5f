package stablehlo

import (
	"strconv"
	"strings"

	"github.com/scatter-dev/scatter/tensor"
)

// Type is a ranked tensor type with static dimensions:
// tensor<2x3xf32> is {Float32, [2,3]}, tensor<i64> {Int64, []}.
type Type struct {
	DType tensor.DType
	Shape tensor.Shape
}

// String returns the type as MLIR writes it: "tensor<2x3xbf16>".
func (t Type) String() string {
	var b strings.Builder
	b.WriteString("tensor<")
	for _, d := range t.Shape {
		b.WriteString(strconv.Itoa(d))
		b.WriteByte('x')
	}
	b.WriteString(ElemName(t.DType))
	b.WriteByte('>')
	return b.String()
}

// Equal reports whether t and u are the same type.
func (t Type) Equal(u Type) bool { return t.DType == u.DType && t.Shape.Equal(u.Shape) }

// Of reports whether t is the type of x: TypeOf(x).Equal(t), without
// copying x's shape.
func (t Type) Of(x tensor.Tensor) bool { return x.DType() == t.DType && x.HasShape(t.Shape) }

// TypeOf returns the type of a tensor.
func TypeOf(x tensor.Tensor) Type { return Type{DType: x.DType(), Shape: x.Shape()} }

// elemTypes maps MLIR's element type names to element types. i1 is bool;
// the signless integers (i8...i64) hold signed values, as StableHLO reads
// them.
var elemTypes = map[string]tensor.DType{
	"i1": tensor.Bool,
	"i8": tensor.Int8, "i16": tensor.Int16, "i32": tensor.Int32, "i64": tensor.Int64,
	"ui8": tensor.Uint8, "ui16": tensor.Uint16, "ui32": tensor.Uint32, "ui64": tensor.Uint64,
	"f16": tensor.Float16, "bf16": tensor.BFloat16, "f32": tensor.Float32, "f64": tensor.Float64,
	"complex<f32>": tensor.Complex64, "complex<f64>": tensor.Complex128,
}

// ElemName returns MLIR's name of an element type ("bf16", "ui32",
// "complex<f32>"), or the type's own name for one MLIR has no name for
// (string).
func ElemName(d tensor.DType) string {
	for name, e := range elemTypes {
		if e == d {
			return name
		}
	}
	return d.String()
}

// maxRank bounds the rank of a tensor type, as the other formats bound
// the rank they read.
const maxRank = 64

// tensorType reads "tensor<...>".
func (p *parser) tensorType() (Type, error) {
	start := p.pos
	if !p.keyword("tensor") {
		p.skipSpace()
		if p.peek() == '!' || p.ident() != "" {
			p.pos = start
			p.skipSpace()
			return Type{}, p.unsupported(p.pos, "type %s: only tensor types are read", p.found())
		}
		p.pos = start
		return Type{}, p.fail("a tensor type")
	}
	if err := p.expect("<"); err != nil {
		return Type{}, err
	}
	shape := tensor.Shape{}
	for {
		c := p.peek()
		if c == '?' || c == '*' {
			return Type{}, p.unsupported(p.pos, "dynamic or unranked tensor types are not read")
		}
		if !isDigit(c) {
			break
		}
		at := p.pos
		for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
			p.pos++
		}
		d, err := strconv.ParseInt(string(p.src[at:p.pos]), 10, 64)
		if err != nil || d > 1<<40 {
			return Type{}, p.errAt(at, ErrSyntax, "dimension %s is too large", string(p.src[at:p.pos]))
		}
		if len(shape) == maxRank {
			return Type{}, p.unsupported(at, "tensor type of rank over %d", maxRank)
		}
		shape = append(shape, int(d))
		if p.pos >= len(p.src) || p.src[p.pos] != 'x' {
			return Type{}, p.fail("'x' after a dimension")
		}
		p.pos++
	}
	d, err := p.elemType()
	if err != nil {
		return Type{}, err
	}
	if p.peek() == ',' {
		return Type{}, p.unsupported(p.pos, "tensor types with an encoding are not read")
	}
	if err := p.expect(">"); err != nil {
		return Type{}, err
	}
	return Type{DType: d, Shape: shape}, nil
}

// elemType reads an element type name such as "f32" or "complex<f64>".
func (p *parser) elemType() (tensor.DType, error) {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.src) && (isLetter(p.src[p.pos]) || isDigit(p.src[p.pos])) {
		p.pos++
	}
	name := string(p.src[start:p.pos])
	if name == "complex" {
		if err := p.expect("<"); err != nil {
			return 0, err
		}
		inner := p.ident()
		if err := p.expect(">"); err != nil {
			return 0, err
		}
		name = "complex<" + inner + ">"
	}
	if d, ok := elemTypes[name]; ok {
		return d, nil
	}
	if name == "" {
		return 0, p.fail("an element type")
	}
	return 0, p.unsupported(start, "element type %s", name)
}

// colonTypes reads ": T, T, ...", the types that follow an operation's
// operands in return and the check dialect's operations.
func (p *parser) colonTypes() ([]Type, error) {
	if err := p.expect(":"); err != nil {
		return nil, err
	}
	return p.typeList()
}

// typeList reads "T, T, ..." (at least one).
func (p *parser) typeList() ([]Type, error) {
	var ts []Type
	for {
		t, err := p.tensorType()
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
		if !p.punct(",") {
			return ts, nil
		}
	}
}

// parenTypes reads "(T, ...)" or "()".
func (p *parser) parenTypes() ([]Type, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	if p.punct(")") {
		return nil, nil
	}
	ts, err := p.typeList()
	if err != nil {
		return nil, err
	}
	return ts, p.expect(")")
}

// functionType reads "(T, ...) -> T" or "(T, ...) -> (T, ...)".
func (p *parser) functionType() (in, out []Type, err error) {
	if in, err = p.parenTypes(); err != nil {
		return nil, nil, err
	}
	if err := p.expect("->"); err != nil {
		return nil, nil, err
	}
	if p.peek() == '(' {
		out, err = p.parenTypes()
		return in, out, err
	}
	t, err := p.tensorType()
	return in, []Type{t}, err
}
