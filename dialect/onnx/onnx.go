// Package onnx is the ONNX dialect: Scatter, ScatterElements, ScatterND,
// Gather, GatherElements and GatherND as the ONNX operator sets define
// them, version by version.
//
// # Operators
//
// Each is a method of [Opset] (onnx.Opset(18).ScatterND(...)), with an Into
// form that writes into a dst you supply (ScatterNDInto):
//
//   - [Opset.ScatterND]: update elements or slices of data at index tuples, with a reduction; versions 11, 13, 16, 18.
//   - [Opset.ScatterElements]: update elements of data at positions along an axis, with a reduction; versions 11, 13, 16, 18.
//   - [Opset.Scatter]: ScatterElements without reduction; version 9, in opsets 9 and 10.
//   - [Opset.GatherND]: take elements or slices of data at index tuples; versions 11, 12, 13.
//   - [Opset.GatherElements]: take elements of data at positions along an axis; versions 11, 13.
//   - [Opset.Gather]: take slices of data along an axis; versions 1, 11, 13.
//
// [Ops] describes the same operators as tables (names, versions, inputs,
// attributes) for callers that run them by name.
//
// # Rules
//
// An Opset value selects the rules: each operator runs as its newest
// version not newer than the opset. Across versions the rules are:
//
//   - Negative indices count from the end of their dimension; an index
//     outside [-size, size-1] is an error.
//   - ScatterND and GatherND take int64 indices only; the others take
//     int32 or int64.
//   - bfloat16 elements are accepted from version 13.
//   - ScatterND and ScatterElements have the reduction attribute
//     (Reduction) from version 16 (none, add, mul) and gain max and min
//     in version 18. Any other reduction is an error.
//   - GatherND has batch_dims from version 12.
//   - Scatter exists in opsets 9 and 10 only; it is an error from opset 11,
//     where ScatterElements replaced it.
//
// With duplicate indices, reduction none keeps the last update in
// row-major index order, and the reductions accumulate in that order.
//
// An error names the first bad index in index order. A scatter in place
// (dst is data) checks every index before it writes anything, so data is
// left as it was; an Into form writing into another dst may have written
// part of it when it fails.
package onnx

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// Opset is an ONNX operator set version (the ai.onnx domain).
type Opset int

// Reduction is the reduction attribute of ScatterND and ScatterElements,
// named as ONNX names it: ReductionNone, from version 16 ReductionAdd and
// ReductionMul, from version 18 ReductionMax and ReductionMin. The empty
// Reduction is the attribute left out, which is ReductionNone.
type Reduction string

// The reductions, as the operators' Behavior tables name them (Ops).
const (
	ReductionNone Reduction = "none" // updates replace the elements they address
	ReductionAdd  Reduction = "add"  // from version 16: updates are added, strings concatenated
	ReductionMul  Reduction = "mul"  // from version 16: elements are multiplied by updates
	ReductionMax  Reduction = "max"  // from version 18: the larger of element and update is kept
	ReductionMin  Reduction = "min"  // from version 18: the smaller of element and update is kept
)

// Latest is the newest opset in which an operator of this family changed.
// Any newer opset selects the same versions.
const Latest Opset = 18

// rules are ONNX's index rules for every operator and version.
var rules = engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeError}

// The operators' names.
const (
	opScatter         = "onnx.Scatter"
	opScatterElements = "onnx.ScatterElements"
	opScatterND       = "onnx.ScatterND"
	opGather          = "onnx.Gather"
	opGatherElements  = "onnx.GatherElements"
	opGatherND        = "onnx.GatherND"
)

// ScatterND returns a copy of data with the slices that the index tuples in
// indices select replaced by (or, from version 16, reduced with) updates.
// reduction is "" or ReductionNone, or from version 16 ReductionAdd or
// ReductionMul, or from version 18 ReductionMax or ReductionMin.
func (o Opset) ScatterND(data, indices, updates tensor.Tensor, reduction Reduction) (tensor.Tensor, error) {
	return opcall.NewScatterND(scatterNDOp, int(o), scatterND, data, indices, updates, string(reduction))
}

// ScatterNDInto is ScatterND writing into dst, which has data's type and
// shape and may be data itself.
//
// It calls scatterNDOf itself rather than through opcall.ScatterNDInto,
// whose function value would make the tensors escape were they passed by
// pointer: a KV-cache write at every decoding step copies fewer words.
func (o Opset) ScatterNDInto(dst, data, indices, updates tensor.Tensor, reduction Reduction) error {
	_, b, err := scatterNDOp.Shared(int(o))
	if err == nil {
		err = scatterNDOf(b, &dst, &data, &indices, &updates, string(reduction))
	}
	return opcall.Wrap(opScatterND, err)
}

// scatterND is ScatterND at the version of Behavior b, for opcall.
func scatterND(b *dialect.Behavior, dst, data, indices, updates tensor.Tensor, reduction string) error {
	return scatterNDOf(b, &dst, &data, &indices, &updates, reduction)
}

// scatterNDOf is scatterND on tensors it takes by pointer and does not
// change.
func scatterNDOf(b *dialect.Behavior, dst, data, indices, updates *tensor.Tensor, reduction string) error {
	var opt engine.ScatterOptions
	if err := scatterOptions(&opt, b, data, indices, reduction); err != nil {
		return err
	}
	if data.Rank() < 1 {
		return fmt.Errorf("%w: data must have rank >= 1, got a scalar", engine.ErrShape)
	}
	return engine.ScatterND(*dst, *data, *indices, *updates, opt)
}

// scatterOptions checks what ScatterND and ScatterElements of Behavior b
// check alike (the reduction, data and indices) and sets the engine's
// options for the call in opt, which starts as the zero value.
func scatterOptions(opt *engine.ScatterOptions, b *dialect.Behavior, data, indices *tensor.Tensor, reduction string) error {
	red, err := b.ParseReduction(reduction)
	if err == nil {
		err = checkInputs(b, *data, *indices)
	}
	// Set in the caller's options rather than returned: a small call
	// copied the returned struct twice before passing it on.
	opt.Reduction, opt.Rules, opt.Arith = red, rules, b.Arith
	return err
}

// ScatterElements returns a copy of data in which each element of updates
// replaces (or, from version 16, is reduced into) the element of data at
// its own position with the coordinate along axis taken from indices.
// axis is in [-rank, rank-1]; reduction as for ScatterND.
func (o Opset) ScatterElements(data, indices, updates tensor.Tensor, axis int, reduction Reduction) (tensor.Tensor, error) {
	return opcall.AllocLike(opScatterElements, data, "data", func(dst tensor.Tensor) error {
		return o.ScatterElementsInto(dst, data, indices, updates, axis, reduction)
	})
}

// ScatterElementsInto is ScatterElements writing into dst, which has data's
// type and shape and may be data itself.
func (o Opset) ScatterElementsInto(dst, data, indices, updates tensor.Tensor, axis int, reduction Reduction) error {
	return o.scatterElementsInto(opScatterElements, dst, data, indices, updates, axis, string(reduction))
}

// Scatter is the operator that ScatterElements replaced in opset 11: the
// same as ScatterElements without a reduction. It exists in opsets 9 and 10.
func (o Opset) Scatter(data, indices, updates tensor.Tensor, axis int) (tensor.Tensor, error) {
	return opcall.AllocLike(opScatter, data, "data", func(dst tensor.Tensor) error {
		return o.ScatterInto(dst, data, indices, updates, axis)
	})
}

// ScatterInto is Scatter writing into dst, which has data's type and shape
// and may be data itself.
func (o Opset) ScatterInto(dst, data, indices, updates tensor.Tensor, axis int) error {
	return o.scatterElementsInto(opScatter, dst, data, indices, updates, axis, "")
}

// scatterElementsInto runs the named operator, Scatter or ScatterElements,
// at the version the opset selects.
func (o Opset) scatterElementsInto(name string, dst, data, indices, updates tensor.Tensor, axis int, reduction string) error {
	b, err := opcall.Resolve(ops, name, int(o))
	if err != nil {
		return err
	}
	return opcall.Wrap(name, scatterElements(b, &dst, &data, &indices, &updates, axis, reduction))
}

// newScatterElements is the named operator, Scatter or ScatterElements, at
// the version of Behavior b, for the table.
func newScatterElements(name string, b *dialect.Behavior, data, indices, updates tensor.Tensor, axis int, reduction string) (tensor.Tensor, error) {
	return opcall.AllocLike(name, data, "data", func(dst tensor.Tensor) error {
		return opcall.Wrap(name, scatterElements(b, &dst, &data, &indices, &updates, axis, reduction))
	})
}

func scatterElements(b *dialect.Behavior, dst, data, indices, updates *tensor.Tensor, axis int, reduction string) error {
	var opt engine.ScatterOptions
	if err := scatterOptions(&opt, b, data, indices, reduction); err != nil {
		return err
	}
	if err := opcall.CheckUpdatesShape(*indices, *updates); err != nil {
		return err
	}
	a, err := normAxis(axis, data.Rank())
	if err != nil {
		return err
	}
	return engine.ScatterElements(*dst, *data, *indices, *updates, a, opt)
}

// GatherND returns the slices of data that the index tuples in indices
// select; the first batchDims dimensions (version 12 on) are batch
// dimensions shared by data and indices.
func (o Opset) GatherND(data, indices tensor.Tensor, batchDims int) (tensor.Tensor, error) {
	return opcall.NewGather(ops, opGatherND, int(o), gatherND, data, indices, batchDims)
}

// gatherND is GatherND at the version of Behavior b.
func gatherND(b *dialect.Behavior, data, indices tensor.Tensor, batchDims int) (tensor.Tensor, error) {
	if err := checkGatherND(b, data, indices, batchDims); err != nil {
		return tensor.Tensor{}, opcall.Wrap(opGatherND, err)
	}
	shape, err := engine.GatherNDShape(data.Shape(), indices.Shape(), batchDims)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(opGatherND, err)
	}
	return opcall.Alloc(opGatherND, data.DType(), shape, func(dst tensor.Tensor) error {
		return engine.GatherND(dst, data, indices, batchDims, rules)
	})
}

// GatherNDInto is GatherND writing into dst, which has data's type and the
// output shape.
func (o Opset) GatherNDInto(dst, data, indices tensor.Tensor, batchDims int) error {
	b, err := opcall.Resolve(ops, opGatherND, int(o))
	if err != nil {
		return err
	}
	if err := checkGatherND(b, data, indices, batchDims); err != nil {
		return opcall.Wrap(opGatherND, err)
	}
	return opcall.Wrap(opGatherND, engine.GatherND(dst, data, indices, batchDims, rules))
}

func checkGatherND(b *dialect.Behavior, data, indices tensor.Tensor, batchDims int) error {
	if err := checkInputs(b, data, indices); err != nil {
		return err
	}
	if v := b.Version; v < 12 && batchDims != 0 {
		return fmt.Errorf("%w: batch_dims is defined from version 12, this is version %d", dialect.ErrAttribute, v)
	}
	if batchDims < 0 {
		return fmt.Errorf("%w: batch_dims %d is negative", dialect.ErrAttribute, batchDims)
	}
	if data.Rank() < 1 || indices.Rank() < 1 {
		return fmt.Errorf("%w: data and indices must have rank >= 1, got %v and %v",
			engine.ErrShape, data.Shape(), indices.Shape())
	}
	if batchDims >= min(data.Rank(), indices.Rank()) {
		return fmt.Errorf("%w: batch_dims %d must be less than the ranks of data %v and indices %v",
			dialect.ErrAttribute, batchDims, data.Shape(), indices.Shape())
	}
	if k := indices.Dim(indices.Rank() - 1); k < 1 || k > data.Rank()-batchDims {
		return fmt.Errorf("%w: indices.shape[-1] = %d must be in [1, %d] (rank of data %v minus batch_dims %d)",
			engine.ErrShape, k, data.Rank()-batchDims, data.Shape(), batchDims)
	}
	return nil
}

// GatherElements returns, for each position p of indices, the element of
// data at p with the coordinate along axis taken from indices.
func (o Opset) GatherElements(data, indices tensor.Tensor, axis int) (tensor.Tensor, error) {
	return opcall.NewGather(ops, opGatherElements, int(o), gatherAlong(opGatherElements, false), data, indices, axis)
}

// GatherElementsInto is GatherElements writing into dst, which has data's
// type and indices' shape.
func (o Opset) GatherElementsInto(dst, data, indices tensor.Tensor, axis int) error {
	return o.gatherInto(opGatherElements, dst, data, indices, axis, false)
}

// Gather returns the slices of data along axis that the elements of
// indices select: its shape is data.shape[:axis] + indices.shape +
// data.shape[axis+1:].
func (o Opset) Gather(data, indices tensor.Tensor, axis int) (tensor.Tensor, error) {
	return opcall.NewGather(ops, opGather, int(o), gatherAlong(opGather, true), data, indices, axis)
}

// GatherInto is Gather writing into dst, which has data's type and the
// output shape.
func (o Opset) GatherInto(dst, data, indices tensor.Tensor, axis int) error {
	return o.gatherInto(opGather, dst, data, indices, axis, true)
}

// gatherAxis checks Gather's and GatherElements' arguments, but for their
// shapes, and returns the normalised axis.
func gatherAxis(b *dialect.Behavior, data, indices tensor.Tensor, axis int) (int, error) {
	if err := checkInputs(b, data, indices); err != nil {
		return 0, err
	}
	return normAxis(axis, data.Rank())
}

// gatherAlong returns the named operator, Gather (slices) or
// GatherElements, at the version of a Behavior. It checks the arguments
// once; the allocated output needs no check of its own.
func gatherAlong(name string, slices bool) func(b *dialect.Behavior, data, indices tensor.Tensor, axis int) (tensor.Tensor, error) {
	return func(b *dialect.Behavior, data, indices tensor.Tensor, axis int) (tensor.Tensor, error) {
		a, err := gatherAxis(b, data, indices, axis)
		var shape tensor.Shape
		if err == nil && slices {
			shape, err = engine.GatherShape(data.Shape(), indices.Shape(), a, 0)
		} else if err == nil {
			shape, err = engine.GatherElementsShape(data.Shape(), indices.Shape(), a)
		}
		if err != nil {
			return tensor.Tensor{}, opcall.Wrap(name, err)
		}
		return opcall.Alloc(name, data.DType(), shape, func(dst tensor.Tensor) error {
			return runGather(dst, data, indices, a, slices)
		})
	}
}

// gatherInto leaves the shapes to the engine, which checks them before
// dst, as gather does.
func (o Opset) gatherInto(name string, dst, data, indices tensor.Tensor, axis int, slices bool) error {
	b, err := opcall.Resolve(ops, name, int(o))
	if err != nil {
		return err
	}
	a, err := gatherAxis(b, data, indices, axis)
	if err == nil {
		err = runGather(dst, data, indices, a, slices)
	}
	return opcall.Wrap(name, err)
}

// runGather runs Gather (slices) or GatherElements on checked arguments,
// with axis a normalised.
func runGather(dst, data, indices tensor.Tensor, a int, slices bool) error {
	if slices {
		return engine.Gather(dst, data, indices, a, 0, rules)
	}
	return engine.GatherElements(dst, data, indices, a, rules)
}

// reductions returns the reductions of ScatterND and ScatterElements at
// version v, by their ONNX names: none always (the attribute's default),
// add and mul from 16, max and min from 18.
func reductions(v int) map[string]engine.Reduction {
	red := map[string]engine.Reduction{"none": engine.None}
	if v >= 16 {
		red["add"], red["mul"] = engine.Add, engine.Mul
	}
	if v >= 18 {
		red["max"], red["min"] = engine.Max, engine.Min
	}
	return red
}

// checkInputs checks data's element type and indices' against the types
// of Behavior b.
func checkInputs(b *dialect.Behavior, data, indices tensor.Tensor) error {
	return opcall.CheckInputs(b, data, "data", indices, "indices")
}

// normAxis maps axis in [-rank, rank-1] to [0, rank).
func normAxis(axis, rank int) (int, error) { return dialect.NormAxis(axis, rank, "data") }
