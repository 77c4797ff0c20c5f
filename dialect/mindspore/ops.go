package mindspore

import (
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// behavior is the Behavior of an operator, the same at every version: its
// index rules and reductions, the index types every operator accepts, and
// notes. The typed functions read the same package variables (ndRules,
// elemsRules, elemsReductions, scatterNDReduceOp, indexTypes), so what is
// documented in ops is what runs.
func behavior(rules engine.IndexRules, types dialect.TypeSet, red map[string]engine.Reduction, notes ...string) func(int) dialect.Behavior {
	return opcall.Fixed(dialect.Behavior{Index: rules, Reductions: red, IndexTypes: indexTypes, DataTypes: types, Notes: notes,
		ReductionRefusal: "reduction {name} is not supported (supported: {allowed})"})
}

// inputX is the input input_x, the tensor an operator reads or updates,
// as doc says.
func inputX(doc string) dialect.Param {
	return dialect.Param{Name: "input_x", Role: dialect.RoleData, Doc: doc}
}

var ops = opcall.Unversioned("output", []*dialect.Op{
	{
		Name:    scatterNDName,
		Family:  "scatter_nd",
		Summary: "scatter updates into a zero tensor of a given shape, summing duplicates",
		Behavior: behavior(ndRules, scatterNDTypes, map[string]engine.Reduction{"add": scatterNDReduceOp},
			"The output starts as zeros of the given shape; shape must be non-empty with every dimension >= 1.",
			"Duplicate indices accumulate: updates are added one at a time in row-major index order.",
			"Negative and out-of-range indices are errors."),
		Inputs: []dialect.Param{
			{Name: "indices", Role: dialect.RoleIndices, Doc: "index tuples in the last dimension, rank >= 2"},
			{Name: "updates", Role: dialect.RoleUpdates, Doc: "the values to add, shaped indices.shape[:-1] + shape[indices.shape[-1]:]"},
			{Name: "shape", Role: dialect.RoleShape, Types: "int32 or int64, 1-D", AttrKind: dialect.Ints,
				Doc: "the output shape: non-empty, every dimension >= 1"},
		},
		Eval: opcall.ShapeScatterEval(scatterNDName, ScatterND),
	},
	{
		Name:    gatherNDName,
		Family:  "gather_nd",
		Summary: "take elements or slices of input_x at index tuples",
		Behavior: behavior(ndRules, gatherNDTypes, nil,
			"Negative and out-of-range indices are errors, as on MindSpore's CPU backend.",
			"A scalar indices tensor is read as a 1-D tensor of one element.",
			"indices.shape[-1] may be 0: each empty tuple selects all of input_x."),
		Inputs: []dialect.Param{inputX("the tensor to read"), opcall.TupleIndices()},
		Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
			return GatherND(c.Inputs["input_x"], c.Inputs["indices"])
		},
	},
	{
		Name:    scatterElemsName,
		Family:  "scatter_elements",
		Summary: "update elements of input_x at positions along an axis",
		Behavior: behavior(elemsRules, elemsTypes, elemsReductions,
			"Out-of-range indices (below -size or above size-1) are skipped silently.",
			"Duplicate indices: reduction none keeps the last update in row-major index order; add accumulates in that order.",
			"updates must have the shape of indices."),
		Inputs: []dialect.Param{
			inputX("the tensor to update, of rank >= 1"),
			opcall.AxisIndices("of input_x's rank"),
			{Name: "updates", Role: dialect.RoleUpdates, Types: "input_x's type", Doc: "the values to write, shaped like indices"},
		},
		Attrs: []dialect.Attr{
			{Name: "axis", Role: dialect.RoleAxis, Kind: dialect.Int, Default: "0", Doc: "the axis, in [-rank, rank-1]"},
			{Name: "reduction", Role: dialect.RoleReduction, Kind: dialect.String, Default: "none", Doc: "none or add"},
		},
		Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
			return TensorScatterElements(c.Inputs["input_x"], c.Inputs["indices"], c.Inputs["updates"],
				int(c.Attrs["axis"].Int), Reduction(c.Attrs["reduction"].Str))
		},
	},
})

// Ops returns the dialect's operators, for generic callers such as the
// command line: mindspore.scatter_nd, mindspore.gather_nd and
// mindspore.tensor_scatter_elements, each with the single version 1.
// scatter_nd's shape input may also be given as an ints attribute. Their
// Eval functions see attributes with defaults filled in by Run.
func Ops() []*dialect.Op { return ops }
