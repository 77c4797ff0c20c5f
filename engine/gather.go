package engine

import (
	"github.com/scatter-dev/scatter/tensor"
)

// GatherNDShape returns the output shape of GatherND:
// indices.shape[:-1] + data.shape[batchDims+k:], where k = indices.shape[-1].
// The first batchDims dimensions of data and indices must be equal, and
// batchDims + k <= rank(data).
func GatherNDShape(data, indices tensor.Shape, batchDims int) (tensor.Shape, error) {
	if len(indices) == 0 {
		return nil, shapeErr("indices must have rank >= 1, got a scalar")
	}
	if batchDims < 0 || batchDims >= len(indices) || batchDims > len(data) {
		return nil, argErr("batch_dims %d is out of range [0, %d] for data %v and indices %v",
			batchDims, min(len(indices)-1, len(data)), data, indices)
	}
	for d := 0; d < batchDims; d++ {
		if data[d] != indices[d] {
			return nil, shapeErr("batch dimension %d differs: data %v, indices %v", d, data, indices)
		}
	}
	k := indices[len(indices)-1]
	if batchDims+k > len(data) {
		return nil, shapeErr("indices.shape[-1] = %d is larger than rank %d of data %v minus batch_dims %d",
			k, len(data), data, batchDims)
	}
	out := append(indices[:len(indices)-1].Clone(), data[batchDims+k:]...)
	return out, nil
}

// GatherND writes into dst the slices of data that the index tuples of
// indices select (see GatherNDShape). dst must have data's type and the
// shape GatherNDShape returns, and must not overlap the inputs.
func GatherND(dst, data, indices tensor.Tensor, batchDims int, rules IndexRules) error {
	ds := data.Shape()
	shape, err := GatherNDShape(ds, indices.Shape(), batchDims)
	if err != nil {
		return err
	}
	if forceGeneral {
		dims := GatherNDDims(ds, indices.Shape(), batchDims)
		return GatherGeneral(dst, data, indices, &dims, GatherOptions{Rules: rules})
	}
	ind, err := gatherIndices(dst, data, indices, shape)
	if err != nil {
		return err
	}
	k := indices.Dim(indices.Rank() - 1)
	lims := rules.limits(ds[batchDims : batchDims+k])
	if dst.Len() == 0 {
		// Nothing to write, but bad indices are refused all the same.
		if bad := firstBad(ind, lims, rules); bad >= 0 {
			return indexErr(rules, indices, bad, ds, batchDims+bad%k, k)
		}
		return nil
	}
	block, _ := ds[batchDims+k:].NumElements()
	batchBlock, _ := ds[batchDims:].NumElements()
	n := dst.Len() / block
	perBatch := n
	if nb, _ := ds[:batchDims].NumElements(); nb > 0 {
		perBatch = n / nb
	}
	walk := &ndWalk{ind: ind, k: k, n: n, lims: lims, strides: ds.Strides()[batchDims : batchDims+k],
		perBatch: perBatch, batchBlock: batchBlock}
	m := newMover(dst, data, block)
	skip := rules.OutOfRange == OutOfRangeSkip
	p := parts(dst.Len() + len(ind))
	found := noneFound(p)
	parallel(n, p, func(w, lo, hi int) {
		buf := make([]pair, batch)
		for t := lo; t < hi; {
			c, next, bad := walk.gatherPairs(t, hi, block, skip, buf)
			m.move(buf[:c])
			if bad >= 0 {
				found[w] = bad
				return
			}
			t = next
		}
	})
	if bad := firstOf(found); bad >= 0 {
		return indexErr(rules, indices, bad, ds, batchDims+bad%k, k)
	}
	return nil
}

// GatherElementsShape checks the shapes of GatherElements and returns the
// output shape, which is that of indices.
func GatherElementsShape(data, indices tensor.Shape, axis int) (tensor.Shape, error) {
	if err := checkElements(data, indices, axis); err != nil {
		return nil, err
	}
	return indices.Clone(), nil
}

// GatherElements writes into dst, for each position p of indices, the
// element of data at p with p[axis] replaced by the index value. indices
// has data's rank, and indices.shape[d] <= data.shape[d] for d != axis.
// dst has data's type and indices' shape, and must not overlap the inputs.
func GatherElements(dst, data, indices tensor.Tensor, axis int, rules IndexRules) error {
	ds := data.Shape()
	shape, err := GatherElementsShape(ds, indices.Shape(), axis)
	if err != nil {
		return err
	}
	if forceGeneral {
		dims := GatherElementsDims(ds, axis)
		return GatherGeneral(dst, data, indices, &dims, GatherOptions{Rules: rules})
	}
	ind, err := gatherIndices(dst, data, indices, shape)
	if err != nil {
		return err
	}
	lim := rules.limits(ds[axis : axis+1])
	walk := newElemWalk(ind, indices.Shape(), axis, lim[0], ds.Strides(), indices.Shape().Strides())
	m := newMover(dst, data, 1)
	skip := rules.OutOfRange == OutOfRangeSkip
	p := parts(2 * len(ind))
	found := noneFound(p)
	touched := make([]int, p)
	parallel(walk.rows(), p, func(w, lo, hi int) {
		found[w], touched[w] = m.gatherRows(walk, lo, hi, skip)
	})
	if bad := firstOf(found); bad >= 0 {
		return indexErr(rules, indices, bad, ds, axis, 0)
	}
	return nil
}

// GatherShape returns the output shape of Gather:
// data.shape[:axis] + indices.shape[batchDims:] + data.shape[axis+1:].
// axis is in [0, rank(data)); batchDims <= axis and batchDims <=
// rank(indices), and the first batchDims dimensions of data and indices
// are equal.
func GatherShape(data, indices tensor.Shape, axis, batchDims int) (tensor.Shape, error) {
	if len(data) == 0 {
		return nil, shapeErr("data must have rank >= 1, got a scalar")
	}
	if axis < 0 || axis >= len(data) {
		return nil, argErr("axis %d is out of range [0, %d] for data %v", axis, len(data)-1, data)
	}
	if batchDims < 0 || batchDims > axis || batchDims > len(indices) {
		return nil, argErr("batch_dims %d is out of range [0, %d] for axis %d and indices %v",
			batchDims, min(axis, len(indices)), axis, indices)
	}
	for d := 0; d < batchDims; d++ {
		if data[d] != indices[d] {
			return nil, shapeErr("batch dimension %d differs: data %v, indices %v", d, data, indices)
		}
	}
	out := append(data[:axis].Clone(), indices[batchDims:]...)
	return append(out, data[axis+1:]...), nil
}

// Gather writes into dst the slices of data along axis that the elements of
// indices select, per batch entry when batchDims > 0 (see GatherShape).
// dst has data's type and the shape GatherShape returns, and must not
// overlap the inputs.
func Gather(dst, data, indices tensor.Tensor, axis, batchDims int, rules IndexRules) error {
	ds, is := data.Shape(), indices.Shape()
	shape, err := GatherShape(ds, is, axis, batchDims)
	if err != nil {
		return err
	}
	if forceGeneral {
		dims := GatherAxisDims(ds, len(is), axis, batchDims)
		return GatherGeneral(dst, data, indices, &dims, GatherOptions{Rules: rules})
	}
	ind, err := gatherIndices(dst, data, indices, shape)
	if err != nil {
		return err
	}
	// Gather reads each index once per outer position: validate first, so
	// that the error names the first bad index in index order.
	lims := rules.limits(ds[axis : axis+1])
	if bad := firstBad(ind, lims, rules); bad >= 0 {
		return indexErr(rules, indices, bad, ds, axis, 0)
	}
	// data is [batch B][outer O][axis N][inner S]; indices [B][I]; the
	// output [B][O][I][S].
	outer, _ := ds[batchDims:axis].NumElements()
	inner, _ := ds[axis+1:].NumElements()
	perBatch, _ := is[batchDims:].NumElements()
	if dst.Len() == 0 || inner == 0 {
		return nil
	}
	srcStep := ds[axis] * inner
	m := newMover(dst, data, inner)
	n := dst.Len() / inner // output blocks: (group, index) pairs
	parallel(n, parts(dst.Len()), func(_, lo, hi int) {
		buf := make([]pair, 0, batch)
		// f = g*perBatch + i: output block f takes index i of group g (a
		// batch entry and an outer position), stepped without dividing.
		g, i := lo/perBatch, lo%perBatch
		row := ind[g/outer*perBatch:][:perBatch]
		lim := lims[0]
		for f := lo; f < hi; f++ {
			src := -1
			if q, ok := lim.pos(row[i]); ok {
				src = g*srcStep + q*inner
			}
			if buf = append(buf, pair{f * inner, src}); len(buf) == batch {
				m.move(buf)
				buf = buf[:0]
			}
			if i++; i == perBatch && f+1 < hi {
				i, g = 0, g+1
				row = ind[g/outer*perBatch:][:perBatch]
			}
		}
		m.move(buf)
	})
	return nil
}

// gatherIndices checks a gather's arguments and its dst, whose shape must
// be shape, and returns the indices as int64.
func gatherIndices(dst, data, indices tensor.Tensor, shape tensor.Shape) ([]int64, error) {
	if err := checkGather(dst, data, indices, shape); err != nil {
		return nil, err
	}
	return indexInts(indices)
}

// checkGather checks the types of a gather's arguments and its dst.
func checkGather(dst, data, indices tensor.Tensor, shape tensor.Shape) error {
	if data.IsZero() || indices.IsZero() || dst.IsZero() {
		return argErr("data, indices and dst must all be given")
	}
	if !indices.DType().IsInteger() {
		return typeErr("indices must be integers, got %v", indices.DType())
	}
	if dst.DType() != data.DType() {
		return typeErr("dst has type %v, data has type %v; they must be equal", dst.DType(), data.DType())
	}
	if !dst.Shape().Equal(shape) {
		return shapeErr("dst has shape %v, want %v", dst.Shape(), shape)
	}
	if Overlap(dst, data) || Overlap(dst, indices) {
		return argErr("dst overlaps data or indices")
	}
	return nil
}
