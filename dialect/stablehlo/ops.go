package stablehlo

import (
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// ops is filled by init: its Eval functions call the package's functions.
var ops []*dialect.Op

func init() {
	ivd := dialect.Attr{Name: "index_vector_dim", Role: dialect.RoleIndexVectorDim, Kind: dialect.Int, Required: true,
		Doc: "the dimension of the indices that holds the start index vectors; their rank for scalar starts"}
	read := dialect.Param{Name: "operand", Role: dialect.RoleData, Doc: "the tensor to read"}
	slices := opcall.Slices{
		Framework:   framework,
		Slice:       opDynamicSlice,
		UpdateSlice: opDynamicUpdateSlice,
		Behavior:    dynamicSliceBehavior,
		Read:        read,
		Write:       dialect.Param{Name: "operand", Role: dialect.RoleData, Doc: "the tensor to update"},
		Starts: dialect.Param{Name: "start_indices", Role: dialect.RoleIndices,
			Doc: "a 1-D tensor of one start index per dimension of operand"},
		Rules: func(dialect.Call) engine.IndexRules { return clampRules },
	}
	ops = opcall.Unversioned("result", append([]*dialect.Op{
		{
			Name:     opGather,
			Family:   "general_gather",
			Behavior: gatherBehavior,
			Summary:  "take slices of operand at start indices, by dimension numbers",
			Inputs: []dialect.Param{
				read,
				{Name: "start_indices", Role: dialect.RoleIndices, Doc: "the start indices of the slices"}},
			Attrs: append(opcall.GatherDimsAttrs(), ivd, opcall.Hint("indices_are_sorted")),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return Gather(c.Inputs["operand"], c.Inputs["start_indices"], opcall.GatherDimsOf(c))
			},
			Plan: func(_ *dialect.Behavior, c dialect.Call) (dialect.Plan, error) {
				d := opcall.GatherDimsOf(c)
				return dialect.Plan{Gather: &d, Rules: clampRules}, nil
			},
		},
		{
			Name:     opScatter,
			Family:   "general_scatter",
			Behavior: scatterBehavior,
			Summary:  "combine windows of updates into inputs at start indices, by dimension numbers",
			Inputs: []dialect.Param{
				{Name: "inputs", Role: dialect.RoleData, Doc: "the tensor to update"},
				{Name: "scatter_indices", Role: dialect.RoleIndices, Doc: "the start indices of the windows"},
				{Name: "updates", Role: dialect.RoleUpdates, Types: "inputs' type", Doc: "the windows"}},
			Attrs: append(opcall.ScatterDimsAttrs("inputs", batching), ivd,
				opcall.Hint("indices_are_sorted"), opcall.Hint("unique_indices"),
				dialect.Attr{Name: "computation", Role: dialect.RoleReduction, Kind: dialect.String, Default: string(Replace),
					Doc: "the update computation: " + computationList}),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return Scatter(c.Inputs["inputs"], c.Inputs["scatter_indices"], c.Inputs["updates"], opcall.ScatterDimsOf(c, batching),
					Computation(c.Attrs["computation"].Str))
			},
			Plan: func(_ *dialect.Behavior, c dialect.Call) (dialect.Plan, error) {
				d := opcall.ScatterDimsOf(c, batching)
				return dialect.Plan{Scatter: &d, Rules: skipRules}, nil
			},
		},
	}, slices.Ops()...))
	gatherB, scatterB = opcall.SharedOf(ops, opGather), opcall.SharedOf(ops, opScatter)
}

// batching is the attribute of the scatter's inputs' batching dimensions.
const batching = "input_batching_dims"

// Ops returns the dialect's operators, for generic callers such as the
// command line.
func Ops() []*dialect.Op { return ops }

func gatherBehavior(int) dialect.Behavior {
	return opcall.HLOBehavior(framework, clampRules,
		"A start index is clamped so that the slice lies within operand; a negative one becomes 0.",
		"Batching dimensions of operand and start_indices must have equal sizes.")
}

func scatterBehavior(int) dialect.Behavior {
	b := opcall.HLOBehavior(framework, skipRules,
		"A window that does not lie wholly within inputs is skipped, as XLA does.",
		"and, or and xor take bool and integers; for bool, add is OR and multiply is AND.",
		"updates has exactly the shape the dimension numbers give.")
	b.Arith, b.Reductions = arith, make(map[string]engine.Reduction, len(computations))
	for _, e := range computations {
		b.Reductions[string(e.c)] = e.r
	}
	return b
}

func dynamicSliceBehavior(int) dialect.Behavior {
	return opcall.HLOBehavior(framework, clampRules,
		"The start is clamped so that the slice lies within operand; a negative start becomes 0.",
		"start_indices is one 1-D tensor here, holding the operation's scalar start indices in order.")
}
