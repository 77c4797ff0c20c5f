package opcall

import (
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// This file holds what the dialects of the general operators, JAX and
// StableHLO, share: the attributes of the dimension numbers, the gather's
// allocating call, and the dynamic slices as calls and as table entries.

// dimsAttr returns an attribute of dimension numbers: a list of
// dimensions.
func dimsAttr(name string, role dialect.Role, doc string) dialect.Attr {
	return dialect.Attr{Name: name, Role: role, Kind: dialect.Ints, Doc: doc}
}

// sliceSizes is the attribute of the slice sizes of a gather or a dynamic
// slice; of is what the sizes are the sizes of.
func sliceSizes(of string) dialect.Attr {
	return dialect.Attr{Name: "slice_sizes", Role: dialect.RoleSliceSizes, Kind: dialect.Ints, Required: true,
		Doc: "the slice's size in each " + of}
}

// GatherDimsAttrs returns the attributes of a general gather's dimension
// numbers, as StableHLO and JAX name them, in StableHLO's order, and its
// slice sizes: all of engine.GatherDims but the index vector's dimension,
// which StableHLO gives as an attribute and JAX as the last dimension of
// the indices.
func GatherDimsAttrs() []dialect.Attr {
	return []dialect.Attr{
		dimsAttr("offset_dims", dialect.RoleOffsetDims, "the result dimensions that hold the slices' dimensions"),
		dimsAttr("collapsed_slice_dims", dialect.RoleCollapsedSliceDims, "operand dimensions of slice size 1 left out of the result"),
		dimsAttr("operand_batching_dims", dialect.RoleOperandBatchingDims, "operand dimensions indexed by the matching start_indices_batching_dims"),
		dimsAttr("start_indices_batching_dims", dialect.RoleStartIndicesBatchingDims, "start_indices dimensions paired with operand_batching_dims"),
		dimsAttr("start_index_map", dialect.RoleStartIndexMap, "the operand dimension each start index component addresses"),
		sliceSizes("operand dimension"),
	}
}

// ScatterDimsAttrs returns the attributes of a general scatter's dimension
// numbers in StableHLO's order, all of engine.ScatterDims but the index
// vector's dimension, for a scatter whose data input is called data and
// the attribute of that input's batching dimensions batching (StableHLO's
// "inputs" and "input_batching_dims", JAX's "operand" and
// "operand_batching_dims").
func ScatterDimsAttrs(data, batching string) []dialect.Attr {
	return []dialect.Attr{
		dimsAttr("update_window_dims", dialect.RoleUpdateWindowDims, "the updates dimensions that hold the windows"),
		dimsAttr("inserted_window_dims", dialect.RoleInsertedWindowDims, data+" dimensions of window size 1 with no dimension in updates"),
		dimsAttr(batching, dialect.RoleOperandBatchingDims, data+" dimensions indexed by the matching scatter_indices_batching_dims"),
		dimsAttr("scatter_indices_batching_dims", dialect.RoleScatterIndicesBatchingDims, "scatter_indices dimensions paired with "+batching),
		dimsAttr("scatter_dims_to_operand_dims", dialect.RoleScatterDimsToOperandDims, "the "+data+" dimension each start index component addresses"),
	}
}

// Hint returns the attribute called name that JAX and StableHLO take as a
// hint (indices_are_sorted, unique_indices): a bool, false by default,
// that never changes a result here.
func Hint(name string) dialect.Attr {
	return dialect.Attr{Name: name, Kind: dialect.Bool, Default: "false", Doc: "a hint, accepted and not used"}
}

// GatherDimsOf returns the dimension numbers of a generic gather call, read
// from the attributes of GatherDimsAttrs and index_vector_dim (0 when the
// call has none).
func GatherDimsOf(c dialect.Call) engine.GatherDims {
	return engine.GatherDims{
		OffsetDims:               IntList(c.Attrs["offset_dims"]),
		CollapsedSliceDims:       IntList(c.Attrs["collapsed_slice_dims"]),
		OperandBatchingDims:      IntList(c.Attrs["operand_batching_dims"]),
		StartIndicesBatchingDims: IntList(c.Attrs["start_indices_batching_dims"]),
		StartIndexMap:            IntList(c.Attrs["start_index_map"]),
		IndexVectorDim:           int(c.Attrs["index_vector_dim"].Int),
		SliceSizes:               IntList(c.Attrs["slice_sizes"]),
	}
}

// ScatterDimsOf returns the dimension numbers of a generic scatter call,
// read from the attributes of ScatterDimsAttrs (batching names the data's
// batching dimensions, as there) and index_vector_dim (0 when the call
// has none).
func ScatterDimsOf(c dialect.Call, batching string) engine.ScatterDims {
	return engine.ScatterDims{
		UpdateWindowDims:           IntList(c.Attrs["update_window_dims"]),
		InsertedWindowDims:         IntList(c.Attrs["inserted_window_dims"]),
		InputBatchingDims:          IntList(c.Attrs[batching]),
		ScatterIndicesBatchingDims: IntList(c.Attrs["scatter_indices_batching_dims"]),
		ScatterDimsToOperandDims:   IntList(c.Attrs["scatter_dims_to_operand_dims"]),
		IndexVectorDim:             int(c.Attrs["index_vector_dim"].Int),
	}
}

// AllocGather runs the general gather of operand at indices by d with opt
// into a new tensor of the shape d gives. Errors name op.
func AllocGather(op string, operand, indices tensor.Tensor, d *engine.GatherDims, opt engine.GatherOptions) (tensor.Tensor, error) {
	shape, err := d.Shape(operand.Shape(), indices.Shape(), true)
	if err != nil {
		return tensor.Tensor{}, Wrap(op, err)
	}
	return Alloc(op, operand.DType(), shape, func(dst tensor.Tensor) error {
		return engine.GatherGeneral(dst, operand, indices, d, opt)
	})
}

// DynamicSlice is DynamicSliceInto into a new tensor of the slice sizes.
func DynamicSlice(op, framework string, operand tensor.Tensor, starts []tensor.Tensor, sizes []int, rules engine.IndexRules) (tensor.Tensor, error) {
	shape, err := SliceShape(operand, sizes)
	if err != nil {
		return tensor.Tensor{}, Wrap(op, err)
	}
	return Alloc(op, operand.DType(), shape, func(dst tensor.Tensor) error {
		return DynamicSliceInto(op, framework, dst, operand, starts, rules)
	})
}

// DynamicUpdateSlice is DynamicUpdateSliceInto into a new tensor of
// operand's type and shape.
func DynamicUpdateSlice(op, framework string, operand, update tensor.Tensor, starts []tensor.Tensor, rules engine.IndexRules) (tensor.Tensor, error) {
	return AllocLike(op, operand, "operand", func(dst tensor.Tensor) error {
		return DynamicUpdateSliceInto(op, framework, dst, operand, update, starts, rules)
	})
}

// Slices describes a framework's dynamic_slice and dynamic_update_slice
// (JAX's, StableHLO's) for their table entries, which Ops returns: each
// takes an operand, and its start index as one 1-D tensor of integers
// (StartScalars splits it); dynamic_slice takes the slice sizes,
// dynamic_update_slice the update.
type Slices struct {
	Framework          string // names the framework in the refusal of strings
	Slice, UpdateSlice string // the operators' names
	Behavior           func(int) dialect.Behavior
	// Read and Write describe the operand of dynamic_slice and of
	// dynamic_update_slice, Starts the start index.
	Read, Write, Starts dialect.Param
	// Attrs are the attributes of both beside the slice sizes.
	Attrs []dialect.Attr
	// Rules returns a call's index rules.
	Rules func(dialect.Call) engine.IndexRules
}

// Ops returns the table entries of the two operators.
func (s *Slices) Ops() []*dialect.Op {
	return []*dialect.Op{
		{
			Name:     s.Slice,
			Family:   "dynamic_slice",
			Behavior: s.Behavior,
			Summary:  "take one slice of operand at a start index",
			Inputs:   []dialect.Param{s.Read, s.Starts},
			Attrs:    append([]dialect.Attr{sliceSizes("dimension")}, s.Attrs...),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				starts, err := StartScalars(c.Inputs[s.Starts.Name])
				if err != nil {
					return tensor.Tensor{}, Wrap(s.Slice, err)
				}
				return DynamicSlice(s.Slice, s.Framework, c.Inputs[s.Read.Name], starts, IntList(c.Attrs["slice_sizes"]), s.Rules(c))
			},
			Plan: func(_ *dialect.Behavior, c dialect.Call) (dialect.Plan, error) {
				d := engine.DynamicSliceDims(IntList(c.Attrs["slice_sizes"]))
				return dialect.Plan{Gather: &d, Rules: s.Rules(c)}, nil
			},
		},
		{
			Name:     s.UpdateSlice,
			Family:   "dynamic_update_slice",
			Behavior: s.Behavior,
			Summary:  "replace one slice of operand at a start index",
			Inputs: []dialect.Param{s.Write,
				{Name: "update", Role: dialect.RoleUpdates, Types: "operand's type", Doc: "the new slice, of operand's rank"}, s.Starts},
			Attrs: s.Attrs,
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				starts, err := StartScalars(c.Inputs[s.Starts.Name])
				if err != nil {
					return tensor.Tensor{}, Wrap(s.UpdateSlice, err)
				}
				return DynamicUpdateSlice(s.UpdateSlice, s.Framework, c.Inputs[s.Write.Name], c.Inputs["update"], starts, s.Rules(c))
			},
			Plan: func(_ *dialect.Behavior, c dialect.Call) (dialect.Plan, error) {
				d := engine.DynamicUpdateSliceDims(c.Inputs[s.Write.Name].Rank())
				return dialect.Plan{Scatter: &d, Rules: s.Rules(c)}, nil
			},
		},
	}
}

// HLOBehavior returns the Behavior of an operator of a framework, named
// for its errors, that has no string tensors and takes indices of any
// integer type (JAX, StableHLO): index rules, every element type but
// string, refused as NoStrings refuses it, and notes.
func HLOBehavior(framework string, rules engine.IndexRules, notes ...string) dialect.Behavior {
	return dialect.Behavior{
		Index:        rules,
		IndexTypes:   dialect.IntegerTypes,
		DataTypes:    dialect.AnyType.Without(tensor.String),
		TypeRefusals: []dialect.Refusal{StringsRefusal(framework)},
		Notes:        notes,
	}
}
