// Package mindspore is the MindSpore dialect: mindspore.ops.scatter_nd,
// mindspore.ops.gather_nd and mindspore.ops.tensor_scatter_elements as
// MindSpore defines them.
//
// # Operators
//
// Each has an Into form that writes into a dst you supply (GatherNDInto):
//
//   - mindspore.ops.scatter_nd: [ScatterND], scatter updates into zeros of a given shape, summing duplicates.
//   - mindspore.ops.gather_nd: [GatherND], take elements or slices of input_x at index tuples.
//   - mindspore.ops.tensor_scatter_elements: [TensorScatterElements], update elements of input_x at positions along an axis, replacing or adding them (Reduction).
//
// [Ops] describes the same operators as tables for callers that run them
// by name.
//
// # Rules
//
// The rules, with the MindSpore sources they come from (the API
// documentation on mindspore.cn, the docstrings in
// mindspore/python/mindspore/ops/function/array_func.py and
// ops/op_def/yaml/doc, the shape inference in ops/infer/ops_func_impl and
// the CPU kernels):
//
//   - scatter_nd(indices, updates, shape) builds a zero tensor of shape and
//     adds every update slice into it, so duplicate indices accumulate; the
//     additions happen one at a time in row-major index order. shape must
//     be non-empty with every element >= 1 (MindSpore's ValueError; here
//     dialect.ErrInput). indices has rank >= 2 and int32 or int64 elements,
//     indices.shape[-1] <= len(shape), and updates has shape
//     indices.shape[:-1] + shape[indices.shape[-1]:]; indices.shape[-1] may
//     be 0, and then every update covers the whole output. A negative or
//     out-of-range index is an error, as on MindSpore's CPU backend.
//   - gather_nd(input_x, indices) takes the slices of input_x that the index
//     tuples in the last dimension of indices select. indices is int32 or
//     int64; a scalar indices tensor is read as the 1-D tensor holding it,
//     as MindSpore's shape inference and CPU kernel do, and
//     indices.shape[-1] may be 0 (each empty tuple selects all of input_x).
//     MindSpore documents nothing about bad indices; its CPU kernel rejects
//     negative and out-of-range values ("does not index into input_shape"),
//     and so does this dialect: both are errors.
//   - tensor_scatter_elements(input_x, indices, updates, axis, reduction)
//     updates the elements of input_x at their own positions with the
//     coordinate along axis taken from indices. reduction is "none" (the
//     update replaces the value) or "add"; "" means none. axis is in
//     [-rank, rank-1]; index values in [-size, size-1] count negative ones
//     from the end, and any other value is skipped silently, as MindSpore
//     documents. updates has the shape of indices, as MindSpore documents
//     and as its older shape inference enforced (newer versions check only
//     that the ranks are equal).
//
// MindSpore documents the result of duplicate indices in
// tensor_scatter_elements as nondeterministic; this dialect is
// deterministic: none keeps the last update in row-major index order, add
// accumulates in that order.
//
// Element types: scatter_nd takes every integer, floating-point (float16,
// bfloat16, float32, float64) and complex type, not bool; gather_nd takes
// those and bool; tensor_scatter_elements takes the integer and
// floating-point types and bool, not complex (MindSpore's type check
// accepts its common numeric types and bool). No operator takes strings.
// float16 and bfloat16 additions are computed in float32 and rounded after
// every step; integer additions wrap; bool addition is OR.
//
// Every error is a *dialect.OpError naming the operator
// ("mindspore.scatter_nd") and wrapping one of engine.ErrIndex,
// engine.ErrShape, engine.ErrType, engine.ErrArgument,
// dialect.ErrAttribute or dialect.ErrInput; a scatter_nd shape whose
// element count overflows int also wraps tensor.ErrShape. scatter_nd,
// and tensor_scatter_elements in place, check all indices before
// anything is written; gather_nd, and tensor_scatter_elements into
// another dst, may have written part of dst when they fail.
package mindspore

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// The operator names, as dialect.Op.Name and in errors.
const (
	scatterNDName     = "mindspore.scatter_nd"
	gatherNDName      = "mindspore.gather_nd"
	scatterElemsName  = "mindspore.tensor_scatter_elements"
	scatterNDReduceOp = engine.Add // scatter_nd adds updates onto zeros
)

// The index rules of each operator.
var (
	ndRules    = engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeError}
	elemsRules = engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeSkip}
)

// indexTypes are the index element types every operator accepts.
var indexTypes = dialect.Types(tensor.Int32, tensor.Int64)

// The element types each operator accepts.
var (
	scatterNDTypes = dialect.AnyType.Without(tensor.Bool, tensor.String)
	gatherNDTypes  = dialect.AnyType.Without(tensor.String)
	elemsTypes     = dialect.AnyType.Without(tensor.Complex64, tensor.Complex128, tensor.String)
)

// elemsReductions maps tensor_scatter_elements' reduction names to the
// engine's.
var elemsReductions = map[string]engine.Reduction{"none": engine.None, "add": engine.Add}

// The operators' shared Behaviors, which init sets and the typed
// functions read.
var scatterNDB, gatherNDB, elemsB *dialect.Behavior

func init() {
	scatterNDB = opcall.SharedOf(ops, scatterNDName)
	gatherNDB = opcall.SharedOf(ops, gatherNDName)
	elemsB = opcall.SharedOf(ops, scatterElemsName)
}

// ScatterND returns a tensor of the given shape and of updates' element
// type that is zero except where the index tuples in the last dimension of
// indices select elements or slices: there it holds the sum of the updates
// those tuples carry, added in row-major index order.
//
// shape is non-empty and every dimension is >= 1. indices is an int32 or
// int64 tensor of rank >= 2 with indices.shape[-1] <= len(shape), and
// updates has shape indices.shape[:-1] + shape[indices.shape[-1]:]. Index
// values must lie in [0, size-1] of the dimension they address.
func ScatterND(indices, updates tensor.Tensor, shape tensor.Shape) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	if err := checkScatterND(sh, shape, indices, updates); err != nil {
		return tensor.Tensor{}, opcall.Wrap(scatterNDName, err)
	}
	dst, err := tensor.New(updates.DType(), shape)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(scatterNDName, fmt.Errorf("%w: shape %v: %w", dialect.ErrInput, shape, err))
	}
	if err := engine.ScatterND(dst, tensor.Tensor{}, indices, updates, scatterNDOptions()); err != nil {
		return tensor.Tensor{}, opcall.Wrap(scatterNDName, err)
	}
	return dst, nil
}

// ScatterNDInto is ScatterND writing into dst, whose shape is the shape
// asked for and whose element type is that of updates; it must not share
// memory with indices or updates. dst's previous contents do not matter;
// if an error is returned, dst is unchanged.
func ScatterNDInto(dst, indices, updates tensor.Tensor) error {
	if dst.IsZero() {
		// Before the checks of the shape it stands for.
		return opcall.Wrap(scatterNDName, opcall.CheckDstType(dst, updates.DType()))
	}
	sh := opcall.GetShapes()
	defer sh.Release()
	if err := checkScatterND(sh, sh.Of(dst), indices, updates); err != nil {
		return opcall.Wrap(scatterNDName, err)
	}
	if err := opcall.CheckDstType(dst, updates.DType()); err != nil {
		return opcall.Wrap(scatterNDName, err)
	}
	// A zero data tensor makes the engine validate every index and only
	// then clear dst, so a bad index leaves dst as it was.
	return opcall.Wrap(scatterNDName, engine.ScatterND(dst, tensor.Tensor{}, indices, updates, scatterNDOptions()))
}

func scatterNDOptions() engine.ScatterOptions {
	return engine.ScatterOptions{Reduction: scatterNDReduceOp, Rules: ndRules}
}

// checkScatterND checks what scatter_nd requires of its arguments, so that
// the engine can only fail on index values. It reads their shapes into sh.
func checkScatterND(sh *opcall.Shapes, shape tensor.Shape, indices, updates tensor.Tensor) error {
	if err := checkShape(shape); err != nil {
		return err
	}
	if err := opcall.CheckInputs(scatterNDB, updates, "updates", indices, "indices"); err != nil {
		return err
	}
	is := sh.Of(indices)
	if len(is) < 2 {
		return fmt.Errorf("%w: indices must have rank >= 2, got shape %v", engine.ErrShape, is)
	}
	k := is[len(is)-1]
	if k > len(shape) {
		return fmt.Errorf("%w: indices.shape[-1] = %d is larger than len(shape) = %d (shape %v)",
			engine.ErrShape, k, len(shape), shape)
	}
	want := append(append(sh.Buf(len(is)-1+len(shape)-k), is[:len(is)-1]...), shape[k:]...)
	if us := sh.Of(updates); !us.Equal(want) {
		return fmt.Errorf("%w: updates has shape %v, want %v (indices.shape[:-1] + shape[%d:], with indices %v and shape %v)",
			engine.ErrShape, us, want, k, is, shape)
	}
	return nil
}

// checkShape checks scatter_nd's shape argument: non-empty, every
// dimension >= 1.
func checkShape(shape tensor.Shape) error {
	if len(shape) == 0 {
		return fmt.Errorf("%w: shape must not be empty", dialect.ErrInput)
	}
	for i, d := range shape {
		if d < 1 {
			return fmt.Errorf("%w: shape %v: every dimension must be >= 1, shape[%d] is %d", dialect.ErrInput, shape, i, d)
		}
	}
	return nil
}

// GatherND returns the slices of inputX that the index tuples in the last
// dimension of indices select: its shape is indices.shape[:-1] +
// inputX.shape[indices.shape[-1]:]. indices is int32 or int64, with
// indices.shape[-1] <= rank(inputX); a scalar indices tensor counts as the
// 1-D tensor holding it. Index values must lie in [0, size-1].
func GatherND(inputX, indices tensor.Tensor) (tensor.Tensor, error) {
	indices, err := checkGatherND(inputX, indices)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(gatherNDName, err)
	}
	shape, err := engine.GatherNDShape(inputX.Shape(), indices.Shape(), 0)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(gatherNDName, err)
	}
	return opcall.Alloc(gatherNDName, inputX.DType(), shape, func(dst tensor.Tensor) error {
		return engine.GatherND(dst, inputX, indices, 0, ndRules)
	})
}

// GatherNDInto is GatherND writing into dst, which has inputX's element
// type and the output shape.
func GatherNDInto(dst, inputX, indices tensor.Tensor) error {
	indices, err := checkGatherND(inputX, indices)
	if err != nil {
		return opcall.Wrap(gatherNDName, err)
	}
	return opcall.Wrap(gatherNDName, engine.GatherND(dst, inputX, indices, 0, ndRules))
}

// checkGatherND checks gather_nd's element types and returns indices with
// a scalar reshaped to one dimension.
func checkGatherND(inputX, indices tensor.Tensor) (tensor.Tensor, error) {
	if err := opcall.CheckInputs(gatherNDB, inputX, "input_x", indices, "indices"); err != nil {
		return tensor.Tensor{}, err
	}
	if indices.Rank() == 0 {
		return indices.Reshape(tensor.Shape{1})
	}
	return indices, nil
}

// Reduction is the reduction attribute of TensorScatterElements, named as
// MindSpore names it: ReductionNone or ReductionAdd. The empty Reduction
// is the attribute left out, which is ReductionNone.
type Reduction string

// The reductions, as tensor_scatter_elements' Behavior table names them
// (Ops).
const (
	ReductionNone Reduction = "none" // updates replace the elements they address
	ReductionAdd  Reduction = "add"  // updates are added
)

// TensorScatterElements returns a copy of inputX in which, for each
// element of indices at position p, the element of inputX at p with p[axis]
// replaced by the index value is replaced by (ReductionNone) or added to
// (ReductionAdd) the element of updates at p. "" means ReductionNone.
//
// inputX, indices and updates have the same rank >= 1, updates has the
// shape of indices, and indices.shape[d] <= inputX.shape[d] for d != axis.
// axis is in [-rank, rank-1]. Index values in [-size, size-1] address the
// axis, negative ones from the end; any other value is skipped.
func TensorScatterElements(inputX, indices, updates tensor.Tensor, axis int, reduction Reduction) (tensor.Tensor, error) {
	return opcall.AllocLike(scatterElemsName, inputX, "input_x", func(dst tensor.Tensor) error {
		return TensorScatterElementsInto(dst, inputX, indices, updates, axis, reduction)
	})
}

// TensorScatterElementsInto is TensorScatterElements writing into dst,
// which has inputX's type and shape and may be inputX itself for an
// in-place update.
func TensorScatterElementsInto(dst, inputX, indices, updates tensor.Tensor, axis int, reduction Reduction) error {
	return opcall.Wrap(scatterElemsName, scatterElements(dst, inputX, indices, updates, axis, string(reduction)))
}

func scatterElements(dst, inputX, indices, updates tensor.Tensor, axis int, reduction string) error {
	red, err := elemsB.ParseReduction(reduction)
	if err != nil {
		return err
	}
	if err := opcall.CheckInputs(elemsB, inputX, "input_x", indices, "indices"); err != nil {
		return err
	}
	if updates.IsZero() {
		return fmt.Errorf("%w: missing input \"updates\"", dialect.ErrInput)
	}
	if inputX.Rank() < 1 {
		return fmt.Errorf("%w: input_x must have rank >= 1, got a scalar", engine.ErrShape)
	}
	if err := opcall.CheckUpdatesShape(indices, updates); err != nil {
		return err
	}
	a, err := normAxis(axis, inputX.Rank())
	if err != nil {
		return err
	}
	return engine.ScatterElements(dst, inputX, indices, updates, a,
		engine.ScatterOptions{Reduction: red, Rules: elemsRules})
}

// normAxis maps axis in [-rank, rank-1] to [0, rank).
func normAxis(axis, rank int) (int, error) { return dialect.NormAxis(axis, rank, "input_x") }
