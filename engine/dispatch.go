package engine

import (
	"github.com/scatter-dev/scatter/tensor"
)

// The dispatch. Each form function (ScatterND, ScatterElements, GatherND,
// GatherElements, Gather) checks its arguments and runs its own kernel.
// GatherGeneral and ScatterGeneral check theirs, then run the kernel of
// the form whose dimension numbers d holds, when that kernel applies the
// rules (fastRules), and the general core otherwise (gatherCore,
// scatterCore): this file is the one place where that choice is made.
// Tests run the forms through the general core by calling gatherGeneral
// and scatterGeneral with forms false (export_test.go).

// GatherGeneral writes into dst the slices of operand that the start
// indices in indices select, as the dimension numbers d say (see
// GatherDims). dst has operand's type and the shape d.Shape returns, and
// must not overlap the inputs. A start index outside the operand is an
// error, skipped (its slice filled with opt.Fill or zeros) or clamped, as
// opt.Rules say; an error names the first bad start index in index order
// (the last bad tuple under ReportLast), and dst may then be partly
// written. Dimension numbers of the forms (GatherND, GatherElements,
// Gather) run by the forms' own kernels.
func GatherGeneral(dst, operand, indices tensor.Tensor, d *GatherDims, opt GatherOptions) error {
	s := getScratch()
	defer s.release()
	return gatherGeneral(s, &dst, &operand, &indices, d, &opt, true)
}

// gatherGeneral checks a general gather's arguments and runs it: by the
// kernel of the form that d is, if forms and there is one, else by the
// general core.
func gatherGeneral(s *scratch, dst, operand, indices *tensor.Tensor, d *GatherDims, opt *GatherOptions, forms bool) error {
	if operand.IsZero() || indices.IsZero() || dst.IsZero() {
		return argErr("operand, indices and dst must all be given")
	}
	os, is := s.shape(dataShape, operand), s.shape(indexShape, indices)
	if err := d.check(os, is, opt.Exact); err != nil {
		return err
	}
	if opt.Rules.Negative == NegativeSkip {
		return negativeSkipErr("GatherGeneral")
	}
	shape := d.appendShape(s.shapes[outShape][:0], os, is)
	s.shapes[outShape] = shape
	if !opt.Fill.IsZero() && (opt.Fill.DType() != operand.DType() || opt.Fill.Len() != 1) {
		return typeErr("the fill value must be one %v element, got %v of shape %v", operand.DType(), opt.Fill.DType(), opt.Fill.Shape())
	}
	if forms && fastRules(opt.Rules) && (opt.Fill.IsZero() || opt.Rules.OutOfRange != OutOfRangeSkip) {
		if b, ok := gatherNDForm(d, os, is); ok {
			return gatherND(s, dst, operand, indices, b, opt.Rules)
		}
		if a, ok := gatherElementsForm(d, os, is); ok {
			return gatherElements(s, dst, operand, indices, a, opt.Rules)
		}
		if a, b, ok := gatherAxisForm(d, os, is); ok {
			return gather(s, dst, operand, indices, a, b, opt.Rules)
		}
	}
	return gatherCore(s, dst, operand, indices, d, opt)
}

// ScatterGeneral writes into dst a copy of operand (zeros for the zero
// Tensor; nothing when dst is operand) into which each window of updates
// is combined at the start index that indices give for it, as the
// dimension numbers d say (see ScatterDims), with opt.Reduction. Windows
// are applied in row-major order of their start indices, each window's
// elements in row-major order. A start index outside the operand is an
// error, or makes the rules skip the whole window, or clamp it into the
// operand. In place, every start index is checked before dst is written;
// into another dst, single elements going by slabs are checked as they
// are applied, and an error (naming the first bad index in index order,
// or the last bad tuple under ReportLast) may leave dst partly written.
// Dimension numbers of the forms (ScatterND, ScatterElements) run by the
// forms' own kernels.
func ScatterGeneral(dst, operand, indices, updates tensor.Tensor, d *ScatterDims, opt ScatterOptions) error {
	if !opt.Scale.IsZero() {
		return scatterScaled(scaledGeneral, dst, operand, indices, updates, 0, d, &opt)
	}
	s := getScratch()
	defer s.release()
	return scatterGeneral(s, &dst, &operand, &indices, &updates, d, &opt, true)
}

// scatterGeneral checks a general scatter's arguments and runs it: by the
// kernel of the form that d is, if forms and there is one, else by the
// general core.
func scatterGeneral(s *scratch, dst, operand, indices, updates *tensor.Tensor, d *ScatterDims, opt *ScatterOptions, forms bool) error {
	if err := checkScatter(s, dst, operand, indices, updates, opt); err != nil {
		return err
	}
	ds, is, us := s.shape(dataShape, dst), s.shape(indexShape, indices), s.shape(updateShape, updates)
	if err := d.check(ds, is, us, opt.Exact); err != nil {
		return err
	}
	if forms && fastRules(opt.Rules) {
		if scatterNDForm(d, ds, is, us) {
			return scatterND(s, dst, operand, indices, updates, opt)
		}
		if a, ok := scatterElementsForm(d, ds, is); ok {
			return scatterElements(s, dst, operand, indices, updates, a, opt)
		}
	}
	if opt.Rules.Negative == NegativeSkip {
		return negativeSkipErr("ScatterGeneral of dimension numbers other than ScatterND's and ScatterElements'")
	}
	return scatterCore(s, dst, operand, indices, updates, d, opt)
}

// The recognisers: which form, if any, dimension numbers are, for the
// general kernels to take its fast path. Each also requires what the
// form's kernel assumes of the rules: no clamping, and zeros for a skipped
// slice.

// fastRules reports whether the form kernels apply rules.
func fastRules(r IndexRules) bool { return !r.moves() }

// gatherRules reports whether the gather forms' kernels apply rules: they
// neither clamp nor take NegativeSkip, a scatter's rule.
func gatherRules(r IndexRules) bool { return fastRules(r) && r.Negative != NegativeSkip }

// gatherRulesErr is the error of the gather form op for rules that
// gatherRules refuses, built here for the reason clampErr is.
//
//go:noinline
func gatherRulesErr(op string, r IndexRules) error {
	if r.Negative == NegativeSkip {
		return negativeSkipErr(op)
	}
	return clampErr(op)
}

// negativeSkipErr is the error of op, which does not take NegativeSkip.
func negativeSkipErr(op string) error {
	return argErr("%s does not take NegativeSkip (negative indices dropped): only the scatters of the forms ScatterND and ScatterElements drop them", op)
}

// clampErr is the error of the form op, whose kernel does not clamp or
// wrap, for rules with OutOfRangeClamp or OutOfRangeWrap (see fastRules).
// The form functions check
// the rules before they take a scratch, and build the error here, not
// inlined, so that the path of their small calls stays short (see
// docs/measurements.md).
//
//go:noinline
func clampErr(op string) error {
	return argErr("%s does not take OutOfRangeClamp or OutOfRangeWrap (out-of-range indices moved into range): only GatherGeneral and ScatterGeneral move them", op)
}

// gatherNDForm reports whether d, for operand and indices, is GatherND's with
// some batch dimension count, which it returns.
func gatherNDForm(d *GatherDims, operand, indices tensor.Shape) (batchDims int, ok bool) {
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

// gatherElementsForm reports whether d is GatherElements' along some axis,
// which it returns.
func gatherElementsForm(d *GatherDims, operand, indices tensor.Shape) (axis int, ok bool) {
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

// gatherAxisForm reports whether d is GatherAxis' along some axis with some
// batch dimension count, which it returns.
func gatherAxisForm(d *GatherDims, operand, indices tensor.Shape) (axis, batchDims int, ok bool) {
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

// scatterNDForm reports whether d, for operand, indices and updates, is
// ScatterND's.
func scatterNDForm(d *ScatterDims, operand, indices, updates tensor.Shape) bool {
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

// scatterElementsForm reports whether d is ScatterElements' along some axis,
// which it returns.
func scatterElementsForm(d *ScatterDims, operand, indices tensor.Shape) (axis int, ok bool) {
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
