package opcall

import (
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/tensor"
)

// Eval is the type of dialect.Op.Eval: it runs an operator version on a
// generic call.
type Eval = func(version int, c dialect.Call) (tensor.Tensor, error)

// Fixed returns b as the Behavior of every version, for an operator of a
// framework that does not version its operators.
func Fixed(b dialect.Behavior) func(int) dialect.Behavior {
	return func(int) dialect.Behavior { return b }
}

// GatherEval returns the Eval of a gather that a versioned dialect runs by
// gather, a method of its opset type O taking the inputs "data" and
// "indices" and the int attribute attr (the axis, or batch_dims).
func GatherEval[O ~int](gather func(O, tensor.Tensor, tensor.Tensor, int) (tensor.Tensor, error), attr string) Eval {
	return func(v int, c dialect.Call) (tensor.Tensor, error) {
		return gather(O(v), c.Inputs["data"], c.Inputs["indices"], int(c.Attrs[attr].Int))
	}
}

// ScatterNDEval returns the Eval of a ScatterND that a versioned dialect
// runs by scatter, a method of its opset type O taking the inputs "data",
// "indices" and "updates" and the string attribute "reduction".
func ScatterNDEval[O ~int](scatter func(O, tensor.Tensor, tensor.Tensor, tensor.Tensor, string) (tensor.Tensor, error)) Eval {
	return func(v int, c dialect.Call) (tensor.Tensor, error) {
		return scatter(O(v), c.Inputs["data"], c.Inputs["indices"], c.Inputs["updates"], c.Attrs["reduction"].Str)
	}
}

// ShapeScatterEval returns the Eval of a scatter_nd that takes the output
// shape as its input "shape" (TensorFlow's and MindSpore's): it reads that
// shape (ShapeOf) and runs scatter on the inputs "indices" and "updates".
// Errors name op.
func ShapeScatterEval(op string, scatter func(indices, updates tensor.Tensor, shape tensor.Shape) (tensor.Tensor, error)) Eval {
	return func(_ int, c dialect.Call) (tensor.Tensor, error) {
		shape, err := ShapeOf(c.Inputs["shape"], "shape")
		if err != nil {
			return tensor.Tensor{}, Wrap(op, err)
		}
		return scatter(c.Inputs["indices"], c.Inputs["updates"], shape)
	}
}

// TupleIndices is the input "indices" of a ScatterND or GatherND, index
// tuples in its last dimension, of the element types named by types.
func TupleIndices(types string) dialect.Param {
	return dialect.Param{Name: "indices", Role: dialect.RoleIndices, Types: types, Doc: "index tuples in the last dimension"}
}

// AxisIndices is the input "indices" of an operator along an axis:
// positions along it, of the element types named by types, in a tensor
// that shape describes ("of data's rank").
func AxisIndices(types, shape string) dialect.Param {
	return dialect.Param{Name: "indices", Role: dialect.RoleIndices, Types: types, Doc: "positions along axis, " + shape}
}
