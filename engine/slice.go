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
	if operand.IsZero() || dst.IsZero() {
		return argErr("operand and dst must both be given")
	}
	os, sizes := operand.Shape(), dst.Shape()
	if err := checkSliceStart(os, sizes, start, "dst"); err != nil {
		return err
	}
	if dst.DType() != operand.DType() {
		return typeErr("dst has type %v, operand has type %v; they must be equal", dst.DType(), operand.DType())
	}
	if Overlap(dst, operand) {
		return argErr("dst overlaps operand")
	}
	r := len(os)
	if r > len(dimsUpTo) {
		return shapeErr("operand %v has rank %d; at most %d is supported", os, r, len(dimsUpTo))
	}
	rules.OutOfRange = OutOfRangeClamp
	l := newLayout(os, tensor.Shape{r}, sizes, 0, dimsUpTo[:r], dimsUpTo[:r], sizes, dimsUpTo[:r], nil, nil, rules, true)
	l.gathers = true
	l.gather(dst, operand, start, GatherOptions{Rules: rules})
	return nil
}

// DynamicUpdateSlice writes into dst a copy of operand (nothing when dst
// is operand) in which the slice that starts at start (one value per
// dimension) is replaced by update, as StableHLO's dynamic_update_slice:
// a start is clamped so that update lies within operand, after a negative
// one counts from the end of its dimension if rules.Negative says so.
func DynamicUpdateSlice(dst, operand, update tensor.Tensor, start []int64, rules IndexRules) error {
	if operand.IsZero() || update.IsZero() || dst.IsZero() {
		return argErr("operand, update and dst must all be given")
	}
	os, us := operand.Shape(), update.Shape()
	if err := checkSliceStart(os, us, start, "update"); err != nil {
		return err
	}
	switch {
	case dst.DType() != operand.DType() || update.DType() != operand.DType():
		return typeErr("dst, operand and update have types %v, %v and %v; they must be equal",
			dst.DType(), operand.DType(), update.DType())
	case !dst.Shape().Equal(os):
		return shapeErr("dst has shape %v, operand has shape %v; they must be equal", dst.Shape(), os)
	case !SameMemory(dst, operand) && Overlap(dst, operand):
		return argErr("dst overlaps operand without being operand")
	case Overlap(dst, update):
		return argErr("dst overlaps update")
	}
	opt := ScatterOptions{Rules: rules}
	r := len(os)
	if r > len(dimsUpTo) {
		return shapeErr("operand %v has rank %d; at most %d is supported", os, r, len(dimsUpTo))
	}
	opt.Rules.OutOfRange = OutOfRangeClamp
	l := newLayout(os, tensor.Shape{r}, us, 0, dimsUpTo[:r], dimsUpTo[:r], us, dimsUpTo[:r], nil, nil, opt.Rules, true)
	starts, _ := l.starts(start, opt.Rules)
	defer putStarts(starts)
	l.scatter(dst, operand, update, starts, opt)
	return nil
}

// checkSliceStart checks a slice of the given sizes (the shape of what is
// called name) at start against operand.
func checkSliceStart(operand, sizes tensor.Shape, start []int64, name string) error {
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
