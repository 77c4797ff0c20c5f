// Package stablehlo is the StableHLO dialect: stablehlo.gather,
// stablehlo.scatter, stablehlo.dynamic_slice and
// stablehlo.dynamic_update_slice as the StableHLO specification defines
// them, and as XLA (the compiler that JAX, TensorFlow's XLA bridge,
// PyTorch/XLA and GoMLX lower to) runs them on the CPU where the
// specification leaves a choice.
//
// # Operators
//
// Each has an Into form that writes into a dst you supply (GatherInto):
//
//   - stablehlo.gather: [Gather], take slices of operand at start indices, by dimension numbers dims (GatherDims).
//   - stablehlo.scatter: [Scatter], combine windows of updates into inputs at start indices, by dimension numbers dims and an update computation c (Computation).
//   - stablehlo.dynamic_slice: [DynamicSlice], take one slice of operand at a start index.
//   - stablehlo.dynamic_update_slice: [DynamicUpdateSlice], replace one slice of operand at a start index.
//
// [Ops] describes the same operators as tables for callers that run them
// by name.
//
// # Rules
//
//   - Dimension numbers are StableHLO's, checked against its constraints
//     (see engine.GatherDims and engine.ScatterDims): batching dimensions
//     of equal sizes, updates of exactly the shape the dimension numbers
//     give.
//   - Indices may be of any integer type. A start index is not an error
//     wherever it points: gather and dynamic_slice clamp it so that the
//     slice lies within operand (a negative one becomes 0), dynamic_update_slice
//     so that update does; scatter skips a window that does not lie wholly
//     within operand, as XLA does (the specification leaves it to the
//     implementation).
//   - The update computation is replace (the update), add, multiply,
//     maximum, minimum, and, or or xor; and, or and xor take bool and
//     integers only; maximum and minimum give NaN when either side is
//     NaN. For bool, add is OR and multiply AND, as StableHLO defines
//     them. float16 and bfloat16 round after every step.
//   - Duplicate start indices: windows are applied in row-major order of
//     their start indices (StableHLO leaves the order to the
//     implementation): replace keeps the last, the others accumulate in
//     that order.
//   - indices_are_sorted and unique_indices are hints that may make an
//     implementation faster and never change a result here; they are
//     accepted and not checked.
//   - There are no string tensors in StableHLO; every other element type
//     is accepted. Complex numbers have no maximum or minimum here.
//
// Every error is a *dialect.OpError naming the operator
// ("stablehlo.scatter").
package stablehlo

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// GatherDims are the dimension numbers of Gather, slice sizes included:
// the attributes of stablehlo.gather. It is engine.GatherDims, whose
// fields a caller sets (each list in increasing order unless said
// otherwise):
//
//   - OffsetDims (offset_dims): the dimensions of the result that hold
//     the slice's dimensions that remain.
//   - CollapsedSliceDims (collapsed_slice_dims): the operand dimensions,
//     of slice size 1, that the result leaves out.
//   - OperandBatchingDims (operand_batching_dims): operand dimensions, of
//     slice size 1, indexed by the position of the result along the
//     matching StartIndicesBatchingDims instead of by an index value; the
//     result leaves them out too.
//   - StartIndicesBatchingDims (start_indices_batching_dims): the
//     dimensions of startIndices that pair, in order, with
//     OperandBatchingDims.
//   - StartIndexMap (start_index_map): the operand dimension that each
//     component of a start index addresses, in the components' order.
//   - IndexVectorDim (index_vector_dim): the dimension of startIndices
//     that holds the start index vectors; rank(startIndices) for vectors
//     of one component, one per element.
//   - SliceSizes (slice_sizes): the size of the slice in every operand
//     dimension.
type GatherDims = engine.GatherDims

// ScatterDims are the dimension numbers of Scatter: the attributes of
// stablehlo.scatter. It is engine.ScatterDims, whose fields a caller sets
// (each list in increasing order unless said otherwise):
//
//   - UpdateWindowDims (update_window_dims): the dimensions of updates
//     that hold the window.
//   - InsertedWindowDims (inserted_window_dims): the operand dimensions,
//     of window size 1, that have no dimension in updates.
//   - InputBatchingDims (input_batching_dims): operand dimensions, of
//     window size 1 and without a dimension in updates, addressed by the
//     position along the matching ScatterIndicesBatchingDims instead of by
//     an index value.
//   - ScatterIndicesBatchingDims (scatter_indices_batching_dims): the
//     dimensions of scatterIndices that pair, in order, with
//     InputBatchingDims.
//   - ScatterDimsToOperandDims (scatter_dims_to_operand_dims): the operand
//     dimension that each component of a start index addresses, in the
//     components' order.
//   - IndexVectorDim (index_vector_dim): the dimension of scatterIndices
//     that holds the start index vectors; rank(scatterIndices) for vectors
//     of one component.
//
// No field gives the window's size: along the operand dimensions that are
// neither inserted nor batching dimensions, in order, it is the size of
// updates along UpdateWindowDims.
type ScatterDims = engine.ScatterDims

// Computation is a scatter's update computation, named as the StableHLO
// operation in its region is named: Replace, Add, Multiply, Maximum,
// Minimum, And, Or or Xor.
type Computation string

// The update computations.
const (
	Replace  Computation = "replace"  // the region returns the update
	Add      Computation = "add"      // stablehlo.add of the value and the update
	Multiply Computation = "multiply" // stablehlo.multiply of them
	Maximum  Computation = "maximum"  // stablehlo.maximum: NaN propagates, -0 < +0
	Minimum  Computation = "minimum"  // stablehlo.minimum: NaN propagates, -0 < +0
	And      Computation = "and"      // stablehlo.and: logical for bool, bitwise for integers
	Or       Computation = "or"       // stablehlo.or: logical for bool, bitwise for integers
	Xor      Computation = "xor"      // stablehlo.xor: logical for bool, bitwise for integers
)

// The operators' names.
const (
	opGather             = "stablehlo.gather"
	opScatter            = "stablehlo.scatter"
	opDynamicSlice       = "stablehlo.dynamic_slice"
	opDynamicUpdateSlice = "stablehlo.dynamic_update_slice"
)

// Gather returns the slices of operand that the start indices in
// startIndices select, as the dimension numbers dims say.
func Gather(operand, startIndices tensor.Tensor, dims GatherDims) (tensor.Tensor, error) {
	if err := checkGather(operand, startIndices); err != nil {
		return tensor.Tensor{}, opcall.Wrap(opGather, err)
	}
	return opcall.AllocGather(opGather, operand, startIndices, &dims, gatherOptions)
}

// GatherInto is Gather writing into dst, which has operand's type and the
// result's shape and shares no memory with the inputs.
func GatherInto(dst, operand, startIndices tensor.Tensor, dims GatherDims) error {
	err := checkGather(operand, startIndices)
	if err == nil {
		err = engine.GatherGeneral(dst, operand, startIndices, &dims, gatherOptions)
	}
	return opcall.Wrap(opGather, err)
}

// Scatter returns a copy of input into which each window of updates is
// combined by c at the start index that scatterIndices gives for it, as
// the dimension numbers dims say.
func Scatter(input, scatterIndices, updates tensor.Tensor, dims ScatterDims, c Computation) (tensor.Tensor, error) {
	return opcall.AllocLike(opScatter, input, "inputs", func(dst tensor.Tensor) error {
		return ScatterInto(dst, input, scatterIndices, updates, dims, c)
	})
}

// ScatterInto is Scatter writing into dst, which has input's type and
// shape and may be input itself, for an update in place.
func ScatterInto(dst, input, scatterIndices, updates tensor.Tensor, dims ScatterDims, c Computation) error {
	opt, err := scatterOptions(c)
	if err == nil {
		err = checkScatter(input, scatterIndices, updates)
	}
	if err == nil {
		err = engine.ScatterGeneral(dst, input, scatterIndices, updates, &dims, opt)
	}
	return opcall.Wrap(opScatter, err)
}

// DynamicSlice returns the slice of operand of the given sizes that starts
// at startIndices, one integer scalar per dimension of operand, all of one
// type; the start is clamped so that the slice lies within operand.
func DynamicSlice(operand tensor.Tensor, startIndices []tensor.Tensor, sliceSizes []int) (tensor.Tensor, error) {
	return opcall.DynamicSlice(opDynamicSlice, framework, operand, startIndices, sliceSizes, clampRules)
}

// DynamicSliceInto is DynamicSlice writing into dst, whose shape gives the
// slice sizes.
func DynamicSliceInto(dst, operand tensor.Tensor, startIndices []tensor.Tensor) error {
	return opcall.DynamicSliceInto(opDynamicSlice, framework, dst, operand, startIndices, clampRules)
}

// DynamicUpdateSlice returns a copy of operand in which the slice that
// starts at startIndices (one integer scalar per dimension, all of one
// type) is replaced by update; the start is clamped so that update lies
// within operand.
func DynamicUpdateSlice(operand, update tensor.Tensor, startIndices []tensor.Tensor) (tensor.Tensor, error) {
	return opcall.DynamicUpdateSlice(opDynamicUpdateSlice, framework, operand, update, startIndices, clampRules)
}

// DynamicUpdateSliceInto is DynamicUpdateSlice writing into dst, which has
// operand's type and shape and may be operand itself.
func DynamicUpdateSliceInto(dst, operand, update tensor.Tensor, startIndices []tensor.Tensor) error {
	return opcall.DynamicUpdateSliceInto(opDynamicUpdateSlice, framework, dst, operand, update, startIndices, clampRules)
}

// framework names StableHLO in the errors that refuse strings, which it
// has none of.
const framework = "StableHLO"

var (
	// clampRules: a start index is clamped into the operand; a negative
	// one is out of range, so clamped to 0.
	clampRules = engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeClamp}
	// skipRules: a window that does not fit is skipped.
	skipRules     = engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeSkip}
	gatherOptions = engine.GatherOptions{Rules: clampRules, Exact: true}
	// arith is StableHLO's: maximum and minimum are IEEE 754's, under
	// which NaN propagates and -0 is less than +0.
	arith = engine.Arith{MinMax: engine.MinMaxIEEE}
	// computations are the update computations and the engine's
	// reductions they are, in that order.
	computations = [...]struct {
		c Computation
		r engine.Reduction
	}{{Replace, engine.None}, {Add, engine.Add}, {Multiply, engine.Mul}, {Maximum, engine.Max},
		{Minimum, engine.Min}, {And, engine.And}, {Or, engine.Or}, {Xor, engine.Xor}}
)

// reduction returns the engine's reduction of update computation c, and
// whether c is one. A search of eight entries, not a map: a scatter call
// looks it up.
func (c Computation) reduction() (engine.Reduction, bool) {
	for _, e := range computations {
		if e.c == c {
			return e.r, true
		}
	}
	return 0, false
}

// scatterOptions returns the engine's options for update computation c.
func scatterOptions(c Computation) (engine.ScatterOptions, error) {
	r, ok := c.reduction()
	if !ok {
		return engine.ScatterOptions{}, fmt.Errorf("%w: computation %q is not one of %s",
			dialect.ErrAttribute, c, computationList)
	}
	return engine.ScatterOptions{Reduction: r, Rules: skipRules, Arith: arith, Exact: true}, nil
}

// computationList names the update computations, in the order of
// computations (a test holds the two together), for documents and errors.
const computationList = "replace, add, multiply, maximum, minimum, and, or, xor"

// gatherB and scatterB are the shared Behaviors of gather and scatter,
// whose types the typed functions check; init sets them.
var gatherB, scatterB *dialect.Behavior

// checkGather checks the inputs of a gather.
func checkGather(operand, indices tensor.Tensor) error {
	return opcall.CheckGeneral(gatherB, operand, indices, "operand", "start_indices")
}

// checkScatter checks the inputs of a scatter.
func checkScatter(input, indices, updates tensor.Tensor) error {
	if err := opcall.CheckGeneral(scatterB, input, indices, "inputs", "scatter_indices"); err != nil {
		return err
	}
	if updates.IsZero() {
		return fmt.Errorf("%w: missing input \"updates\"", dialect.ErrInput)
	}
	return nil
}
