package engine

import (
	"unsafe"

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
	return runGather(formGatherND, dst, data, indices, 0, batchDims, rules)
}

func gatherND(s *scratch, dst, data, indices *tensor.Tensor, batchDims int, rules IndexRules) error {
	ds := s.shape(dataShape, data)
	shape, err := AppendGatherNDShape(s.shapes[outShape], ds, s.shape(indexShape, indices), batchDims)
	if err != nil {
		return err
	}
	ind, err := gatherIndices(s, dst, data, indices, s.keep(outShape, shape))
	if err != nil {
		return err
	}
	k := indices.Dim(indices.Rank() - 1)
	if bad := firstNegative(ind, rules); bad >= 0 {
		return indexErr(rules, *indices, bad, ds, batchDims+bad%k, k)
	}
	lims := s.limits(rules, ds[batchDims:batchDims+k])
	size := dst.Len()
	if size == 0 {
		// Nothing to write, but bad indices are refused all the same.
		if bad := firstBad(s, ind, lims, rules); bad >= 0 {
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
	j.pairElems = canPairElems && k == 2 && block == 1 && pairElems(&s.views[vDst], &s.views[vData], perBatch == n)
	if j.pairElems {
		j.out, j.src, j.esize = s.views[vDst].p, s.views[vData].p, int(s.views[vDst].size)
	}
	steal(n, p, &s.gnd, s, true)
	if j.pairElems {
		j.out, j.src = nil, nil
	}
	if bad := leastOf(s.found); bad >= 0 {
		return indexErr(rules, *indices, bad, ds, batchDims+bad%k, k)
	}
	return nil
}

// pairElems reports whether a GatherND of single elements by tuples of
// two index values, from data to dst, with no batch dimensions (whole),
// takes gatherPairElems: elements of 4 or 8 bytes from a table past the
// cache, where the strategy asks for them ahead.
func pairElems(dst, data *view, whole bool) bool {
	return whole && (dst.size == 4 || dst.size == 8) && strategy.ElementsAhead > 0 && strategy.StreamBytes > 0 &&
		data.n*int(data.size) >= strategy.StreamBytes
}

// gatherNDJob is the parallel part of GatherND: each worker takes chunks
// of the output's blocks (see steal).
type gatherNDJob struct {
	s     *scratch
	m     mover
	block int
	skip  bool
	found []int
	// pairElems says that tuples of two index values into a table past
	// the cache gather their 4- or 8-byte elements (esize) from src to
	// out by gatherPairElems, which makes each offset as it goes and
	// asks for the element ahead, where the pairs' path would make a
	// batch of offsets and then move them.
	pairElems bool
	out, src  unsafe.Pointer
	esize     int
}

func (j *gatherNDJob) work(w, lo, hi int) {
	t := lo
	if j.pairElems && lo < hi {
		// Up to a tuple the rules skip or refuse, which the pairs' path
		// then takes on.
		nd := &j.s.nd
		t += gatherPairElems(unsafe.Add(j.out, t*j.esize), j.src, &nd.ind[2*t], hi-t, &nd.lims[0], &nd.strides[0],
			strategy.ElementsAhead, j.esize == 8)
	}
	buf := j.s.pairsOf(w)
	for t < hi {
		c, next, bad := j.s.nd.gatherPairs(t, hi, j.block, j.skip, buf)
		j.m.move(buf[:c])
		if bad >= 0 {
			j.found[w] = bad
			return
		}
		t = next
	}
}
