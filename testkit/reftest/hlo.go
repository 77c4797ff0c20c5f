package reftest

import (
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// This file holds StableHLO's gather and scatter in their general form,
// with dimension numbers, written from the specification's text
// (stablehlo/docs/spec.md, "gather" and "scatter"): each result or update
// element is placed by the formulas of its "Semantics" section, one
// coordinate at a time, with the spec's names. Every constraint (C1...)
// of the spec is checked first. What XLA and JAX add to the spec is a
// parameter: what happens to a slice or window that does not fit in the
// operand (GatherMode, ScatterMode).

// GatherMode says what a gather does with a start index whose slice does
// not fit in the operand.
type GatherMode uint8

const (
	// GatherClamp moves the slice back inside the operand: each start index
	// is clamped to [0, dim - slice size], as the spec says (XLA; JAX's
	// clip and promise_in_bounds).
	GatherClamp GatherMode = iota
	// GatherFill gives the fill value for every element of a slice of
	// which any part lies outside the operand (JAX's fill).
	GatherFill
)

// ScatterMode says what a scatter does with an update that would land
// outside the input.
type ScatterMode uint8

const (
	// ScatterSkipWindow drops the whole update window of a start index
	// when any part of the window lies outside the input (XLA; JAX's
	// fill/drop and promise_in_bounds).
	ScatterSkipWindow ScatterMode = iota
	// ScatterSkipElement drops only the update elements that land outside,
	// as the spec's text reads and its interpreter does.
	ScatterSkipElement
	// ScatterClamp moves the window back inside: each start index is
	// clamped to [0, dim - window size] (JAX's clip).
	ScatterClamp
)

// Computation is a scatter's update computation: what an element ends
// with given its current value and an update.
type Computation uint8

// The update computations. On bool elements add and maximum are OR,
// multiply and minimum AND; subtract takes no bool (StableHLO's subtract
// and JAX's lax.sub take numbers only). Integers wrap. Floating-point maximum and
// minimum are IEEE 754's: NaN if either side is NaN (the current value's
// NaN when both are), and -0 < +0. Complex maximum and minimum compare
// the (real, imaginary) pairs lexicographically, the update winning ties
// and NaN comparisons, as StableHLO's interpreter does. And, or and xor
// are for bool and integer elements only. float16 and bfloat16 compute in
// float32 and round once, which for one sum or product of two of them is
// the correctly rounded result.
const (
	ComputeReplace  Computation = iota // the update
	ComputeAdd                         // current + update
	ComputeMultiply                    // current * update
	ComputeMaximum                     // the larger
	ComputeMinimum                     // the smaller
	ComputeAnd                         // current & update
	ComputeOr                          // current | update
	ComputeXor                         // current ^ update
	ComputeSubtract                    // current - update (jax.lax.scatter_sub)
)

var computationNames = [...]string{"replace", "add", "multiply", "maximum", "minimum", "and", "or", "xor", "subtract"}

// String returns the computation's name as StableHLO's operations spell
// it ("replace" for a region that returns the update).
func (c Computation) String() string {
	if int(c) < len(computationNames) {
		return computationNames[c]
	}
	return fmt.Sprintf("computation(%d)", uint8(c))
}

// ParseComputation returns the computation String names name.
func ParseComputation(name string) (Computation, error) {
	if i := slices.Index(computationNames[:], name); i >= 0 {
		return Computation(i), nil
	}
	return 0, fmt.Errorf("reftest: %w: unknown update computation %q", engine.ErrArgument, name)
}

// HLOGather returns the slices of operand that start_indices select, as
// StableHLO's gather defines them, with mode deciding what a slice that
// does not fit does. fill is GatherFill's value, of operand's element
// type; nil stands for JAX's default (JAXFill). Errors: ErrType for
// start indices that are not integers or a fill of another type;
// ErrArgument and ErrShape for dimension numbers that break a constraint
// of the spec (dimension lists out of range, repeated or unsorted:
// ErrArgument; sizes that disagree with the shapes: ErrShape); the
// message names the constraint. Beyond the spec, which allows a slice
// size of 0 along a collapsed dimension, a result element that would then
// be read from outside the operand is an ErrArgument error: the spec
// gives it no value.
func HLOGather(operand, startIndices tensor.Tensor, dims engine.GatherDims, mode GatherMode, fill any) (tensor.Tensor, error) {
	if err := checkIndexType(startIndices); err != nil {
		return tensor.Tensor{}, err
	}
	if mode == GatherFill {
		if fill == nil {
			fill = JAXFill(operand.DType())
		}
		if !sameType(fill, zero(operand.DType())) {
			return tensor.Tensor{}, fmt.Errorf("reftest: %w: fill value %v (%T) for %v elements", engine.ErrType, fill, fill, operand.DType())
		}
	}
	ops, sis := operand.Shape(), startIndices.Shape()
	resultShape, err := checkGather(dims, ops, sis)
	if err != nil {
		return tensor.Tensor{}, err
	}
	if err := tensor.CheckSize(operand.DType(), resultShape); err != nil {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: %v", engine.ErrShape, err)
	}
	ivd := dims.IndexVectorDim
	// batch_dims = [d for d in axes(result) and d not in offset_dims].
	var batchDims []int
	for d := range resultShape {
		if !slices.Contains(dims.OffsetDims, d) {
			batchDims = append(batchDims, d)
		}
	}
	out := make([]any, tensortest.Count(resultShape))
	empty := false
	each(resultShape, func(resultIndex []int) {
		batchIndex := pick(resultIndex, batchDims)
		startIndex := indexVector(startIndices, batchIndex, ivd)
		fullStartIndex := make([]int, len(ops))
		outside := false
		for dStart, dOperand := range dims.StartIndexMap {
			// A collapsed dimension's slice takes one element whatever its
			// size (the spec allows 0, which would read past the end of
			// the dimension): in an empty dimension it fits nowhere.
			size := dims.SliceSizes[dOperand]
			if slices.Contains(dims.CollapsedSliceDims, dOperand) {
				size = 1
			}
			hi := int64(ops[dOperand] - size)
			v := startIndex[dStart]
			outside = outside || v < 0 || v > hi
			if hi < 0 && mode == GatherClamp {
				empty = true // no start index fits
				return
			}
			fullStartIndex[dOperand] = int(min(max(v, 0), hi))
		}
		if mode == GatherFill && outside {
			out[resultShape.Offset(resultIndex)] = fill
			return
		}
		fullBatchingIndex := make([]int, len(ops))
		for i, dOperand := range dims.OperandBatchingDims {
			dStart := dims.StartIndicesBatchingDims[i]
			if dStart >= ivd {
				dStart--
			}
			fullBatchingIndex[dOperand] = batchIndex[dStart]
		}
		offsetIndex := pick(resultIndex, dims.OffsetDims)
		fullOffsetIndex := spread(offsetIndex, len(ops), dims.CollapsedSliceDims, dims.OperandBatchingDims)
		operandIndex := make([]int, len(ops))
		for d := range operandIndex {
			operandIndex[d] = fullStartIndex[d] + fullBatchingIndex[d] + fullOffsetIndex[d]
		}
		out[resultShape.Offset(resultIndex)] = operand.At(ops.Offset(operandIndex))
	})
	if empty {
		return tensor.Tensor{}, &IndexError{}
	}
	return build(operand.DType(), resultShape, out), nil
}

// checkGather checks the constraints C1-C21 of gather on an operand of shape
// ops and start indices of shape sis, and returns the result's shape
// (C22).
func checkGather(g engine.GatherDims, ops, sis tensor.Shape) (tensor.Shape, error) {
	ivd := g.IndexVectorDim
	rank := len(ops)
	var batchDimSizes tensor.Shape // shape(start_indices) without index_vector_dim
	for d, n := range sis {
		if d != ivd {
			batchDimSizes = append(batchDimSizes, n)
		}
	}
	resultRank := len(batchDimSizes) + len(g.OffsetDims)
	vectorSize := 1
	if ivd >= 0 && ivd < len(sis) {
		vectorSize = sis[ivd]
	}
	checks := []constraint{
		{"C2", engine.ErrArgument, ivd >= 0 && ivd <= len(sis), "index_vector_dim %d for start_indices of rank %d", []any{ivd, len(sis)}},
		{"C1", engine.ErrShape, rank == len(g.OffsetDims)+len(g.CollapsedSliceDims)+len(g.OperandBatchingDims),
			"operand of rank %d for %d offset, %d collapsed and %d batching dims",
			[]any{rank, len(g.OffsetDims), len(g.CollapsedSliceDims), len(g.OperandBatchingDims)}},
		{"C3", engine.ErrShape, len(g.StartIndexMap) == vectorSize, "start_index_map %v for index vectors of %d components",
			[]any{g.StartIndexMap, vectorSize}},
		{"C4", engine.ErrArgument, uniqueSorted(g.OffsetDims), "offset_dims %v must be sorted and unique", []any{g.OffsetDims}},
		{"C5", engine.ErrArgument, dimsIn(g.OffsetDims, resultRank), "offset_dims %v for a result of rank %d", []any{g.OffsetDims, resultRank}},
		{"C6", engine.ErrArgument, unique(g.CollapsedSliceDims, g.OperandBatchingDims),
			"collapsed_slice_dims %v and operand_batching_dims %v must be unique", []any{g.CollapsedSliceDims, g.OperandBatchingDims}},
		{"C7", engine.ErrArgument, slices.IsSorted(g.CollapsedSliceDims), "collapsed_slice_dims %v must be sorted", []any{g.CollapsedSliceDims}},
		{"C8", engine.ErrArgument, dimsIn(g.CollapsedSliceDims, rank), "collapsed_slice_dims %v for an operand of rank %d",
			[]any{g.CollapsedSliceDims, rank}},
		{"C10", engine.ErrArgument, slices.IsSorted(g.OperandBatchingDims), "operand_batching_dims %v must be sorted", []any{g.OperandBatchingDims}},
		{"C11", engine.ErrArgument, dimsIn(g.OperandBatchingDims, rank), "operand_batching_dims %v for an operand of rank %d",
			[]any{g.OperandBatchingDims, rank}},
		{"C13", engine.ErrArgument, unique(g.StartIndicesBatchingDims), "start_indices_batching_dims %v must be unique",
			[]any{g.StartIndicesBatchingDims}},
		{"C14", engine.ErrArgument, dimsIn(g.StartIndicesBatchingDims, len(sis)), "start_indices_batching_dims %v for start_indices of rank %d",
			[]any{g.StartIndicesBatchingDims, len(sis)}},
		{"C15", engine.ErrArgument, !slices.Contains(g.StartIndicesBatchingDims, ivd), "index_vector_dim %d is in start_indices_batching_dims %v",
			[]any{ivd, g.StartIndicesBatchingDims}},
		{"C16", engine.ErrArgument, len(g.OperandBatchingDims) == len(g.StartIndicesBatchingDims),
			"operand_batching_dims %v and start_indices_batching_dims %v differ in length", []any{g.OperandBatchingDims, g.StartIndicesBatchingDims}},
		{"C18", engine.ErrArgument, unique(g.StartIndexMap, g.OperandBatchingDims),
			"start_index_map %v and operand_batching_dims %v must be unique", []any{g.StartIndexMap, g.OperandBatchingDims}},
		{"C19", engine.ErrArgument, dimsIn(g.StartIndexMap, rank), "start_index_map %v for an operand of rank %d", []any{g.StartIndexMap, rank}},
		{"C20", engine.ErrShape, len(g.SliceSizes) == rank, "%d slice_sizes for an operand of rank %d", []any{len(g.SliceSizes), rank}},
	}
	if err := firstBroken(checks); err != nil {
		return nil, err
	}
	// With C20 and the ranges checked, slice_sizes may be indexed.
	checks = []constraint{
		{"C17", engine.ErrShape, dimsMatch(ops, g.OperandBatchingDims, sis, g.StartIndicesBatchingDims),
			"operand %v and start_indices %v differ along the batching dims", []any{ops, sis}},
		{"C9", engine.ErrArgument, atMostOne(g.SliceSizes, g.CollapsedSliceDims), "slice_sizes %v along collapsed_slice_dims %v must be <= 1",
			[]any{g.SliceSizes, g.CollapsedSliceDims}},
		{"C12", engine.ErrArgument, atMostOne(g.SliceSizes, g.OperandBatchingDims), "slice_sizes %v along operand_batching_dims %v must be <= 1",
			[]any{g.SliceSizes, g.OperandBatchingDims}},
		{"C21", engine.ErrArgument, !slices.ContainsFunc(g.SliceSizes, func(s int) bool { return s < 0 }), "slice_sizes %v must not be negative",
			[]any{g.SliceSizes}},
		{"C21", engine.ErrShape, fits(g.SliceSizes, ops), "slice_sizes %v for an operand of shape %v", []any{g.SliceSizes, ops}},
	}
	if err := firstBroken(checks); err != nil {
		return nil, err
	}
	// C22: offset_dim_sizes are the slice sizes of the dims neither
	// collapsed nor batching, in order, placed at offset_dims; the batch
	// dim sizes fill the other axes.
	offsetDimSizes := pick(g.SliceSizes, complement(rank, g.CollapsedSliceDims, g.OperandBatchingDims))
	result := make(tensor.Shape, resultRank)
	o, b := 0, 0
	for d := range result {
		if slices.Contains(g.OffsetDims, d) {
			result[d], o = offsetDimSizes[o], o+1
		} else {
			result[d], b = batchDimSizes[b], b+1
		}
	}
	return result, nil
}

// HLOScatter returns input with the elements of updates combined into the
// places that scatter_indices give, as StableHLO's scatter defines it,
// window by window in row-major order of their scatter indices, each
// window in row-major order; mode decides what an update that would
// land outside does. Errors: ErrType for indices that are not integers,
// updates of another element type than input (C6) or a computation the
// type has no meaning for (C23); ErrArgument and ErrShape for dimension
// numbers that break a constraint of the spec, as HLOGather's.
func HLOScatter(input, scatterIndices, updates tensor.Tensor, dims engine.ScatterDims, comp Computation, mode ScatterMode) (tensor.Tensor, error) {
	if err := checkIndexType(scatterIndices); err != nil {
		return tensor.Tensor{}, err
	}
	if input.DType() != updates.DType() {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: (C6) updates of type %v for inputs of type %v", engine.ErrType, updates.DType(), input.DType())
	}
	if err := checkComputation(comp, input.DType()); err != nil {
		return tensor.Tensor{}, err
	}
	if mode > ScatterClamp {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: unknown scatter mode %d", engine.ErrArgument, mode)
	}
	ins, sis, ups := input.Shape(), scatterIndices.Shape(), updates.Shape()
	windowSize, err := checkScatter(dims, ins, sis, ups)
	if err != nil {
		return tensor.Tensor{}, err
	}
	ivd := dims.IndexVectorDim
	// update_scatter_dims = [d for d in axes(updates[0]) and d not in update_window_dims].
	var updateScatterDims []int
	for d := range ups {
		if !slices.Contains(dims.UpdateWindowDims, d) {
			updateScatterDims = append(updateScatterDims, d)
		}
	}
	results := make([]any, input.Len())
	for i := range results {
		results[i] = input.At(i)
	}
	// The schedule, which the spec leaves to the implementation: windows
	// in row-major order of their scatter index, each window's elements in
	// row-major order, as XLA's loop over the scatter indices applies
	// them (and the engine promises).
	order := append(slices.Clone(updateScatterDims), dims.UpdateWindowDims...)
	each(tensor.Shape(pick(ups, order)), func(c []int) {
		updateIndex := make([]int, len(ups))
		for i, d := range order {
			updateIndex[d] = c[i]
		}
		updateScatterIndex := pick(updateIndex, updateScatterDims)
		startIndex := indexVector(scatterIndices, updateScatterIndex, ivd)
		fullStartIndex := make([]int64, len(ins))
		for dStart, dInput := range dims.ScatterDimsToOperandDims {
			// Values beyond the dimension are all equally outside; bounding
			// them keeps the sums below from overflowing.
			v := min(max(startIndex[dStart], -1<<62), 1<<62)
			if mode == ScatterClamp {
				v = min(max(v, 0), int64(ins[dInput]-windowSize[dInput]))
			}
			fullStartIndex[dInput] = v
		}
		fullBatchingIndex := make([]int64, len(ins))
		for i, dInput := range dims.InputBatchingDims {
			dStart := dims.ScatterIndicesBatchingDims[i]
			if dStart >= ivd {
				dStart--
			}
			fullBatchingIndex[dInput] = int64(updateScatterIndex[dStart])
		}
		updateWindowIndex := pick(updateIndex, dims.UpdateWindowDims)
		fullWindowIndex := spread(updateWindowIndex, len(ins), dims.InsertedWindowDims, dims.InputBatchingDims)
		resultIndex := make([]int, len(ins))
		for d := range resultIndex {
			start := fullStartIndex[d] + fullBatchingIndex[d]
			if mode == ScatterSkipWindow && (start < 0 || start > int64(ins[d]-windowSize[d])) {
				return // the window does not fit: none of it is applied
			}
			r := start + int64(fullWindowIndex[d])
			if r < 0 || r >= int64(ins[d]) {
				return // this element lands outside
			}
			resultIndex[d] = int(r)
		}
		at := ins.Offset(resultIndex)
		results[at] = compute(comp, input.DType(), results[at], updates.At(ups.Offset(updateIndex)))
	})
	return build(input.DType(), ins, results), nil
}

// checkScatter checks the constraints C2, C4 and C7-C22 of scatter on inputs of
// shape ins, indices of shape sis and updates of shape ups, and returns
// the window's size along each input dimension: the updates' size along
// the matching update_window_dims, 1 along inserted and batching dims.
func checkScatter(s engine.ScatterDims, ins, sis, ups tensor.Shape) ([]int, error) {
	ivd := s.IndexVectorDim
	rank := len(ins)
	var scatterDimSizes tensor.Shape // shape(scatter_indices) without index_vector_dim
	for d, n := range sis {
		if d != ivd {
			scatterDimSizes = append(scatterDimSizes, n)
		}
	}
	vectorSize := 1
	if ivd >= 0 && ivd < len(sis) {
		vectorSize = sis[ivd]
	}
	checks := []constraint{
		{"C22", engine.ErrArgument, ivd >= 0 && ivd <= len(sis), "index_vector_dim %d for scatter_indices of rank %d", []any{ivd, len(sis)}},
		{"C2", engine.ErrShape, rank == len(s.UpdateWindowDims)+len(s.InsertedWindowDims)+len(s.InputBatchingDims),
			"inputs of rank %d for %d update window, %d inserted window and %d batching dims",
			[]any{rank, len(s.UpdateWindowDims), len(s.InsertedWindowDims), len(s.InputBatchingDims)}},
		{"C7", engine.ErrArgument, uniqueSorted(s.UpdateWindowDims), "update_window_dims %v must be sorted and unique", []any{s.UpdateWindowDims}},
		{"C8", engine.ErrArgument, dimsIn(s.UpdateWindowDims, len(ups)), "update_window_dims %v for updates of rank %d",
			[]any{s.UpdateWindowDims, len(ups)}},
		{"C9", engine.ErrArgument, unique(s.InsertedWindowDims, s.InputBatchingDims),
			"inserted_window_dims %v and input_batching_dims %v must be unique", []any{s.InsertedWindowDims, s.InputBatchingDims}},
		{"C10", engine.ErrArgument, slices.IsSorted(s.InsertedWindowDims), "inserted_window_dims %v must be sorted", []any{s.InsertedWindowDims}},
		{"C11", engine.ErrArgument, dimsIn(s.InsertedWindowDims, rank), "inserted_window_dims %v for inputs of rank %d",
			[]any{s.InsertedWindowDims, rank}},
		{"C12", engine.ErrArgument, slices.IsSorted(s.InputBatchingDims), "input_batching_dims %v must be sorted", []any{s.InputBatchingDims}},
		{"C13", engine.ErrArgument, dimsIn(s.InputBatchingDims, rank), "input_batching_dims %v for inputs of rank %d",
			[]any{s.InputBatchingDims, rank}},
		{"C14", engine.ErrArgument, unique(s.ScatterIndicesBatchingDims), "scatter_indices_batching_dims %v must be unique",
			[]any{s.ScatterIndicesBatchingDims}},
		{"C15", engine.ErrArgument, dimsIn(s.ScatterIndicesBatchingDims, len(sis)), "scatter_indices_batching_dims %v for scatter_indices of rank %d",
			[]any{s.ScatterIndicesBatchingDims, len(sis)}},
		{"C16", engine.ErrArgument, !slices.Contains(s.ScatterIndicesBatchingDims, ivd),
			"index_vector_dim %d is in scatter_indices_batching_dims %v", []any{ivd, s.ScatterIndicesBatchingDims}},
		{"C17", engine.ErrArgument, len(s.InputBatchingDims) == len(s.ScatterIndicesBatchingDims),
			"input_batching_dims %v and scatter_indices_batching_dims %v differ in length",
			[]any{s.InputBatchingDims, s.ScatterIndicesBatchingDims}},
		{"C19", engine.ErrShape, len(s.ScatterDimsToOperandDims) == vectorSize,
			"scatter_dims_to_operand_dims %v for index vectors of %d components", []any{s.ScatterDimsToOperandDims, vectorSize}},
		{"C20", engine.ErrArgument, unique(s.ScatterDimsToOperandDims, s.InputBatchingDims),
			"scatter_dims_to_operand_dims %v and input_batching_dims %v must be unique",
			[]any{s.ScatterDimsToOperandDims, s.InputBatchingDims}},
		{"C21", engine.ErrArgument, dimsIn(s.ScatterDimsToOperandDims, rank), "scatter_dims_to_operand_dims %v for inputs of rank %d",
			[]any{s.ScatterDimsToOperandDims, rank}},
		{"C4", engine.ErrShape, len(ups) == len(scatterDimSizes)+len(s.UpdateWindowDims),
			"updates of rank %d for %d scatter dims and %d update_window_dims", []any{len(ups), len(scatterDimSizes), len(s.UpdateWindowDims)}},
	}
	if err := firstBroken(checks); err != nil {
		return nil, err
	}
	// C4: the update scatter dims have the sizes of scatter_indices'
	// dims, the window dims at most the sizes of the input's dims that
	// are neither inserted nor batching, in order.
	var updateScatterDimSizes tensor.Shape
	for d, n := range ups {
		if !slices.Contains(s.UpdateWindowDims, d) {
			updateScatterDimSizes = append(updateScatterDimSizes, n)
		}
	}
	windowDims := complement(rank, s.InsertedWindowDims, s.InputBatchingDims)
	windowSize := make([]int, rank)
	for d := range windowSize {
		windowSize[d] = 1
	}
	for k, d := range windowDims {
		windowSize[d] = ups[s.UpdateWindowDims[k]]
	}
	checks = []constraint{
		{"C4", engine.ErrShape, updateScatterDimSizes.Equal(scatterDimSizes),
			"updates %v: its scatter dims %v differ from scatter_indices %v without index_vector_dim", []any{ups, updateScatterDimSizes, sis}},
		{"C4", engine.ErrShape, fits(pick(windowSize, windowDims), pick(ins, windowDims)),
			"updates %v: its window dims %v exceed inputs %v", []any{ups, s.UpdateWindowDims, ins}},
		{"C18", engine.ErrShape, dimsMatch(ins, s.InputBatchingDims, sis, s.ScatterIndicesBatchingDims),
			"inputs %v and scatter_indices %v differ along the batching dims", []any{ins, sis}},
	}
	return windowSize, firstBroken(checks)
}

// constraint is one constraint of the spec: its label, the error class
// it breaks, whether it holds, and the message of its error.
type constraint struct {
	label string
	class error
	holds bool
	msg   string
	args  []any
}

// firstBroken returns the error of the first constraint that does not
// hold, or nil.
func firstBroken(cs []constraint) error {
	for _, c := range cs {
		if !c.holds {
			return fmt.Errorf("reftest: %w: (%s) %s", c.class, c.label, fmt.Sprintf(c.msg, c.args...))
		}
	}
	return nil
}

// unique reports whether the concatenation of lists holds no value twice.
func unique(lists ...[]int) bool {
	all := slices.Concat(lists...)
	slices.Sort(all)
	return len(slices.Compact(all)) == len(all)
}

func uniqueSorted(l []int) bool { return slices.IsSorted(l) && unique(l) }

// dimsIn reports whether every value of l is in [0, n).
func dimsIn(l []int, n int) bool {
	return !slices.ContainsFunc(l, func(d int) bool { return d < 0 || d >= n })
}

// atMostOne reports whether sizes[d] <= 1 for every d of at.
func atMostOne(sizes, at []int) bool {
	return !slices.ContainsFunc(at, func(d int) bool { return sizes[d] > 1 })
}

// fits reports whether sizes[d] <= shape[d] for every d.
func fits(sizes []int, shape tensor.Shape) bool {
	for d, n := range sizes {
		if n > shape[d] {
			return false
		}
	}
	return true
}

// dimsMatch reports whether a[ad[i]] == b[bd[i]] for every i.
func dimsMatch(a tensor.Shape, ad []int, b tensor.Shape, bd []int) bool {
	for i := range ad {
		if a[ad[i]] != b[bd[i]] {
			return false
		}
	}
	return true
}

// pick returns [c[d] for d in dims].
func pick(c []int, dims []int) []int {
	out := make([]int, len(dims))
	for i, d := range dims {
		out[i] = c[d]
	}
	return out
}

// complement returns the dims of [0, rank) in none of lists, in order.
func complement(rank int, lists ...[]int) []int {
	var out []int
	for d := range rank {
		if !slices.ContainsFunc(lists, func(l []int) bool { return slices.Contains(l, d) }) {
			out = append(out, d)
		}
	}
	return out
}

// spread returns the index of rank dims holding the values of idx in
// order, with 0 inserted at the dims of zeros (the spec's
// full_offset_index and full_window_index).
func spread(idx []int, rank int, zeros ...[]int) []int {
	out := make([]int, rank)
	for i, d := range complement(rank, zeros...) {
		out[d] = idx[i]
	}
	return out
}

// indexVector returns the start index that batch (the coordinates of
// indices without index_vector_dim) selects: indices[b0, ..., :, ...,
// bN] with ':' at ivd, or [indices[batch]] when ivd is rank(indices).
// uint64 values above the int64 range read as MaxInt64.
func indexVector(indices tensor.Tensor, batch []int, ivd int) []int64 {
	is := indices.Shape()
	if ivd == len(is) {
		return []int64{indexValue(indices, is.Offset(batch))}
	}
	out := make([]int64, is[ivd])
	for k := range out {
		c := slices.Insert(slices.Clone(batch), ivd, k)
		out[k] = indexValue(indices, is.Offset(c))
	}
	return out
}

// JAXFill returns JAX's default fill value of a gather in fill mode for
// elements of type d: NaN for floating-point and complex types (a
// complex one is NaN+0i: JAX converts Python's nan to the complex type, as
// NumPy does), the smallest value for signed integers, the largest for
// unsigned ones, true for bool; "" for strings.
func JAXFill(d tensor.DType) any {
	switch d {
	case tensor.Bool:
		return true
	case tensor.Int8:
		return int8(math.MinInt8)
	case tensor.Int16:
		return int16(math.MinInt16)
	case tensor.Int32:
		return int32(math.MinInt32)
	case tensor.Int64:
		return int64(math.MinInt64)
	case tensor.Uint8:
		return uint8(math.MaxUint8)
	case tensor.Uint16:
		return uint16(math.MaxUint16)
	case tensor.Uint32:
		return uint32(math.MaxUint32)
	case tensor.Uint64:
		return uint64(math.MaxUint64)
	case tensor.Float32:
		return float32(math.NaN())
	case tensor.Float64:
		return math.NaN()
	case tensor.Float16, tensor.BFloat16:
		return narrow(d, float32(math.NaN()))
	case tensor.Complex64:
		return complex(float32(math.NaN()), 0)
	case tensor.Complex128:
		return complex(math.NaN(), 0)
	}
	return zero(d)
}

// checkComputation fails (ErrType) when comp has no meaning for elements
// of type d (C23: the update computation must take and return them).
func checkComputation(comp Computation, d tensor.DType) error {
	switch {
	case comp > ComputeSubtract:
		return fmt.Errorf("reftest: %w: unknown update computation %v", engine.ErrArgument, comp)
	case comp == ComputeReplace:
		return nil
	case d == tensor.String,
		comp >= ComputeAnd && comp <= ComputeXor && d != tensor.Bool && !d.IsInteger(),
		comp == ComputeSubtract && d == tensor.Bool:
		return fmt.Errorf("reftest: %w: (C23) update computation %v on %v elements", engine.ErrType, comp, d)
	}
	return nil
}

// compute returns what an element holding v ends with after the update u.
func compute(comp Computation, d tensor.DType, v, u any) any {
	switch comp {
	case ComputeReplace:
		return u
	case ComputeMaximum, ComputeMinimum:
		return minMax(comp == ComputeMaximum, d, v, u)
	}
	switch x := v.(type) {
	case bool:
		// add is or, multiply and; the rest (subtract, xor) is xor.
		return logical(x, u.(bool), comp == ComputeAdd || comp == ComputeOr, comp == ComputeMultiply || comp == ComputeAnd)
	case complex64:
		return numCompute(comp, x, u.(complex64))
	case complex128:
		return numCompute(comp, x, u.(complex128))
	case float32:
		return numCompute(comp, x, u.(float32))
	case float64:
		return numCompute(comp, x, u.(float64))
	}
	if d == tensor.Float16 || d == tensor.BFloat16 {
		return narrow(d, numCompute(comp, widen(v), widen(u)))
	}
	return intCompute(comp, v, u)
}

// numCompute is add, multiply or subtract of two numbers.
func numCompute[T float32 | float64 | complex64 | complex128](comp Computation, v, u T) T {
	switch comp {
	case ComputeMultiply:
		return v * u
	case ComputeSubtract:
		return v - u
	}
	return v + u
}

// intCompute is add, multiply, subtract, and, or or xor of two integers, in uint64
// arithmetic, whose low bits wrap as the integer type's do.
func intCompute(comp Computation, v, u any) any {
	x, y := uint64(intOf(v)), uint64(intOf(u))
	var r uint64
	switch comp {
	case ComputeAdd:
		r = x + y
	case ComputeMultiply:
		r = x * y
	case ComputeSubtract:
		r = x - y
	case ComputeAnd:
		r = x & y
	case ComputeOr:
		r = x | y
	default:
		r = x ^ y
	}
	switch v.(type) {
	case int8:
		return int8(r)
	case int16:
		return int16(r)
	case int32:
		return int32(r)
	case int64:
		return int64(r)
	case uint8:
		return uint8(r)
	case uint16:
		return uint16(r)
	case uint32:
		return uint32(r)
	}
	return r
}

// intOf returns an integer element as an int64 (a uint64 as its bits).
func intOf(v any) int64 {
	switch x := v.(type) {
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		return int64(x)
	}
	panic(fmt.Sprintf("reftest: %T is not an integer", v))
}

// minMax returns the larger (max) or smaller of the current value v and
// the update u (see Computation for NaN, zeros and complex numbers).
func minMax(isMax bool, d tensor.DType, v, u any) any {
	switch x := v.(type) {
	case bool:
		if isMax {
			return x || u.(bool)
		}
		return x && u.(bool)
	case complex64:
		return lexMinMax(isMax, x, u.(complex64))
	case complex128:
		return lexMinMax(isMax, x, u.(complex128))
	}
	if d.IsFloat() {
		a, b := toFloat(v), toFloat(u)
		switch {
		case a != a:
			return v
		case b != b:
			return u
		case a == b: // equal, or +0 and -0, where -0 < +0
			if math.Signbit(a) != math.Signbit(b) && math.Signbit(a) == isMax {
				return u
			}
			return v
		case (a > b) == isMax:
			return v
		}
		return u
	}
	a, b := intOf(v), intOf(u)
	less := a < b
	if d.IsUnsigned() {
		less = uint64(a) < uint64(b)
	}
	if less == isMax {
		return u
	}
	return v
}

// lexMinMax compares (real, imaginary) pairs as StableHLO's interpreter
// does: v when it is larger (smaller) on the real parts, or equal on them
// and larger (smaller) on the imaginary ones; u otherwise.
func lexMinMax[T complex64 | complex128](isMax bool, v, u T) T {
	wins := func(p, q float64) bool { return isMax && p > q || !isMax && p < q }
	a, b := complex128(v), complex128(u)
	if real(a) == real(b) && wins(imag(a), imag(b)) || real(a) != real(b) && wins(real(a), real(b)) {
		return v
	}
	return u
}

// toFloat returns a floating-point element as a float64, exactly.
func toFloat(v any) float64 {
	switch x := v.(type) {
	case float32:
		return float64(x)
	case float64:
		return x
	}
	return float64(widen(v))
}

// sameType reports whether a and b are Go values of one type.
func sameType(a, b any) bool { return reflect.TypeOf(a) == reflect.TypeOf(b) }

// HLODynamicSlice returns the slice of operand of shape sliceSizes that
// starts at startIndices (one integer scalar per dimension, all of one
// type), each start clamped to [0, dim - size] as StableHLO's
// dynamic_slice does. Errors: ErrType for starts that are not integers or
// not all of one type (C3); ErrShape for a start count or slice_sizes
// that do not match the rank (C2), starts that are not scalars, or sizes
// beyond the operand's (C4); ErrArgument for negative sizes (C4).
func HLODynamicSlice(operand tensor.Tensor, startIndices []tensor.Tensor, sliceSizes []int) (tensor.Tensor, error) {
	ops := operand.Shape()
	if err := checkStarts(startIndices, len(ops), "C2", "C3"); err != nil {
		return tensor.Tensor{}, err
	}
	checks := []constraint{
		{"C2", engine.ErrShape, len(sliceSizes) == len(ops), "%d slice_sizes for an operand of rank %d", []any{len(sliceSizes), len(ops)}},
		{"C4", engine.ErrArgument, !slices.ContainsFunc(sliceSizes, func(s int) bool { return s < 0 }), "slice_sizes %v must not be negative",
			[]any{sliceSizes}},
	}
	if err := firstBroken(checks); err != nil {
		return tensor.Tensor{}, err
	}
	if !fits(sliceSizes, ops) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: (C4) slice_sizes %v for an operand of shape %v", engine.ErrShape, sliceSizes, ops)
	}
	resultShape := tensor.Shape(sliceSizes) // C5
	adjusted := adjustedStarts(startIndices, ops, resultShape)
	out := make([]any, tensortest.Count(resultShape))
	each(resultShape, func(resultIndex []int) {
		operandIndex := make([]int, len(ops))
		for d := range operandIndex {
			operandIndex[d] = adjusted[d] + resultIndex[d]
		}
		out[resultShape.Offset(resultIndex)] = operand.At(ops.Offset(operandIndex))
	})
	return build(operand.DType(), resultShape, out), nil
}

// HLODynamicUpdateSlice returns operand with update written over the
// slice that starts at startIndices (one integer scalar per dimension, all
// of one type), each start clamped to [0, dim - update's size] as
// StableHLO's dynamic_update_slice does. Errors: ErrType for an update of
// another element type (C2), starts that are not integers or not all of
// one type (C5); ErrShape for an update of another rank (C3) or larger
// than operand (C6), a start count that does not match the rank (C4), or
// starts that are not scalars.
func HLODynamicUpdateSlice(operand, update tensor.Tensor, startIndices []tensor.Tensor) (tensor.Tensor, error) {
	ops, ups := operand.Shape(), update.Shape()
	if update.DType() != operand.DType() {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: (C2) update of type %v for an operand of type %v", engine.ErrType, update.DType(), operand.DType())
	}
	if len(ups) != len(ops) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: (C3) update %v for an operand of shape %v", engine.ErrShape, ups, ops)
	}
	if err := checkStarts(startIndices, len(ops), "C4", "C5"); err != nil {
		return tensor.Tensor{}, err
	}
	if !fits(ups, ops) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: (C6) update %v is larger than the operand %v", engine.ErrShape, ups, ops)
	}
	adjusted := adjustedStarts(startIndices, ops, ups)
	out := make([]any, operand.Len())
	each(ops, func(resultIndex []int) {
		updateIndex := make([]int, len(ops))
		inside := true
		for d := range updateIndex {
			updateIndex[d] = resultIndex[d] - adjusted[d]
			inside = inside && updateIndex[d] >= 0 && updateIndex[d] < ups[d]
		}
		v := operand.At(ops.Offset(resultIndex))
		if inside {
			v = update.At(ups.Offset(updateIndex))
		}
		out[ops.Offset(resultIndex)] = v
	})
	return build(operand.DType(), ops, out), nil
}

// checkStarts checks the start indices of dynamic_slice and
// dynamic_update_slice: rank of them (the constraint count), integer
// scalars of one type (same).
func checkStarts(starts []tensor.Tensor, rank int, count, same string) error {
	if len(starts) != rank {
		return fmt.Errorf("reftest: %w: (%s) %d start indices for an operand of rank %d", engine.ErrShape, count, len(starts), rank)
	}
	for i, s := range starts {
		if err := checkIndexType(s); err != nil {
			return err
		}
		if s.DType() != starts[0].DType() {
			return fmt.Errorf("reftest: %w: (%s) start index %d is %v, the first %v; they must be of one type", engine.ErrType, same, i, s.DType(), starts[0].DType())
		}
		if s.Rank() != 0 {
			return fmt.Errorf("reftest: %w: start index %d has shape %v, want a scalar", engine.ErrShape, i, s.Shape())
		}
	}
	return nil
}

// adjustedStarts returns clamp(0, start_indices, shape - sizes).
func adjustedStarts(starts []tensor.Tensor, shape, sizes tensor.Shape) []int {
	out := make([]int, len(shape))
	for d, s := range starts {
		out[d] = int(min(max(indexValue(s, 0), 0), int64(shape[d]-sizes[d])))
	}
	return out
}
