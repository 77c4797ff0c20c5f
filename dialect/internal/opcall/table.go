package opcall

import (
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/tensor"
)

// Eval is the type of dialect.Op.Eval: it runs an operator version, whose
// shared Behavior Run hands it, on a generic call.
type Eval = func(b *dialect.Behavior, c dialect.Call) (tensor.Tensor, error)

// Fixed returns b as the Behavior of every version, for an operator of a
// framework that does not version its operators.
func Fixed(b dialect.Behavior) func(int) dialect.Behavior {
	return func(int) dialect.Behavior { return b }
}

// Unversioned gives each of ops, the table of a framework that does not
// version its operators, the single version 1 and the output called
// output, and returns ops.
func Unversioned(output string, ops []*dialect.Op) []*dialect.Op {
	for _, op := range ops {
		op.Versions, op.Output = []int{1}, output
	}
	return ops
}

// GatherFunc is a versioned dialect's gather at the version of Behavior
// b, on the inputs data and indices and an int attribute (the axis, or
// batch_dims).
type GatherFunc = func(b *dialect.Behavior, data, indices tensor.Tensor, attr int) (tensor.Tensor, error)

// NewGather runs gather, the gather called op of ops, a versioned
// dialect's table, at the version that opset selects.
func NewGather(ops []*dialect.Op, op string, opset int, gather GatherFunc, data, indices tensor.Tensor, attr int) (tensor.Tensor, error) {
	b, err := Resolve(ops, op, opset)
	if err != nil {
		return tensor.Tensor{}, err
	}
	return gather(b, data, indices, attr)
}

// GatherEval returns the Eval of a gather that a versioned dialect runs by
// gather, taking the resolved version's Behavior, the inputs "data" and
// "indices" and the int attribute attr (the axis, or batch_dims).
func GatherEval(gather GatherFunc, attr string) Eval {
	return func(b *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
		return gather(b, c.Inputs["data"], c.Inputs["indices"], int(c.Attrs[attr].Int))
	}
}

// ScatterNDFunc is a versioned dialect's ScatterND at the version of
// Behavior b, on the inputs data, indices and updates and the reduction
// attribute, into dst.
type ScatterNDFunc = func(b *dialect.Behavior, dst, data, indices, updates tensor.Tensor, reduction string) error

// ScatterNDInto runs scatter, a versioned dialect's ScatterND, whose
// table entry op is, at the version that opset selects; its error names
// op. The dialects look op up once, when they build their table, so that
// a call searches only the versions.
func ScatterNDInto(op *dialect.Op, opset int, scatter ScatterNDFunc, dst, data, indices, updates tensor.Tensor, reduction string) error {
	_, b, err := op.Shared(opset)
	if err == nil {
		err = scatter(b, dst, data, indices, updates, reduction)
	}
	return Wrap(op.Name, err)
}

// NewScatterND is ScatterNDInto into a new tensor of data's type and
// shape.
func NewScatterND(op *dialect.Op, opset int, scatter ScatterNDFunc, data, indices, updates tensor.Tensor, reduction string) (tensor.Tensor, error) {
	return AllocLike(op.Name, data, "data", func(dst tensor.Tensor) error {
		return ScatterNDInto(op, opset, scatter, dst, data, indices, updates, reduction)
	})
}

// ScatterNDEval returns the Eval of scatter, the ScatterND called op of a
// versioned dialect, into a new tensor of data's type and shape, on the
// inputs "data", "indices" and "updates" and the string attribute
// "reduction".
func ScatterNDEval(op string, scatter ScatterNDFunc) Eval {
	return func(b *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
		data, indices, updates := c.Inputs["data"], c.Inputs["indices"], c.Inputs["updates"]
		return AllocLike(op, data, "data", func(dst tensor.Tensor) error {
			return Wrap(op, scatter(b, dst, data, indices, updates, c.Attrs["reduction"].Str))
		})
	}
}

// ShapeScatterEval returns the Eval of a scatter_nd that takes the output
// shape as its input "shape" (TensorFlow's and MindSpore's): it reads that
// shape (ShapeOf) and runs scatter on the inputs "indices" and "updates".
// Errors name op.
func ShapeScatterEval(op string, scatter func(indices, updates tensor.Tensor, shape tensor.Shape) (tensor.Tensor, error)) Eval {
	return func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
		shape, err := ShapeOf(c.Inputs["shape"], "shape")
		if err != nil {
			return tensor.Tensor{}, Wrap(op, err)
		}
		return scatter(c.Inputs["indices"], c.Inputs["updates"], shape)
	}
}

// TupleIndices is the input "indices" of a ScatterND or GatherND, index
// tuples in its last dimension, whose element types the operator's
// Behavior lists (dialect.Op.InputTypes).
func TupleIndices() dialect.Param {
	return dialect.Param{Name: "indices", Role: dialect.RoleIndices, Doc: "index tuples in the last dimension"}
}

// AxisIndices is the input "indices" of an operator along an axis:
// positions along it, in a tensor that shape describes ("of data's
// rank"), whose element types the operator's Behavior lists.
func AxisIndices(shape string) dialect.Param {
	return dialect.Param{Name: "indices", Role: dialect.RoleIndices, Doc: "positions along axis, " + shape}
}

// Resolve returns the shared Behavior (dialect.Op.Shared) of the version
// that opset selects of the operator of ops, a versioned dialect's table,
// named name, for the typed functions, which follow it. A name ops lacks
// is a bug in the dialect and panics.
func Resolve(ops []*dialect.Op, name string, opset int) (*dialect.Behavior, error) {
	_, b, err := dialect.Find(ops, name).Shared(opset)
	return b, err
}

// SharedOf returns the shared Behavior (dialect.Op.Shared) of the newest
// version of the operator of ops named name, for the typed functions of a
// dialect whose operators have one version, which read it without a
// lookup. A name ops lacks is a bug in the dialect and panics.
func SharedOf(ops []*dialect.Op, name string) *dialect.Behavior {
	_, b, err := dialect.Find(ops, name).Shared(0)
	if err != nil {
		panic(err)
	}
	return b
}

// Variants returns the table entries of a family of operators that
// differ in their reduction, one per member of members, in order: entry
// returns a member's own fields (its Name, Family, Summary, Behavior and
// Eval), to which Variants adds the inputs and attributes every member
// shares (which no one writes: the entries share the slices).
func Variants[M any](members []M, inputs []dialect.Param, attrs []dialect.Attr, entry func(m M) *dialect.Op) []*dialect.Op {
	t := make([]*dialect.Op, len(members))
	for i, m := range members {
		t[i] = entry(m)
		t[i].Inputs, t[i].Attrs = inputs, attrs
	}
	return t
}
