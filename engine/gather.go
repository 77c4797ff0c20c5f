package engine

import (
	"github.com/scatter-dev/scatter/tensor"
)

// GatherNDShape returns the output shape of GatherND:
// indices.shape[:-1] + data.shape[batchDims+k:], where k = indices.shape[-1].
// The first batchDims dimensions of data and indices must be equal, and
// batchDims + k <= rank(data).
func GatherNDShape(data, indices tensor.Shape, batchDims int) (tensor.Shape, error) {
	return AppendGatherNDShape(nil, data, indices, batchDims)
}

// AppendGatherNDShape is GatherNDShape appending the shape to buf[:0],
// for callers that keep a buffer for it.
func AppendGatherNDShape(buf, data, indices tensor.Shape, batchDims int) (tensor.Shape, error) {
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
	out := append(append(buf[:0], indices[:len(indices)-1]...), data[batchDims+k:]...)
	return out, nil
}

// GatherND writes into dst the slices of data that the index tuples of
// indices select (see GatherNDShape). dst must have data's type and the
// shape GatherNDShape returns, and must not overlap the inputs.
func GatherND(dst, data, indices tensor.Tensor, batchDims int, rules IndexRules) error {
	if !fastRules(rules) {
		return clampErr("GatherND")
	}
	s := getScratch()
	defer s.release()
	return s.gatherND(&dst, &data, &indices, batchDims, rules)
}

func (s *scratch) gatherND(dst, data, indices *tensor.Tensor, batchDims int, rules IndexRules) error {
	ds := s.shape(dataShape, data)
	shape, err := AppendGatherNDShape(s.shapes[outShape], ds, s.shape(indexShape, indices), batchDims)
	if err != nil {
		return err
	}
	s.shapes[outShape] = shape
	if forceGeneral {
		dims := GatherNDDims(ds, s.shapes[indexShape], batchDims)
		return s.gatherGeneral(dst, data, indices, &dims, &GatherOptions{Rules: rules})
	}
	ind, err := s.gatherIndices(dst, data, indices, shape)
	if err != nil {
		return err
	}
	k := indices.Dim(indices.Rank() - 1)
	lims := s.limits(rules, ds[batchDims:batchDims+k])
	size := dst.Len()
	if size == 0 {
		// Nothing to write, but bad indices are refused all the same.
		if bad := s.firstBad(ind, lims, rules); bad >= 0 {
			return indexErr(rules, *indices, bad, ds, batchDims+bad%k, k)
		}
		return nil
	}
	block, _ := ds[batchDims+k:].NumElements()
	batchBlock, _ := ds[batchDims:].NumElements()
	n := size / block
	perBatch := n
	if nb, _ := ds[:batchDims].NumElements(); nb > 0 {
		perBatch = n / nb
	}
	s.nd.set(ind, k, n, lims, s.stridesOf(0, ds)[batchDims:batchDims+k], perBatch, batchBlock)
	p := parts(size + len(ind))
	s.workerPairs(p)
	j := &s.gnd
	j.s, j.m, j.block = s, s.apply.get(dst, data, s.views[vDst], s.views[vData], block), block
	j.skip, j.found = rules.OutOfRange == OutOfRangeSkip, s.noneFound(p)
	parallel(n, p, &s.gnd, &s.done)
	if bad := firstOf(s.found); bad >= 0 {
		return indexErr(rules, *indices, bad, ds, batchDims+bad%k, k)
	}
	return nil
}

// gatherNDJob is the parallel part of GatherND: each worker owns a range
// of the output's blocks.
type gatherNDJob struct {
	s     *scratch
	m     mover
	block int
	skip  bool
	found []int
}

func (j *gatherNDJob) work(w, lo, hi int) {
	buf := j.s.pairsOf(w)
	for t := lo; t < hi; {
		c, next, bad := j.s.nd.gatherPairs(t, hi, j.block, j.skip, buf)
		j.m.move(buf[:c])
		if bad >= 0 {
			j.found[w] = bad
			return
		}
		t = next
	}
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
	if !fastRules(rules) {
		return clampErr("GatherElements")
	}
	s := getScratch()
	defer s.release()
	return s.gatherElements(&dst, &data, &indices, axis, rules)
}

func (s *scratch) gatherElements(dst, data, indices *tensor.Tensor, axis int, rules IndexRules) error {
	ds, is := s.shape(dataShape, data), s.shape(indexShape, indices)
	if err := checkElements(ds, is, axis); err != nil {
		return err
	}
	if forceGeneral {
		dims := GatherElementsDims(ds, axis)
		return s.gatherGeneral(dst, data, indices, &dims, &GatherOptions{Rules: rules})
	}
	ind, err := s.gatherIndices(dst, data, indices, is)
	if err != nil {
		return err
	}
	lim := s.limits(rules, ds[axis:axis+1])[0]
	p := parts(2 * len(ind))
	s.el.init(ind, is, axis, lim, s.stridesOf(0, ds), s.stridesOf(1, is), p)
	s.touched = resize(s.touched, p)
	j := &s.gel
	j.s, j.m = s, s.apply.get(dst, data, s.views[vDst], s.views[vData], 1)
	j.skip, j.found = rules.OutOfRange == OutOfRangeSkip, s.noneFound(p)
	parallel(s.el.rows(), p, &s.gel, &s.done)
	if bad := firstOf(s.found); bad >= 0 {
		return indexErr(rules, *indices, bad, ds, axis, 0)
	}
	return nil
}

// gatherElementsJob is the parallel part of GatherElements: each worker
// owns a range of rows.
type gatherElementsJob struct {
	s     *scratch
	m     mover
	skip  bool
	found []int
}

func (j *gatherElementsJob) work(w, lo, hi int) {
	j.found[w], j.s.touched[w] = j.m.gatherRows(&j.s.el, w, lo, hi, j.skip)
}

// GatherShape returns the output shape of Gather:
// data.shape[:axis] + indices.shape[batchDims:] + data.shape[axis+1:].
// axis is in [0, rank(data)); batchDims <= axis and batchDims <=
// rank(indices), and the first batchDims dimensions of data and indices
// are equal.
func GatherShape(data, indices tensor.Shape, axis, batchDims int) (tensor.Shape, error) {
	return AppendGatherShape(nil, data, indices, axis, batchDims)
}

// AppendGatherShape is GatherShape appending the shape to buf[:0], for
// callers that keep a buffer for it.
func AppendGatherShape(buf, data, indices tensor.Shape, axis, batchDims int) (tensor.Shape, error) {
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
	out := append(append(buf[:0], data[:axis]...), indices[batchDims:]...)
	return append(out, data[axis+1:]...), nil
}

// Gather writes into dst the slices of data along axis that the elements of
// indices select, per batch entry when batchDims > 0 (see GatherShape).
// dst has data's type and the shape GatherShape returns, and must not
// overlap the inputs.
func Gather(dst, data, indices tensor.Tensor, axis, batchDims int, rules IndexRules) error {
	if !fastRules(rules) {
		return clampErr("Gather")
	}
	s := getScratch()
	defer s.release()
	return s.gather(&dst, &data, &indices, axis, batchDims, rules)
}

func (s *scratch) gather(dst, data, indices *tensor.Tensor, axis, batchDims int, rules IndexRules) error {
	ds, is := s.shape(dataShape, data), s.shape(indexShape, indices)
	shape, err := AppendGatherShape(s.shapes[outShape], ds, is, axis, batchDims)
	if err != nil {
		return err
	}
	s.shapes[outShape] = shape
	if forceGeneral {
		dims := GatherAxisDims(ds, len(is), axis, batchDims)
		return s.gatherGeneral(dst, data, indices, &dims, &GatherOptions{Rules: rules})
	}
	ind, err := s.gatherIndices(dst, data, indices, shape)
	if err != nil {
		return err
	}
	// Gather reads each index once per outer position: validate first, so
	// that the error names the first bad index in index order.
	lims := s.limits(rules, ds[axis:axis+1])
	if bad := s.firstBad(ind, lims, rules); bad >= 0 {
		return indexErr(rules, *indices, bad, ds, axis, 0)
	}
	// data is [batch B][outer O][axis N][inner S]; indices [B][I]; the
	// output [B][O][I][S].
	outer, _ := ds[batchDims:axis].NumElements()
	inner, _ := ds[axis+1:].NumElements()
	perBatch, _ := is[batchDims:].NumElements()
	size := dst.Len()
	if size == 0 || inner == 0 {
		return nil
	}
	n := size / inner // output blocks: (group, index) pairs
	p := parts(size)
	s.workerPairs(p)
	j := &s.gat
	j.s, j.m, j.ind, j.lim = s, s.apply.get(dst, data, s.views[vDst], s.views[vData], inner), ind, lims[0]
	j.outer, j.inner, j.perBatch, j.srcStep = outer, inner, perBatch, ds[axis]*inner
	parallel(n, p, &s.gat, &s.done)
	return nil
}

// gatherJob is the parallel part of Gather: each worker owns a range of
// the output's blocks.
type gatherJob struct {
	s                      *scratch
	m                      mover
	ind                    []int64
	lim                    limit
	outer, inner, perBatch int
	srcStep                int
}

func (j *gatherJob) work(w, lo, hi int) {
	buf := j.s.pairsOf(w)[:0]
	ind, inner, perBatch, outer := j.ind, j.inner, j.perBatch, j.outer
	// f = g*perBatch + i: output block f takes index i of group g (a
	// batch entry and an outer position), stepped without dividing.
	g, i := lo/perBatch, lo%perBatch
	row := ind[g/outer*perBatch:][:perBatch]
	for f := lo; f < hi; f++ {
		src := -1
		if q, ok := j.lim.pos(row[i]); ok {
			src = g*j.srcStep + q*inner
		}
		if buf = append(buf, pair{f * inner, src}); len(buf) == batch {
			j.m.move(buf)
			buf = buf[:0]
		}
		if i++; i == perBatch && f+1 < hi {
			i, g = 0, g+1
			row = ind[g/outer*perBatch:][:perBatch]
		}
	}
	j.m.move(buf)
}

// gatherIndices checks a gather's arguments and its dst, whose shape must
// be shape, and returns the indices as int64.
func (s *scratch) gatherIndices(dst, data, indices *tensor.Tensor, shape tensor.Shape) ([]int64, error) {
	if err := s.checkGather(dst, data, indices, shape); err != nil {
		return nil, err
	}
	return s.indexInts(indices)
}

// checkGather checks the types of a gather's arguments and its dst.
func (s *scratch) checkGather(dst, data, indices *tensor.Tensor, shape tensor.Shape) error {
	if data.IsZero() || indices.IsZero() || dst.IsZero() {
		return argErr("data, indices and dst must all be given")
	}
	if !indices.DType().IsInteger() {
		return typeErr("indices must be integers, got %v", indices.DType())
	}
	if dst.DType() != data.DType() {
		return typeErr("dst has type %v, data has type %v; they must be equal", dst.DType(), data.DType())
	}
	if !dst.HasShape(shape) {
		return shapeErr("dst has shape %v, want %v", dst.Shape(), shape)
	}
	s.see(dst, data, indices, nil)
	if d := s.views[vDst].span(); d.overlaps(s.views[vData].span()) || d.overlaps(s.views[vInd].span()) {
		return argErr("dst overlaps data or indices")
	}
	return nil
}
