// Package stablehlo reads StableHLO test files: the subset of MLIR's
// textual form that the gather/scatter tests of the StableHLO repository
// use (its JAX-generated testdata and the interpreter's own tests).
//
// A file holds one module, or several separated by lines starting with
// "// -----" (the interpreter's -split-input-file), each a list of
// func.func definitions. Parse reads them into Modules, Funcs and Ops,
// resolving what each operation means:
//
//   - stablehlo.constant with its dense<...> value as a tensor.Tensor:
//     nested lists, splats, hex strings of little-endian element bytes
//     ("0x0000C07F"), integers, true/false, decimals rounded to the
//     element type, hex bit patterns of floats (0x7FC00000), inf and nan,
//     (re, im) pairs for complex types;
//   - "stablehlo.scatter", "stablehlo.gather" and "stablehlo.dynamic_gather"
//     in generic form, their properties <{...}> or attributes {...}
//     (#stablehlo.scatter<...>/#stablehlo.gather<...> dimension numbers,
//     array<i64: ...>, indices_are_sorted, unique_indices), and the
//     scatter's update computation, read from its region as replace,
//     add, multiply, maximum, minimum, and, or or xor;
//   - the operations around them in JAX's tests: broadcast_in_dim,
//     compare, select, add, subtract, multiply, maximum, minimum, and, or,
//     xor, convert, concatenate and reduce (in its "applies" form or with a
//     region), func.call and the returns;
//   - the checks: stablehlo.custom_call @check.expect_eq(...) and
//     @check.expect_close(...), and check.expect_eq, check.expect_close and
//     check.expect_eq_const.
//
// Each of these is read in its pretty form and in the generic form
// ("stablehlo.add"(%a, %b) : (...) -> ...). Anything else is an
// ErrUnsupported error, text that is not MLIR an ErrSyntax error; both are
// *Error values naming the file, line and column and what was expected.
// Element types are i1 (bool), i8-i64, ui8-ui64, f16, bf16, f32, f64,
// complex<f32> and complex<f64>; every constant is allocated by
// tensor.New, so the limit of tensor.SetMaxBytes holds for it, and the
// constants of a file may take no more than that limit in all (a short
// file of many large splats is refused rather than filling memory).
//
// Parse never panics; what it returns is read, not checked for meaning
// beyond what is needed to read it (a value used before it is defined is
// the interpreter's to find).
//
// The reader is written for this project: no Go library reads MLIR's
// textual form (GoMLX's stablehlo package writes it), and the subset is
// small.
package stablehlo

import (
	"bytes"
	"slices"

	"github.com/scatter-dev/scatter/tensor"
)

// File is a parsed file.
type File struct {
	Name    string
	Modules []*Module // one per section between "// -----" lines
}

// Module is one module of a file: its functions in file order.
type Module struct {
	Name  string // without '@'; "" for a section of bare functions
	Line  int
	Funcs []*Func
}

// Func returns the function called name, or nil.
func (m *Module) Func(name string) *Func {
	for _, f := range m.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Entry returns the function the StableHLO interpreter runs: the one
// called main, or the module's only function; nil when there is neither.
func (m *Module) Entry() *Func {
	if f := m.Func("main"); f != nil {
		return f
	}
	if len(m.Funcs) == 1 {
		return m.Funcs[0]
	}
	return nil
}

// Func is a func.func definition.
type Func struct {
	Name    string // without '@'
	Line    int
	Private bool
	Params  []Param
	Results []Type
	Body    []*Op
}

// Param is a named, typed argument of a function or a region.
type Param struct {
	Name string // "%arg0"
	Type Type
}

// Region is the body of a scatter's update computation or of a reduce.
type Region struct {
	Line   int
	Params []Param
	Body   []*Op
}

// Op is one operation. Name is the operation's full name as the generic
// form spells it ("stablehlo.add", "func.call", "func.return",
// "stablehlo.return", "stablehlo.custom_call", "check.expect_eq_const");
// the fields after Region hold what it means, for the operations that
// have them.
type Op struct {
	Line int
	Name string
	// Results are the names of the values the operation defines, one per
	// result: "%0", or "%0#0" and "%0#1" for "%0:2 = ...".
	Results []string
	// Operands are the values it uses, as written: "%x" or "%0#1".
	Operands     []string
	OperandTypes []Type
	ResultTypes  []Type
	Region       *Region // a scatter's or reduce's region, when it has one

	// Value is a stablehlo.constant's value, and check.expect_eq_const's
	// expected value.
	Value tensor.Tensor
	// Callee is the function a func.call calls, or the call target of a
	// stablehlo.custom_call ("check.expect_eq"), without '@'.
	Callee string
	// Computation is what a scatter's update computation or a reduce's
	// body does with (current, update): "replace" (scatter only), "add",
	// "multiply", "maximum", "minimum", "and", "or" or "xor".
	Computation string
	// Scatter holds a stablehlo.scatter's dimension numbers.
	Scatter *ScatterDims
	// Gather holds the dimension numbers of a stablehlo.gather or
	// stablehlo.dynamic_gather.
	Gather *GatherDims
	// SliceSizes is a stablehlo.gather's slice_sizes.
	SliceSizes []int64
	// IndicesAreSorted and UniqueIndices are a scatter's or gather's hints
	// (false when absent).
	IndicesAreSorted, UniqueIndices bool
	// Dims is broadcast_in_dim's broadcast_dimensions, or reduce's
	// dimensions.
	Dims []int64
	// Dim is concatenate's dimension.
	Dim int64
	// Direction is compare's comparison_direction (EQ, NE, GE, GT, LE,
	// LT); CompareType its compare_type (SIGNED, UNSIGNED, FLOAT,
	// TOTALORDER), "" when absent.
	Direction, CompareType string
	// MaxULP and MinULP are check.expect_close's max_ulp_difference
	// (default 1) and min_ulp_difference (default 0).
	MaxULP, MinULP uint64
}

// Parse reads the file called name (used in errors) holding src.
func Parse(name string, src []byte) (*File, error) {
	f := &File{Name: name}
	var held int64            // by the parse of the file, held to the limit
	secStart, secLine := 0, 1 // where the current section starts
	line, lineStart := 1, 0
	for i := 0; i <= len(src); i++ {
		if i < len(src) && src[i] != '\n' {
			continue
		}
		if bytes.HasPrefix(bytes.TrimLeft(src[lineStart:i], " \t"), []byte("// -----")) {
			if err := f.section(src[secStart:lineStart], secLine, &held); err != nil {
				return nil, err
			}
			secStart, secLine = min(i+1, len(src)), line+1
		}
		line, lineStart = line+1, i+1
	}
	if err := f.section(src[secStart:], secLine, &held); err != nil {
		return nil, err
	}
	return f, nil
}

// section parses one section, starting on line first, and appends its
// module, if it holds anything but comments and space. held counts the
// bytes that the file's parse holds.
func (f *File) section(src []byte, first int, held *int64) error {
	p := newParser(f.Name, src, first, held)
	if err := p.hold(0, lineBytes*int64(len(p.lines))); err != nil {
		return err
	}
	if p.peek() == 0 {
		return nil
	}
	m, err := p.module()
	if err != nil {
		return err
	}
	f.Modules = append(f.Modules, m)
	return nil
}

// module reads "module @name attributes {...} { funcs }" or bare funcs.
func (p *parser) module() (*Module, error) {
	m := &Module{Line: p.line()}
	wrapped := p.keyword("module")
	if wrapped {
		if p.peek() == '@' {
			name, err := p.symbol()
			if err != nil {
				return nil, err
			}
			m.Name = name
		}
		if p.keyword("attributes") {
			if _, err := p.attrDict(); err != nil {
				return nil, err
			}
		}
		if err := p.expect("{"); err != nil {
			return nil, err
		}
	}
	for {
		switch c := p.peek(); {
		case wrapped && c == '}':
			p.pos++
			if p.peek() != 0 {
				return nil, p.fail("the end of the section after the module")
			}
			return m, nil
		case !wrapped && c == 0:
			return m, nil
		}
		fn, err := p.function()
		if err != nil {
			return nil, err
		}
		if m.Func(fn.Name) != nil {
			return nil, p.errAt(p.pos, ErrSyntax, "function @%s defined twice (line %d)", fn.Name, fn.Line)
		}
		m.Funcs = append(m.Funcs, fn)
	}
}

// function reads a func.func definition.
func (p *parser) function() (*Func, error) {
	fn := &Func{Line: p.line()}
	if !p.keyword("func.func") {
		return nil, p.fail("func.func")
	}
	switch {
	case p.keyword("private"):
		fn.Private = true
	case p.keyword("public"), p.keyword("nested"):
	}
	name, err := p.symbol()
	if err != nil {
		return nil, err
	}
	fn.Name = name
	if err := p.expect("("); err != nil {
		return nil, err
	}
	if fn.Params, err = p.params(")"); err != nil {
		return nil, err
	}
	if p.punct("->") {
		if fn.Results, err = p.resultTypes(); err != nil {
			return nil, err
		}
	}
	if p.keyword("attributes") {
		if _, err := p.attrDict(); err != nil {
			return nil, err
		}
	}
	if p.peek() != '{' {
		return nil, p.unsupported(p.pos, "function @%s has no body", fn.Name)
	}
	fn.Body, err = p.block()
	return fn, err
}

// params reads "%a: T {attrs}, ..." up to and including close.
func (p *parser) params(close string) ([]Param, error) {
	var ps []Param
	err := p.commaList(close, func() error {
		at := p.pos
		name, err := p.valueDef()
		if err != nil {
			return err
		}
		if err := p.expect(":"); err != nil {
			return err
		}
		t, err := p.attributedType()
		if err != nil {
			return err
		}
		if slices.ContainsFunc(ps, func(q Param) bool { return q.Name == name }) {
			return p.errAt(at, ErrSyntax, "argument %s named twice", name)
		}
		ps = append(ps, Param{Name: name, Type: t})
		return nil
	})
	return ps, err
}

// resultTypes reads a function's results: "T", "()" or "(T {attrs}, ...)".
func (p *parser) resultTypes() ([]Type, error) {
	if !p.punct("(") {
		t, err := p.tensorType()
		return []Type{t}, err
	}
	var ts []Type
	err := p.commaList(")", func() error {
		t, err := p.attributedType()
		ts = append(ts, t)
		return err
	})
	return ts, err
}

// attributedType reads a type and the attributes that may follow it,
// which it skips.
func (p *parser) attributedType() (Type, error) {
	t, err := p.tensorType()
	if err == nil && p.peek() == '{' {
		_, err = p.attrDict()
	}
	return t, err
}

// block reads "{ op ... }".
func (p *parser) block() ([]*Op, error) {
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	var r Region
	err := p.regionBody(&r)
	return r.Body, err
}

// region reads "{ ^bb0(%a: T, %b: T): ops }" (the block label may be
// left out when the block has no arguments).
func (p *parser) region() (*Region, error) {
	r := &Region{Line: p.line()}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	if p.sigilName('^') != "" {
		if p.punct("(") {
			var err error
			if r.Params, err = p.params(")"); err != nil {
				return nil, err
			}
		}
		if err := p.expect(":"); err != nil {
			return nil, err
		}
	}
	return r, p.regionBody(r)
}

// regionBody reads the operations of a region whose label has been read,
// up to its closing '}'.
func (p *parser) regionBody(r *Region) error {
	if err := p.enter(); err != nil {
		return err
	}
	defer p.leave()
	for !p.punct("}") {
		if p.peek() == 0 {
			return p.fail("an operation or '}'")
		}
		op, err := p.op()
		if err != nil {
			return err
		}
		r.Body = append(r.Body, op)
	}
	return nil
}
