package stablehlo

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/scatter-dev/scatter/tensor"
)

// attrKind is the kind of an attribute value.
type attrKind uint8

const (
	attrOther   attrKind = iota // a form this reader skips (opaque #dialect<...>, a type)
	attrInt                     // 3 : i64
	attrFloat                   // 1.5 : f32
	attrBool                    // true
	attrString                  // "text"
	attrUnit                    // a name without a value
	attrInts                    // array<i64: 1, 2>, or a list of integers
	attrList                    // [a, b] of other attributes
	attrDense                   // dense<...> : tensor<...>
	attrSymbol                  // @name
	attrDict                    // {a = 1}
	attrEnum                    // #stablehlo<comparison_direction LT>
	attrScatter                 // #stablehlo.scatter<...>
	attrGather                  // #stablehlo.gather<...>
)

var attrKindNames = [...]string{"an attribute", "an integer", "a float", "a boolean", "a string", "a unit attribute",
	"a list of integers", "a list", "a dense constant", "a symbol", "a dictionary", "an enum",
	"#stablehlo.scatter<...>", "#stablehlo.gather<...>"}

// attr is an attribute value.
type attr struct {
	kind    attrKind
	pos     int
	i       int64
	b       bool
	s       string // a string, a symbol, an enum's value
	enum    string // an enum's kind ("comparison_direction")
	ints    []int64
	dense   tensor.Tensor
	dict    map[string]attr
	scatter *ScatterDims
	gather  *GatherDims
}

// attrDict reads "{name = value, name, ...}" into a map. Names may be
// bare identifiers or strings; a name without a value is a unit.
func (p *parser) attrDict() (map[string]attr, error) {
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	d := map[string]attr{}
	err := p.commaList("}", func() error {
		at := p.pos
		name := p.ident()
		if name == "" {
			if p.peek() != '"' {
				return p.fail("an attribute name")
			}
			var err error
			if name, err = p.stringLit(); err != nil {
				return err
			}
		}
		if _, dup := d[name]; dup {
			return p.errAt(at, ErrSyntax, "attribute %s given twice", name)
		}
		a := attr{kind: attrUnit, pos: at}
		if p.punct("=") {
			var err error
			if a, err = p.attrValue(); err != nil {
				return err
			}
		}
		d[name] = a
		return nil
	})
	return d, err
}

// attrValue reads one attribute value.
func (p *parser) attrValue() (attr, error) {
	p.skipSpace()
	a := attr{pos: p.pos}
	switch c := p.peek(); {
	case c == '"':
		s, err := p.stringLit()
		a.kind, a.s = attrString, s
		return a, err
	case c == '@':
		s, err := p.symbol()
		a.kind, a.s = attrSymbol, s
		return a, err
	case c == '{':
		d, err := p.attrDict()
		a.kind, a.dict = attrDict, d
		return a, err
	case c == '[':
		return p.attrList()
	case c == '#':
		return p.hashAttr()
	case c == '-' || isDigit(c):
		return p.numberAttr()
	}
	save := p.pos
	switch word := p.ident(); word {
	case "true", "false":
		a.kind, a.b = attrBool, word == "true"
		return a, nil
	case "unit":
		a.kind = attrUnit
		return a, nil
	case "dense":
		t, _, err := p.dense()
		a.kind, a.dense = attrDense, t
		return a, err
	case "array":
		return p.arrayAttr(a)
	case "":
		return a, p.fail("an attribute value")
	default:
		p.pos = save
		return a, p.unsupported(save, "attribute value %s", p.found())
	}
}

// numberAttr reads "3", "-1 : i64", "2.5 : f32".
func (p *parser) numberAttr() (attr, error) {
	e, err := p.numberToken()
	if err != nil {
		return attr{}, err
	}
	a := attr{pos: e.pos}
	if v, err := strconv.ParseInt(e.text, 10, 64); err == nil {
		a.kind, a.i = attrInt, v
	} else if v, err := parseInt(e.text, 64, false); err == nil && v <= math.MaxInt64 {
		a.kind, a.i = attrInt, int64(v) // 0x...
	} else if _, err := parseFloat(e.text, 64); err == nil {
		a.kind = attrFloat
	} else {
		return a, p.errAt(e.pos, ErrSyntax, "invalid number %q", e.text)
	}
	save := p.pos
	if p.punct(":") && !scalarType(p.ident()) { // not "3 : i64": a ':' of the enclosing operation
		p.pos = save
	}
	return a, nil
}

// attrList reads "[a, b, ...]": a list of integers, or of other values.
func (p *parser) attrList() (attr, error) {
	a := attr{kind: attrInts, pos: p.pos, ints: []int64{}}
	p.pos++ // '['
	if err := p.enter(); err != nil {
		return a, err
	}
	defer p.leave()
	err := p.commaList("]", func() error {
		v, err := p.attrValue()
		if err == nil {
			err = p.hold(a.pos, intBytes)
		}
		if v.kind == attrInt {
			a.ints = append(a.ints, v.i)
		} else {
			a.kind = attrList
		}
		return err
	})
	return a, err
}

// arrayAttr reads "<i64: 1, 2>" after the keyword array.
func (p *parser) arrayAttr(a attr) (attr, error) {
	if err := p.expect("<"); err != nil {
		return a, err
	}
	at := p.pos
	switch t := p.ident(); t {
	case "i64", "i32", "i16", "i8":
	default:
		return a, p.unsupported(at, "array<%s> (only integer arrays are read)", t)
	}
	a.kind, a.ints = attrInts, []int64{}
	if p.punct(":") {
		for {
			v, err := p.integer()
			if err == nil {
				err = p.hold(at, intBytes)
			}
			if err != nil {
				return a, err
			}
			a.ints = append(a.ints, v)
			if !p.punct(",") {
				break
			}
		}
	}
	return a, p.expect(">")
}

// hashAttr reads an attribute that starts with '#': the scatter and
// gather dimension numbers, StableHLO's enums, or another dialect's
// attribute, which is skipped.
func (p *parser) hashAttr() (attr, error) {
	a := attr{pos: p.pos}
	p.pos++ // '#'
	name := p.identAt()
	if p.pos >= len(p.src) || p.src[p.pos] != '<' {
		a.kind = attrOther // an alias (#loc) or a bare dialect attribute
		return a, nil
	}
	switch name {
	case "stablehlo.scatter":
		d, err := p.scatterDims()
		a.kind, a.scatter = attrScatter, d
		return a, err
	case "stablehlo.gather":
		d, err := p.gatherDims()
		a.kind, a.gather = attrGather, d
		return a, err
	case "stablehlo":
		p.pos++ // '<'
		a.kind, a.enum, a.s = attrEnum, p.ident(), p.ident()
		if a.enum == "" || a.s == "" {
			return a, p.fail("an enum such as comparison_direction LT")
		}
		return a, p.expect(">")
	}
	a.kind = attrOther
	return a, p.skipAngles()
}

// identAt reads a bare identifier that starts right here, with no space
// before it.
func (p *parser) identAt() string {
	start := p.pos
	for p.pos < len(p.src) && isIdentChar(p.src[p.pos]) {
		p.pos++
	}
	return string(p.src[start:p.pos])
}

// skipAngles skips a balanced "<...>", strings included.
func (p *parser) skipAngles() error {
	start := p.pos
	depth := 0
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '"':
			if _, err := p.stringLit(); err != nil {
				return err
			}
			continue
		case '<':
			depth++
		case '>':
			if p.pos > 0 && p.src[p.pos-1] == '-' { // "->" in a type
				break
			}
			depth--
			if depth == 0 {
				p.pos++
				return nil
			}
		}
		p.pos++
	}
	return p.errAt(start, ErrSyntax, "'<' not closed")
}

// ScatterDims are the dimension numbers of a scatter
// (#stablehlo.scatter<...>). Fields absent from the file are empty, and
// IndexVectorDim is then 0, as StableHLO reads them. Each field is named
// as the file names it, in camel case (update_window_dims is
// UpdateWindowDims).
type ScatterDims struct {
	UpdateWindowDims           []int64
	InsertedWindowDims         []int64
	InputBatchingDims          []int64
	ScatterIndicesBatchingDims []int64
	ScatterDimsToOperandDims   []int64
	IndexVectorDim             int64
}

// GatherDims are the dimension numbers of a gather
// (#stablehlo.gather<...>). Fields absent from the file are empty, and
// IndexVectorDim is then 0, as StableHLO reads them. Each field is named
// as the file names it, in camel case (offset_dims is OffsetDims).
type GatherDims struct {
	OffsetDims               []int64
	CollapsedSliceDims       []int64
	OperandBatchingDims      []int64
	StartIndicesBatchingDims []int64
	StartIndexMap            []int64
	IndexVectorDim           int64
}

// Lists returns d's dimension lists by their names in the file (and in
// the stablehlo dialect's attributes): update_window_dims and the rest,
// all but index_vector_dim.
func (d *ScatterDims) Lists() map[string][]int64 { return values(dimLists(d)) }

// Lists returns d's dimension lists by their names in the file (and in
// the stablehlo dialect's attributes): offset_dims and the rest, all but
// index_vector_dim.
func (d *GatherDims) Lists() map[string][]int64 { return values(dimLists(d)) }

// dimLists returns the lists of dims, a *ScatterDims or *GatherDims, by
// their names in the file: each []int64 field's name in snake case.
func dimLists(dims any) map[string]*[]int64 {
	v := reflect.ValueOf(dims).Elem()
	lists := make(map[string]*[]int64, v.NumField())
	for i := range v.NumField() {
		if list, ok := v.Field(i).Addr().Interface().(*[]int64); ok {
			lists[snakeCase(v.Type().Field(i).Name)] = list
		}
	}
	return lists
}

// snakeCase returns the camel-case name in snake case: StartIndexMap is
// start_index_map.
func snakeCase(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// values returns the lists that fields point to, by the same names.
func values(fields map[string]*[]int64) map[string][]int64 {
	m := make(map[string][]int64, len(fields))
	for name, f := range fields {
		m[name] = *f
	}
	return m
}

func (p *parser) scatterDims() (*ScatterDims, error) {
	d := &ScatterDims{}
	return d, p.dimNumbers("#stablehlo.scatter", dimLists(d), &d.IndexVectorDim)
}

func (p *parser) gatherDims() (*GatherDims, error) {
	d := &GatherDims{}
	return d, p.dimNumbers("#stablehlo.gather", dimLists(d), &d.IndexVectorDim)
}

// dimNumbers reads "<name = [..], ..., index_vector_dim = N>" into lists
// and ivd; a list the text leaves out is empty.
func (p *parser) dimNumbers(what string, lists map[string]*[]int64, ivd *int64) error {
	for _, list := range lists {
		*list = []int64{} // a field the file leaves out is empty
	}
	p.pos++ // '<'
	seen := map[string]bool{}
	return p.commaList(">", func() error {
		at := p.pos
		name := p.ident()
		if seen[name] {
			return p.errAt(at, ErrSyntax, "%s: %s given twice", what, name)
		}
		seen[name] = true
		if err := p.expect("="); err != nil {
			return err
		}
		var err error
		if list, ok := lists[name]; ok {
			*list, err = p.intList()
		} else if name == "index_vector_dim" {
			*ivd, err = p.integer()
		} else {
			p.pos = at
			return p.fail("a field of " + what)
		}
		return err
	})
}

// scalarType reports whether name is a builtin scalar type that may
// follow a number attribute: i64, ui32, si8, f32, bf16, index.
func scalarType(name string) bool {
	digits := strings.TrimLeft(name, "uisfb")
	return name == "index" || name == "bf16" ||
		len(digits) > 0 && len(digits) < len(name) && strings.Trim(digits, "0123456789") == "" &&
			slices.Contains([]string{"i", "ui", "si", "f"}, name[:len(name)-len(digits)])
}
