package engine

import "github.com/scatter-dev/scatter/tensor"

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

// isSpan reports whether s is [lo, lo+1, ..., hi-1].
func isSpan(s []int, lo, hi int) bool {
	if len(s) != max(hi-lo, 0) {
		return false
	}
	for i, d := range s {
		if d != lo+i {
			return false
		}
	}
	return true
}

// isAllBut reports whether s is [0, rank) without axis.
func isAllBut(s []int, rank, axis int) bool {
	return len(s) == rank-1 && isSpan(s[:axis], 0, axis) && isSpan(s[axis:], axis+1, rank)
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

// forceGeneral makes the form functions run the general kernels with
// their dimension numbers instead of their own, so that tests can check
// one against the other.
var forceGeneral bool

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

// The recognisers: which form, if any, dimension numbers are, for the
// general kernels to take its fast path. Each also requires what the
// form's kernel assumes of the rules: no clamping, and zeros for a skipped
// slice.

// fastRules reports whether the form kernels apply rules.
func fastRules(r IndexRules) bool { return r.OutOfRange != OutOfRangeClamp }

// clampErr is the error of the form op, whose kernel does not clamp, for
// rules with OutOfRangeClamp (see fastRules). The form functions check
// the rules before they take a scratch, and build the error here, not
// inlined: checked in the scratch methods, or built inline, it cost S2 5
// to 10%.
//
//go:noinline
func clampErr(op string) error {
	return argErr("%s does not take OutOfRangeClamp (out-of-range indices clamped): only GatherGeneral and ScatterGeneral clamp", op)
}

// ndForm reports whether d, for operand and indices, is GatherND's with
// some batch dimension count, which it returns.
func (d *GatherDims) ndForm(operand, indices tensor.Shape) (batchDims int, ok bool) {
	q, r := len(indices), len(operand)
	b := len(d.OperandBatchingDims)
	if q == 0 || d.IndexVectorDim != q-1 || !isSpan(d.OperandBatchingDims, 0, b) || !isSpan(d.StartIndicesBatchingDims, 0, b) {
		return 0, false
	}
	k := indices[q-1]
	if !isSpan(d.StartIndexMap, b, b+k) || !isSpan(d.CollapsedSliceDims, b, b+k) || !isSpan(d.OffsetDims, q-1, q-1+r-b-k) {
		return 0, false
	}
	for i := b; i < b+k; i++ {
		if d.SliceSizes[i] != min(1, operand[i]) {
			return 0, false
		}
	}
	return b, fullFrom(d.SliceSizes, operand, b+k) && equalBatches(d.OperandBatchingDims, d.StartIndicesBatchingDims, operand, indices)
}

// elementsForm reports whether d is GatherElements' along some axis,
// which it returns.
func (d *GatherDims) elementsForm(operand, indices tensor.Shape) (axis int, ok bool) {
	r := len(operand)
	if len(d.StartIndexMap) != 1 || len(d.OffsetDims) != 0 || d.IndexVectorDim != r || len(indices) != r {
		return 0, false
	}
	a := d.StartIndexMap[0]
	if !isSpan(d.CollapsedSliceDims, a, a+1) || !isAllBut(d.OperandBatchingDims, r, a) || !isAllBut(d.StartIndicesBatchingDims, r, a) {
		return 0, false
	}
	for i, s := range d.SliceSizes {
		if s != min(1, operand[i]) {
			return 0, false
		}
	}
	return a, true
}

// axisForm reports whether d is GatherAxis' along some axis with some
// batch dimension count, which it returns.
func (d *GatherDims) axisForm(operand, indices tensor.Shape) (axis, batchDims int, ok bool) {
	r, qi := len(operand), len(indices)
	b := len(d.OperandBatchingDims)
	if len(d.StartIndexMap) != 1 || d.IndexVectorDim != qi || !isSpan(d.OperandBatchingDims, 0, b) ||
		!isSpan(d.StartIndicesBatchingDims, 0, b) {
		return 0, 0, false
	}
	a, m := d.StartIndexMap[0], qi-b
	if a < b || !isSpan(d.CollapsedSliceDims, a, a+1) || len(d.OffsetDims) != r-1-b ||
		!isSpan(d.OffsetDims[:a-b], b, a) || !isSpan(d.OffsetDims[a-b:], a+m, r-1+m) {
		return 0, 0, false
	}
	for i := range b {
		if d.SliceSizes[i] != min(1, operand[i]) {
			return 0, 0, false
		}
	}
	if d.SliceSizes[a] != min(1, operand[a]) || !fullFrom(d.SliceSizes[:a], operand[:a], b) || !fullFrom(d.SliceSizes, operand, a+1) {
		return 0, 0, false
	}
	return a, b, equalBatches(d.OperandBatchingDims, d.StartIndicesBatchingDims, operand, indices)
}

// ndForm reports whether d, for operand, indices and updates, is
// ScatterND's.
func (d *ScatterDims) ndForm(operand, indices, updates tensor.Shape) bool {
	q, r := len(indices), len(operand)
	if q == 0 || d.IndexVectorDim != q-1 || len(d.InputBatchingDims) != 0 {
		return false
	}
	k := indices[q-1]
	if !isSpan(d.ScatterDimsToOperandDims, 0, k) || !isSpan(d.InsertedWindowDims, 0, k) ||
		!isSpan(d.UpdateWindowDims, q-1, q-1+r-k) || len(updates) != q-1+r-k {
		return false
	}
	for i := range q - 1 {
		if updates[i] != indices[i] {
			return false
		}
	}
	for i := k; i < r; i++ {
		if updates[q-1+i-k] != operand[i] {
			return false
		}
	}
	return true
}

// elementsForm reports whether d is ScatterElements' along some axis,
// which it returns.
func (d *ScatterDims) elementsForm(operand, indices tensor.Shape) (axis int, ok bool) {
	r := len(operand)
	if len(d.ScatterDimsToOperandDims) != 1 || len(d.UpdateWindowDims) != 0 || d.IndexVectorDim != r || len(indices) != r {
		return 0, false
	}
	a := d.ScatterDimsToOperandDims[0]
	return a, isSpan(d.InsertedWindowDims, a, a+1) && isAllBut(d.InputBatchingDims, r, a) &&
		isAllBut(d.ScatterIndicesBatchingDims, r, a)
}

// fullFrom reports whether the slice sizes from dimension from on are
// the whole operand's.
func fullFrom(sizes []int, operand tensor.Shape, from int) bool {
	for i := from; i < len(operand); i++ {
		if sizes[i] != operand[i] {
			return false
		}
	}
	return true
}

// equalBatches reports whether each batching dimension of the operand
// has the size of its partner in indices, as the forms' batch dimensions
// do.
func equalBatches(op, ind []int, operand, indices tensor.Shape) bool {
	for i := range op {
		if operand[op[i]] != indices[ind[i]] {
			return false
		}
	}
	return true
}
