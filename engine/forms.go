package engine

import (
	"github.com/scatter-dev/scatter/tensor"
)

// The forms: the general gather and scatter with the dimension numbers of
// the operators that the frameworks name (ONNX's GatherND, GatherElements,
// Gather, ScatterND and ScatterElements, and their kin in the other
// frameworks). Each has a kernel of its own (the fast paths); GatherGeneral
// and ScatterGeneral recognise dimension numbers of these forms and take
// the fast path, and the form functions (GatherND, ...) go to it directly.
// DynamicSlice and DynamicUpdateSlice are forms too, with dimension
// numbers (DynamicSliceDims, DynamicUpdateSliceDims) but no kernels of
// their own: the general ones run them.

// dimRange returns [lo, lo+1, ..., hi-1].
func dimRange(lo, hi int) []int {
	s := make([]int, 0, max(hi-lo, 0))
	for d := lo; d < hi; d++ {
		s = append(s, d)
	}
	return s
}

// allBut returns [0, rank) without axis.
func allBut(rank, axis int) []int {
	return append(dimRange(0, axis), dimRange(axis+1, rank)...)
}

// The form constructors take any shapes and never panic: for shapes the
// form does not accept, they return dimension numbers that GatherGeneral
// and ScatterGeneral reject with an error.

// tupleLen returns the length of the index tuples of indices of the given
// shape, its last dimension (0 for a scalar).
func tupleLen(indices tensor.Shape) int {
	if len(indices) == 0 {
		return 0
	}
	return indices[len(indices)-1]
}

// ScatterNDDims returns the dimension numbers of ScatterND (see ScatterND)
// on data of the given rank, with indices of the given shape, whose last
// dimension holds the index tuples.
func ScatterNDDims(dataRank int, indices tensor.Shape) ScatterDims {
	q := len(indices)
	k := tupleLen(indices)
	return ScatterDims{
		UpdateWindowDims:         dimRange(q-1, q-1+dataRank-k),
		InsertedWindowDims:       dimRange(0, k),
		ScatterDimsToOperandDims: dimRange(0, k),
		IndexVectorDim:           q - 1,
	}
}

// ScatterElementsDims returns the dimension numbers of ScatterElements
// (see ScatterElements) along axis of data of the given rank.
func ScatterElementsDims(rank, axis int) ScatterDims {
	return ScatterDims{
		UpdateWindowDims:           []int{},
		InsertedWindowDims:         []int{axis},
		InputBatchingDims:          allBut(rank, axis),
		ScatterIndicesBatchingDims: allBut(rank, axis),
		ScatterDimsToOperandDims:   []int{axis},
		IndexVectorDim:             rank,
	}
}

// GatherNDDims returns the dimension numbers of GatherND (see GatherND) on
// data of the given shape, with indices of the given shape and batchDims
// batch dimensions.
func GatherNDDims(data, indices tensor.Shape, batchDims int) GatherDims {
	q, r := len(indices), len(data)
	k := tupleLen(indices)
	sizes := data.Clone()
	for d := 0; d < min(batchDims+k, r); d++ {
		sizes[d] = min(1, data[d]) // slices of an empty dimension are empty
	}
	return GatherDims{
		OffsetDims:               dimRange(q-1, q-1+r-batchDims-k),
		CollapsedSliceDims:       dimRange(batchDims, batchDims+k),
		OperandBatchingDims:      dimRange(0, batchDims),
		StartIndicesBatchingDims: dimRange(0, batchDims),
		StartIndexMap:            dimRange(batchDims, batchDims+k),
		IndexVectorDim:           q - 1,
		SliceSizes:               sizes,
	}
}

// GatherElementsDims returns the dimension numbers of GatherElements (see
// GatherElements) along axis of data of the given shape: those of the
// ScatterElements that writes where it reads (ScatterDims.Gather), every
// slice one element.
func GatherElementsDims(data tensor.Shape, axis int) GatherDims {
	d := ScatterElementsDims(len(data), axis)
	return d.Gather(data, nil)
}

// GatherAxisDims returns the dimension numbers of GatherAxis (see
// GatherAxis) along axis of data of the given shape, with indices of the
// given rank and batchDims batch dimensions.
func GatherAxisDims(data tensor.Shape, indicesRank, axis, batchDims int) GatherDims {
	r, m := len(data), indicesRank-batchDims
	sizes := data.Clone()
	for d := 0; d < min(batchDims, r); d++ {
		sizes[d] = min(1, data[d])
	}
	if 0 <= axis && axis < r {
		sizes[axis] = min(1, data[axis])
	}
	return GatherDims{
		OffsetDims:               append(dimRange(batchDims, axis), dimRange(axis+m, r-1+m)...),
		CollapsedSliceDims:       []int{axis},
		OperandBatchingDims:      dimRange(0, batchDims),
		StartIndicesBatchingDims: dimRange(0, batchDims),
		StartIndexMap:            []int{axis},
		IndexVectorDim:           indicesRank,
		SliceSizes:               sizes,
	}
}

// DynamicSliceDims returns the dimension numbers of DynamicSlice as a
// gather: one start index, a 1-D indices tensor of one value per
// dimension, and a slice of the given sizes.
func DynamicSliceDims(sizes []int) GatherDims {
	r := len(sizes)
	return GatherDims{
		OffsetDims:    dimRange(0, r),
		StartIndexMap: dimRange(0, r),
		SliceSizes:    sizes,
	}
}

// DynamicUpdateSliceDims returns the dimension numbers of
// DynamicUpdateSlice on an operand of the given rank as a scatter: one
// start index, a 1-D indices tensor of one value per dimension, and the
// whole update as its window.
func DynamicUpdateSliceDims(rank int) ScatterDims {
	return ScatterDims{
		UpdateWindowDims:         dimRange(0, rank),
		ScatterDimsToOperandDims: dimRange(0, rank),
	}
}
