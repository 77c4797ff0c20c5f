package numpy

import (
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// Mode is the mode argument of Take and Put: what an index outside the
// dimension does.
type Mode uint8

// The modes.
const (
	ModeRaise Mode = iota // a negative index counts from the end; one outside [-size, size-1] is an error
	ModeWrap              // every index is taken modulo the size, as Python's % does
	ModeClip              // an index below 0 reads 0, one past the end the last position
)

var modeNames = [...]string{"raise", "wrap", "clip"}

// modeRules are the index rules of each mode, which the engine executes.
var modeRules = [...]engine.IndexRules{
	ModeRaise: {Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeError},
	ModeWrap:  {Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeWrap},
	ModeClip:  {Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeClamp},
}

// indexRules are the rules of NumPy's integer-array indexing
// (take_along_axis, put_along_axis, ufunc.at): mode raise's.
var indexRules = modeRules[ModeRaise]

// String returns the mode's name as NumPy spells it ("raise", "wrap",
// "clip").
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

// ParseMode reads a mode as NumPy spells it: "raise", "wrap" or "clip";
// "" is ModeRaise, NumPy's default. Its error wraps dialect.ErrAttribute.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return ModeRaise, nil
	}
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("%w: mode %q is not one of raise, wrap, clip", dialect.ErrAttribute, s)
}

// check reports a Mode outside the three.
func (m Mode) check() error {
	if int(m) >= len(modeNames) {
		return fmt.Errorf("%w: mode %d is not one of ModeRaise, ModeWrap, ModeClip", dialect.ErrAttribute, int(m))
	}
	return nil
}

// Axis is the axis argument of Take, TakeAlongAxis and PutAlongAxis: an
// axis (AxisAt), counted from the end when negative, or Flat, NumPy's
// axis=None, for the flattened array. The zero Axis is Flat.
type Axis struct {
	n   int
	set bool
}

// Flat is axis=None: the operator works on the flattened array.
var Flat = Axis{}

// AxisAt returns axis n, which counts from the end when negative.
func AxisAt(n int) Axis { return Axis{n: n, set: true} }

// String returns "None" for Flat, else the axis number.
func (a Axis) String() string {
	if !a.set {
		return "None"
	}
	return strconv.Itoa(a.n)
}

// axisOf reads the axis attribute of a generic call: absent is Flat.
func axisOf(c dialect.Call) Axis {
	if v, ok := c.Attrs["axis"]; ok {
		return AxisAt(int(v.Int))
	}
	return Flat
}

// Indices are the indices of ufunc.at: one integer array, which indexes
// the first axis of a (a[indices]), or a tuple of integer arrays, which
// broadcast together and index the first len(Indices) dimensions
// (a[i0, i1, ...]). The empty tuple indexes the whole of a.
type Indices []tensor.Tensor

// indexValue returns element i of an integer tensor as an int64, a
// uint64 beyond int64 read as the largest int64 (past the end of any
// dimension, as the value itself is).
func indexValue(t tensor.Tensor, i int) int64 {
	v, _ := t.IntAt(i)
	if v < 0 && t.DType() == tensor.Uint64 {
		return math.MaxInt64
	}
	return v
}

// broadcastTo returns t broadcast to shape, to which it broadcasts
// (tensor.Broadcast), as a new tensor: t itself when it has that shape.
func broadcastTo(t tensor.Tensor, shape tensor.Shape) (tensor.Tensor, error) {
	if t.HasShape(shape) {
		return t, nil
	}
	n, err := shape.NumElements()
	if err == nil {
		err = tensor.CheckSize(t.DType(), shape)
	}
	if err != nil {
		return tensor.Tensor{}, fmt.Errorf("%w: broadcast to %v: %w", engine.ErrShape, shape, err)
	}
	src := reflect.ValueOf(t.Data())
	out := reflect.MakeSlice(src.Type(), n, n)
	if n > 0 && t.Len() == 1 {
		// One value everywhere (np.add.at(a, i, 1)): copies of what is
		// filled so far, doubling.
		out.Index(0).Set(src.Index(0))
		for done := 1; done < n; done *= 2 {
			reflect.Copy(out.Slice(done, n), out.Slice(0, done))
		}
		return tensor.Wrap(shape.Clone(), out.Interface())
	}
	// The trailing dimensions that t has in full are copied as blocks,
	// one for each position of the leading ones.
	ts := t.Shape()
	k, block := len(shape), 1
	for ; k > 0; k-- {
		if i := k - 1 - (len(shape) - len(ts)); i < 0 || ts[i] != shape[k-1] {
			break
		}
		block *= shape[k-1]
	}
	strides := ts.BroadcastStrides(shape)
	walk(shape[:k], func(o int, c []int) {
		j := 0
		for d, x := range c {
			j += x * strides[d]
		}
		reflect.Copy(out.Slice(o*block, (o+1)*block), src.Slice(j, j+block))
	})
	return tensor.Wrap(shape.Clone(), out.Interface())
}

// walk calls visit with the flat position and coordinates of every
// element of shape, in row-major order; c is reused between calls.
func walk(shape tensor.Shape, visit func(i int, c []int)) {
	n, err := shape.NumElements()
	if err != nil || n == 0 {
		return
	}
	c := make([]int, len(shape))
	for i := range n {
		visit(i, c)
		for d := len(c) - 1; d >= 0; d-- {
			if c[d]++; c[d] < shape[d] {
				break
			}
			c[d] = 0
		}
	}
}
