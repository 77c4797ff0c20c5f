package tensor

// Broadcasting as NumPy and PyTorch define it: shapes are aligned at
// their last dimensions, and a dimension of size 1, or one a shorter shape
// lacks, stretches to the other's size.

// Broadcast returns the shape that shapes broadcast to, or false when two
// of them have sizes that differ in a dimension and neither is 1. No
// shapes broadcast to a scalar's.
func Broadcast(shapes ...Shape) (Shape, bool) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make(Shape, rank)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		if !out.MergeBroadcast(s) {
			return nil, false
		}
	}
	return out, true
}

// MergeBroadcast merges o into s, in place: s, of at least o's rank, is
// what some shapes broadcast to (all 1s before the first), and becomes
// what they and o broadcast to, taking o's size wherever it has 1. It
// returns false, s partly merged, when a size of o differs from s's and
// neither is 1.
func (s Shape) MergeBroadcast(o Shape) bool {
	lead := len(s) - len(o)
	for i, d := range o {
		switch m := s[lead+i]; {
		case d == m || d == 1:
		case m == 1:
			s[lead+i] = d
		default:
			return false
		}
	}
	return true
}

// BroadcastsTo reports whether s broadcasts to target unchanged: s has no
// more dimensions than target, and each of them is 1 or target's size
// there, counted from the last.
func (s Shape) BroadcastsTo(target Shape) bool {
	if len(s) > len(target) {
		return false
	}
	lead := len(target) - len(s)
	for i, d := range s {
		if d != 1 && d != target[lead+i] {
			return false
		}
	}
	return true
}

// BroadcastsTo reports whether t's shape broadcasts to target (see
// Shape.BroadcastsTo).
func (t Tensor) BroadcastsTo(target Shape) bool { return t.dims().BroadcastsTo(target) }

// BroadcastStrides returns, for each dimension of to, the row-major stride
// in s, in elements, of a tensor of shape s broadcast to to: 0 where s
// stretches (a size of 1 against a larger one, or a dimension s lacks).
// The offset of the element of the tensor of shape s that an element of
// the broadcast one repeats is the sum of the element's coordinates times
// these strides. s must broadcast to to (see BroadcastsTo).
func (s Shape) BroadcastStrides(to Shape) []int {
	st := make([]int, len(to))
	lead, acc := len(to)-len(s), 1
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] != 1 || to[lead+i] == 1 {
			st[lead+i] = acc
		}
		acc *= s[i]
	}
	return st
}
