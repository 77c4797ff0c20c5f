// Package nest records the shape of a tensor literal written as nested
// lists ("[[1, 2], [3, 4]]") as a reader of the literal's text meets its
// lists and items, and finds a literal whose lists are ragged. Both the
// tensor package's literals and StableHLO's dense literals are read with
// it; each reads its own tokens and words its own errors around these.
package nest

import "fmt"

// Shape is the shape of the nested lists read so far. The zero Shape is
// ready for the outermost list, at depth 0.
type Shape struct {
	// Dims holds, by depth, the length of every list at that depth: -1
	// until the first of them ends. Once the outermost list has ended it
	// is the literal's shape.
	Dims  []int
	lists []bool // by depth: whether the items there are lists or elements
}

// Item records an item, a list or an element, of a list at depth dim. It
// fails when the items at that depth read so far were of the other kind.
func (s *Shape) Item(dim int, list bool) error {
	if dim == len(s.lists) {
		s.lists = append(s.lists, list)
		s.Dims = append(s.Dims, -1)
	} else if s.lists[dim] != list {
		return fmt.Errorf("lists and elements mixed at depth %d", dim)
	}
	return nil
}

// End records the end of a list at depth dim that held n items. It fails
// when another list at that depth held a different number.
func (s *Shape) End(dim, n int) error {
	if dim == len(s.Dims) { // an empty list: the depth below it holds nothing
		s.Dims = append(s.Dims, 0)
		s.lists = append(s.lists, false)
	}
	switch s.Dims[dim] {
	case -1:
		s.Dims[dim] = n
	case n:
	default:
		return fmt.Errorf("a list at depth %d has %d items, another %d", dim, n, s.Dims[dim])
	}
	return nil
}
