// Package dialect describes operators as frameworks define them: each
// framework (a dialect) names its operators, their versions, their inputs
// and their attributes its own way, and runs them on the one engine.
//
// An Op is a table entry that the command line, the conformance runner and
// any other generic caller use to find, describe and run an operator by its
// name ("onnx.ScatterND"). Go callers who know which operator they want use
// the dialect packages' typed functions instead.
package dialect

import (
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// TypeError is the refusal of an input's element type: its message is
// ErrInput's and the text, and it matches both ErrInput, as a refusal of
// an input, and engine.ErrType, as every wrong element type does, in data,
// indices or updates alike.
func TypeError(text string) error { return &typeError{text} }

type typeError struct{ text string }

func (e *typeError) Error() string   { return ErrInput.Error() + ": " + e.text }
func (e *typeError) Unwrap() []error { return []error{ErrInput, engine.ErrType} }

// Sentinel errors of the dialect layer, matched with errors.Is. Errors from
// the engine (engine.ErrIndex, engine.ErrShape, ...) pass through wrapped
// in an *OpError.
var (
	// ErrVersion: the operator is not defined at the requested version
	// (too early, or removed).
	ErrVersion = errors.New("not defined at this version")
	// ErrAttribute: an attribute that the operator version does not have,
	// or a value it does not accept.
	ErrAttribute = errors.New("invalid attribute")
	// ErrInput: a missing or unexpected input, an input that is not what
	// the operator takes it as (a shape or an axis given as a tensor of
	// the wrong rank or values), or an input whose element type the
	// operator version does not accept: that refusal also matches
	// engine.ErrType, which every wrong element type matches (see
	// TypeError).
	ErrInput = errors.New("invalid input")
	// ErrUnknownOp: no operator has the name asked for.
	ErrUnknownOp = errors.New("unknown operator")
)

// OpError is the error of one operator call: Op names the operator
// ("onnx.ScatterND") and Err says what is wrong.
type OpError struct {
	Op  string
	Err error
}

// Error returns the operator name followed by the cause.
func (e *OpError) Error() string { return e.Op + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *OpError) Unwrap() error { return e.Err }

// Families are the operations that every dialect spells its own way.
var Families = []string{"scatter_nd", "scatter_elements", "gather_nd", "gather_elements", "gather",
	"general_scatter", "general_gather", "dynamic_slice", "dynamic_update_slice",
	"take", "take_along_axis", "put", "segment_sum", "segment_sub", "segment_prod", "segment_max", "segment_min",
	"segment_mean", "segment_sqrt_n", "segment_sum_sorted", "reduceat", "scatter_rows", "bincount",
	"index_copy", "index_fill", "index_put", "masked_scatter"}

// Kind is the type of an attribute value.
type Kind uint8

// The attribute kinds.
const (
	Int    Kind = iota + 1 // an integer
	Float                  // a real number
	String                 // a string
	Bool                   // true or false
	Ints                   // a list of integers, such as a shape
)

// kindNames are the kinds' names, indexed by Kind; the zero Kind has none.
var kindNames = [...]string{Int: "int", Float: "float", String: "string", Bool: "bool", Ints: "ints"}

// String returns the kind's name ("int", "ints", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Value is an attribute value of one Kind; the field of that kind holds it.
type Value struct {
	Kind  Kind
	Int   int64
	Float float64
	Str   string
	Bool  bool
	Ints  []int64
}

// String formats v as ParseValue reads it.
func (v Value) String() string {
	switch v.Kind {
	case Int:
		return strconv.FormatInt(v.Int, 10)
	case Float:
		return strconv.FormatFloat(v.Float, 'g', -1, 64)
	case String:
		return v.Str
	case Bool:
		return strconv.FormatBool(v.Bool)
	case Ints:
		parts := make([]string, len(v.Ints))
		for i, x := range v.Ints {
			parts[i] = strconv.FormatInt(x, 10)
		}
		return strings.Join(parts, ",")
	}
	return ""
}

// ParseValue reads text as a value of the given kind: integers in decimal,
// bools as true or false, lists as comma-separated integers ("4,4,4",
// optionally in brackets; "" or "[]" is the empty list).
func ParseValue(kind Kind, text string) (Value, error) {
	v := Value{Kind: kind}
	var err error
	switch kind {
	case Int:
		v.Int, err = strconv.ParseInt(strings.TrimSpace(text), 10, 64)
	case Float:
		v.Float, err = strconv.ParseFloat(strings.TrimSpace(text), 64)
	case String:
		v.Str = text
	case Bool:
		v.Bool, err = strconv.ParseBool(strings.TrimSpace(text))
		if t := strings.TrimSpace(text); err == nil && t != "true" && t != "false" {
			err = errors.New("want true or false")
		}
	case Ints:
		t := strings.TrimSpace(text)
		t = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, "["), "]"))
		if t != "" {
			for _, p := range strings.Split(t, ",") {
				x, perr := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
				if perr != nil {
					err = perr
					break
				}
				v.Ints = append(v.Ints, x)
			}
		}
	default:
		return Value{}, fmt.Errorf("%w: unknown kind %v", ErrAttribute, kind)
	}
	if errors.Is(err, strconv.ErrRange) && (kind == Int || kind == Ints) {
		return Value{}, fmt.Errorf("%w: %q is beyond the range of int64", ErrAttribute, text)
	}
	if err != nil {
		return Value{}, fmt.Errorf("%w: %q is not a valid %v", ErrAttribute, text, kind)
	}
	return v, nil
}

// Role is the part an input or attribute plays in its operation,
// whatever a dialect calls it: ONNX's data, TensorFlow's params and
// tensor, PyTorch's input, MindSpore's input_x and StableHLO's operand are
// all Data. The command line and the comparison of dialects find inputs
// and attributes by role.
type Role string

// The roles.
const (
	RoleData        Role = "data"         // the tensor read or updated
	RoleIndices     Role = "indices"      // the index values
	RoleUpdates     Role = "updates"      // the values scattered
	RoleValue       Role = "value"        // one value scattered everywhere (torch.scatter's value)
	RoleShape       Role = "shape"        // the shape of a scatter onto zeros
	RoleAxis        Role = "axis"         // the axis indexed
	RoleBatchDims   Role = "batch_dims"   // the number of leading dimensions data and indices share
	RoleReduction   Role = "reduction"    // how an update combines with the value it lands on
	RoleIncludeSelf Role = "include_self" // whether that value takes part
	RoleFill        Role = "fill_value"   // what fills a slice that the index rules skip
	RoleNumSegments Role = "num_segments" // the number of segments of a segment reduction, its output's first dimension
	// The dimension numbers of the general gather and scatter, named as
	// StableHLO names them (see engine.GatherDims, engine.ScatterDims).
	// The operand's batching dimensions are one role in both, as JAX
	// names them (StableHLO's scatter calls them input_batching_dims),
	// so that no name plays two roles.
	RoleOffsetDims                 Role = "offset_dims"
	RoleCollapsedSliceDims         Role = "collapsed_slice_dims"
	RoleOperandBatchingDims        Role = "operand_batching_dims"
	RoleStartIndicesBatchingDims   Role = "start_indices_batching_dims"
	RoleStartIndexMap              Role = "start_index_map"
	RoleIndexVectorDim             Role = "index_vector_dim"
	RoleSliceSizes                 Role = "slice_sizes"
	RoleUpdateWindowDims           Role = "update_window_dims"
	RoleInsertedWindowDims         Role = "inserted_window_dims"
	RoleScatterIndicesBatchingDims Role = "scatter_indices_batching_dims"
	RoleScatterDimsToOperandDims   Role = "scatter_dims_to_operand_dims"
)

// IsInput reports whether the role is an input tensor of the operators
// that have it (shape, value and fill_value are, and may come as
// attributes).
func (r Role) IsInput() bool {
	switch r {
	case RoleData, RoleIndices, RoleUpdates, RoleValue, RoleShape, RoleFill, RoleNumSegments:
		return true
	}
	return false
}

// Param describes an input of an operator.
type Param struct {
	Name string
	Role Role
	// Types names the element types accepted, as documentation, for an
	// input whose types no Behavior lists: those of the data and index
	// inputs are generated from the Behaviors (see Op.InputTypes).
	Types    string
	Doc      string
	Optional bool
	// AttrKind, when set, lets a caller give this input as an attribute
	// of that kind instead (a shape or an axis that the framework passes
	// as a tensor). Run turns such an attribute into the input: Ints into
	// a 1-D int64 tensor, Int into an int64 scalar, Float into a float64
	// scalar, Bool into a bool scalar.
	AttrKind Kind
	// Tuple lets a caller give the input as a tuple of tensors instead,
	// the inputs Name.0, Name.1, ... (NumPy's and PyTorch's tuples of
	// index arrays; see TupleInputs).
	Tuple bool
}

// ReductionNames returns the names of reductions in the engine's order of
// the reductions they stand for (none, add, sub, mul, max, min, mean),
// names of the same reduction alphabetically: the order in which error
// messages and documents list them.
func ReductionNames(reductions map[string]engine.Reduction) []string {
	return slices.SortedFunc(maps.Keys(reductions), func(x, y string) int {
		if d := int(reductions[x]) - int(reductions[y]); d != 0 {
			return d
		}
		return strings.Compare(x, y)
	})
}

// Behavior is what one version of an operator does at the corners where
// frameworks disagree. A dialect's Eval applies it, and the comparison
// document is generated from it, so the two cannot drift apart.
type Behavior struct {
	// Index says what negative and out-of-range indices do.
	Index engine.IndexRules
	// Reductions maps the framework's reduction names to the engine's;
	// nil for an operator that has none. An operator without a reduction
	// attribute whose table has one entry always does that reduction
	// (tf.scatter_nd, torch.scatter_add and mindspore.scatter_nd add
	// duplicates), under the name its framework's documentation uses.
	Reductions map[string]engine.Reduction
	// IncludeSelf names the attribute that says whether the destination's
	// existing value takes part in a reduction ("include_self",
	// "use_init_val"); "" when it always does.
	IncludeSelf string
	// Flag, when its Attr is set, is the boolean attribute by which the
	// operator chooses its reduction in place of a reduction attribute
	// (torch.put's accumulate, tf.math.bincount's binary_output);
	// Reductions then lists none, since none is fixed, or the one the
	// operator is known by.
	Flag FlagReduction
	// IndexTypes are the accepted index element types.
	IndexTypes TypeSet
	// DataTypes are the element types of data (or, for an operator
	// without data, of updates) that the operator accepts; CheckData
	// checks them.
	DataTypes TypeSet
	// TypeRefusals word the refusal of the types DataTypes lacks as the
	// framework words it (see CheckData); none for the shared wording.
	TypeRefusals []Refusal
	// ReductionRefusal words the refusal of a reduction name that
	// Reductions lacks, and MissingReduction that of a missing one where
	// there is no default (see ParseReduction); "" for the shared wording.
	ReductionRefusal, MissingReduction string
	// Arith is how the reductions compute where frameworks compute them
	// differently (complex products and quotients, string addition); the
	// dialect hands it to the engine with the reduction.
	Arith engine.Arith
	// Runs are, for the reductions of runs of consecutive slices
	// (engine.ReduceRuns: NumPy's reduceat, TensorFlow's sorted segment
	// reductions), what the indices say and what an empty run holds; the
	// zero value for the other operators.
	Runs engine.RunRules
	// Fill is what an output element that no update reaches holds, for
	// an operator whose output starts from no data tensor (an empty
	// segment of a segment reduction); FillValue gives it as a scalar of
	// the element type. Zero (FillZero) for every other operator.
	Fill Fill
	// Notes state, one sentence each, the rules the fields above cannot
	// hold, such as "duplicate indices are summed".
	Notes []string

	// Version is the operator version the Behavior is of, in the
	// Behaviors that Shared and Resolve hand out.
	Version int

	// reductions lists Reductions for Reduction, and defaultReduction is
	// the Default of the operator's reduction attribute, in the Behaviors
	// that Shared builds; writeByDefault is set where that attribute is
	// optional and has no Default, so that leaving it out is a plain write
	// (engine.None) under a name Reductions need not accept.
	reductions       []namedReduction
	defaultReduction string
	writeByDefault   bool
}

// namedReduction is an entry of Behavior.Reductions.
type namedReduction struct {
	name string
	red  engine.Reduction
}

// Reduction returns the engine's reduction that the framework's name
// stands for, as Reductions[name] does. The Behaviors that Shared and
// Resolve hand out look it up in a list built with them, which compares
// the name with a few others rather than hashing it.
func (b *Behavior) Reduction(name string) (engine.Reduction, bool) {
	if len(b.reductions) != len(b.Reductions) {
		r, ok := b.Reductions[name]
		return r, ok
	}
	for _, n := range b.reductions {
		if n.name == name {
			return n.red, true
		}
	}
	return 0, false
}

// FlagReduction is a reduction an operator chooses with a boolean
// attribute, Attr: Off when it is false, On when it is true.
type FlagReduction struct {
	Attr    string
	Off, On engine.Reduction
}

// Plan is one call of an operator as the engine's general gather or
// scatter: its dimension numbers (one of Gather and Scatter is set) and
// the index rules it runs under.
type Plan struct {
	Gather  *engine.GatherDims
	Scatter *engine.ScatterDims
	Rules   engine.IndexRules
}

// Attr describes an attribute of an operator.
type Attr struct {
	Name string
	// Role is the part the attribute plays; "" for one that only its own
	// dialect has (JAX's mode, the hints indices_are_sorted and
	// unique_indices).
	Role    Role
	Kind    Kind
	Default string // the default, as ParseValue reads it; "" when it has none
	// Required says that a call must give the attribute. An attribute
	// with neither a default nor Required may be left out, and then
	// means what its Doc says (PyTorch's scatter without reduce writes).
	Required bool
	Doc      string
	Since    int // the first version that has the attribute; 0 for all
}

// Call holds the arguments of one generic operator call.
type Call struct {
	// Opset is the requested version of the dialect's operator set; 0
	// asks for the newest.
	Opset int
	// Inputs maps the operator's input names to tensors.
	Inputs map[string]tensor.Tensor
	// Attrs maps attribute names to values.
	Attrs map[string]Value
}

// Op is an operator of a dialect.
type Op struct {
	// Name is "dialect.Name" in the framework's own spelling.
	Name string
	// Family is the operation the operator is a member of, shared across
	// dialects: one of Families.
	Family   string
	Summary  string
	Versions []int // the versions the framework defines, ascending
	// Removed is the first opset in which the operator no longer exists,
	// or 0.
	Removed int
	Inputs  []Param
	Output  string
	Attrs   []Attr
	// Behavior returns the corner rules of a version. Resolve calls it
	// once for each of Versions, the first time it is asked, and hands
	// the result to every later caller.
	Behavior func(version int) Behavior
	// Plan, where set, returns what a call asks of the engine as its
	// general gather or scatter (see Plan), for a call whose attributes
	// have their defaults; explain traces the general operators by it.
	// b is the shared Behavior of the version the call's opset selects,
	// as Eval's.
	Plan func(b *Behavior, c Call) (Plan, error)
	// Eval runs the operator on a call whose opset Run has resolved to
	// one of Versions, whose shared Behavior (see Shared; b.Version is
	// the version) it hands over, so that Eval resolves nothing again;
	// whose attributes and inputs Run has checked (known names, kinds,
	// versions; every required one present) and whose missing
	// attributes have their defaults.
	Eval func(b *Behavior, c Call) (tensor.Tensor, error)

	behaviorsOnce sync.Once
	behaviors     []Behavior // Behavior of each of Versions, for Resolve
}

// Find returns the operator of ops, a dialect's table, whose Name is name
// ("onnx.ScatterND"). It is for a dialect looking up its own operators
// by the constants that name them, so a name ops lacks is a bug in the
// dialect and panics.
func Find(ops []*Op, name string) *Op {
	for _, op := range ops {
		if op.Name == name {
			return op
		}
	}
	panic("dialect: no operator " + strconv.Quote(name) + " in the table")
}

// Version returns the version of op that the requested opset selects: the
// newest version not newer than opset (opset 0 selects the newest).
func (op *Op) Version(opset int) (int, error) {
	i, err := op.versionIndex(opset)
	if err != nil {
		return 0, err
	}
	return op.Versions[i], nil
}

// versionIndex returns the index in Versions of the version that opset
// selects.
func (op *Op) versionIndex(opset int) (int, error) {
	if opset == 0 {
		return len(op.Versions) - 1, nil
	}
	if opset < 0 {
		return 0, fmt.Errorf("%w: opset %d is negative", ErrVersion, opset)
	}
	if op.Removed != 0 && opset >= op.Removed {
		return 0, fmt.Errorf("%w: the operator was removed in opset %d (requested %d)", ErrVersion, op.Removed, opset)
	}
	if opset < op.Versions[0] {
		return 0, fmt.Errorf("%w: the operator is defined from opset %d, requested %d", ErrVersion, op.Versions[0], opset)
	}
	if last := len(op.Versions) - 1; opset >= op.Versions[last] {
		return last, nil // the newest, which most calls ask for
	}
	i, found := slices.BinarySearch(op.Versions, opset)
	if !found {
		i--
	}
	return i, nil
}

// Resolve returns the version of op that opset selects, as Version does,
// and that version's Behavior (one holding only its Version when op has none), which
// the dialects' typed functions follow. The Behavior is built once per
// version and shared by every call: its maps and slices must not be
// modified. Its error is an *OpError naming op.
func (op *Op) Resolve(opset int) (int, Behavior, error) {
	v, b, err := op.Shared(opset)
	if err != nil {
		return 0, Behavior{}, err
	}
	return v, *b, nil
}

// Shared is Resolve handing out the shared Behavior itself, which must not
// be modified: a small call spares copying it.
func (op *Op) Shared(opset int) (int, *Behavior, error) {
	i, err := op.versionIndex(opset)
	if err != nil {
		return 0, nil, op.wrap(err)
	}
	op.behaviorsOnce.Do(func() {
		op.behaviors = make([]Behavior, len(op.Versions))
		for j, v := range op.Versions {
			var b Behavior
			if op.Behavior != nil {
				b = op.Behavior(v)
			}
			b.Version = v
			for _, name := range ReductionNames(b.Reductions) {
				b.reductions = append(b.reductions, namedReduction{name, b.Reductions[name]})
			}
			b.defaultReduction, b.writeByDefault = op.defaultReduction(b)
			op.behaviors[j] = b
		}
	})
	return op.Versions[i], &op.behaviors[i], nil
}

// defaultReduction returns the name of the reduction that an operator of
// Behavior b does when a call names none: the Default of its reduction
// attribute, or, for an operator without one whose Reductions has a
// single entry, that entry's name. write reports an optional reduction
// attribute without a Default: left out, it asks for no reduction.
func (op *Op) defaultReduction(b Behavior) (name string, write bool) {
	for _, a := range op.Attrs {
		if a.Role == RoleReduction {
			return a.Default, a.Default == "" && !a.Required
		}
	}
	if len(b.Reductions) == 1 {
		for name := range b.Reductions {
			return name, false
		}
	}
	return "", false
}

// IsScatter reports whether the operators of the named family (one of
// Families) are scatters: they update a tensor, where the others read
// one.
func IsScatter(family string) bool {
	switch family {
	case "scatter_nd", "scatter_elements", "general_scatter", "dynamic_update_slice", "scatter_rows", "bincount",
		"put", "segment_sum", "segment_sub", "segment_prod", "segment_max", "segment_min", "segment_mean", "segment_sqrt_n",
		"index_copy", "index_fill", "index_put", "masked_scatter":
		return true
	}
	return false
}

// PlanOf returns the plan of call c (see Plan), with the opset resolved,
// the attributes that stand for inputs turned into inputs, the inputs and
// attributes checked against the version's table and the defaults filled
// in, as Run hands c to Eval. Its error is an *OpError.
func (op *Op) PlanOf(c Call) (Plan, error) {
	if op.Plan == nil {
		return Plan{}, op.wrap(fmt.Errorf("%w: the operator has no plan", ErrUnknownOp))
	}
	b, c, err := op.prepare(c)
	var p Plan
	if err == nil {
		p, err = op.Plan(b, c)
	}
	if err != nil {
		return Plan{}, op.wrap(err)
	}
	return p, nil
}

// wrap returns err as an *OpError naming op, or err itself when it is one
// already (an operator's functions name it), so that a message names the
// operator once.
func (op *Op) wrap(err error) error {
	var oe *OpError
	if errors.As(err, &oe) {
		return err
	}
	return &OpError{Op: op.Name, Err: err}
}

// Param returns the description of the named input.
func (op *Op) Param(name string) (Param, bool) {
	for _, p := range op.Inputs {
		if p.Name == name || p.Tuple && tupleItem(name, p.Name) >= 0 {
			return p, true
		}
	}
	return Param{}, false
}

// AttrKind returns the kind of value the named attribute takes, for an
// attribute or for an input that may be given as one.
func (op *Op) AttrKind(name string) (Kind, bool) {
	if a, ok := op.Attr(name); ok {
		return a.Kind, true
	}
	if p, ok := op.Param(name); ok && p.AttrKind != 0 {
		return p.AttrKind, true
	}
	return 0, false
}

// Attr returns the description of the named attribute.
func (op *Op) Attr(name string) (Attr, bool) {
	for _, a := range op.Attrs {
		if a.Name == name {
			return a, true
		}
	}
	return Attr{}, false
}

// Run resolves the call's opset, checks its inputs and attributes against
// version's table, and evaluates the operator. Every error is an *OpError.
func (op *Op) Run(c Call) (tensor.Tensor, error) {
	b, c, err := op.prepare(c)
	var out tensor.Tensor
	if err == nil {
		out, err = op.Eval(b, c)
	}
	if err != nil {
		return tensor.Tensor{}, op.wrap(err)
	}
	return out, nil
}

// prepare readies c for Eval or Plan as Run and PlanOf hand it on: it
// returns the shared Behavior of the version c's opset selects and c with
// the attributes that stand for inputs turned into inputs, checked
// against that version's table, and with the defaults filled in.
func (op *Op) prepare(c Call) (*Behavior, Call, error) {
	_, b, err := op.Shared(c.Opset)
	if err != nil {
		return nil, c, err
	}
	c, err = op.attrInputs(c)
	if err == nil {
		err = op.check(b.Version, c)
	}
	if err == nil {
		c.Attrs, err = op.withDefaults(b.Version, c.Attrs)
	}
	return b, c, err
}

func (op *Op) check(version int, c Call) error {
	// Of two bad attributes the one first in name order is reported, so
	// that it is the same one every time.
	var bad string
	var badErr error
	for name, v := range c.Attrs {
		if err := op.checkAttr(version, name, v); err != nil && (badErr == nil || name < bad) {
			bad, badErr = name, err
		}
	}
	if badErr != nil {
		return badErr
	}
	for _, a := range op.Attrs {
		if _, ok := c.Attrs[a.Name]; a.Required && version >= a.Since && !ok {
			return fmt.Errorf("%w: missing attribute %q, which has no default", ErrAttribute, a.Name)
		}
	}
	for name := range c.Inputs {
		if _, ok := op.Param(name); !ok {
			return fmt.Errorf("%w: unknown input %q (the operator takes %s)", ErrInput, name, op.inputNames())
		}
	}
	for _, p := range op.Inputs {
		if t, ok := c.Inputs[p.Name]; (!ok || t.IsZero()) && !p.Optional && !(p.Tuple && hasTuple(c, p.Name)) {
			return fmt.Errorf("%w: missing input %q", ErrInput, p.Name)
		}
	}
	return nil
}

// checkAttr checks the attribute called name, of value v, against
// version's table.
func (op *Op) checkAttr(version int, name string, v Value) error {
	a, ok := op.Attr(name)
	switch {
	case !ok:
		return fmt.Errorf("%w: unknown attribute %q (the operator has %s)", ErrAttribute, name, op.attrNames())
	case version < a.Since:
		return fmt.Errorf("%w: attribute %q is defined from version %d, this is version %d", ErrAttribute, name, a.Since, version)
	case v.Kind != a.Kind:
		return fmt.Errorf("%w: attribute %q must be %v, got %v", ErrAttribute, name, a.Kind, v.Kind)
	case v.Kind == Int && int64(int(v.Int)) != v.Int:
		// Only where int has 32 bits: the operators read the value as an
		// int, which would truncate it.
		return fmt.Errorf("%w: attribute %q = %d is beyond a %d-bit int", ErrAttribute, name, v.Int, bits.UintSize)
	}
	return nil
}

// attrInputs returns c with the attributes that stand for inputs moved
// into its inputs as tensors.
func (op *Op) attrInputs(c Call) (Call, error) {
	moved := false
	for name := range c.Attrs {
		if p, ok := op.Param(name); ok && p.AttrKind != 0 {
			moved = true
			break
		}
	}
	if !moved {
		return c, nil
	}
	out := Call{Opset: c.Opset, Inputs: maps.Clone(c.Inputs), Attrs: map[string]Value{}}
	if out.Inputs == nil {
		out.Inputs = map[string]tensor.Tensor{}
	}
	for name, v := range c.Attrs {
		p, ok := op.Param(name)
		if !ok || p.AttrKind == 0 {
			out.Attrs[name] = v
			continue
		}
		if _, dup := c.Inputs[name]; dup {
			return c, fmt.Errorf("%w: %q is given both as an input and as an attribute", ErrInput, name)
		}
		if v.Kind != p.AttrKind {
			return c, fmt.Errorf("%w: attribute %q must be %v, got %v", ErrAttribute, name, p.AttrKind, v.Kind)
		}
		out.Inputs[name] = v.Tensor()
	}
	return out, nil
}

// Tensor returns v as a tensor: Ints as a 1-D int64 tensor, Int as an
// int64 scalar, Float as a float64 scalar, Bool as a bool scalar and
// String as a string scalar.
func (v Value) Tensor() tensor.Tensor {
	switch v.Kind {
	case Ints:
		ints := slices.Clone(v.Ints)
		if ints == nil {
			ints = []int64{}
		}
		return tensor.Must(tensor.From(tensor.Shape{len(ints)}, ints))
	case Int:
		return tensor.Scalar(v.Int)
	case Float:
		return tensor.Scalar(v.Float)
	case Bool:
		return tensor.Scalar(v.Bool)
	}
	return tensor.Scalar(v.Str)
}

// withDefaults returns attrs completed with the declared defaults of the
// attributes that version has.
func (op *Op) withDefaults(version int, attrs map[string]Value) (map[string]Value, error) {
	all := make(map[string]Value, len(op.Attrs))
	for _, a := range op.Attrs {
		if v, ok := attrs[a.Name]; ok {
			all[a.Name] = v
			continue
		}
		if version < a.Since || a.Default == "" && a.Kind != String && a.Kind != Ints {
			continue
		}
		v, err := ParseValue(a.Kind, a.Default)
		if err != nil {
			return nil, err
		}
		all[a.Name] = v
	}
	return all, nil
}

func (op *Op) attrNames() string {
	if len(op.Attrs) == 0 {
		return "no attributes"
	}
	names := make([]string, len(op.Attrs))
	for i, a := range op.Attrs {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

func (op *Op) inputNames() string {
	names := make([]string, len(op.Inputs))
	for i, p := range op.Inputs {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}
