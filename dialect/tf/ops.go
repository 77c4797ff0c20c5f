package tf

import (
	"fmt"
	"slices"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// The operator names.
const (
	opGatherND  = "tf.gather_nd"
	opGather    = "tf.gather"
	opScatterND = "tf.scatter_nd"
)

// The tables below are what the typed functions read (rules,
// scatterNDReduction, the scatterOp values), and what Behavior reports, so
// the comparison document describes what runs.

// rules are the index rules of TensorFlow's CPU kernels: a negative index
// is out of range, and out of range is an error.
var rules = engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeError}

// ndRules are rules for the ND operators, whose CPU kernels go on past a
// bad index tuple and report the last one.
var ndRules = engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeError, Report: engine.ReportLast}

// scatterNDReduction is how tf.scatter_nd combines updates: its kernel adds
// them onto zeros, strings too, which add by concatenation.
const scatterNDReduction = engine.Add

var scatterNDArith = engine.Arith{ConcatStrings: true}

// typeSet is a set of element types an input accepts, with TensorFlow's
// name for it, which its refusal quotes.
type typeSet struct {
	types dialect.TypeSet
	desc  string
}

var (
	anyType = typeSet{dialect.AnyType, "any element type"}
	// numberTypes are TensorFlow's TF_CALL_NUMBER_TYPES: the integers,
	// the floats and the complex types.
	numberTypes = typeSet{dialect.AnyType.Without(tensor.Bool, tensor.String), "numbers (integers, floats, complex)"}
	// realTypes are TF_CALL_REAL_NUMBER_TYPES: the integers and floats.
	realTypes = typeSet{dialect.IntegerTypes | dialect.FloatTypes, "real numbers (integers, floats)"}
)

// behavior returns the Behavior of an operator with index rules r, the
// index types of every operator and the data types of set, refused in
// TensorFlow's words, and notes.
func behavior(r engine.IndexRules, set typeSet, notes ...string) dialect.Behavior {
	return dialect.Behavior{
		Index:        r,
		IndexTypes:   indexTypes,
		DataTypes:    set.types,
		TypeRefusals: []dialect.Refusal{{Text: "{input} of type {type} is not supported; the operator takes " + set.desc}},
		Notes:        notes,
	}
}

// scatterOp describes one of the tf.tensor_scatter_nd_* operators.
type scatterOp struct {
	name      string
	reduction string           // what the operator does, in TensorFlow's words
	red       engine.Reduction // the same, as the engine's reduction
	types     typeSet          // the accepted element types of tensor and updates
	notes     []string
	b         *dialect.Behavior // its shared Behavior, which init sets
}

var (
	opUpdate = &scatterOp{name: "tf.tensor_scatter_nd_update", reduction: "update", red: engine.None, types: anyType,
		notes: []string{"With duplicate indices the last update in row-major index order wins."}}
	opAdd = &scatterOp{name: "tf.tensor_scatter_nd_add", reduction: "add", red: engine.Add, types: numberTypes,
		notes: []string{"Duplicate indices add one update at a time in row-major index order."}}
	opSub = &scatterOp{name: "tf.tensor_scatter_nd_sub", reduction: "sub", red: engine.Sub, types: numberTypes,
		notes: []string{"Duplicate indices subtract one update at a time in row-major index order."}}
	opMin = &scatterOp{name: "tf.tensor_scatter_nd_min", reduction: "min", red: engine.Min, types: realTypes,
		notes: []string{"Unlike the shared rule, a NaN in updates is ignored while a NaN already in tensor stays (the CPU kernel uses std::min)."}}
	opMax = &scatterOp{name: "tf.tensor_scatter_nd_max", reduction: "max", red: engine.Max, types: realTypes,
		notes: []string{"Unlike the shared rule, a NaN in updates is ignored while a NaN already in tensor stays (the CPU kernel uses std::max)."}}
	scatterOps = []*scatterOp{opUpdate, opAdd, opSub, opMin, opMax}
)

// indexTypes are the index types of every operator.
var indexTypes = dialect.Types(tensor.Int32, tensor.Int64)

// The shared Behaviors of gather_nd, gather and scatter_nd, which init
// sets and the typed functions read.
var gatherNDB, gatherB, scatterNDB *dialect.Behavior

// scatterNotes are the rules every scatter shares.
var scatterNotes = []string{
	"Negative and out-of-range indices are errors, as on TensorFlow's CPU kernels.",
	"indices must have rank >= 2 and 1 <= indices.shape[-1] <= 7 whenever the output has elements.",
}

// tensorScatterArith is the arithmetic of the tensor scatters: _min and
// _max compare with std::min and std::max, as the CPU kernels do.
var tensorScatterArith = engine.Arith{MinMax: engine.MinMaxStd}

func (op *scatterOp) behavior(int) dialect.Behavior {
	b := behavior(ndRules, op.types, append(slices.Clone(scatterNotes), op.notes...)...)
	b.Arith, b.Reductions = tensorScatterArith, map[string]engine.Reduction{op.reduction: op.red}
	return b
}

func scatterNDBehavior(int) dialect.Behavior {
	b := behavior(ndRules, anyType, append(slices.Clone(scatterNotes),
		"The output starts as zeros of the given shape.",
		"Duplicate indices are summed in row-major index order; bools are OR-ed.",
		"shape may be int32 or int64 whatever the type of indices (TensorFlow wants the same type).")...)
	b.Arith, b.Reductions = scatterNDArith, map[string]engine.Reduction{"add": scatterNDReduction}
	return b
}

func gatherNDBehavior(int) dialect.Behavior {
	return behavior(ndRules, anyType,
		"Negative and out-of-range indices are errors, as on TensorFlow's CPU kernel.",
		"indices.shape[-1] may be 0: each empty tuple selects all of params.",
		"With batch_dims > 0, indices' batch dimensions need only hold as many elements as params' (TensorFlow reshapes them).",
		"Indices are checked only when there is at least one index tuple.")
}

func gatherBehavior(int) dialect.Behavior {
	return behavior(rules, anyType,
		"Negative and out-of-range indices are errors, as on TensorFlow's CPU kernel; the error names the first bad index.",
		"axis defaults to batch_dims (TensorFlow's axis=None); with axis 0, batch_dims is ignored, as tf.gather ignores it.",
		"Indices are checked only when the output has elements.")
}

var batchDimsAttr = dialect.Attr{Name: "batch_dims", Role: dialect.RoleBatchDims, Kind: dialect.Int, Default: "0",
	Doc: "the number of leading batch dimensions shared by params and indices"}

// ops is built by init, after the scatterOp values it reads.
var ops []*dialect.Op

func init() {
	params := dialect.Param{Name: "params", Role: dialect.RoleData, Doc: "the tensor to gather from, of rank >= 1"}
	indices := func(doc string) dialect.Param {
		return dialect.Param{Name: "indices", Role: dialect.RoleIndices, Doc: doc}
	}
	ops = []*dialect.Op{
		{
			Name:     opGatherND,
			Family:   "gather_nd",
			Summary:  "take elements or slices of params at index tuples",
			Behavior: gatherNDBehavior,
			Inputs:   []dialect.Param{params, indices("index tuples in the last dimension")},
			Attrs:    []dialect.Attr{batchDimsAttr},
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return GatherND(c.Inputs["params"], c.Inputs["indices"], int(c.Attrs["batch_dims"].Int))
			},
		},
		{
			Name:     opGather,
			Family:   "gather",
			Summary:  "take slices of params along an axis",
			Behavior: gatherBehavior,
			Inputs:   []dialect.Param{params, indices("positions along axis, of any rank")},
			Attrs: []dialect.Attr{
				{Name: "axis", Role: dialect.RoleAxis, Kind: dialect.Int, Doc: "the axis of params, negative from the end; defaults to batch_dims"},
				batchDimsAttr,
			},
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				batchDims := int(c.Attrs["batch_dims"].Int)
				axis := batchDims
				if a, ok := c.Attrs["axis"]; ok {
					axis = int(a.Int)
				}
				return Gather(c.Inputs["params"], c.Inputs["indices"], axis, batchDims)
			},
		},
		{
			Name:     opScatterND,
			Family:   "scatter_nd",
			Summary:  "scatter updates into a zero tensor of a given shape, summing duplicates",
			Behavior: scatterNDBehavior,
			Inputs: []dialect.Param{
				indices("index tuples in the last dimension, rank >= 2"),
				{Name: "updates", Role: dialect.RoleUpdates, Doc: "the values to add, shaped indices.shape[:-1] + shape[indices.shape[-1]:]"},
				{Name: "shape", Role: dialect.RoleShape, Types: "int32 or int64, 1-D", AttrKind: dialect.Ints, Doc: "the output shape"},
			},
			Eval: opcall.ShapeScatterEval(opScatterND, ScatterND),
		},
	}
	for _, op := range scatterOps {
		ops = append(ops, &dialect.Op{
			Name:     op.name,
			Family:   "scatter_nd",
			Summary:  fmt.Sprintf("%s updates into a copy of tensor at index tuples", summaries[op.reduction]),
			Behavior: op.behavior,
			Inputs: []dialect.Param{
				{Name: "tensor", Role: dialect.RoleData, Doc: "the tensor to copy and update, of rank >= 1"},
				indices("index tuples in the last dimension, rank >= 2"),
				{Name: "updates", Role: dialect.RoleUpdates, Types: "tensor's type", Doc: "shaped indices.shape[:-1] + tensor.shape[indices.shape[-1]:]"},
			},
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return tensorScatter(op, c.Inputs["tensor"], c.Inputs["indices"], c.Inputs["updates"])
			},
		})
	}
	ops = append(ops, sortedSegmentOps()...)
	ops = append(ops, unsortedTable()...)
	ops = append(ops, scatterV1Ops()...)
	ops = append(ops, bincountOps()...)
	opcall.Unversioned("output", ops)
}

func init() {
	gatherNDB, gatherB, scatterNDB = opcall.SharedOf(ops, opGatherND), opcall.SharedOf(ops, opGather), opcall.SharedOf(ops, opScatterND)
	for _, op := range scatterOps {
		op.b = opcall.SharedOf(ops, op.name)
	}
	for _, op := range segmentOps {
		op.b = opcall.SharedOf(ops, op.name)
	}
	for _, op := range unsortedOps {
		op.b = opcall.SharedOf(ops, op.name)
	}
	setV1Behaviors(ops)
	bincountB = opcall.SharedOf(ops, opBincount)
}

var summaries = map[string]string{
	"update": "write", "add": "add", "sub": "subtract", "min": "take the minimum with", "max": "take the maximum with",
}

// Ops returns the dialect's operators, for generic callers such as the
// command line: tf.gather_nd, tf.gather, tf.scatter_nd,
// tf.tensor_scatter_nd_update, _add, _sub, _min and _max, and
// tf.math.segment_sum, _prod, _min, _max and _mean, and
// tf.math.unsorted_segment_sum, _prod, _max, _min, _mean and _sqrt_n
// (num_segments may come as an attribute), each with the single version 1.
func Ops() []*dialect.Op { return ops }
