package compare

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
)

// ErrRequest is matched (errors.Is) by every error about the request
// itself, as opposed to an operator's error on the data: an unknown name,
// two names for one role, a value of the wrong kind, operators of
// different families, or fewer than two operators that can take the
// inputs.
var ErrRequest = errors.New("invalid comparison request")

// Request says what to compare: the operators, and the inputs and
// attributes they all get.
type Request struct {
	// Ops names the operators to compare, in any order, all of one
	// family ("onnx.ScatterND", "tf.tensor_scatter_nd_update"). Leave it
	// empty to take every member of Family instead.
	Ops []string
	// Family is one of dialect.Families, used when Ops is empty: every
	// dialect's member of the family that can take the inputs and do
	// what the attributes ask is compared.
	Family string
	// Opsets maps a dialect ("onnx", "openvino") to the opset its
	// operators run at. A dialect left out runs at its newest opset: with
	// Family, the newest opset of the dialect, so that an operator removed
	// from it (onnx.Scatter) is left out; with Ops, each operator's newest
	// version.
	Opsets map[string]int
	// Inputs maps input names to tensors. A name is a Role or any
	// dialect's spelling of one ("params", "src"); shape and value may
	// be inputs or attributes.
	Inputs map[string]tensor.Tensor
	// Attrs maps attribute names (a Role or any spelling: "dim",
	// "reduce", "use_init_val") to values of the Role's Kind. A reduction
	// may be spelled as any dialect spells it ("add", "sum", "amax").
	Attrs map[string]dialect.Value
}

// Skipped is a member of the family, or a named operator, that was not
// run, and why.
type Skipped struct {
	Op     string // the operator's label: its name, and version where it has several
	Reason string
}

// OpRun is one operator's run on the request's inputs.
type OpRun struct {
	Op      *dialect.Op
	Version int
	// Call is the call made, in the operator's own names.
	Call dialect.Call
	// Args describes the call in the operator's terms: "src=updates",
	// "reduce=sum", "shape=[8] (data's shape)".
	Args []string
	// Fixed says where the operator does of its own accord something
	// other than what the request asks: "always add (no reduction to
	// choose)". Only named operators run with such differences; a family
	// leaves them out.
	Fixed []string
	// Out is the result, or Err the error, of op.Run.
	Out tensor.Tensor
	Err error

	behavior    dialect.Behavior
	reduction   engine.Reduction // what the run does
	redText     string           // the reduction as the operator spells it, and how it was chosen
	includeSelf bool             // whether the existing value takes part (when reduction is not none)
	selfText    string
	zeros       bool // the run starts from zeros of a shape instead of from data
	// rows is set for a member of a rows family that scatters the rows
	// onto the destination compare builds (see familyRule), whose
	// elements all start as start.
	rows      bool
	start     dialect.Fill
	batchDims int
}

// Label returns the operator's name, followed by "-" and the version
// for operators that have several ("onnx.ScatterND-18").
func (r *OpRun) Label() string { return label(r.Op, r.Version) }

func label(op *dialect.Op, version int) string {
	if len(op.Versions) == 1 && op.Versions[0] == 1 && op.Removed == 0 {
		return op.Name
	}
	return op.Name + "-" + strconv.Itoa(version)
}

// resolved is a Request read into roles.
type resolved struct {
	inputs map[Role]tensor.Tensor
	attrs  map[Role]dialect.Value
	given  map[Role]string // the name each role was given under

	reduction   engine.Reduction
	includeSelf bool
	axis        int
	batchDims   int

	// data is the data input, or zeros of the shape input's shape when
	// only that was given; shape its shape. Both are zero when neither
	// data nor a readable shape was given.
	data  tensor.Tensor
	shape tensor.Shape
	named bool // operators were named, rather than a family

	rule familyRule // the rule of the family compared
}

func (q *resolved) has(r Role) bool { _, ok := q.given[r]; return ok }

// resolve reads the request's names as roles and its values.
func resolve(req Request) (*resolved, error) {
	q := &resolved{inputs: map[Role]tensor.Tensor{}, attrs: map[Role]dialect.Value{}, given: map[Role]string{},
		includeSelf: true, named: len(req.Ops) > 0}
	claim := func(name string) (Role, error) {
		r, ok := RoleOf(name)
		if !ok {
			return "", fmt.Errorf("%w: unknown name %q (names: %s)", ErrRequest, name, allNames())
		}
		if prev, dup := q.given[r]; dup {
			return "", fmt.Errorf("%w: %q and %q both name the %s", ErrRequest, prev, name, r)
		}
		q.given[r] = name
		return r, nil
	}
	for _, name := range slices.Sorted(maps.Keys(req.Inputs)) {
		r, err := claim(name)
		if err != nil {
			return nil, err
		}
		if !r.IsInput() {
			return nil, fmt.Errorf("%w: %q is an attribute (%s), not an input", ErrRequest, name, r)
		}
		if req.Inputs[name].IsZero() {
			return nil, fmt.Errorf("%w: input %q is an undefined tensor", ErrRequest, name)
		}
		q.inputs[r] = req.Inputs[name]
	}
	for _, name := range slices.Sorted(maps.Keys(req.Attrs)) {
		r, err := claim(name)
		if err != nil {
			return nil, err
		}
		v := req.Attrs[name]
		if kind := Kind(r); kind == 0 {
			return nil, fmt.Errorf("%w: %q is an input (%s), not an attribute", ErrRequest, name, r)
		} else if v.Kind != kind {
			return nil, fmt.Errorf("%w: %q must be %v, got %v %q", ErrRequest, name, kind, v.Kind, v.String())
		}
		if r.IsInput() { // shape or value given as an attribute
			q.inputs[r] = v.Tensor()
			continue
		}
		q.attrs[r] = v
	}
	if v, ok := q.attrs[Reduction]; ok {
		red, err := ReductionOf(v.Str)
		if err != nil {
			return nil, err
		}
		q.reduction = red
	}
	if v, ok := q.attrs[IncludeSelf]; ok {
		q.includeSelf = v.Bool
	}
	if v, ok := q.attrs[BatchDims]; ok {
		q.batchDims = int(v.Int)
	}
	// axis defaults to batch_dims, as TensorFlow's does; that is 0, the
	// default of ONNX and MindSpore, whenever batch_dims is not given.
	q.axis = q.batchDims
	if v, ok := q.attrs[Axis]; ok {
		q.axis = int(v.Int)
	}
	if q.has(Data) && q.has(Shape) {
		return nil, fmt.Errorf("%w: give %q or %q, not both: a scatter onto zeros of a shape is data of zeros",
			ErrRequest, q.given[Data], q.given[Shape])
	}
	if d, ok := q.inputs[Data]; ok {
		q.data, q.shape = d, d.Shape()
	} else if s, ok := q.inputs[Shape]; ok {
		dims, err := dialect.IntsOf(s, "shape")
		if err == nil && s.Rank() == 1 {
			q.shape = tensor.Shape(dims)
			if u, ok := q.inputs[Updates]; ok {
				// A shape the operators refuse leaves data undefined;
				// their errors say why.
				q.data, _ = tensor.New(u.DType(), q.shape)
			}
		}
	}
	return q, nil
}

// allNames lists every accepted input and attribute name.
func allNames() string {
	var names []string
	for _, r := range Roles {
		names = append(names, Names(r)...)
	}
	slices.Sort(names)
	return strings.Join(slices.Compact(names), ", ")
}

// candidates returns the operators the request names, or its family's
// members, and the family.
func candidates(req Request) ([]*dialect.Op, string, error) {
	if len(req.Ops) > 0 {
		if req.Family != "" {
			return nil, "", fmt.Errorf("%w: give operators or a family (%q), not both", ErrRequest, req.Family)
		}
		var ops []*dialect.Op
		for _, name := range req.Ops {
			op, err := registry.Lookup(name)
			if err != nil {
				return nil, "", fmt.Errorf("%w: %w", ErrRequest, err)
			}
			if slices.Contains(ops, op) {
				return nil, "", fmt.Errorf("%w: %s is named twice", ErrRequest, name)
			}
			if len(ops) > 0 && commonFamily(append(ops, op)) == "" {
				return nil, "", fmt.Errorf("%w: %s is a %s operator, %s a %s one; compare operators of one family",
					ErrRequest, op.Name, op.Family, ops[0].Name, ops[0].Family)
			}
			ops = append(ops, op)
		}
		return ops, commonFamily(ops), nil
	}
	if !slices.Contains(dialect.Families, req.Family) {
		return nil, "", fmt.Errorf("%w: unknown family %q (families: %s)", ErrRequest, req.Family, strings.Join(dialect.Families, ", "))
	}
	return members(req.Family), req.Family, nil
}

func dialectOf(op *dialect.Op) string {
	d, _, _ := strings.Cut(op.Name, ".")
	return d
}

// newestOpset returns the newest version of any operator of dialect d.
func newestOpset(d string) int {
	newest := 0
	for _, op := range registry.Ops() {
		if dialectOf(op) == d {
			newest = max(newest, op.Versions[len(op.Versions)-1])
		}
	}
	return newest
}

// checkOpsets checks that every dialect given an opset exists.
func checkOpsets(opsets map[string]int) error {
	for _, d := range slices.Sorted(maps.Keys(opsets)) {
		n := opsets[d]
		if newestOpset(d) == 0 {
			return fmt.Errorf("%w: opset for unknown dialect %q", ErrRequest, d)
		}
		if n <= 0 {
			return fmt.Errorf("%w: opset %d for %s is not positive", ErrRequest, n, d)
		}
	}
	return nil
}

// checkRoles checks that every given role is taken by at least one of ops
// (a shape stands for data of zeros, and data of zeros for a shape).
func checkRoles(q *resolved, ops []*dialect.Op) error {
	for _, r := range Roles {
		if q.has(r) && !slices.ContainsFunc(ops, func(op *dialect.Op) bool { return takes(op, r) }) {
			return fmt.Errorf("%w: no %s operator takes %s (given as %q)", ErrRequest, ops[0].Family, r, q.given[r])
		}
	}
	return nil
}

// takes reports whether op has role r, or for data or a shape the other:
// a shape stands for data of zeros, and data of zeros for a shape.
func takes(op *dialect.Op, r Role) bool {
	if _, ok := nameFor(op, r); ok {
		return true
	}
	if _, b, err := op.Shared(0); err == nil && b.Flag.Attr != "" && r == Reduction {
		return true // a flag chooses its reduction
	}
	switch r {
	case Data:
		r = Shape
	case Shape:
		r = Data
	default:
		return false
	}
	_, ok := nameFor(op, r)
	return ok
}

// skip is the reason an operator is left out.
type skip string

// plan maps the request onto op's inputs and attributes. It returns the
// run to make, or op left out and why.
func plan(q *resolved, op *dialect.Op, opsets map[string]int) (*OpRun, Skipped) {
	opset, given := opsets[dialectOf(op)]
	if !given && !q.named {
		opset = newestOpset(dialectOf(op))
	}
	version, err := op.Version(opset)
	if err != nil {
		return nil, Skipped{Op: op.Name, Reason: fmt.Sprintf("at %s opset %d: %v", dialectOf(op), opset, err)}
	}
	run := &OpRun{Op: op, Version: version, includeSelf: true,
		Call: dialect.Call{Opset: version, Inputs: map[string]tensor.Tensor{}, Attrs: map[string]dialect.Value{}}}
	if op.Behavior != nil {
		run.behavior = op.Behavior(version)
	}
	why := run.mapInputs(q)
	if why == "" {
		why = run.mapAttrs(q)
	}
	if why == "" && len(run.Fixed) > 0 && !q.named {
		why = skip(strings.Join(run.Fixed, "; "))
	}
	if why != "" {
		return nil, Skipped{Op: run.Label(), Reason: string(why)}
	}
	return run, Skipped{}
}

// arg describes an input or attribute of the call: the operator's name,
// with the role it plays when that is spelled differently.
func arg(name string, role Role, value string) string {
	s := name
	if value != "" {
		s += "=" + value
	} else if string(role) != name {
		s += "=" + string(role)
	}
	return s
}

func (r *OpRun) mapInputs(q *resolved) skip {
	op := r.Op
	if scattersRows(q.rule, q, op) {
		return r.mapRows(q)
	}
	flat := flattened(q.rule, q, op)
	for _, p := range op.Inputs {
		role, ok := p.Role, slices.Contains(Roles, p.Role)
		if !ok {
			return skip(fmt.Sprintf("its input %q has no role to map", p.Name))
		}
		if role == Axis {
			continue // an attribute of the request, mapped with the others
		}
		if t, ok := q.inputs[role]; ok {
			if role == Data && flat {
				t = tensor.Must(t.Reshape(tensor.Shape{t.Len()}))
				r.Args = append(r.Args, arg(p.Name, role, fmt.Sprintf("data flattened to %v (no axis)", t.Shape())))
				r.Call.Inputs[p.Name] = t
				continue
			}
			r.Call.Inputs[p.Name] = t
			r.Args = append(r.Args, arg(p.Name, role, ""))
			continue
		}
		switch {
		case role == Data && q.has(Shape):
			if q.data.IsZero() {
				return skip(fmt.Sprintf("needs %s: zeros of shape need updates to give their type and a 1-D integer shape", p.Name))
			}
			r.Call.Inputs[p.Name] = q.data
			r.Args = append(r.Args, arg(p.Name, role, fmt.Sprintf("zeros%v (from shape)", q.shape)))
		case role == Shape && q.has(Data):
			dims := make([]int64, len(q.shape))
			for i, d := range q.shape {
				dims[i] = int64(d)
			}
			r.Call.Inputs[p.Name] = tensor.Must(tensor.From(tensor.Shape{len(dims)}, dims))
			r.Args = append(r.Args, arg(p.Name, role, fmt.Sprintf("%v (data's shape)", q.shape)))
			r.zeros = true
			if !allZero(q.data) {
				r.Fixed = append(r.Fixed, "takes no data: starts from zeros of data's shape, and data is not all zeros")
			}
		case !p.Optional:
			return skip("needs " + arg(p.Name, role, ""))
		}
	}
	for _, role := range Roles {
		if role.IsInput() && q.has(role) && !takes(op, role) {
			return skip(fmt.Sprintf("takes no %s", role))
		}
	}
	return ""
}

// mapRows maps a rows family's request onto a member that scatters:
// data's rows become its updates, scattered onto num_segments rows of the
// family's start.
func (r *OpRun) mapRows(q *resolved) skip {
	dst, shape, err := rowsDestination(q, q.rule.start)
	if err != nil {
		return skip(err.Error())
	}
	r.rows, r.start = true, q.rule.start
	for _, p := range r.Op.Inputs {
		switch p.Role {
		case Data:
			r.Call.Inputs[p.Name] = dst
			r.Args = append(r.Args, arg(p.Name, Data, fmt.Sprintf("%v filled with %v (num_segments rows)", shape, q.rule.start)))
		case Updates:
			r.Call.Inputs[p.Name] = q.data
			r.Args = append(r.Args, arg(p.Name, Updates, "data (the rows)"))
		case Indices:
			r.Call.Inputs[p.Name] = q.inputs[Indices]
			r.Args = append(r.Args, arg(p.Name, Indices, ""))
		case Axis:
		default:
			if !p.Optional {
				return skip("needs " + arg(p.Name, p.Role, ""))
			}
		}
	}
	return ""
}

// attrAt returns op's name for role if op has it at version, as an
// attribute or as an input that may be given as one.
func attrAt(op *dialect.Op, role Role, version int) (string, bool) {
	name, ok := nameFor(op, role)
	if !ok {
		return "", false
	}
	if a, isAttr := op.Attr(name); isAttr && version < a.Since {
		return "", false
	}
	return name, true
}

func (r *OpRun) mapAttrs(q *resolved) skip {
	op, v := r.Op, r.Version
	if name, ok := attrAt(op, Axis, v); ok && q.rule.flat && !q.has(Axis) {
		// No axis: the family's flattened data, which op reads without one.
	} else if ok {
		r.Call.Attrs[name] = dialect.Value{Kind: dialect.Int, Int: int64(q.axis)}
		r.Args = append(r.Args, arg(name, Axis, strconv.Itoa(q.axis)))
	} else if q.has(Axis) {
		r.Fixed = append(r.Fixed, fmt.Sprintf("has no axis (asked: %d)", q.axis))
	}
	if name, ok := attrAt(op, BatchDims, v); ok {
		if q.has(BatchDims) {
			r.Call.Attrs[name] = q.attrs[BatchDims]
			r.Args = append(r.Args, arg(name, BatchDims, strconv.Itoa(q.batchDims)))
		}
		r.batchDims = q.batchDims
	} else if q.batchDims != 0 {
		r.Fixed = append(r.Fixed, fmt.Sprintf("has no batch_dims: 0 (asked: %d)", q.batchDims))
	}
	r.mapDims(q)
	if !dialect.IsScatter(op.Family) {
		return ""
	}
	if why := r.mapReduction(q); why != "" {
		return why
	}
	return r.mapIncludeSelf(q)
}

// mapDims passes on the dimension numbers of a general gather or scatter
// that op names. JAX's operators have no index_vector_dim: their index
// vectors lie along the last dimension of the indices, which a request
// for another is told.
func (r *OpRun) mapDims(q *resolved) {
	for _, role := range DimRoles {
		v, asked := q.attrs[role]
		if !asked {
			continue
		}
		if name, ok := attrAt(r.Op, role, r.Version); ok {
			r.Call.Attrs[name] = v
			r.Args = append(r.Args, arg(name, role, v.String()))
			continue
		}
		if ind, ok := q.inputs[Indices]; role == dialect.RoleIndexVectorDim && ok && v.Int != int64(ind.Rank()-1) {
			r.Fixed = append(r.Fixed, fmt.Sprintf("reads index vectors along the last dimension of the indices (asked: %d)", v.Int))
		}
	}
}

// spellingOf returns the name reductions gives r, the first in sorted
// order when there are several.
func spellingOf(reductions map[string]engine.Reduction, r engine.Reduction) (string, bool) {
	for _, name := range slices.Sorted(maps.Keys(reductions)) {
		if reductions[name] == r {
			return name, true
		}
	}
	return "", false
}

// absentReduction returns what op does at version when no reduction is
// passed: its attribute's default (a plain write when the default names
// none, as PyTorch's scatter without reduce), or its one fixed reduction;
// ok is false when the operator requires one.
func (r *OpRun) absentReduction(attr string, hasAttr bool) (engine.Reduction, bool) {
	b := r.behavior
	if hasAttr {
		a, _ := r.Op.Attr(attr)
		if a.Default == "" {
			return engine.None, !a.Required
		}
		red, ok := b.Reductions[a.Default]
		return red, ok
	}
	if len(b.Reductions) == 1 {
		for _, red := range b.Reductions {
			return red, true
		}
	}
	return 0, false
}

func (r *OpRun) mapReduction(q *resolved) skip {
	want := q.reduction
	if f := r.behavior.Flag; f.Attr != "" {
		return r.mapFlag(f, want)
	}
	name, hasAttr := attrAt(r.Op, Reduction, r.Version)
	absent, known := r.absentReduction(name, hasAttr)
	if hasAttr {
		if s, ok := spellingOf(r.behavior.Reductions, want); ok {
			r.reduction = want
			r.redText = fmt.Sprintf("%s %s", name, s)
			if s != want.String() {
				r.redText += fmt.Sprintf(" (%v)", want)
			}
			if q.has(Reduction) || !known || absent != want {
				r.Call.Attrs[name] = dialect.Value{Kind: dialect.String, Str: s}
				r.Args = append(r.Args, arg(name, Reduction, s))
			}
			return ""
		}
		if known && absent == want {
			r.reduction = want
			r.redText = fmt.Sprintf("%v (no %s)", want, name)
			return ""
		}
		return skip(fmt.Sprintf("has no %s %v (its %s: %s)", name, want, name, strings.Join(dialect.ReductionNames(r.behavior.Reductions), ", ")))
	}
	if !known {
		return skip("its Behavior table does not say what it does without a reduction")
	}
	r.reduction = absent
	r.redText = fmt.Sprintf("%v (no reduction to choose)", absent)
	if s, ok := spellingOf(r.behavior.Reductions, absent); ok && s != absent.String() {
		r.redText = fmt.Sprintf("%s = %v (no reduction to choose)", s, absent)
	}
	if absent != want {
		r.Fixed = append(r.Fixed, fmt.Sprintf("always %s, not %v", r.redText, want))
	}
	return ""
}

// mapFlag chooses the reduction of an operator that has a flag for it.
func (r *OpRun) mapFlag(f dialect.FlagReduction, want engine.Reduction) skip {
	switch want {
	case f.Off, f.On:
		on := want == f.On
		r.reduction = want
		r.redText = fmt.Sprintf("%v (%s=%t)", want, f.Attr, on)
		r.Call.Attrs[f.Attr] = dialect.Value{Kind: dialect.Bool, Bool: on}
		r.Args = append(r.Args, arg(f.Attr, Reduction, strconv.FormatBool(on)))
		return ""
	}
	return skip(fmt.Sprintf("has no reduction %v (its %s: %v when false, %v when true)", want, f.Attr, f.Off, f.On))
}

func (r *OpRun) mapIncludeSelf(q *resolved) skip {
	name, has := attrAt(r.Op, IncludeSelf, r.Version)
	switch {
	case has:
		r.includeSelf = q.includeSelf
		r.selfText = fmt.Sprintf("%s=%t: the existing value %s", name, q.includeSelf, takesPart(q.includeSelf))
		if q.has(IncludeSelf) || q.rule.rows {
			r.Call.Attrs[name] = dialect.Value{Kind: dialect.Bool, Bool: q.includeSelf}
			r.Args = append(r.Args, arg(name, IncludeSelf, strconv.FormatBool(q.includeSelf)))
		}
	case q.rule.rows && !r.rows:
		r.includeSelf = false
		r.selfText = "a segment reduces its own rows only: there is no value already here"
	case r.rows && isIdentity(r.start, r.reduction):
		// The start takes part, but as the reduction's identity it
		// changes nothing: as if it took no part.
		r.includeSelf = false
		r.selfText = fmt.Sprintf("the existing value takes part, but it is the %v compare starts from, the identity of %v", r.start, r.reduction)
	case r.rows:
		r.selfText = fmt.Sprintf("the existing value always takes part (no include_self): the %v compare starts from", r.start)
	default:
		r.selfText = "the existing value always takes part (no include_self)"
		if !q.includeSelf && r.reduction != engine.None {
			r.Fixed = append(r.Fixed, "has no include_self: the existing value always takes part (asked: false)")
		}
	}
	return ""
}

// isIdentity reports whether fill f is the identity of reduction red:
// 0 for add and sub, 1 for mul.
func isIdentity(f dialect.Fill, red engine.Reduction) bool {
	switch red {
	case engine.Add, engine.Sub:
		return f == dialect.FillZero
	case engine.Mul:
		return f == dialect.FillOne
	}
	return false
}

func takesPart(yes bool) string {
	if yes {
		return "takes part"
	}
	return "does not take part"
}

// allZero reports whether every element of t has the bits of its type's
// zero value.
func allZero(t tensor.Tensor) bool {
	zero, err := tensor.New(t.DType(), t.Shape())
	return err == nil && tensor.Equal(t, zero)
}
