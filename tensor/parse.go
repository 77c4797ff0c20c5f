package tensor

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/scatter-dev/scatter/internal/nest"
	"github.com/scatter-dev/scatter/internal/suggest"
)

// ErrSyntax is matched (with errors.Is) by every error of Parse about text
// that is not a tensor literal.
var ErrSyntax = errors.New("invalid tensor literal")

// Parse reads a tensor literal: an element type, a colon and the elements
// nested in brackets by dimension, the shape following from the nesting:
//
//	float32:[[1, 2], [3, 4]]     float32[2,2]
//	int64:[4, 3, 1, 7]           int64[4]
//	int64:[[], []]               int64[2,0]
//	float16:2.5                  a scalar
//	string:["a", "b c"]          Go-quoted strings
//	complex64:[1+2i, (3-1i)]
//	bool:[true, false]
//
// Elements are separated by commas or spaces, so Tensor.String's output
// after its "type[shape] " prefix parses back, with two exceptions: String
// elides a tensor of more than 1000 elements, and a literal cannot show
// the dimensions after a zero one (String writes shape [0,3] as [], which
// parses as shape [0]). Numbers take Go's syntax
// (0x1f, 1e-3, NaN, Inf, -Inf); an integer outside its type's range is an
// error; floats round to nearest even (float16 and bfloat16 once, from
// the nearest float64).
// Lists nest at most 64 deep, and the tensor is held to SetMaxBytes,
// strings with their contents.
func Parse(text string) (Tensor, error) {
	name, body, ok := strings.Cut(text, ":")
	if !ok {
		example := "float32:[1,2]"
		if strings.HasPrefix(strings.TrimSpace(text), "[") {
			example = "float32:" + strings.TrimSpace(text)
		}
		return Tensor{}, fmt.Errorf("tensor: %w: %q has no element type: want TYPE:VALUES, e.g. %s", ErrSyntax, text, example)
	}
	dtype, err := ParseDType(name)
	if err != nil {
		return Tensor{}, fmt.Errorf("tensor: %w: %q: unknown element type %q%s", ErrSyntax, text, name, typeHint(name))
	}
	p := literalParser{text: body}
	shape, elems, err := p.parse()
	if err != nil {
		return Tensor{}, fmt.Errorf("tensor: %w: %q: %v", ErrSyntax, text, err)
	}
	t, err := New(dtype, shape)
	if err != nil {
		return Tensor{}, err
	}
	strs, _ := t.data.([]string)
	var contents int64 // of strs, held to the limit with their headers
	for i, e := range elems {
		if err := setElem(t, i, e); err != nil {
			return Tensor{}, fmt.Errorf("tensor: %w: %q: element %d: %v", ErrSyntax, text, i, err)
		}
		if strs != nil {
			contents += int64(len(strs[i]))
			if err := CheckStrings(shape, contents); err != nil {
				return Tensor{}, err
			}
		}
	}
	return t, nil
}

// typeNames are the element type names that a literal takes, every
// DType's (TestParseEveryDType holds the list to DTypes), in the order an
// error lists them: by kind, and within a kind from the narrowest.
var typeNames = []string{"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
	"float16", "bfloat16", "float32", "float64", "complex64", "complex128", "string"}

// shortTypeNames are other libraries' spellings of element types
// (StableHLO's and Rust's short names, Python's int), which a literal does
// not take but an error translates.
var shortTypeNames = map[string]string{
	"int": "int64",
	"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
	"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
	"u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
}

// typeHint returns what to say after an unknown element type name: the
// type it most likely means, or else the list of types.
func typeHint(name string) string {
	if full, ok := shortTypeNames[strings.ToLower(strings.TrimSpace(name))]; ok {
		return ": did you mean " + full + "?"
	}
	if hint := suggest.Phrase(strings.TrimSpace(name), typeNames); hint != "" {
		return hint
	}
	return " (types: " + strings.Join(typeNames, ", ") + ")"
}

// literalParser splits a nested bracket literal into its shape and its
// element tokens.
type literalParser struct {
	text  string
	pos   int
	shape nest.Shape // of the lists
	elems []string
}

func (p *literalParser) parse() (Shape, []string, error) {
	p.skipSpace()
	if p.pos < len(p.text) && p.text[p.pos] == '[' {
		if err := p.list(0); err != nil {
			return nil, nil, err
		}
	} else {
		tok, err := p.token()
		if err != nil {
			return nil, nil, err
		}
		p.elems = append(p.elems, tok)
		return Shape{}, p.elems, p.end()
	}
	return p.shape.Dims, p.elems, p.end()
}

// end fails unless only space follows the literal.
func (p *literalParser) end() error {
	p.skipSpace()
	if p.pos < len(p.text) {
		return fmt.Errorf("unexpected %q at offset %d", p.text[p.pos:], p.pos)
	}
	return nil
}

// maxLiteralRank bounds the nesting of a literal, as the file formats
// bound the rank they read.
const maxLiteralRank = 64

// list reads a bracketed list at nesting depth dim. Every list at one depth
// must have as many items as the others, all lists or all elements.
func (p *literalParser) list(dim int) error {
	if dim >= maxLiteralRank {
		return fmt.Errorf("more than %d nested lists", maxLiteralRank)
	}
	p.pos++ // '['
	n := 0
	for {
		p.skipSpace()
		if p.pos >= len(p.text) {
			return fmt.Errorf("missing ] at the end")
		}
		if p.text[p.pos] == ']' {
			p.pos++
			break
		}
		if n > 0 && p.text[p.pos] == ',' {
			p.pos++
			p.skipSpace()
		}
		nested := p.pos < len(p.text) && p.text[p.pos] == '['
		if err := p.shape.Item(dim, nested); err != nil {
			return fmt.Errorf("ragged: %v", err)
		}
		if nested {
			if err := p.list(dim + 1); err != nil {
				return err
			}
		} else {
			tok, err := p.token()
			if err != nil {
				return err
			}
			p.elems = append(p.elems, tok)
		}
		n++
	}
	if err := p.shape.End(dim, n); err != nil {
		return fmt.Errorf("ragged: %v", err)
	}
	return nil
}

// token reads one element: a quoted string or a run up to a separator.
func (p *literalParser) token() (string, error) {
	start := p.pos
	if p.pos < len(p.text) && p.text[p.pos] == '"' {
		for p.pos++; p.pos < len(p.text) && p.text[p.pos] != '"'; p.pos++ {
			if p.text[p.pos] == '\\' {
				p.pos++
			}
		}
		if p.pos >= len(p.text) {
			return "", fmt.Errorf("unterminated string at offset %d", start)
		}
		p.pos++
		return p.text[start:p.pos], nil
	}
	for p.pos < len(p.text) && !strings.ContainsRune(",[] \t\n", rune(p.text[p.pos])) {
		p.pos++
	}
	if p.pos == start {
		return "", fmt.Errorf("missing element at offset %d", start)
	}
	return p.text[start:p.pos], nil
}

func (p *literalParser) skipSpace() {
	for p.pos < len(p.text) && strings.ContainsRune(" \t\n", rune(p.text[p.pos])) {
		p.pos++
	}
}

// setElem parses tok as an element of t's type and stores it at i.
func setElem(t Tensor, i int, tok string) error {
	d, bits := t.dtype, 8*t.dtype.Size()
	switch {
	case d.IsSigned():
		v, err := strconv.ParseInt(tok, 0, bits)
		if err != nil {
			return fmt.Errorf("%s is not an %v", tok, d)
		}
		t.SetIntAt(i, v)
	case d.IsUnsigned():
		v, err := strconv.ParseUint(tok, 0, bits)
		if err != nil {
			return fmt.Errorf("%s is not a %v", tok, d)
		}
		t.SetIntAt(i, int64(v))
	case d.IsFloat():
		// A float32 is parsed as one (which a float64 holds exactly);
		// float16 and bfloat16 as a float64, which SetFloatAt rounds once.
		if d != Float32 {
			bits = 64
		}
		v, err := parseFloat(tok, bits)
		t.SetFloatAt(i, v)
		return err
	case d.IsComplex():
		v, err := strconv.ParseComplex(tok, bits)
		if err != nil {
			return fmt.Errorf("%s is not a complex number", tok)
		}
		switch s := t.data.(type) {
		case []complex64:
			s[i] = complex64(v)
		case []complex128:
			s[i] = v
		}
	case d == String:
		v, err := strconv.Unquote(tok)
		if err != nil {
			return fmt.Errorf("%s is not a quoted string", tok)
		}
		t.data.([]string)[i] = v
	case d == Bool:
		v, err := strconv.ParseBool(tok)
		if err != nil {
			return fmt.Errorf("%s is not true or false", tok)
		}
		t.data.([]bool)[i] = v
	}
	return nil
}

// parseFloat accepts what strconv.ParseFloat does, and a signed NaN,
// rounding values beyond the type's range to infinity as a conversion would.
func parseFloat(tok string, bits int) (float64, error) {
	if rest, neg := strings.CutPrefix(tok, "-"); neg && strings.EqualFold(rest, "nan") {
		return math.Copysign(math.NaN(), -1), nil
	}
	v, err := strconv.ParseFloat(tok, bits)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%s is not a number", tok)
	}
	return v, nil
}
