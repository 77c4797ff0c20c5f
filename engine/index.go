package engine

import (
	"github.com/scatter-dev/scatter/tensor"
)

// limit holds the index values a dimension of size size accepts under
// some rules: [0, size), and [-size, 0) too where negative values count
// from the end.
type limit struct {
	size int
	// fromEnd is what a negative index value adds: size where negative
	// values count from the end, 0 where they are out of range (and stay
	// so, below zero).
	fromEnd int64
}

// wrap returns the position that index value v names, fromEnd being what
// a negative value adds (limit.fromEnd). One unsigned test then checks
// both ends: v is in range exactly when uint64(wrap(v, fromEnd)) is below
// the dimension's size.
func wrap(v, fromEnd int64) int64 { return v + v>>63&fromEnd }

// pos maps an index value to its position; ok is false for a value
// outside l, and p is then meaningless.
func (l limit) pos(v int64) (p int, ok bool) {
	w := wrap(v, l.fromEnd)
	return int(w), uint64(w) < uint64(l.size)
}

// firstBad returns the smallest position i of ind whose value lies
// outside lims[i%len(lims)], or -1; it reads in parallel. With
// OutOfRangeSkip no value is bad.
func firstBad(s *scratch, ind []int64, lims []limit, rules IndexRules) int {
	if rules.OutOfRange == OutOfRangeSkip || len(lims) == 0 {
		return -1
	}
	if len(lims) == 1 && len(ind) <= minWork {
		// One goroutine: no job to set up.
		return outside(ind, lims[0])
	}
	p := parts(len(ind))
	s.bad.ind, s.bad.lims, s.bad.found = ind, lims, s.noneFound(p)
	steal(len(ind), p, &s.bad, s, true)
	return leastOf(s.found)
}

// badJob is the parallel part of firstBad.
type badJob struct {
	ind   []int64
	lims  []limit
	found []int
}

func (j *badJob) work(w, lo, hi int) {
	if len(j.lims) == 1 {
		if i := outside(j.ind[lo:hi], j.lims[0]); i >= 0 {
			j.found[w] = lo + i
		}
		return
	}
	k, l := len(j.lims), lo%len(j.lims)
	for i := lo; i < hi; i++ {
		if _, ok := j.lims[l].pos(j.ind[i]); !ok {
			j.found[w] = i
			return
		}
		if l++; l == k {
			l = 0
		}
	}
}

// outside returns the position of the first value of ind outside l, or
// -1. It first finds the smallest and the largest value, a loop without
// branches, and looks for the position only when one of them is outside:
// every value is inside exactly when both are. A dimension of size 0
// admits no value.
func outside(ind []int64, l limit) int {
	switch {
	case len(ind) == 0:
		return -1
	case l.size == 0:
		return 0
	}
	lo := -l.fromEnd
	span := uint64(int64(l.size) - 1 - lo)
	// Every value is inside when the OR of their distances from lo is not
	// above span, a test that takes one operation per value. It is exact
	// when span+1 is a power of two, as for dimensions of a power-of-two
	// size; otherwise the OR may exceed span although no value does, and
	// the search below finds nothing.
	if orDistances(ind, lo) <= span {
		return -1
	}
	// Four values at a time, the largest of their distances from lo
	// against span: no chain of dependent compares from one value to the
	// next, and one branch per four.
	i := 0
	for ; i+4 <= len(ind); i += 4 {
		x := ind[i : i+4 : i+4]
		if max(uint64(x[0]-lo), uint64(x[1]-lo), uint64(x[2]-lo), uint64(x[3]-lo)) > span {
			break
		}
	}
	for ; i < len(ind); i++ {
		if uint64(ind[i]-lo) > span {
			return i
		}
	}
	return -1
}

// placed checks ind, the single indices of a small call, against l,
// copying them into s on the way (copyOr), and returns the copy when every
// value is in range and none is negative, each value then being its
// position; nil when a value is negative (checked, but to be wrapped).
// bad is the position of the first value outside l, or -1. The OR of the
// values says that all are in [0, size) when it is below size, which it
// is when they are and size is a power of two; otherwise outside looks at
// each. The copy is the call's own, checked itself: no other goroutine
// can change a position between its check and its use, so the loops that
// take it need check nothing (addPlaced).
func (s *scratch) placed(ind []int64, l limit) (pos []int64, bad int) {
	if len(ind) > 0 && l.size == 0 {
		return nil, 0
	}
	s.ind = resize(s.ind, len(ind)) // ind itself, for indices widened into it
	if or := copyOr(s.ind, ind); or >= uint64(l.size) {
		if bad := outside(s.ind, l); bad >= 0 {
			return nil, bad
		}
		if int64(or) < 0 {
			return nil, -1
		}
	}
	return s.ind, -1
}

// sumsPlaced reports whether a small call in place into dst with opt may
// add float32 updates by scratch.sumPlaced, as far as opt and dst's type
// say: sums without ExcludeSelf that refuse an index out of range, where
// the assembly copies and checks the indices (canPlace).
func sumsPlaced(dst *tensor.Tensor, opt *ScatterOptions) bool {
	return canPlace && opt.Reduction == Add && !opt.ExcludeSelf && dst.DType() == tensor.Float32 &&
		opt.Rules.OutOfRange == OutOfRangeError
}

// sumPlaced adds the float32 updates (s.views[vUpd]) into dst
// (s.views[vDst]) at the indices ind, in rows of last, row r into dst's
// row r of l.size elements: the indices checked into a copy of their own
// (placed), and added without a check each, with no reducer to set up.
// It reports false, adding nothing, when a value is negative (checked,
// for a loop that wraps it), and bad is the position of the first value
// outside l, or -1.
func (s *scratch) sumPlaced(ind []int64, l limit, last int) (added bool, bad int) {
	pos, bad := s.placed(ind, l)
	if bad >= 0 || pos == nil {
		return false, bad
	}
	addPlaced(words[float32](s.views[vDst]), l.size, pos, last, words[float32](s.views[vUpd]))
	return true, -1
}

// firstNegative returns the position of the first negative value of ind
// when the rules refuse negative values only (NegativeRefused), or -1: the
// kernels call it before any other check of the values, which then skip
// (or clamp) the values past the end. It is small enough to be inlined,
// so that the kernels' small calls pay a comparison for it, not a call.
func firstNegative(ind []int64, rules IndexRules) int {
	if !rules.negativesOnly() {
		return -1
	}
	return negativeAt(ind)
}

// negativeAt returns the position of the first negative value of ind, or
// -1.
func negativeAt(ind []int64) int {
	for i, v := range ind {
		if v < 0 {
			return i
		}
	}
	return -1
}

// orDistances returns the OR of uint64(v - lo) over the values v of ind:
// orBlocks for the whole blocks of eight values, then the rest here.
func orDistances(ind []int64, lo int64) uint64 {
	n := len(ind) &^ 7
	acc := orBlocks(ind[:n], lo)
	for _, v := range ind[n:] {
		acc |= uint64(v - lo)
	}
	return acc
}

// indexErr builds the error for the element at flat position flat of
// indices, which addresses dimension dim of a tensor of shape data. For the
// ND operators k is the tuple length; 0 otherwise.
func indexErr(rules IndexRules, indices tensor.Tensor, flat int, data tensor.Shape, dim, k int) error {
	if rules.Report == ReportLast {
		flat, dim = lastBad(rules, indices, flat, data, dim, k)
	}
	shape := indices.Shape()
	value, _ := indices.IntAt(flat) // a uint64 as its bits; Unsigned says so
	e := &IndexError{
		Pos:       shape.Coords(flat),
		Value:     value,
		Dim:       dim,
		Size:      data[dim],
		DataShape: data.Clone(),
	}
	e.Unsigned = indices.DType() == tensor.Uint64
	e.Min, e.Max = rules.bounds(e.Size)
	if k > 0 {
		start := flat - flat%k
		e.TupleDim = len(e.Pos) - 1
		e.Tuple = make([]int64, k)
		for j := range e.Tuple {
			e.Tuple[j], _ = indices.IntAt(start + j)
		}
	}
	return e
}

// lastBad returns, for ReportLast, the flat position in indices of the
// bad index to name, and the dimension of data it addresses, given a bad
// one at flat addressing dimension dim: the first bad component of the
// last tuple (of k components, addressing consecutive dimensions; one
// value when k is 0) that holds one. It runs only on the way to an
// error.
func lastBad(rules IndexRules, indices tensor.Tensor, flat int, data tensor.Shape, dim, k int) (int, int) {
	width, first := max(k, 1), dim
	if k > 0 {
		first = dim - flat%k
	}
	for t := indices.Len()/width - 1; t >= 0; t-- {
		for j := range width {
			v, _ := indices.IntAt(t*width + j)
			if rules.negativesOnly() {
				if v < 0 && indices.DType() != tensor.Uint64 {
					return t*width + j, first + j
				}
				continue
			}
			lo, hi := rules.bounds(data[first+j])
			if v < 0 && rules.Negative == NegativeSkip && indices.DType() != tensor.Uint64 {
				continue // dropped, not bad
			}
			if v < lo || v > hi || indices.DType() == tensor.Uint64 && v < 0 {
				return t*width + j, first + j
			}
		}
	}
	return flat, dim
}

// tupleOffset returns the offset, by strides, of the slice that tuple
// selects, or -1 when a component lies outside its limit (an error the
// caller reports, or a skip). bad is the position in tuple of that
// component, or -1.
func tupleOffset(tuple []int64, lims []limit, strides []int) (off, bad int) {
	for j, v := range tuple {
		p, ok := lims[j].pos(v)
		if !ok {
			return -1, j
		}
		off += p * strides[j]
	}
	return off, -1
}

// negativePass is the pass over every index that a scatter's rules for
// negative indices ask before any update is applied. Under NegativeSkip
// it looks for an index past the end of its dimension (dims[i%len(dims)]),
// an error under OutOfRangeError, and returns skipAll, by which the
// kernels then drop every index outside its dimension, negative ones
// among them; under NegativeRefused it looks for the first negative
// index. bad is the position of the index at fault, or -1.
// Call it where rules.negativePass() says there is a pass to make.
func negativePass(ind []int64, dims []int, rules IndexRules) (run IndexRules, bad int) {
	if rules.Negative == NegativeSkip {
		if rules.OutOfRange == OutOfRangeError {
			if bad := pastEnd(ind, dims); bad >= 0 {
				return rules, bad
			}
		}
		return skipAll, -1
	}
	return rules, firstNegative(ind, rules)
}

// negativePass reports whether r asks for negativePass before a scatter:
// NegativeSkip and NegativeRefused do.
func (r IndexRules) negativePass() bool {
	return r.Negative == NegativeSkip || r.Negative == NegativeRefused
}

// skipAll are the rules the scatters run under once NegativeSkip's check
// of the indices past the end has passed: every index outside its
// dimension, negative or past the end, is skipped.
var skipAll = IndexRules{Negative: NegativeError, OutOfRange: OutOfRangeSkip}

// pastEnd returns the smallest position i of ind whose value is at or
// past the end of its dimension, dims[i%len(dims)], or -1; a negative
// value is not (NegativeSkip drops it). A uint64 index above MaxInt64,
// saturated by the widening, is past the end.
func pastEnd(ind []int64, dims []int) int {
	if len(dims) == 0 || len(ind) == 0 {
		return -1
	}
	if len(dims) == 1 {
		// The largest value first, a loop without branches: no value is
		// past the end when it is not.
		size := int64(dims[0])
		var top int64 = -1
		for _, v := range ind {
			top = max(top, v)
		}
		if top < size {
			return -1
		}
		for i, v := range ind {
			if v >= size {
				return i
			}
		}
		return -1
	}
	k := len(dims)
	for i, v := range ind {
		if v >= int64(dims[i%k]) {
			return i
		}
	}
	return -1
}

// moves reports whether the rules move an index outside its range into
// it (OutOfRangeClamp, OutOfRangeWrap), which only the general kernels do.
func (r IndexRules) moves() bool {
	return r.OutOfRange == OutOfRangeClamp || r.OutOfRange == OutOfRangeWrap
}

// moved returns the position that the rules r, which move indices (see
// moves), give p, a value outside [0, size) of a dimension with size > 0
// positions.
func (r IndexRules) moved(p int64, size int) int64 {
	if r.OutOfRange == OutOfRangeWrap {
		if p %= int64(size); p < 0 {
			p += int64(size)
		}
		return p
	}
	return min(max(p, 0), int64(size-1))
}
