package stablehlo

import (
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/internal/opcall"
	"github.com/scatter-dev/scatter/tensor"
)

// indexTypes: StableHLO takes indices of any integer type.
var indexTypes = tensor.IntegerTypes()

func gatherBehavior(int) dialect.Behavior {
	return dialect.Behavior{
		Index:      clampRules,
		IndexTypes: indexTypes,
		Notes: []string{
			"A start index is clamped so that the slice lies within operand; a negative one becomes 0.",
			"Batching dimensions of operand and start_indices must have equal sizes.",
		},
	}
}

func scatterBehavior(int) dialect.Behavior {
	reductions := make(map[string]engine.Reduction, len(computations))
	for c, r := range computations {
		reductions[string(c)] = r
	}
	return dialect.Behavior{
		Index:      skipRules,
		IndexTypes: indexTypes,
		Arith:      arith,
		Reductions: reductions,
		Notes: []string{
			"A window that does not lie wholly within inputs is skipped, as XLA does.",
			"and, or and xor take bool and integers; for bool, add is OR and multiply is AND.",
			"updates has exactly the shape the dimension numbers give.",
		},
	}
}

func dynamicSliceBehavior(int) dialect.Behavior {
	return dialect.Behavior{
		Index:      clampRules,
		IndexTypes: indexTypes,
		Notes: []string{
			"The start is clamped so that the slice lies within operand; a negative start becomes 0.",
			"start_indices is one 1-D tensor here, holding the operation's scalar start indices in order.",
		},
	}
}

// ops is filled by init: its Eval functions call the package's functions.
var ops []*dialect.Op

func init() {
	dims := func(name string, role dialect.Role, doc string) dialect.Attr {
		return dialect.Attr{Name: name, Role: role, Kind: dialect.Ints, Doc: doc}
	}
	ivd := dialect.Attr{Name: "index_vector_dim", Role: dialect.RoleIndexVectorDim, Kind: dialect.Int, Required: true,
		Doc: "the dimension of the indices that holds the start index vectors; their rank for scalar starts"}
	sorted := dialect.Attr{Name: "indices_are_sorted", Kind: dialect.Bool, Default: "false",
		Doc: "a hint, accepted and not used"}
	anyType := "any type but string"
	intTypes := "any integer type"
	starts := dialect.Param{Name: "start_indices", Role: dialect.RoleIndices, Types: intTypes,
		Doc: "a 1-D tensor of one start index per dimension of operand"}
	ops = []*dialect.Op{
		{
			Name:     opGather,
			Family:   "general_gather",
			Behavior: gatherBehavior,
			Summary:  "take slices of operand at start indices, by dimension numbers",
			Versions: []int{1},
			Inputs: []dialect.Param{
				{Name: "operand", Role: dialect.RoleData, Types: anyType, Doc: "the tensor to read"},
				{Name: "start_indices", Role: dialect.RoleIndices, Types: intTypes, Doc: "the start indices of the slices"}},
			Output: "result",
			Attrs: []dialect.Attr{
				dims("offset_dims", dialect.RoleOffsetDims, "the result dimensions that hold the slices' dimensions"),
				dims("collapsed_slice_dims", dialect.RoleCollapsedSliceDims, "operand dimensions of slice size 1 left out of the result"),
				dims("operand_batching_dims", dialect.RoleOperandBatchingDims, "operand dimensions indexed by the matching start_indices_batching_dims"),
				dims("start_indices_batching_dims", dialect.RoleStartIndicesBatchingDims, "start_indices dimensions paired with operand_batching_dims"),
				dims("start_index_map", dialect.RoleStartIndexMap, "the operand dimension each start index component addresses"),
				ivd,
				{Name: "slice_sizes", Role: dialect.RoleSliceSizes, Kind: dialect.Ints, Required: true, Doc: "the slice's size in each operand dimension"},
				sorted},
			Eval: func(_ int, c dialect.Call) (tensor.Tensor, error) {
				return Gather(c.Inputs["operand"], c.Inputs["start_indices"], gatherDimsOf(c))
			},
			Plan: func(_ int, c dialect.Call) (dialect.Plan, error) {
				d := gatherDimsOf(c)
				return dialect.Plan{Gather: &d, Rules: clampRules}, nil
			},
		},
		{
			Name:     opScatter,
			Family:   "general_scatter",
			Behavior: scatterBehavior,
			Summary:  "combine windows of updates into inputs at start indices, by dimension numbers",
			Versions: []int{1},
			Inputs: []dialect.Param{
				{Name: "inputs", Role: dialect.RoleData, Types: anyType, Doc: "the tensor to update"},
				{Name: "scatter_indices", Role: dialect.RoleIndices, Types: intTypes, Doc: "the start indices of the windows"},
				{Name: "updates", Role: dialect.RoleUpdates, Types: "inputs' type", Doc: "the windows"}},
			Output: "result",
			Attrs: []dialect.Attr{
				dims("update_window_dims", dialect.RoleUpdateWindowDims, "the updates dimensions that hold the windows"),
				dims("inserted_window_dims", dialect.RoleInsertedWindowDims, "inputs dimensions of window size 1 with no dimension in updates"),
				dims("input_batching_dims", dialect.RoleOperandBatchingDims, "inputs dimensions indexed by the matching scatter_indices_batching_dims"),
				dims("scatter_indices_batching_dims", dialect.RoleScatterIndicesBatchingDims, "scatter_indices dimensions paired with input_batching_dims"),
				dims("scatter_dims_to_operand_dims", dialect.RoleScatterDimsToOperandDims, "the inputs dimension each start index component addresses"),
				ivd,
				sorted,
				{Name: "unique_indices", Kind: dialect.Bool, Default: "false", Doc: "a hint, accepted and not used"},
				{Name: "computation", Role: dialect.RoleReduction, Kind: dialect.String, Default: string(Replace),
					Doc: "the update computation: " + computationList}},
			Eval: func(_ int, c dialect.Call) (tensor.Tensor, error) {
				return Scatter(c.Inputs["inputs"], c.Inputs["scatter_indices"], c.Inputs["updates"], scatterDimsOf(c),
					Computation(c.Attrs["computation"].Str))
			},
			Plan: func(_ int, c dialect.Call) (dialect.Plan, error) {
				d := scatterDimsOf(c)
				return dialect.Plan{Scatter: &d, Rules: skipRules}, nil
			},
		},
		{
			Name:     opDynamicSlice,
			Family:   "dynamic_slice",
			Behavior: dynamicSliceBehavior,
			Summary:  "take one slice of operand at a start index",
			Versions: []int{1},
			Inputs:   []dialect.Param{{Name: "operand", Role: dialect.RoleData, Types: anyType, Doc: "the tensor to read"}, starts},
			Output:   "result",
			Attrs: []dialect.Attr{{Name: "slice_sizes", Role: dialect.RoleSliceSizes, Kind: dialect.Ints, Required: true,
				Doc: "the slice's size in each dimension"}},
			Eval: func(_ int, c dialect.Call) (tensor.Tensor, error) {
				s, err := opcall.StartScalars(c.Inputs["start_indices"])
				if err != nil {
					return tensor.Tensor{}, opcall.Wrap(opDynamicSlice, err)
				}
				return DynamicSlice(c.Inputs["operand"], s, opcall.IntList(c.Attrs["slice_sizes"]))
			},
			Plan: func(_ int, c dialect.Call) (dialect.Plan, error) {
				d := engine.DynamicSliceDims(opcall.IntList(c.Attrs["slice_sizes"]))
				return dialect.Plan{Gather: &d, Rules: clampRules}, nil
			},
		},
		{
			Name:     opDynamicUpdateSlice,
			Family:   "dynamic_update_slice",
			Behavior: dynamicSliceBehavior,
			Summary:  "replace one slice of operand at a start index",
			Versions: []int{1},
			Inputs: []dialect.Param{{Name: "operand", Role: dialect.RoleData, Types: anyType, Doc: "the tensor to update"},
				{Name: "update", Role: dialect.RoleUpdates, Types: "operand's type", Doc: "the new slice, of operand's rank"}, starts},
			Output: "result",
			Eval: func(_ int, c dialect.Call) (tensor.Tensor, error) {
				s, err := opcall.StartScalars(c.Inputs["start_indices"])
				if err != nil {
					return tensor.Tensor{}, opcall.Wrap(opDynamicUpdateSlice, err)
				}
				return DynamicUpdateSlice(c.Inputs["operand"], c.Inputs["update"], s)
			},
			Plan: func(_ int, c dialect.Call) (dialect.Plan, error) {
				d := engine.DynamicUpdateSliceDims(c.Inputs["operand"].Rank())
				return dialect.Plan{Scatter: &d, Rules: clampRules}, nil
			},
		},
	}
}

// Ops returns the dialect's operators, for generic callers such as the
// command line.
func Ops() []*dialect.Op { return ops }

// gatherDimsOf returns the dimension numbers of a generic gather call.
func gatherDimsOf(c dialect.Call) GatherDims {
	return GatherDims{
		OffsetDims:               opcall.IntList(c.Attrs["offset_dims"]),
		CollapsedSliceDims:       opcall.IntList(c.Attrs["collapsed_slice_dims"]),
		OperandBatchingDims:      opcall.IntList(c.Attrs["operand_batching_dims"]),
		StartIndicesBatchingDims: opcall.IntList(c.Attrs["start_indices_batching_dims"]),
		StartIndexMap:            opcall.IntList(c.Attrs["start_index_map"]),
		IndexVectorDim:           int(c.Attrs["index_vector_dim"].Int),
		SliceSizes:               opcall.IntList(c.Attrs["slice_sizes"]),
	}
}

// scatterDimsOf returns the dimension numbers of a generic scatter call.
func scatterDimsOf(c dialect.Call) ScatterDims {
	return ScatterDims{
		UpdateWindowDims:           opcall.IntList(c.Attrs["update_window_dims"]),
		InsertedWindowDims:         opcall.IntList(c.Attrs["inserted_window_dims"]),
		InputBatchingDims:          opcall.IntList(c.Attrs["input_batching_dims"]),
		ScatterIndicesBatchingDims: opcall.IntList(c.Attrs["scatter_indices_batching_dims"]),
		ScatterDimsToOperandDims:   opcall.IntList(c.Attrs["scatter_dims_to_operand_dims"]),
		IndexVectorDim:             int(c.Attrs["index_vector_dim"].Int),
	}
}
