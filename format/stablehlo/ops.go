package stablehlo

import (
	"fmt"
	"slices"
	"strings"

	"github.com/scatter-dev/scatter/tensor"
)

// Computations are the update computations a scatter's region, and the
// bodies a reduce's, may have: "replace" (the region returns the update;
// scatter only) and the names of the element-wise operations that
// combine (current, update).
var Computations = []string{"replace", "add", "multiply", "maximum", "minimum", "and", "or", "xor"}

// binaryOps are the element-wise operations of two operands this reader
// knows.
var binaryOps = []string{"stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.maximum",
	"stablehlo.minimum", "stablehlo.and", "stablehlo.or", "stablehlo.xor"}

// arity gives, for each operation this reader knows, how many operands
// and results it has; -1 is any number.
var arity = map[string][2]int{
	"stablehlo.constant":         {0, 1},
	"stablehlo.select":           {3, 1},
	"stablehlo.compare":          {2, 1},
	"stablehlo.convert":          {1, 1},
	"stablehlo.broadcast_in_dim": {1, 1},
	"stablehlo.concatenate":      {-1, 1},
	"stablehlo.reduce":           {2, 1},
	"stablehlo.scatter":          {3, 1},
	"stablehlo.gather":           {2, 1},
	"stablehlo.dynamic_gather":   {3, 1},
	"stablehlo.custom_call":      {-1, -1},
	"stablehlo.return":           {-1, 0},
	"func.call":                  {-1, -1},
	"func.return":                {-1, 0},
	"check.expect_eq":            {2, 0},
	"check.expect_close":         {2, 0},
	"check.expect_eq_const":      {1, 0},
}

func init() {
	for _, name := range binaryOps {
		arity[name] = [2]int{2, 1}
	}
}

// op reads one operation, with the names of the values it defines.
func (p *parser) op() (*Op, error) {
	op := &Op{Line: p.line()}
	at := p.pos
	if err := p.hold(at, opBytes); err != nil {
		return nil, err
	}
	if p.peek() == '%' {
		if err := p.resultNames(op); err != nil {
			return nil, err
		}
	}
	attrs := map[string]attr{}
	var err error
	if p.peek() == '"' {
		err = p.generic(op, attrs)
	} else {
		err = p.pretty(op, attrs)
	}
	if err != nil {
		return nil, err
	}
	return op, p.finish(op, attrs, at)
}

// maxResults bounds the results of one operation.
const maxResults = 1024

// resultNames reads "%a, %b =" or "%0:2 =".
func (p *parser) resultNames(op *Op) error {
	for {
		name, err := p.valueDef()
		if err != nil {
			return err
		}
		if p.punct(":") {
			n, err := p.integer()
			if err != nil {
				return err
			}
			if n < 1 || int64(len(op.Results))+n > maxResults {
				return p.errAt(p.pos, ErrSyntax, "%s:%d: an operation has 1 to %d results", name, n, maxResults)
			}
			for i := range n {
				op.Results = append(op.Results, fmt.Sprintf("%s#%d", name, i))
			}
		} else {
			op.Results = append(op.Results, name)
		}
		if !p.punct(",") {
			return p.expect("=")
		}
	}
}

// generic reads `"name"(operands) <{props}> (regions) {attrs} : type`.
func (p *parser) generic(op *Op, attrs map[string]attr) error {
	var err error
	if op.Name, err = p.stringLit(); err != nil {
		return err
	}
	if op.Operands, err = p.operandList(); err != nil {
		return err
	}
	if p.punct("<") {
		if err := p.mergeDict(attrs); err != nil {
			return err
		}
		if err := p.expect(">"); err != nil {
			return err
		}
	}
	if p.punct("(") {
		r, err := p.region()
		if err != nil {
			return err
		}
		if p.peek() == ',' {
			return p.unsupported(p.pos, "%s with more than one region", op.Name)
		}
		op.Region = r
		if err := p.expect(")"); err != nil {
			return err
		}
	}
	if p.peek() == '{' {
		if err := p.mergeDict(attrs); err != nil {
			return err
		}
	}
	if err := p.expect(":"); err != nil {
		return err
	}
	op.OperandTypes, op.ResultTypes, err = p.functionType()
	return err
}

// mergeDict reads an attribute dictionary into attrs.
func (p *parser) mergeDict(attrs map[string]attr) error {
	at := p.pos
	d, err := p.attrDict()
	if err != nil {
		return err
	}
	for k, v := range d {
		if _, dup := attrs[k]; dup {
			return p.errAt(at, ErrSyntax, "attribute %s given twice", k)
		}
		attrs[k] = v
	}
	return nil
}

// optDict reads an attribute dictionary into attrs if one comes next.
func (p *parser) optDict(attrs map[string]attr) error {
	if p.peek() != '{' {
		return nil
	}
	return p.mergeDict(attrs)
}

// pretty reads an operation in its custom form, leaving in attrs what the
// generic form would hold there.
func (p *parser) pretty(op *Op, attrs map[string]attr) error {
	at := p.pos
	name := p.ident()
	var err error
	switch {
	case name == "":
		return p.fail("an operation")
	case name == "call" || name == "func.call":
		op.Name = "func.call"
		return p.callOp(op, attrs, "callee", attrSymbol)
	case name == "return" || name == "func.return" || name == "stablehlo.return":
		op.Name = name
		if name == "return" {
			op.Name = "func.return"
		}
		if op.Operands, err = p.valueUses(); err != nil || len(op.Operands) == 0 {
			return err
		}
		op.OperandTypes, err = p.colonTypes()
		return err
	case name == "stablehlo.constant":
		op.Name = name
		if err := p.optDict(attrs); err != nil {
			return err
		}
		a, err := p.attrValue()
		if err != nil {
			return err
		}
		attrs["value"] = a
		return nil
	case slices.Contains(binaryOps, name), name == "stablehlo.convert", name == "stablehlo.select":
		op.Name = name
		return p.elementwiseOp(op, attrs)
	case name == "stablehlo.compare":
		op.Name = name
		return p.compareOp(op, attrs)
	case name == "stablehlo.broadcast_in_dim", name == "stablehlo.concatenate":
		op.Name = name
		return p.dimsOp(op, attrs)
	case name == "stablehlo.reduce":
		op.Name = name
		return p.reduceOp(op, attrs)
	case name == "stablehlo.custom_call":
		op.Name = name
		return p.callOp(op, attrs, "call_target_name", attrString)
	case name == "check.expect_eq", name == "check.expect_close", name == "check.expect_eq_const":
		op.Name = name
		return p.checkOp(op, attrs)
	}
	if _, known := arity[name]; known {
		return p.unsupported(at, "%s in custom form: write it in generic form (\"%s\"(...))", name, name)
	}
	return p.unsupported(at, "operation %s", name)
}

// callOp reads "@f(%a, ...) {attrs} : (T, ...) -> (...)" after call or
// custom_call, keeping f as the attribute the generic form names it by:
// callee, a symbol, for call; call_target_name, a string, for
// custom_call.
func (p *parser) callOp(op *Op, attrs map[string]attr, name string, kind attrKind) error {
	at := p.pos
	f, err := p.symbol()
	if err != nil {
		return err
	}
	attrs[name] = attr{kind: kind, pos: at, s: f}
	return p.argsAndType(op, attrs)
}

// argsAndType reads "(%a, ...) {attrs} : (T, ...) -> T".
func (p *parser) argsAndType(op *Op, attrs map[string]attr) error {
	var err error
	if op.Operands, err = p.operandList(); err != nil {
		return err
	}
	if err = p.optDict(attrs); err != nil {
		return err
	}
	if err = p.expect(":"); err != nil {
		return err
	}
	op.OperandTypes, op.ResultTypes, err = p.functionType()
	return err
}

// elementwiseOp reads "%a, %b {attrs} : T" or ": (T, T) -> T", and select's
// ": P, T".
func (p *parser) elementwiseOp(op *Op, attrs map[string]attr) error {
	var err error
	if op.Operands, err = p.valueUses(); err != nil {
		return err
	}
	if err := p.optDict(attrs); err != nil {
		return err
	}
	return p.shortType(op)
}

// shortType reads an operation's type: a function type, or the short
// form in which one type stands for every operand and the result (select:
// the predicate's type, then the others').
func (p *parser) shortType(op *Op) error {
	if err := p.expect(":"); err != nil {
		return err
	}
	if p.peek() == '(' {
		var err error
		op.OperandTypes, op.ResultTypes, err = p.functionType()
		return err
	}
	ts, err := p.typeList()
	if err != nil {
		return err
	}
	n := len(op.Operands)
	switch {
	case op.Name == "stablehlo.select" && len(ts) == 2:
		op.OperandTypes = []Type{ts[0], ts[1], ts[1]}
		op.ResultTypes = ts[1:]
	case len(ts) == 1 && op.Name != "stablehlo.select":
		for range n {
			op.OperandTypes = append(op.OperandTypes, ts[0])
		}
		op.ResultTypes = ts
	default:
		return p.errAt(p.pos, ErrSyntax, "%s: %d types after ':'", op.Name, len(ts))
	}
	return nil
}

// compareOp reads "LT, %a, %b, SIGNED {attrs} : (T, T) -> T".
func (p *parser) compareOp(op *Op, attrs map[string]attr) error {
	at := p.pos
	dir := p.ident()
	if dir == "" {
		return p.fail("a comparison direction (EQ, NE, GE, GT, LE, LT)")
	}
	attrs["comparison_direction"] = attr{kind: attrEnum, pos: at, enum: "comparison_direction", s: dir}
	if err := p.expect(","); err != nil {
		return err
	}
	var err error
	if op.Operands, err = p.valueUses(); err != nil {
		return err
	}
	if p.punct(",") {
		at := p.pos
		typ := p.ident()
		if typ == "" {
			return p.fail("a comparison type (SIGNED, UNSIGNED, FLOAT, TOTALORDER)")
		}
		attrs["compare_type"] = attr{kind: attrEnum, pos: at, enum: "comparison_type", s: typ}
	}
	if err := p.optDict(attrs); err != nil {
		return err
	}
	if err := p.shortType(op); err != nil {
		return err
	}
	// The short form's one type is the operands'; the result is i1 of
	// their shape. (A function type with no result is finish's to refuse.)
	if len(op.ResultTypes) == 1 && op.ResultTypes[0].DType != tensor.Bool && len(op.OperandTypes) == 2 && op.OperandTypes[0].Equal(op.ResultTypes[0]) {
		op.ResultTypes = []Type{{DType: tensor.Bool, Shape: op.OperandTypes[0].Shape}}
	}
	return nil
}

// dimsOp reads broadcast_in_dim's "%a, dims = [..] : (T) -> T" and
// concatenate's "%a, %b, dim = 0 : (T, T) -> T".
func (p *parser) dimsOp(op *Op, attrs map[string]attr) error {
	var err error
	if op.Operands, err = p.valueUses(); err != nil {
		return err
	}
	if err := p.expect(","); err != nil {
		return err
	}
	// broadcast_in_dim's key is "dims" and its value a list; the
	// attribute is where the key starts.
	a := attr{kind: attrInt, pos: p.pos}
	key, name := "dim", "dimension"
	if op.Name == "stablehlo.broadcast_in_dim" {
		a.kind, key, name = attrInts, "dims", "broadcast_dimensions"
	}
	if err := p.expectKey(key); err != nil {
		return err
	}
	if a.kind == attrInts {
		a.ints, err = p.intList()
	} else {
		a.i, err = p.integer()
	}
	if err != nil {
		return err
	}
	attrs[name] = a
	if err := p.optDict(attrs); err != nil {
		return err
	}
	return p.shortType(op)
}

// reduceOp reads "(%x init: %c) applies stablehlo.and across dimensions =
// [1] : (T, T) -> T", or the same with "across" directly after the
// operands and a "reducer(%a: T, %b: T) { ... }" region after the type.
func (p *parser) reduceOp(op *Op, attrs map[string]attr) error {
	var x, init string
	if err := p.expectSeq("(", &x, "init", ":", &init, ")"); err != nil {
		return err
	}
	if p.peek() == ',' {
		return p.unsupported(p.pos, "stablehlo.reduce of more than one operand")
	}
	op.Operands = []string{x, init}
	applies := ""
	if p.keyword("applies") {
		at := p.pos
		if applies = p.ident(); applies == "" {
			return p.fail("the operation a reduce applies")
		}
		attrs["applies"] = attr{kind: attrString, pos: at, s: applies}
	}
	if err := p.expectSeq("across", "dimensions", "="); err != nil {
		return err
	}
	at := p.pos
	dims, err := p.intList()
	if err != nil {
		return err
	}
	attrs["dimensions"] = attr{kind: attrInts, pos: at, ints: dims}
	if err := p.optDict(attrs); err != nil {
		return err
	}
	if err := p.expect(":"); err != nil {
		return err
	}
	if op.OperandTypes, op.ResultTypes, err = p.functionType(); err != nil || applies != "" {
		return err
	}
	r := &Region{Line: p.line()}
	if err := p.expectSeq("reducer", "("); err != nil {
		return err
	}
	if r.Params, err = p.params(")"); err != nil {
		return err
	}
	if err := p.expect("{"); err != nil {
		return err
	}
	op.Region = r
	return p.regionBody(r)
}

// checkOp reads the check dialect's expect_eq ("%a, %b : T"),
// expect_close ("%a, %b, max_ulp_difference = 3, min_ulp_difference = 0
// : T, T") and expect_eq_const ("%a, dense<...> : T").
func (p *parser) checkOp(op *Op, attrs map[string]attr) error {
	a, err := p.valueUse()
	if err != nil {
		return err
	}
	op.Operands = []string{a}
	if err := p.expect(","); err != nil {
		return err
	}
	if op.Name == "check.expect_eq_const" {
		v, err := p.attrValue()
		if err != nil {
			return err
		}
		attrs["value"] = v
		return p.optDict(attrs)
	}
	b, err := p.valueUse()
	if err != nil {
		return err
	}
	op.Operands = append(op.Operands, b)
	if op.Name == "check.expect_close" {
		for _, name := range []string{"max_ulp_difference", "min_ulp_difference"} {
			save := p.pos
			if !p.punct(",") {
				break
			}
			if !p.keyword(name) {
				p.pos = save
				break
			}
			if err := p.expect("="); err != nil {
				return err
			}
			v, err := p.attrValue()
			if err != nil {
				return err
			}
			attrs[name] = v
		}
	}
	if err := p.optDict(attrs); err != nil {
		return err
	}
	ts, err := p.colonTypes()
	if err != nil {
		return err
	}
	switch len(ts) {
	case 1:
		op.OperandTypes = []Type{ts[0], ts[0]}
	case 2:
		op.OperandTypes = ts
	default:
		return p.errAt(p.pos, ErrSyntax, "%s: %d types after ':'", op.Name, len(ts))
	}
	return nil
}

// finish checks the operand and result counts of op, read at offset at,
// and fills in the fields that say what it means from its attributes.
func (p *parser) finish(op *Op, attrs map[string]attr, at int) error {
	ar, known := arity[op.Name]
	if !known {
		return p.unsupported(at, "operation %s", op.Name)
	}
	bad := func(format string, args ...any) error {
		return p.errAt(at, ErrSyntax, "%s: %s", op.Name, fmt.Sprintf(format, args...))
	}
	switch {
	case ar[0] >= 0 && len(op.Operands) != ar[0]:
		return bad("%d operands, want %d", len(op.Operands), ar[0])
	case ar[1] >= 0 && len(op.Results) != ar[1]:
		return bad("%d results named, want %d", len(op.Results), ar[1])
	case op.Name != "check.expect_eq_const" && len(op.OperandTypes) != len(op.Operands):
		return bad("%d operands and %d operand types", len(op.Operands), len(op.OperandTypes))
	case op.Name != "stablehlo.constant" && len(op.ResultTypes) != len(op.Results):
		return bad("%d results named and %d result types", len(op.Results), len(op.ResultTypes))
	case op.Region != nil && op.Name != "stablehlo.scatter" && op.Name != "stablehlo.reduce":
		return p.unsupported(at, "%s with a region", op.Name)
	}
	f := fields{p: p, op: op, attrs: attrs, at: at}
	return f.fill()
}

// fields turns an operation's attributes into its Op fields.
type fields struct {
	p     *parser
	op    *Op
	attrs map[string]attr
	at    int
	err   error
}

// get returns attribute name if it is of one of kinds; a missing one
// (ok false) is an error when required.
func (f *fields) get(name string, required bool, kinds ...attrKind) (attr, bool) {
	a, ok := f.attrs[name]
	switch {
	case f.err != nil:
		return attr{}, false
	case !ok && required:
		f.err = f.p.errAt(f.at, ErrSyntax, "%s: missing attribute %s", f.op.Name, name)
	case ok && !slices.Contains(kinds, a.kind):
		f.err = f.p.errAt(a.pos, ErrSyntax, "%s: attribute %s must be %s, got %s", f.op.Name, name,
			attrKindNames[kinds[0]], attrKindNames[a.kind])
		return attr{}, false
	}
	return a, ok
}

func (f *fields) ints(name string, required bool) []int64 {
	a, _ := f.get(name, required, attrInts)
	return a.ints
}

func (f *fields) flag(name string) bool {
	a, _ := f.get(name, false, attrBool)
	return a.b
}

func (f *fields) enum(name, kind string, values ...string) string {
	a, ok := f.get(name, kind == "comparison_direction", attrEnum)
	if ok && (a.enum != kind || !slices.Contains(values, a.s)) {
		f.err = f.p.errAt(a.pos, ErrSyntax, "%s: %s must be a %s (%s), got %s %s", f.op.Name, name, kind,
			strings.Join(values, ", "), a.enum, a.s)
	}
	return a.s
}

func (f *fields) fill() error {
	op := f.op
	switch op.Name {
	case "stablehlo.constant", "check.expect_eq_const":
		f.value()
	case "func.call":
		a, _ := f.get("callee", true, attrSymbol)
		op.Callee = a.s
	case "stablehlo.custom_call":
		a, _ := f.get("call_target_name", true, attrString)
		op.Callee = a.s
		// The checks' custom calls compare two values, as their
		// operations do.
		if n := arity[op.Callee][0]; (op.Callee == "check.expect_eq" || op.Callee == "check.expect_close") &&
			f.err == nil && len(op.Operands) != n {
			f.err = f.p.errAt(f.at, ErrSyntax, "%s @%s: %d operands, want %d", op.Name, op.Callee, len(op.Operands), n)
		}
	case "stablehlo.compare":
		op.Direction = f.enum("comparison_direction", "comparison_direction", "EQ", "NE", "GE", "GT", "LE", "LT")
		op.CompareType = f.enum("compare_type", "comparison_type", "SIGNED", "UNSIGNED", "FLOAT", "TOTALORDER")
	case "stablehlo.broadcast_in_dim":
		op.Dims = f.ints("broadcast_dimensions", true)
	case "stablehlo.concatenate":
		a, _ := f.get("dimension", true, attrInt)
		op.Dim = a.i
	case "stablehlo.reduce":
		op.Dims = f.ints("dimensions", true)
		f.reduceBody()
	case "stablehlo.scatter":
		a, _ := f.get("scatter_dimension_numbers", true, attrScatter)
		op.Scatter = a.scatter
		op.IndicesAreSorted = f.flag("indices_are_sorted")
		op.UniqueIndices = f.flag("unique_indices")
		f.scatterBody()
	case "stablehlo.gather", "stablehlo.dynamic_gather":
		a, _ := f.get("dimension_numbers", true, attrGather)
		op.Gather = a.gather
		op.IndicesAreSorted = f.flag("indices_are_sorted")
		if op.Name == "stablehlo.gather" {
			op.SliceSizes = f.ints("slice_sizes", true)
		}
	case "check.expect_close":
		op.MaxULP, op.MinULP = f.ulp("max_ulp_difference", 1), f.ulp("min_ulp_difference", 0)
	}
	return f.err
}

// value reads the dense value attribute of a constant or expect_eq_const,
// whose type is the result's (constant) or the operand's.
func (f *fields) value() {
	a, ok := f.get("value", true, attrDense)
	if !ok {
		return
	}
	op := f.op
	op.Value = a.dense
	t := TypeOf(a.dense)
	types, kind := &op.ResultTypes, "result"
	if op.Name == "check.expect_eq_const" {
		types, kind = &op.OperandTypes, "operand"
	}
	switch {
	case len(*types) == 0:
		*types = []Type{t}
	case len(*types) != 1: // finish counts neither these types nor the value
		f.err = f.p.errAt(f.at, ErrSyntax, "%s: %d %s types, want 1", op.Name, len(*types), kind)
	case !(*types)[0].Equal(t):
		f.err = f.p.errAt(a.pos, ErrSyntax, "%s: the value has type %v, the operation %v", op.Name, t, (*types)[0])
	}
}

func (f *fields) ulp(name string, def uint64) uint64 {
	a, ok := f.get(name, false, attrInt)
	if !ok {
		return def
	}
	if a.i < 0 {
		f.err = f.p.errAt(a.pos, ErrSyntax, "%s: %s is negative", f.op.Name, name)
	}
	return uint64(a.i)
}

// reduceBody reads what a reduce computes: the operation its applies
// form names, or its region's.
func (f *fields) reduceBody() {
	if f.err != nil {
		return
	}
	op := f.op
	if a, ok := f.attrs["applies"]; ok {
		name, found := strings.CutPrefix(a.s, "stablehlo.")
		if !found || !slices.Contains(Computations[1:], name) {
			f.err = f.p.errAt(a.pos, ErrUnsupported, "stablehlo.reduce applying %s: want one of stablehlo.%s",
				a.s, strings.Join(Computations[1:], ", stablehlo."))
		}
		op.Computation = name
		return
	}
	if op.Region == nil {
		f.err = f.p.errAt(f.at, ErrSyntax, "stablehlo.reduce without a body")
		return
	}
	op.Computation, f.err = f.p.computation(op, false)
}

func (f *fields) scatterBody() {
	if f.err != nil {
		return
	}
	if f.op.Region == nil {
		f.err = f.p.errAt(f.at, ErrSyntax, "stablehlo.scatter without an update computation")
		return
	}
	f.op.Computation, f.err = f.p.computation(f.op, true)
}

// computation reads what op's region does with its two arguments
// (current, update): return the update (replace, when replace is
// allowed), or return one element-wise operation of the two. The
// arguments must be scalars of op's first operand's element type.
func (p *parser) computation(op *Op, replace bool) (string, error) {
	r := op.Region
	want := "the update returned (replace) or one of stablehlo." + strings.Join(Computations[1:], ", stablehlo.") +
		" of the two arguments returned"
	if !replace {
		want = "one of stablehlo." + strings.Join(Computations[1:], ", stablehlo.") + " of the two arguments returned"
	}
	line := r.Line // the body's first operation's, if it has one
	if len(r.Body) > 0 {
		line = r.Body[0].Line
	}
	refuse := func(what string) error {
		return &Error{File: p.file, Line: line, Col: 1,
			Err: fmt.Errorf("%w: %s body %s: want %s", ErrUnsupported, op.Name, what, want)}
	}
	if len(r.Params) != 2 {
		return "", refuse(fmt.Sprintf("with %d arguments", len(r.Params)))
	}
	elem := Type{Shape: tensor.Shape{}}
	if len(op.OperandTypes) > 0 {
		elem.DType = op.OperandTypes[0].DType
	}
	for _, a := range r.Params {
		if !a.Type.Equal(elem) {
			return "", refuse(fmt.Sprintf("argument %s of type %v (the operand's elements are %s)", a.Name, a.Type, ElemName(elem.DType)))
		}
	}
	cur, upd := r.Params[0].Name, r.Params[1].Name
	n := len(r.Body)
	if n == 0 || r.Body[n-1].Name != "stablehlo.return" || len(r.Body[n-1].Operands) != 1 {
		return "", refuse("not ending in a stablehlo.return of one value")
	}
	ret := r.Body[n-1].Operands[0]
	switch {
	case n == 1 && ret == upd && replace:
		return "replace", nil
	case n == 2:
		b := r.Body[0]
		name, _ := strings.CutPrefix(b.Name, "stablehlo.")
		args := slices.Clone(b.Operands)
		slices.Sort(args)
		pair := []string{cur, upd}
		slices.Sort(pair)
		if slices.Contains(Computations[1:], name) && len(b.Results) == 1 && b.Results[0] == ret && slices.Equal(args, pair) {
			return name, nil
		}
	}
	return "", refuse(fmt.Sprintf("of %d operations returning %s", n, ret))
}
