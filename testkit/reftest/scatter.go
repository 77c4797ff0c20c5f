package reftest

import (
	"fmt"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// ScatterND returns a copy of data updated at the index tuples of indices.
// indices has shape lead + [k]: the tuple at position p of lead addresses
// the first k dimensions of data, and the slice of data it selects (one
// element when k is data's rank, the whole of data when k is 0) receives
// the slice of updates at p. updates has shape lead + data.shape[k:].
//
// The outcome of the updates that land on one position follows opt; an
// index tuple with a skipped component is dropped whole.
func ScatterND(data, indices, updates tensor.Tensor, opt engine.ScatterOptions) (tensor.Tensor, error) {
	ds, is, us := data.Shape(), indices.Shape(), updates.Shape()
	if err := checkScatterTypes(data, indices, updates, opt); err != nil {
		return tensor.Tensor{}, err
	}
	if len(is) == 0 {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: indices must have rank >= 1", engine.ErrShape)
	}
	k := is[len(is)-1]
	if k > len(ds) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: tuples of %d components for data of rank %d", engine.ErrShape, k, len(ds))
	}
	lead, slice := is[:len(is)-1], ds[k:]
	if want := append(lead.Clone(), slice...); !us.Equal(want) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: updates %v, want %v", engine.ErrShape, us, want)
	}
	hits := make([][]any, data.Len()) // the updates that land on each position of data, in order
	var refused []int
	each(lead, func(p []int) {
		target, dropped := tuple(opt.Rules, indices, p, ds, 0, &refused)
		if dropped {
			return
		}
		each(slice, func(s []int) {
			dst := ds.Offset(tensortest.Join(target, s))
			hits[dst] = append(hits[dst], updates.At(us.Offset(tensortest.Join(p, s))))
		})
	})
	if refused != nil {
		return tensor.Tensor{}, &IndexError{Bad: refused}
	}
	return fold(data, hits, opt)
}

// ScatterElements returns a copy of data in which, for every position p of
// indices, the element of data at p with p[axis] replaced by the index
// value at p receives the element of updates at p. data, indices and
// updates have the same rank; indices.shape[d] <= data.shape[d] for d !=
// axis and indices.shape[d] <= updates.shape[d] for every d. axis is in
// [0, rank).
func ScatterElements(data, indices, updates tensor.Tensor, axis int, opt engine.ScatterOptions) (tensor.Tensor, error) {
	ds, is, us := data.Shape(), indices.Shape(), updates.Shape()
	if err := checkScatterTypes(data, indices, updates, opt); err != nil {
		return tensor.Tensor{}, err
	}
	if err := checkElements(ds, is, axis); err != nil {
		return tensor.Tensor{}, err
	}
	if len(us) != len(is) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: updates %v and indices %v differ in rank", engine.ErrShape, us, is)
	}
	for d := range is {
		if is[d] > us[d] {
			return tensor.Tensor{}, fmt.Errorf("reftest: %w: indices %v exceed updates %v", engine.ErrShape, is, us)
		}
	}
	hits := make([][]any, data.Len())
	var refused []int
	each(is, func(p []int) {
		at := is.Offset(p)
		pos, v := resolve(opt.Rules, indexValue(indices, at), ds[axis])
		switch v {
		case bad:
			refused = append(refused, at)
		case use:
			dst := ds.Offset(replaced(p, axis, pos))
			hits[dst] = append(hits[dst], updates.At(us.Offset(p)))
		}
	})
	if refused != nil {
		return tensor.Tensor{}, &IndexError{Bad: refused}
	}
	return fold(data, hits, opt)
}

// checkElements checks the shapes that ScatterElements and GatherElements
// share.
func checkElements(ds, is tensor.Shape, axis int) error {
	if len(ds) == 0 {
		return fmt.Errorf("reftest: %w: data must have rank >= 1", engine.ErrShape)
	}
	if axis < 0 || axis >= len(ds) {
		return fmt.Errorf("reftest: %w: axis %d for data of rank %d", engine.ErrArgument, axis, len(ds))
	}
	if len(is) != len(ds) {
		return fmt.Errorf("reftest: %w: indices %v and data %v differ in rank", engine.ErrShape, is, ds)
	}
	for d := range is {
		if d != axis && is[d] > ds[d] {
			return fmt.Errorf("reftest: %w: indices %v exceed data %v in dimension %d", engine.ErrShape, is, ds, d)
		}
	}
	return nil
}

// checkScatterTypes checks the element types of a scatter and whether the
// reduction has a meaning for them.
func checkScatterTypes(data, indices, updates tensor.Tensor, opt engine.ScatterOptions) error {
	if err := checkIndexType(indices); err != nil {
		return err
	}
	if data.DType() != updates.DType() {
		return fmt.Errorf("reftest: %w: data is %v, updates %v", engine.ErrType, data.DType(), updates.DType())
	}
	if err := checkReduction(data.DType(), opt); err != nil {
		return err
	}
	return checkDivisors(updates, opt)
}

// checkDivisors fails when Div would divide an integer by an update of 0,
// naming the first such update.
func checkDivisors(updates tensor.Tensor, opt engine.ScatterOptions) error {
	if opt.Reduction != engine.Div || !updates.DType().IsInteger() {
		return nil
	}
	for i := range updates.Len() {
		if v, _ := updates.IntAt(i); v == 0 {
			return fmt.Errorf("reftest: %w: updates%v is 0: integer division by zero", engine.ErrArgument, updates.Shape().Coords(i))
		}
	}
	return nil
}

// fold returns data with every position that received updates replaced by
// the outcome of its updates (hits, in order), and with DivideAll, every
// other position divided by 1 for Mean.
func fold(data tensor.Tensor, hits [][]any, opt engine.ScatterOptions) (tensor.Tensor, error) {
	out := make([]any, data.Len())
	for i := range out {
		out[i] = data.At(i)
		switch {
		case len(hits[i]) > 0:
			out[i] = reduce(data.DType(), out[i], hits[i], opt)
		case opt.Reduction == engine.Mean && opt.Arith.DivideAll:
			out[i] = arithOf(data.DType()).mean(out[i], 1, opt)
		}
	}
	return build(data.DType(), data.Shape(), out), nil
}
