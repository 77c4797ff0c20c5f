package reftest

import (
	"fmt"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// GatherND returns the slices of data that the index tuples of indices
// select. indices has shape batch + lead + [k], where batch is
// data.shape[:batchDims]: the tuple at position (b, p) addresses
// dimensions batchDims to batchDims+k-1 of the batch entry b of data. The
// output has shape batch + lead + data.shape[batchDims+k:]; a tuple with a
// skipped component gives zero values. Every tuple is checked, even when
// the slices it selects are empty.
func GatherND(data, indices tensor.Tensor, batchDims int, rules engine.IndexRules) (tensor.Tensor, error) {
	ds, is := data.Shape(), indices.Shape()
	if len(is) == 0 {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: indices must have rank >= 1", engine.ErrShape)
	}
	b := batchDims
	if b < 0 || b >= len(is) || b > len(ds) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: batch_dims %d for data %v and indices %v", engine.ErrArgument, b, ds, is)
	}
	if !ds[:b].Equal(is[:b]) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: batch dimensions of data %v and indices %v differ", engine.ErrShape, ds, is)
	}
	k := is[len(is)-1]
	if b+k > len(ds) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: %d batch dimensions and tuples of %d components for data of rank %d",
			engine.ErrShape, b, k, len(ds))
	}
	if err := checkIndexType(indices); err != nil {
		return tensor.Tensor{}, err
	}
	tuples := is[:len(is)-1] // batch + lead
	slice := ds[b+k:]
	// First resolve every tuple: the data coordinates its slices start at,
	// and whether it is skipped.
	starts := make([][]int, tensortest.Count(tuples))
	skipped := make([]bool, tensortest.Count(tuples))
	var refused []int
	each(tuples, func(p []int) {
		pos, dropped := tuple(rules, indices, p, ds, b, &refused)
		t := tuples.Offset(p)
		starts[t], skipped[t] = tensortest.Join(p[:b], pos), dropped
	})
	if refused != nil {
		return tensor.Tensor{}, &IndexError{Bad: refused}
	}
	outShape := append(tuples.Clone(), slice...)
	out := make([]any, tensortest.Count(outShape))
	each(outShape, func(c []int) {
		p, s := c[:len(tuples)], c[len(tuples):]
		t := tuples.Offset(p)
		v := zero(data.DType())
		if !skipped[t] {
			v = data.At(ds.Offset(tensortest.Join(starts[t], s)))
		}
		out[outShape.Offset(c)] = v
	})
	return build(data.DType(), outShape, out), nil
}

// GatherElements returns, for every position p of indices, the element of
// data at p with p[axis] replaced by the index value at p (the zero value
// when the value is skipped). indices has data's rank and
// indices.shape[d] <= data.shape[d] for d != axis; axis is in [0, rank).
func GatherElements(data, indices tensor.Tensor, axis int, rules engine.IndexRules) (tensor.Tensor, error) {
	ds, is := data.Shape(), indices.Shape()
	if err := checkElements(ds, is, axis); err != nil {
		return tensor.Tensor{}, err
	}
	if err := checkIndexType(indices); err != nil {
		return tensor.Tensor{}, err
	}
	out := make([]any, indices.Len())
	var refused []int
	each(is, func(p []int) {
		at := is.Offset(p)
		pos, v := resolve(rules, indexValue(indices, at), ds[axis])
		switch v {
		case bad:
			refused = append(refused, at)
		case skip:
			out[at] = zero(data.DType())
		case use:
			out[at] = data.At(ds.Offset(replaced(p, axis, pos)))
		}
	})
	if refused != nil {
		return tensor.Tensor{}, &IndexError{Bad: refused}
	}
	return build(data.DType(), is, out), nil
}

// Gather returns the slices of data along axis that the values of indices
// select, per batch entry: with batch = data.shape[:batchDims] =
// indices.shape[:batchDims], the output has shape data.shape[:axis] +
// indices.shape[batchDims:] + data.shape[axis+1:], and its element at
// (outer, i, inner) is data at (outer, index, inner), where index is the
// value of indices at (outer[:batchDims], i); zero when it is skipped.
// batchDims <= axis < rank(data). Every index value is checked, even when
// the output is empty.
func Gather(data, indices tensor.Tensor, axis, batchDims int, rules engine.IndexRules) (tensor.Tensor, error) {
	ds, is := data.Shape(), indices.Shape()
	if len(ds) == 0 {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: data must have rank >= 1", engine.ErrShape)
	}
	b := batchDims
	if axis < 0 || axis >= len(ds) || b < 0 || b > axis || b > len(is) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: axis %d and batch_dims %d for data %v and indices %v",
			engine.ErrArgument, axis, b, ds, is)
	}
	if !ds[:b].Equal(is[:b]) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: batch dimensions of data %v and indices %v differ", engine.ErrShape, ds, is)
	}
	if err := checkIndexType(indices); err != nil {
		return tensor.Tensor{}, err
	}
	var refused []int
	for at := 0; at < indices.Len(); at++ {
		if _, v := resolve(rules, indexValue(indices, at), ds[axis]); v == bad {
			refused = append(refused, at)
		}
	}
	if refused != nil {
		return tensor.Tensor{}, &IndexError{Bad: refused}
	}
	q := len(is) - b // the output dimensions that come from indices
	outShape := tensortest.Join(ds[:axis], is[b:], ds[axis+1:])
	out := make([]any, tensortest.Count(outShape))
	each(outShape, func(c []int) {
		outer, i, inner := c[:axis], c[axis:axis+q], c[axis+q:]
		pos, v := resolve(rules, indexValue(indices, is.Offset(tensortest.Join(outer[:b], i))), ds[axis])
		at := outShape.Offset(c)
		if v == skip {
			out[at] = zero(data.DType())
			return
		}
		out[at] = data.At(ds.Offset(tensortest.Join(outer, tensor.Shape{pos}, inner)))
	})
	return build(data.DType(), outShape, out), nil
}
