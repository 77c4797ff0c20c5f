// Package openvino is the OpenVINO dialect: ScatterElementsUpdate,
// ScatterNDUpdate, GatherND and GatherElements as the OpenVINO operation
// sets define them, version by version.
//
// # Operators
//
// Each is a method of [Opset] (openvino.Opset(15).ScatterNDUpdate(...)),
// with an Into form that writes into a dst you supply
// (ScatterNDUpdateInto):
//
//   - [Opset.ScatterElementsUpdate]: update elements of data at positions along an axis, with a reduction; versions 3, 12.
//   - [Opset.ScatterNDUpdate]: update elements or slices of data at index tuples, with a reduction; versions 3, 15.
//   - [Opset.GatherND]: take elements or slices of data at index tuples; versions 5, 8.
//   - [Opset.GatherElements]: take elements of data at positions along an axis; version 6.
//
// [Ops] describes the same operations as tables for callers that run them
// by name.
//
// # Rules
//
// An Opset value is an OpenVINO opset number; each operation runs as its
// newest version not newer than it. The versions and their rules are:
//
//   - ScatterElementsUpdate-3 has no reduction and takes indices in
//     [0, size-1]. ScatterElementsUpdate-12 adds the reduction attribute
//     (Reduction: none, sum, prod, min, max, mean) and use_init_val
//     (useInitVal), and counts negative indices from the end. Indices and
//     axis may be of any integer type; axis is an input tensor holding one
//     value.
//   - ScatterNDUpdate-3 has no reduction and takes indices in [0, size-1].
//     ScatterNDUpdate-15 adds the reduction attribute (Reduction: none,
//     sum, sub, prod, min, max) and counts negative indices from the end.
//     Indices are int32 or int64.
//   - GatherND-5 flattens its batch dimensions into one output dimension;
//     GatherND-8 keeps them. Both count negative indices from the end, as
//     OpenVINO's reference implementation and its GatherND-5 tests do
//     (the GatherND-5 specification asks for [0, size-1]). Indices may be
//     of any integer type.
//   - GatherElements-6 takes int32 or int64 indices in [0, size-1].
//
// Any other index value is an error. A scatter in place (dst is data)
// reports it before anything is written; into another dst, an error may
// leave dst partly written.
// OpenVINO has no complex element type, so complex data is refused; the
// operations whose specification allows numeric types only
// (ScatterElementsUpdate-3 and ScatterNDUpdate) refuse strings too.
//
// OpenVINO leaves the order of duplicate indices undefined. Here, as in
// every dialect of this module, reduction none keeps the last update in
// row-major index order and the reductions accumulate in that order.
package openvino

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// Opset is an OpenVINO operation set number (opset3, opset12, ...).
type Opset int

// Latest is the newest opset in which an operation of this family changed.
// Any newer opset selects the same versions.
const Latest Opset = 15

// Reduction is the reduction attribute of ScatterElementsUpdate and
// ScatterNDUpdate, named as OpenVINO names it: ReductionNone; from
// ScatterElementsUpdate-12 ReductionSum, ReductionProd, ReductionMin,
// ReductionMax and ReductionMean; from ScatterNDUpdate-15 ReductionSum,
// ReductionSub, ReductionProd, ReductionMin and ReductionMax. The empty
// Reduction is the attribute left out, which is ReductionNone.
type Reduction string

// The reductions, as the operations' Behavior tables name them (Ops).
const (
	ReductionNone Reduction = "none" // updates replace the elements they address
	ReductionSum  Reduction = "sum"  // updates are added
	ReductionSub  Reduction = "sub"  // ScatterNDUpdate only: updates are subtracted
	ReductionProd Reduction = "prod" // elements are multiplied by updates
	ReductionMin  Reduction = "min"  // the smallest value is kept
	ReductionMax  Reduction = "max"  // the largest value is kept
	ReductionMean Reduction = "mean" // ScatterElementsUpdate only: the mean of the values that take part
)

// The operation names.
const (
	nameScatterElements = "openvino.ScatterElementsUpdate"
	nameScatterND       = "openvino.ScatterNDUpdate"
	nameGatherND        = "openvino.GatherND"
	nameGatherElements  = "openvino.GatherElements"
)

// ScatterElementsUpdate returns a copy of data in which each element of
// updates replaces (or, from version 12, is reduced into) the element of
// data at its own position with the coordinate along axis taken from
// indices. axis is in [-rank, rank-1]. reduction is "" or ReductionNone,
// or from version 12 ReductionSum, ReductionProd, ReductionMin,
// ReductionMax or ReductionMean. useInitVal says whether data's own value
// takes part in a reduction (OpenVINO's default is true); it has no effect
// with reduction none, and so none at version 3.
func (o Opset) ScatterElementsUpdate(data, indices, updates tensor.Tensor, axis int, reduction Reduction, useInitVal bool) (tensor.Tensor, error) {
	return opcall.AllocLike(nameScatterElements, data, "data", func(dst tensor.Tensor) error {
		return o.ScatterElementsUpdateInto(dst, data, indices, updates, axis, reduction, useInitVal)
	})
}

// ScatterElementsUpdateInto is ScatterElementsUpdate writing into dst,
// which has data's type and shape and may be data itself.
func (o Opset) ScatterElementsUpdateInto(dst, data, indices, updates tensor.Tensor, axis int, reduction Reduction, useInitVal bool) error {
	b, err := opcall.Resolve(ops, nameScatterElements, int(o))
	if err != nil {
		return err
	}
	return opcall.Wrap(nameScatterElements, scatterElements(b, dst, data, indices, updates, axis, string(reduction), useInitVal))
}

// newScatterElements is ScatterElementsUpdate at the version of Behavior
// b, for the table.
func newScatterElements(b *dialect.Behavior, data, indices, updates tensor.Tensor, axis int, reduction string, useInitVal bool) (tensor.Tensor, error) {
	return opcall.AllocLike(nameScatterElements, data, "data", func(dst tensor.Tensor) error {
		return opcall.Wrap(nameScatterElements, scatterElements(b, dst, data, indices, updates, axis, reduction, useInitVal))
	})
}

func scatterElements(b *dialect.Behavior, dst, data, indices, updates tensor.Tensor, axis int, reduction string, useInitVal bool) error {
	opt, err := scatterOptions(b, data, indices, updates, reduction, useInitVal)
	if err != nil {
		return err
	}
	if data.Rank() < 1 {
		return fmt.Errorf("%w: data must have rank >= 1, got a scalar", engine.ErrShape)
	}
	if err := opcall.CheckUpdatesShape(indices, updates); err != nil {
		return err
	}
	a, err := dialect.NormAxisInput(axis, data.Rank(), "data")
	if err != nil {
		return err
	}
	return engine.ScatterElements(dst, data, indices, updates, a, opt)
}

// ScatterNDUpdate returns a copy of data with the elements or slices that
// the index tuples in the last dimension of indices select replaced by
// (or, from version 15, reduced with) updates, whose shape is
// indices.shape[:-1] + data.shape[indices.shape[-1]:]; when that shape is
// a scalar's, updates may be any tensor of one element. reduction is ""
// or ReductionNone, or from version 15 ReductionSum, ReductionSub,
// ReductionProd, ReductionMin or ReductionMax.
func (o Opset) ScatterNDUpdate(data, indices, updates tensor.Tensor, reduction Reduction) (tensor.Tensor, error) {
	return opcall.NewScatterND(scatterNDOp, int(o), scatterND, data, indices, updates, string(reduction))
}

// ScatterNDUpdateInto is ScatterNDUpdate writing into dst, which has
// data's type and shape and may be data itself.
func (o Opset) ScatterNDUpdateInto(dst, data, indices, updates tensor.Tensor, reduction Reduction) error {
	return opcall.ScatterNDInto(scatterNDOp, int(o), scatterND, dst, data, indices, updates, string(reduction))
}

// scatterND is ScatterNDUpdate at the version of Behavior b.
func scatterND(b *dialect.Behavior, dst, data, indices, updates tensor.Tensor, reduction string) error {
	opt, err := scatterOptions(b, data, indices, updates, reduction, true)
	if err != nil {
		return err
	}
	if data.Rank() < 1 || indices.Rank() < 1 {
		return fmt.Errorf("%w: data and indices must have rank >= 1, got %v and %v",
			engine.ErrShape, data.Shape(), indices.Shape())
	}
	// When the expected updates shape is a scalar's (one index tuple
	// addressing one element), any tensor of one element will do.
	q, k := indices.Rank(), indices.Dim(indices.Rank()-1)
	if q == 1 && k == data.Rank() && updates.Rank() > 0 && updates.Len() == 1 {
		updates, _ = updates.Reshape(tensor.Shape{})
	}
	return engine.ScatterND(dst, data, indices, updates, opt)
}

// GatherND returns the elements or slices of data that the index tuples
// in the last dimension of indices select. The first batchDims dimensions
// of data and indices are batch dimensions and must be equal. Version 8
// keeps them in the output, of shape indices.shape[:-1] +
// data.shape[batchDims+k:] with k = indices.shape[-1]; version 5 flattens
// them into one dimension, their product.
func (o Opset) GatherND(data, indices tensor.Tensor, batchDims int) (tensor.Tensor, error) {
	return opcall.NewGather(ops, nameGatherND, int(o), gatherND, data, indices, batchDims)
}

// gatherND is GatherND at the version of Behavior b.
func gatherND(b *dialect.Behavior, data, indices tensor.Tensor, batchDims int) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	shape, kept, err := gatherNDShape(sh, b, data, indices, batchDims)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(nameGatherND, err)
	}
	return opcall.Alloc(nameGatherND, data.DType(), shape, func(dst tensor.Tensor) error {
		return runGatherND(dst, data, indices, batchDims, kept, b.Index)
	})
}

// GatherNDInto is GatherND writing into dst, which has data's type and the
// output shape of the selected version.
func (o Opset) GatherNDInto(dst, data, indices tensor.Tensor, batchDims int) error {
	b, err := opcall.Resolve(ops, nameGatherND, int(o))
	if err != nil {
		return err
	}
	sh := opcall.GetShapes()
	defer sh.Release()
	shape, kept, err := gatherNDShape(sh, b, data, indices, batchDims)
	if err == nil {
		err = opcall.CheckDst(dst, data.DType(), shape)
	}
	if err == nil {
		err = runGatherND(dst, data, indices, batchDims, kept, b.Index)
	}
	return opcall.Wrap(nameGatherND, err)
}

// runGatherND runs GatherND on checked arguments into dst, of the output
// shape, with kept the output shape with the batch dimensions kept, which
// must stay unchanged until it returns.
func runGatherND(dst, data, indices tensor.Tensor, batchDims int, kept tensor.Shape, rules engine.IndexRules) error {
	// The engine writes the shape with the batch dimensions kept; version
	// 5's shape holds the same elements in the same order.
	view, err := dst.View(&kept)
	if err != nil {
		return err
	}
	return engine.GatherND(view, data, indices, batchDims, rules)
}

// gatherNDShape checks GatherND's arguments at the version of Behavior b
// and returns the output shape and the shape with the batch dimensions
// kept, both from sh.
func gatherNDShape(sh *opcall.Shapes, b *dialect.Behavior, data, indices tensor.Tensor, batchDims int) (out, kept tensor.Shape, err error) {
	if err := opcall.CheckInputs(b, data, "data", indices, "indices"); err != nil {
		return nil, nil, err
	}
	if batchDims < 0 {
		return nil, nil, fmt.Errorf("%w: batch_dims %d is negative", dialect.ErrAttribute, batchDims)
	}
	if data.Rank() < 1 || indices.Rank() < 1 {
		return nil, nil, fmt.Errorf("%w: data and indices must have rank >= 1, got %v and %v",
			engine.ErrShape, data.Shape(), indices.Shape())
	}
	if batchDims >= data.Rank() || batchDims >= indices.Rank() {
		return nil, nil, fmt.Errorf("%w: batch_dims %d must be less than the ranks of data %v and indices %v",
			dialect.ErrAttribute, batchDims, data.Shape(), indices.Shape())
	}
	kept, err = engine.AppendGatherNDShape(sh.Buf(data.Rank()+indices.Rank()), sh.Of(data), sh.Of(indices), batchDims)
	if err != nil {
		return nil, nil, err
	}
	if b.Version >= 8 || batchDims <= 1 {
		return kept, kept, nil
	}
	n, _ := kept[:batchDims].NumElements() // data's own dimensions: no overflow
	return append(append(sh.Buf(len(kept)), n), kept[batchDims:]...), kept, nil
}

// GatherElements returns, for each position p of indices, the element of
// data at p with the coordinate along axis taken from indices. indices has
// data's shape except along axis; axis is in [-rank, rank-1].
func (o Opset) GatherElements(data, indices tensor.Tensor, axis int) (tensor.Tensor, error) {
	return opcall.NewGather(ops, nameGatherElements, int(o), gatherElements, data, indices, axis)
}

// gatherElements is GatherElements at the version of Behavior b.
func gatherElements(b *dialect.Behavior, data, indices tensor.Tensor, axis int) (tensor.Tensor, error) {
	a, err := checkGatherElements(b, data, indices, axis)
	var shape tensor.Shape
	if err == nil {
		shape, err = engine.GatherElementsShape(data.Shape(), indices.Shape(), a)
	}
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(nameGatherElements, err)
	}
	return opcall.Alloc(nameGatherElements, data.DType(), shape, func(dst tensor.Tensor) error {
		return engine.GatherElements(dst, data, indices, a, b.Index)
	})
}

// GatherElementsInto is GatherElements writing into dst, which has data's
// type and indices' shape.
func (o Opset) GatherElementsInto(dst, data, indices tensor.Tensor, axis int) error {
	b, err := opcall.Resolve(ops, nameGatherElements, int(o))
	if err != nil {
		return err
	}
	a, err := checkGatherElements(b, data, indices, axis)
	if err == nil {
		err = engine.GatherElements(dst, data, indices, a, b.Index)
	}
	return opcall.Wrap(nameGatherElements, err)
}

// checkGatherElements checks GatherElements' arguments but for what the
// engine checks of their shapes (GatherElementsShape), and returns the
// normalised axis.
func checkGatherElements(b *dialect.Behavior, data, indices tensor.Tensor, axis int) (int, error) {
	if err := opcall.CheckInputs(b, data, "data", indices, "indices"); err != nil {
		return 0, err
	}
	if data.Rank() < 1 {
		return 0, fmt.Errorf("%w: data must have rank >= 1, got a scalar", engine.ErrShape)
	}
	a, err := dialect.NormAxis(axis, data.Rank(), "data")
	if err != nil {
		return 0, err
	}
	if indices.Rank() == data.Rank() {
		for d := range data.Rank() {
			if d != a && indices.Dim(d) != data.Dim(d) {
				return 0, fmt.Errorf("%w: indices %v must equal data %v in every dimension but the axis %d",
					engine.ErrShape, indices.Shape(), data.Shape(), a)
			}
		}
	}
	return a, nil
}

// scatterOptions checks the reduction and the presence and element types
// of a scatter's inputs, and turns its reduction and use_init_val into
// engine options, by the reductions, types and index rules of its
// version's Behavior b. "" is the default reduction, none.
func scatterOptions(b *dialect.Behavior, data, indices, updates tensor.Tensor, reduction string, useInitVal bool) (engine.ScatterOptions, error) {
	r, err := b.ParseReduction(reduction)
	if err != nil {
		return engine.ScatterOptions{}, err
	}
	if err := opcall.CheckInputs(b, data, "data", indices, "indices"); err != nil {
		return engine.ScatterOptions{}, err
	}
	if updates.IsZero() {
		return engine.ScatterOptions{}, fmt.Errorf("%w: missing input \"updates\"", dialect.ErrInput)
	}
	return engine.ScatterOptions{
		Reduction:   r,
		ExcludeSelf: b.IncludeSelf != "" && !useInitVal,
		Rules:       b.Index,
	}, nil
}

// axisOf reads ScatterElementsUpdate's axis input: a scalar or a 1-D
// tensor of one element, of any integer type.
func axisOf(t tensor.Tensor) (int, error) {
	if t.IsZero() {
		return 0, fmt.Errorf("%w: missing input \"axis\"", dialect.ErrInput)
	}
	return dialect.IntOf(t, "axis")
}
