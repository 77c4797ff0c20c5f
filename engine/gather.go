package engine

import (
	"github.com/scatter-dev/scatter/tensor"
)

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
	return runGather(formGather, dst, data, indices, axis, batchDims, rules)
}

// gatherForm says which of the gathers' form kernels runGather runs.
type gatherForm uint8

const (
	formGather gatherForm = iota
	formGatherND
	formGatherElements
)

// gatherFormNames name the forms in runGather's errors.
var gatherFormNames = [...]string{formGather: "Gather", formGatherND: "GatherND", formGatherElements: "GatherElements"}

// runGather is the path of the gathers' form functions, which pass their
// arguments on and so are inlined: it refuses the rules that the forms'
// kernels do not apply, then runs form's kernel on a scratch, which it
// releases without a defer (a kernel that panics leaves its scratch to
// the collector). A form uses axis, batchDims or both.
func runGather(form gatherForm, dst, data, indices tensor.Tensor, axis, batchDims int, rules IndexRules) error {
	if !gatherRules(rules) {
		return gatherRulesErr(gatherFormNames[form], rules)
	}
	s := getScratch()
	var err error
	switch form {
	case formGatherND:
		err = gatherND(s, &dst, &data, &indices, batchDims, rules)
	case formGatherElements:
		err = gatherElements(s, &dst, &data, &indices, axis, rules)
	default:
		err = gather(s, &dst, &data, &indices, axis, batchDims, rules)
	}
	s.release()
	return err
}

func gather(s *scratch, dst, data, indices *tensor.Tensor, axis, batchDims int, rules IndexRules) error {
	ds, is := s.shape(dataShape, data), s.shape(indexShape, indices)
	shape, err := AppendGatherShape(s.shapes[outShape], ds, is, axis, batchDims)
	if err != nil {
		return err
	}
	ind, err := gatherIndices(s, dst, data, indices, s.keep(outShape, shape))
	if err != nil {
		return err
	}
	if bad := firstNegative(ind, rules); bad >= 0 {
		return indexErr(rules, *indices, bad, ds, axis, 0)
	}
	// Gather reads each index once per outer position: validate first, so
	// that the error names the first bad index in index order.
	lims := s.limits(rules, ds[axis:axis+1])
	if bad := firstBad(s, ind, lims, rules); bad >= 0 {
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
	steal(n, p, &s.gat, s, false)
	return nil
}

// gatherJob is the parallel part of Gather: each worker takes chunks of
// the output's blocks (see steal).
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
func gatherIndices(s *scratch, dst, data, indices *tensor.Tensor, shape tensor.Shape) ([]int64, error) {
	if err := checkGather(s, dst, data, indices, shape); err != nil {
		return nil, err
	}
	return s.indexInts(indices)
}

// checkGather checks the types of a gather's arguments and its dst.
func checkGather(s *scratch, dst, data, indices *tensor.Tensor, shape tensor.Shape) error {
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
