package numpy

import (
	"errors"
	"fmt"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// indexError is an index out of range told in NumPy's words ("index 7 is
// out of bounds for axis 0 with size 3"), at its position in the index
// array the caller gave. It wraps the engine's *engine.IndexError.
type indexError struct {
	ie *engine.IndexError
	// param names the index array ("ind", "indices", "indices[1]"), and
	// pos is the position in it, of its broadcast shape when that is set.
	param     string
	pos       []int
	broadcast tensor.Shape
	// array names the array indexed ("a", "arr") and shape is its shape
	// as the caller gave it.
	array string
	shape tensor.Shape
}

func (e *indexError) Error() string {
	in := e.param
	if e.broadcast != nil {
		in = fmt.Sprintf("%s (broadcast to %v)", e.param, e.broadcast)
	}
	pos := ""
	if len(e.pos) > 0 {
		pos = tensor.Shape(e.pos).String()
	}
	return fmt.Sprintf("index out of range: %s%s = %s: index %s is out of bounds for axis %d with size %d (%s of shape %v)",
		in, pos, e.ie.ValueString(), e.ie.ValueString(), e.ie.Dim, e.ie.Size, e.array, e.shape)
}

// Unwrap returns the engine's *engine.IndexError.
func (e *indexError) Unwrap() error { return e.ie }

// asIndexError returns err, when it is an engine index error, as an
// indexError of the array called array, of the given shape, for the
// caller to set the position and names; false for other errors. Callers
// call it only on an error: its variable for errors.As lives on the heap.
//
//go:noinline
func asIndexError(err error, array string, shape tensor.Shape) (*indexError, bool) {
	var ie *engine.IndexError
	if !errors.As(err, &ie) {
		return nil, false
	}
	return &indexError{ie: ie, pos: ie.Pos, array: array, shape: shape.Clone()}, true
}

// broadcastValue sets e's value to that of the element of ix, an index
// array broadcast to shape, at position pos of shape, as the caller gave
// it: the tuples the engine saw hold a uint64 beyond int64 as the largest
// int64 (see indexValue).
func broadcastValue(e *indexError, ix tensor.Tensor, shape tensor.Shape, pos []int) {
	st := ix.Shape().BroadcastStrides(shape)
	j := 0
	for d, x := range pos {
		j += x * st[d]
	}
	e.ie.Value, _ = ix.IntAt(j)
	e.ie.Unsigned = ix.DType() == tensor.Uint64
}
