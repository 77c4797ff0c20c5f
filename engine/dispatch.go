package engine

import (
	"github.com/scatter-dev/scatter/tensor"
)

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
