package torch

import (
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// The tables of the advanced indexing operators (masked.go).

// maskedOps are the tables of index_put and masked_scatter.
func maskedOps() []*dialect.Op {
	inputs := []dialect.Param{inputParam,
		{Name: "indices.0", Role: dialect.RoleIndices, Doc: "the index of input's first dimension (int64, int32), or a mask of its first dimensions (bool, uint8)"}}
	for _, name := range indexNames[1:] {
		// A role of its own, which only this operator has: compare maps
		// the first index tensor alone.
		inputs = append(inputs, dialect.Param{Name: name, Role: dialect.Role(name), Optional: true, Types: "int64, int32, bool or uint8",
			Doc: "the index of the next dimension, or a mask of the next dimensions"})
	}
	inputs = append(inputs, dialect.Param{Name: "values", Role: dialect.RoleUpdates, Types: "input's type",
		Doc: "the values, broadcast to the indices' broadcast shape followed by the dimensions not indexed"})
	return []*dialect.Op{
		{
			Name:    opIndexPut,
			Family:  "index_put",
			Summary: "write (or add) values into input at the positions the index tensors, broadcast together, select",
			Inputs:  inputs,
			Attrs:   []dialect.Attr{accumulateAttr},
			Behavior: accumulating(kernelBehavior(flatRules, dialect.Types(tensor.Int32, tensor.Int64, tensor.Bool, tensor.Uint8), stepArith,
				"The index tensors index input's first dimensions: an int64 or int32 one a dimension, a bool or uint8 mask as many as it has (its nonzero positions); they broadcast together, and values broadcasts to their shape followed by the dimensions not indexed.",
				"Without accumulate the last duplicate in row-major order wins (PyTorch leaves it undefined); with accumulate duplicates are summed in that order, float16 and bfloat16 rounding after every step.")),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				var indices []tensor.Tensor
				for _, name := range indexNames {
					t, ok := c.Inputs[name]
					if !ok || t.IsZero() {
						break
					}
					indices = append(indices, t)
				}
				return IndexPut(c.Inputs["input"], indices, c.Inputs["values"], c.Attrs["accumulate"].Bool)
			},
		},
		{
			Name:    opMaskedScatter,
			Family:  "masked_scatter",
			Summary: "write source's elements, in order, into input where mask is true",
			Inputs: []dialect.Param{inputParam,
				{Name: "mask", Role: dialect.RoleIndices, Doc: "bool, broadcast with input"},
				{Name: "source", Role: dialect.RoleUpdates, Types: "input's type", Doc: "the values, in row-major order, at least one per true position"}},
			Behavior: kernelBehavior(rules, dialect.Types(tensor.Bool), engine.Arith{},
				"input and mask broadcast together; the positions where mask is true take source's elements in row-major order, source's shape aside.",
				"source with fewer elements than mask has true positions is an error; in place, mask broadcasts to input's shape."),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return MaskedScatter(c.Inputs["input"], c.Inputs["mask"], c.Inputs["source"])
			},
		},
	}
}
