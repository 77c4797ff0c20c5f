package torch

import (
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// The tables of the flat operators (take.go).

// flatRules are the index rules of torch.take and torch.put: a negative
// index counts from the end of the flattened input.
var flatRules = engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeError}

// kernelBehavior returns the Behavior, the same in every version, of an
// operator of PyTorch's indexing kernels: index rules r on index types
// its, the kernels' element types and refusals, arithmetic a, and notes.
func kernelBehavior(r engine.IndexRules, its dialect.TypeSet, a engine.Arith, notes ...string) func(int) dialect.Behavior {
	return opcall.Fixed(dialect.Behavior{Index: r, IndexTypes: its, DataTypes: kernelTypes, TypeRefusals: typeRefusals,
		Arith: a, Notes: notes})
}

// accumulateAttr is the flag of put and index_put. It is not a reduction
// attribute: their Behaviors list no Reductions, which would say that
// they always add, but name it as their Flag (accumulating).
var accumulateAttr = dialect.Attr{Name: "accumulate", Kind: dialect.Bool, Default: "false", Doc: "add the values rather than write them"}

// accumulating is behavior with accumulateAttr as its reduction's flag:
// none when false, add when true.
func accumulating(behavior func(int) dialect.Behavior) func(int) dialect.Behavior {
	return func(v int) dialect.Behavior {
		b := behavior(v)
		b.Flag = dialect.FlagReduction{Attr: accumulateAttr.Name, Off: engine.None, On: engine.Add}
		return b
	}
}

// takeOps are the tables of the flat operators.
func takeOps() []*dialect.Op {
	return []*dialect.Op{
		{
			Name:    opTake,
			Family:  "take",
			Summary: "take elements of input, seen as 1-D, at positions index holds, in index's shape",
			Inputs: []dialect.Param{inputParam,
				{Name: "index", Role: dialect.RoleIndices, Doc: "positions in the flattened input, of any shape"}},
			Behavior: kernelBehavior(flatRules, dialect.Types(tensor.Int64), engine.Arith{},
				"input is seen as 1-D in row-major order; the result has index's shape.",
				"An empty input takes no index."),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return Take(c.Inputs["input"], c.Inputs["index"])
			},
		},
		{
			Name:    opTakeAlongDim,
			Family:  "take_along_axis",
			Summary: "take elements of input at positions along dim, input and indices broadcast (without dim, of the flattened input)",
			Inputs: []dialect.Param{inputParam,
				{Name: "indices", Role: dialect.RoleIndices, Doc: "positions along dim, of input's rank; of any shape without dim"}},
			Attrs: []dialect.Attr{{Name: "dim", Role: dialect.RoleAxis, Kind: dialect.Int,
				Doc: "the dimension to index, in [-rank, rank-1]; leave out to take from the flattened input"}},
			Behavior: kernelBehavior(rules, dialect.Types(tensor.Int64), engine.Arith{},
				"With dim, input and indices have one rank and broadcast in every dimension but dim; the result is torch.gather of the broadcast tensors.",
				"Without dim, input is seen as 1-D and the result is 1-D, of indices' element count; a negative index is an error (torch.take counts it from the end)."),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				if v, ok := c.Attrs["dim"]; ok && v.Kind == dialect.Int {
					return TakeAlongDim(c.Inputs["input"], c.Inputs["indices"], int(v.Int))
				}
				return TakeAlongDimFlat(c.Inputs["input"], c.Inputs["indices"])
			},
		},
		{
			Name:    opPut,
			Family:  "put",
			Summary: "write (or add) source into input, seen as 1-D, at positions index holds",
			Inputs: []dialect.Param{inputParam,
				{Name: "index", Role: dialect.RoleIndices, Doc: "positions in the flattened input, of any shape"},
				{Name: "source", Role: dialect.RoleUpdates, Types: "input's type", Doc: "the values, index's element count in any shape"}},
			Attrs: []dialect.Attr{accumulateAttr},
			Behavior: accumulating(kernelBehavior(flatRules, dialect.Types(tensor.Int64), stepArith,
				"input is seen as 1-D in row-major order; source has index's element count, in any shape.",
				"Without accumulate the last duplicate in index order wins (PyTorch leaves it undefined); with accumulate duplicates are summed in index order, float16 and bfloat16 rounding after every step.",
				"An empty input takes no index.")),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return Put(c.Inputs["input"], c.Inputs["index"], c.Inputs["source"], c.Attrs["accumulate"].Bool)
			},
		},
	}
}
