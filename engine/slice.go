package engine

import "github.com/scatter-dev/scatter/tensor"

// dimsUpTo holds 0, 1, 2, ...: its prefixes are the dimension lists [0, n)
// of the slices, which so cost no allocation.
var dimsUpTo = func() (s [64]int) {
	for i := range s {
		s[i] = i
	}
	return s
}()

// DynamicSlice writes into dst the slice of operand that starts at start
// (one value per dimension of operand) and has dst's shape, as StableHLO's
// dynamic_slice: a start is clamped so that the slice lies within
// operand, after a negative one counts from the end of its dimension if
// rules.Negative says so. rules.OutOfRange is not used.
func DynamicSlice(dst, operand tensor.Tensor, start []int64, rules IndexRules) error {
	s := getScratch()
	defer s.release()
	return dynamicSlice(s, &dst, &operand, start, rules)
}

func dynamicSlice(s *scratch, dst, operand *tensor.Tensor, start []int64, rules IndexRules) error {
	if operand.IsZero() || dst.IsZero() {
		return argErr("operand and dst must both be given")
	}
	os, sizes := s.shape(dataShape, operand), s.shape(outShape, dst)
	if err := checkSliceStart("DynamicSlice", rules, os, sizes, start, "dst"); err != nil {
		return err
	}
	if dst.DType() != operand.DType() {
		return typeErr("dst has type %v, operand has type %v; they must be equal", dst.DType(), operand.DType())
	}
	s.see(dst, operand, operand, nil)
	if s.views[vDst].span().overlaps(s.views[vData].span()) {
		return argErr("dst overlaps operand")
	}
	rules.OutOfRange = OutOfRangeClamp
	if err := setSliceLayout(s, os, sizes, rules, true); err != nil {
		return err
	}
	if dst.Len() > 0 {
		// The start is the caller's; the walk keeps a copy of its own.
		s.ind = append(s.ind[:0], start...)
		gatherLayout(s, dst, operand, s.ind, tensor.Tensor{})
	}
	return nil
}

// DynamicUpdateSlice writes into dst a copy of operand (nothing when dst
// is operand) in which the slice that starts at start (one value per
// dimension) is replaced by update, as StableHLO's dynamic_update_slice:
// a start is clamped so that update lies within operand, after a negative
// one counts from the end of its dimension if rules.Negative says so.
func DynamicUpdateSlice(dst, operand, update tensor.Tensor, start []int64, rules IndexRules) error {
	s := getScratch()
	defer s.release()
	return dynamicUpdateSlice(s, &dst, &operand, &update, start, rules)
}

func dynamicUpdateSlice(s *scratch, dst, operand, update *tensor.Tensor, start []int64, rules IndexRules) error {
	if operand.IsZero() || update.IsZero() || dst.IsZero() {
		return argErr("operand, update and dst must all be given")
	}
	os, us := s.shape(dataShape, operand), s.shape(updateShape, update)
	if err := checkSliceStart("DynamicUpdateSlice", rules, os, us, start, "update"); err != nil {
		return err
	}
	switch {
	case dst.DType() != operand.DType() || update.DType() != operand.DType():
		return typeErr("dst, operand and update have types %v, %v and %v; they must be equal",
			dst.DType(), operand.DType(), update.DType())
	case !dst.SameShape(*operand):
		return shapeErr("dst has shape %v, operand has shape %v; they must be equal", dst.Shape(), os)
	}
	s.see(dst, operand, operand, update)
	d := s.views[vDst].span()
	if x := s.views[vData].span(); !d.same(x) && d.overlaps(x) {
		return argErr("dst overlaps operand without being operand")
	}
	if d.overlaps(s.views[vUpd].span()) {
		return argErr("dst overlaps update")
	}
	opt := ScatterOptions{Rules: rules}
	opt.Rules.OutOfRange = OutOfRangeClamp
	if err := setSliceLayout(s, os, us, opt.Rules, false); err != nil {
		return err
	}
	s.ind = append(s.ind[:0], start...)                 // the caller's; the walk keeps a copy
	scatterLayout(s, dst, operand, update, s.ind, &opt) // clamped: no start is refused
	return nil
}

// setSliceLayout sets s.hlo to the walk of a slice of the given sizes
// within operand, a gather's if gathers, else a scatter's, under rules.
func setSliceLayout(s *scratch, operand, sizes tensor.Shape, rules IndexRules, gathers bool) error {
	r := len(operand)
	if r > len(dimsUpTo) {
		return shapeErr("operand %v has rank %d; at most %d is supported", operand, r, len(dimsUpTo))
	}
	s.shapes[indexShape] = append(s.shapes[indexShape][:0], r)
	l := &s.hlo
	l.set(&layoutDims{operand: operand, indices: s.shapes[indexShape], other: sizes, vecDim: 0,
		otherWin: dimsUpTo[:r], winOp: dimsUpTo[:r], winSize: sizes, comp: dimsUpTo[:r], runs: true}, rules)
	l.gathers = gathers
	return nil
}

// checkSliceStart checks, for operator op, that rules hold for a slice and
// that a slice of the given sizes (the shape of what is called name) at
// start fits operand.
func checkSliceStart(op string, rules IndexRules, operand, sizes tensor.Shape, start []int64, name string) error {
	if rules.Negative == NegativeSkip {
		return negativeSkipErr(op)
	}
	if len(start) != len(operand) {
		return shapeErr("%d start indices for operand %v of rank %d", len(start), operand, len(operand))
	}
	if len(sizes) != len(operand) {
		return shapeErr("%s has rank %d, operand %v has rank %d", name, len(sizes), operand, len(operand))
	}
	for d, s := range sizes {
		if s > operand[d] {
			return shapeErr("%s %v is larger than operand %v in dimension %d", name, sizes, operand, d)
		}
	}
	return nil
}
