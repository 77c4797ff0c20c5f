package numpy

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// TakeAlongAxis returns the elements of arr at the positions along axis
// that indices gives for each element: np.take_along_axis(arr, indices,
// axis). indices has arr's rank; in every dimension but axis it and arr
// have the same size or one of them has size 1 (they broadcast), and the
// result has the broadcast shape with indices' size along axis. With
// Flat, indices is 1-D and arr is flattened. A negative index counts from
// the end; one outside [-size, size-1] is an error.
func TakeAlongAxis(arr, indices tensor.Tensor, axis Axis) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	g, err := alongArgs(sh, arr, indices, axis)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(takeAlongName, err)
	}
	return opcall.Alloc(takeAlongName, arr.DType(), g.out, func(dst tensor.Tensor) error {
		return g.err(g.take(dst))
	})
}

// TakeAlongAxisInto is TakeAlongAxis writing into dst, which has arr's
// element type and the result's shape and does not overlap arr or
// indices. It allocates nothing unless indices and arr broadcast.
func TakeAlongAxisInto(dst, arr, indices tensor.Tensor, axis Axis) error {
	sh := opcall.GetShapes()
	defer sh.Release()
	g, err := alongArgs(sh, arr, indices, axis)
	if err != nil {
		return opcall.Wrap(takeAlongName, err)
	}
	return opcall.Wrap(takeAlongName, g.err(g.take(dst)))
}

// PutAlongAxis writes values into arr, in place, at the positions along
// axis that indices gives for each element: np.put_along_axis(arr,
// indices, values, axis). indices broadcasts against arr as in
// TakeAlongAxis, and values (of arr's element type) broadcasts to the
// shape of the result TakeAlongAxis would have. Of duplicate positions the
// last in row-major index order wins. Every index is checked before
// anything is written.
func PutAlongAxis(arr, indices, values tensor.Tensor, axis Axis) error {
	return PutAlongAxisInto(arr, arr, indices, values, axis)
}

// PutAlongAxisInto is PutAlongAxis writing the updated copy of arr into
// dst, which has arr's element type and shape and may be arr itself. It
// allocates nothing unless indices and arr broadcast or values does not
// have the shape of indices.
func PutAlongAxisInto(dst, arr, indices, values tensor.Tensor, axis Axis) error {
	sh := opcall.GetShapes()
	defer sh.Release()
	g, err := alongArgs(sh, arr, indices, axis)
	if err == nil {
		err = g.err(g.put(sh, dst, values))
	}
	return opcall.Wrap(putAlongName, err)
}

// along is a checked call of take_along_axis or put_along_axis.
type along struct {
	orig         tensor.Tensor // arr as the caller gave it
	arr, indices tensor.Tensor // arr flattened and the axis 0 for Flat
	axis         int
	// out is the indexed shape: the broadcast of arr's and indices' shapes
	// in every dimension but axis, indices' size along it.
	out tensor.Shape
	// same says that arr and indices have the same size in every
	// dimension but axis, which the engine's elements forms take as they
	// are.
	same bool
}

func alongArgs(sh *opcall.Shapes, arr, indices tensor.Tensor, axis Axis) (g along, err error) {
	if err := opcall.CheckInputs(takeAlongB, arr, "arr", indices, "indices"); err != nil {
		return g, err
	}
	g = along{orig: arr, arr: arr, indices: indices}
	if !axis.set {
		if indices.Rank() != 1 {
			return g, fmt.Errorf("%w: when axis is None, indices must have a single dimension, got shape %v",
				engine.ErrShape, indices.Shape())
		}
		flat, err := arr.View(sh.Ptr(append(sh.Buf(1), arr.Len())))
		if err != nil {
			return g, err
		}
		g.arr = flat
	} else {
		ax, err := dialect.NormAxis(axis.n, arr.Rank(), "arr")
		if err != nil {
			return g, err
		}
		g.axis = ax
	}
	as, is := sh.Of(g.arr), sh.Of(indices)
	if len(as) != len(is) {
		return g, fmt.Errorf("%w: indices and arr must have the same number of dimensions, got shapes %v and %v",
			engine.ErrShape, is, as)
	}
	g.out, g.same = sh.Buf(len(as)), true
	for d := range as {
		switch x, y := as[d], is[d]; {
		case d == g.axis || x == y:
			g.out = append(g.out, y)
		case x == 1:
			g.out, g.same = append(g.out, y), false
		case y == 1:
			g.out, g.same = append(g.out, x), false
		default:
			return g, fmt.Errorf("%w: indices of shape %v and arr of shape %v do not broadcast in dimension %d",
				engine.ErrShape, is, as, d)
		}
	}
	return g, nil
}

func (g *along) take(dst tensor.Tensor) error {
	if g.same {
		return engine.GatherElements(dst, g.arr, g.indices, g.axis, indexRules)
	}
	tuples, err := g.tuples()
	if err != nil {
		return err
	}
	return engine.GatherND(dst, g.arr, tuples, 0, indexRules)
}

func (g *along) put(sh *opcall.Shapes, dst, values tensor.Tensor) error {
	if err := checkWritten(dst, g.orig, "arr", values, "values"); err != nil {
		return err
	}
	vs := sh.Of(values)
	if !vs.BroadcastsTo(g.out) {
		return fmt.Errorf("%w: values of shape %v cannot be broadcast to the indexed shape %v", engine.ErrShape, vs, g.out)
	}
	vals, err := broadcastTo(values, g.out)
	if err != nil {
		return err
	}
	df, err := dst.View(sh.Ptr(sh.Of(g.arr)))
	if err != nil {
		return err
	}
	opt := engine.ScatterOptions{Reduction: engine.None, Rules: indexRules}
	if g.same {
		return engine.ScatterElements(df, g.arr, g.indices, vals, g.axis, opt)
	}
	tuples, err := g.tuples()
	if err != nil {
		return err
	}
	return engine.ScatterND(df, g.arr, tuples, vals, opt)
}

// err restates an index error of the call: the engine saw indices as
// they are, or, broadcast, as full tuples along their last dimension.
func (g *along) err(err error) error {
	if err == nil {
		return nil
	}
	e, ok := asIndexError(err, "arr", g.orig.Shape())
	if !ok {
		return err
	}
	e.param = "indices"
	if !g.same {
		e.pos, e.broadcast = e.ie.Pos[:len(e.ie.Pos)-1], g.out.Clone()
		e.ie.Dim = g.axis
		broadcastValue(e, g.indices, g.out, e.pos)
	}
	return e
}

// tuples returns the full index tuples of a call whose indices and arr
// broadcast: an int64 tensor of shape out + [rank], whose tuple at each
// position p of out holds p, or 0 along a dimension of size 1 in arr,
// with the index value that indices holds for p (read likewise) along
// axis.
func (g *along) tuples() (tensor.Tensor, error) {
	r := len(g.out)
	shape := append(g.out.Clone(), r)
	if err := tensor.CheckSize(tensor.Int64, shape); err != nil {
		return tensor.Tensor{}, fmt.Errorf("%w: index tuples of shape %v: %w", engine.ErrShape, shape, err)
	}
	n, _ := shape.NumElements()
	vals := make([]int64, n)
	as, is := g.arr.Shape(), g.indices.Shape()
	ist := is.BroadcastStrides(g.out)
	walk(g.out, func(i int, c []int) {
		t := vals[i*r : (i+1)*r]
		j := 0
		for d, x := range c {
			j += x * ist[d]
			if as[d] != 1 {
				t[d] = int64(x)
			}
		}
		t[g.axis] = indexValue(g.indices, j)
	})
	return tensor.From(shape, vals)
}
