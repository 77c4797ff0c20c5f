package numpy

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// AddAt and its variants (SubtractAt, ...), and the reduceat functions
// (AddReduceat, ...), are generated into zvariants.go from the table of
// the genvariants command.
//go:generate go run ../../internal/genvariants numpy

// noTuple is the empty index tuple: a ScatterND index of one tuple of no
// components, which addresses the whole of a.
var noTuple = tensor.Must(tensor.New(tensor.Int64, tensor.Shape{0}))

// ufuncAt runs ufunc.at with reduction red under the Behavior bh.
func ufuncAt(bh *dialect.Behavior, red engine.Reduction, dst, a tensor.Tensor, indices Indices, b tensor.Tensor) error {
	if err := bh.CheckData("a", a); err != nil {
		return err
	}
	for k, ix := range indices {
		name := "indices"
		if len(indices) > 1 {
			name = fmt.Sprintf("indices[%d]", k)
		}
		if err := opcall.CheckIndices(ix, name, bh.IndexTypes); err != nil {
			return err
		}
	}
	if err := checkWritten(dst, a, "a", b, "b"); err != nil {
		return err
	}
	sh := opcall.GetShapes()
	defer sh.Release()
	as := sh.Of(a)
	k := len(indices)
	if k > len(as) {
		return fmt.Errorf("%w: too many indices for a: a has %d dimensions, %d index arrays were given",
			engine.ErrShape, len(as), k)
	}
	var idx tensor.Tensor
	var err error
	var target tensor.Shape
	switch k {
	case 0:
		idx, target = noTuple, as
	case 1:
		is := sh.Of(indices[0])
		if idx, err = indices[0].View(sh.Ptr(append(append(sh.Buf(len(is)+1), is...), 1))); err != nil {
			return err
		}
		target = append(append(sh.Buf(len(is)+len(as)-1), is...), as[1:]...)
	default:
		shapes := make([]tensor.Shape, k)
		for i, ix := range indices {
			shapes[i] = ix.Shape()
		}
		bs, ok := tensor.Broadcast(shapes...)
		if !ok {
			return fmt.Errorf("%w: the index arrays of shapes %v do not broadcast together", engine.ErrShape, shapes)
		}
		if idx, err = stack(indices, bs); err != nil {
			return err
		}
		target = append(bs, as[k:]...)
	}
	bsh := sh.Of(b)
	if !bsh.BroadcastsTo(target) {
		return fmt.Errorf("%w: b of shape %v cannot be broadcast to the indexed shape %v", engine.ErrShape, bsh, target)
	}
	upd, err := broadcastTo(b, target)
	if err != nil {
		return err
	}
	err = engine.ScatterND(dst, a, idx, upd, engine.ScatterOptions{Reduction: red, Rules: indexRules, Arith: bh.Arith})
	if err == nil {
		return nil
	}
	return atErr(err, a, indices, idx)
}

// atErr restates an index error of ufunc.at: the engine saw the indices
// as tuples idx along their last dimension, of one component (one index
// array) or of the k arrays broadcast.
func atErr(err error, a tensor.Tensor, indices Indices, idx tensor.Tensor) error {
	e, ok := asIndexError(err, "a", a.Shape())
	if !ok {
		return err
	}
	last := len(e.ie.Pos) - 1
	e.param, e.pos = "indices", e.ie.Pos[:last]
	if len(indices) > 1 {
		c := e.ie.Pos[last]
		e.param, e.broadcast = fmt.Sprintf("indices[%d]", c), idx.Shape()[:last]
		broadcastValue(e, indices[c], e.broadcast, e.pos)
	}
	return e
}

// stack returns the index tuples of a tuple of index arrays that
// broadcast to shape: an int64 tensor of shape shape + [len(indices)],
// each array's values (broadcast) along the last dimension.
func stack(indices Indices, shape tensor.Shape) (tensor.Tensor, error) {
	k := len(indices)
	out := append(shape.Clone(), k)
	if err := tensor.CheckSize(tensor.Int64, out); err != nil {
		return tensor.Tensor{}, fmt.Errorf("%w: index tuples of shape %v: %w", engine.ErrShape, out, err)
	}
	n, _ := out.NumElements()
	vals := make([]int64, n)
	strides := make([][]int, k)
	for i, ix := range indices {
		strides[i] = ix.Shape().BroadcastStrides(shape)
	}
	walk(shape, func(p int, c []int) {
		for i, ix := range indices {
			j := 0
			for d, x := range c {
				j += x * strides[i][d]
			}
			vals[p*k+i] = indexValue(ix, j)
		}
	})
	return tensor.From(out, vals)
}
