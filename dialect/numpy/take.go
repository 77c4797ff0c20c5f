package numpy

import (
	"fmt"
	"reflect"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// Take returns the elements of a at indices along axis:
// np.take(a, indices, axis=axis, mode=mode). Its shape is a.shape[:axis] +
// indices.shape + a.shape[axis+1:], or indices.shape for Flat, which takes
// from the flattened a. indices is of any integer type and any shape, a
// scalar too; mode says what an index outside the axis does.
func Take(a, indices tensor.Tensor, axis Axis, mode Mode) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	src, ax, err := takeArgs(sh, a, indices, axis, mode)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(takeName, err)
	}
	ss, is := sh.Of(src), sh.Of(indices)
	shape, err := engine.AppendGatherShape(sh.Buf(len(ss)+len(is)), ss, is, ax, 0)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(takeName, err)
	}
	return opcall.Alloc(takeName, a.DType(), shape, func(dst tensor.Tensor) error {
		return takeErr(take(sh, dst, src, indices, ax, mode), a)
	})
}

// TakeInto is Take writing into dst, which has a's element type and the
// shape of Take's result and does not overlap a or indices. It allocates
// nothing. Every index is checked before dst is written: a failed call
// leaves dst as it was, as NumPy's take leaves its out in mode raise.
func TakeInto(dst, a, indices tensor.Tensor, axis Axis, mode Mode) error {
	sh := opcall.GetShapes()
	defer sh.Release()
	src, ax, err := takeArgs(sh, a, indices, axis, mode)
	if err != nil {
		return opcall.Wrap(takeName, err)
	}
	return opcall.Wrap(takeName, takeErr(take(sh, dst, src, indices, ax, mode), a))
}

// takeErr restates an index error of take, whose positions are those of
// indices.
func takeErr(err error, a tensor.Tensor) error {
	if err == nil {
		return nil
	}
	if e, ok := asIndexError(err, "a", a.Shape()); ok {
		e.param = "indices"
		return e
	}
	return err
}

// take runs the gather: mode raise by the engine's Gather, the others by
// the general gather, which moves indices into range.
func take(sh *opcall.Shapes, dst, src, indices tensor.Tensor, ax int, mode Mode) error {
	if mode == ModeRaise {
		return engine.Gather(dst, src, indices, ax, 0, modeRules[ModeRaise])
	}
	d := takeDims(sh, sh.Of(src), indices.Rank(), ax)
	return engine.GatherGeneral(dst, src, indices, &d, engine.GatherOptions{Rules: modeRules[mode]})
}

// takeDims returns engine.GatherAxisDims(data, indicesRank, axis, 0), the
// dimension numbers of a take along axis, in sh's memory, so that a call
// in mode wrap or clip allocates nothing.
func takeDims(sh *opcall.Shapes, data tensor.Shape, indicesRank, axis int) engine.GatherDims {
	r := len(data)
	sizes := append(sh.Buf(r), data...)
	sizes[axis] = min(1, data[axis])
	offset := sh.Buf(r - 1)
	for d := range r - 1 {
		if d < axis {
			offset = append(offset, d)
		} else {
			offset = append(offset, d+indicesRank)
		}
	}
	at := append(sh.Buf(1), axis)
	return engine.GatherDims{OffsetDims: offset, CollapsedSliceDims: at, StartIndexMap: at,
		IndexVectorDim: indicesRank, SliceSizes: sizes}
}

// takeArgs checks Take's arguments and returns the array to take from (a,
// or a flattened view of it) and the axis in [0, rank).
func takeArgs(sh *opcall.Shapes, a, indices tensor.Tensor, axis Axis, mode Mode) (tensor.Tensor, int, error) {
	if err := mode.check(); err != nil {
		return a, 0, err
	}
	if err := opcall.CheckInputs(takeB, a, "a", indices, "indices"); err != nil {
		return a, 0, err
	}
	if !axis.set {
		flat, err := a.View(sh.Ptr(append(sh.Buf(1), a.Len())))
		return flat, 0, err
	}
	ax, err := dialect.NormAxis(axis.n, a.Rank(), "a")
	return a, ax, err
}

// Put writes v at the indices ind of the flattened a, in place:
// np.put(a, ind, v, mode=mode). The i-th index in row-major order receives
// v[i % len(v)] (v repeats; extra elements are unused), in index order, so
// the last of duplicate indices wins; an empty v writes nothing. v has a's
// element type, ind any integer type; both may have any shape. In every
// mode, every index is checked before anything is written: a failed Put
// leaves a as it was (NumPy's raise mode may have written some values).
func Put(a, ind, v tensor.Tensor, mode Mode) error { return PutInto(a, a, ind, v, mode) }

// PutInto is Put writing the updated copy of a into dst, which has a's
// element type and shape and may be a itself (then it is Put). It
// allocates nothing when v has as many elements as ind (a v of another
// length is repeated or cut into a new tensor first).
func PutInto(dst, a, ind, v tensor.Tensor, mode Mode) error {
	err := put(dst, a, ind, v, mode)
	if err == nil {
		return nil
	}
	if e, ok := asIndexError(err, "a", a.Shape()); ok {
		// The engine saw ind as a column of n one-component tuples.
		e.param, e.pos = "ind", nil
		if len(e.ie.Pos) > 0 && ind.Rank() > 0 {
			e.pos = ind.Shape().Coords(e.ie.Pos[0])
		}
		err = e
	}
	return opcall.Wrap(putName, err)
}

func put(dst, a, ind, v tensor.Tensor, mode Mode) error {
	if err := mode.check(); err != nil {
		return err
	}
	if err := opcall.CheckInputs(putB, a, "a", ind, "ind"); err != nil {
		return err
	}
	if err := checkWritten(dst, a, "a", v, "v"); err != nil {
		return err
	}
	sh := opcall.GetShapes()
	defer sh.Release()
	size, n := a.Len(), ind.Len()
	if v.Len() == 0 {
		n = 0 // NumPy's put returns at once
	}
	if size == 0 && n > 0 {
		// NumPy: "cannot replace elements of an empty array", in every
		// mode (the clip of an empty dimension would drop the value).
		return &engine.IndexError{Pos: []int{0, 0}, Value: indexValue(ind, 0), Size: 0,
			DataShape: tensor.Shape{0}, Min: 0, Max: -1}
	}
	flat := sh.Ptr(append(sh.Buf(1), size))
	df, err := vector(dst, flat)
	if err != nil {
		return err
	}
	af, err := vector(a, flat)
	if err != nil {
		return err
	}
	var idx, upd tensor.Tensor
	switch {
	case n == 0:
		// Nothing is written: dst becomes a copy of a.
		idx, upd = noIndex, emptyOf(a.DType())
	default:
		if idx, err = ind.View(sh.Ptr(append(sh.Buf(2), n, 1))); err != nil {
			return err
		}
		if upd, err = cycled(sh, v, n); err != nil {
			return err
		}
	}
	opt := engine.ScatterOptions{Reduction: engine.None, Rules: modeRules[mode]}
	if mode == ModeRaise {
		return engine.ScatterND(df, af, idx, upd, opt)
	}
	// ScatterND's dimension numbers for tuples of one component into a
	// vector, in sh's memory: engine.ScatterNDDims(1, [n, 1]).
	zero := append(sh.Buf(1), 0)
	d := engine.ScatterDims{UpdateWindowDims: sh.Buf(0), InsertedWindowDims: zero, ScatterDimsToOperandDims: zero, IndexVectorDim: 1}
	return engine.ScatterGeneral(df, af, idx, upd, &d, opt)
}

// vector returns t as a vector: itself when it has one dimension, else a
// view of it under flat, the shape of its element count.
func vector(t tensor.Tensor, flat *tensor.Shape) (tensor.Tensor, error) {
	if t.Rank() == 1 {
		return t, nil
	}
	return t.View(flat)
}

// noIndex is an empty list of one-component index tuples.
var noIndex = tensor.Must(tensor.New(tensor.Int64, tensor.Shape{0, 1}))

// emptyOf returns an empty 1-D tensor of type d.
func emptyOf(d tensor.DType) tensor.Tensor { return tensor.Must(tensor.New(d, tensor.Shape{0})) }

// cycled returns the n updates of put, v[i % len(v)] for i < n, as a 1-D
// tensor: a view of v when it has n elements, a new tensor otherwise.
func cycled(sh *opcall.Shapes, v tensor.Tensor, n int) (tensor.Tensor, error) {
	if v.Len() == n {
		return vector(v, sh.Ptr(append(sh.Buf(1), n)))
	}
	src := reflect.ValueOf(v.Data())
	out := reflect.MakeSlice(src.Type(), n, n)
	for i := 0; i < n; i += src.Len() {
		reflect.Copy(out.Slice(i, n), src)
	}
	return tensor.Wrap(tensor.Shape{n}, out.Interface())
}

// checkWritten checks the values x, the input called name, that an
// operator writes into a, called aName, and the dst it writes.
func checkWritten(dst, a tensor.Tensor, aName string, x tensor.Tensor, name string) error {
	if err := sameType(x, name, a, aName); err != nil {
		return err
	}
	return opcall.CheckDstLike(dst, a)
}

// sameType checks that the input x, called name, is given and has the
// element type of a, the array called aName that it is written into.
func sameType(x tensor.Tensor, name string, a tensor.Tensor, aName string) error {
	switch {
	case x.IsZero():
		return fmt.Errorf("%w: missing input %q", dialect.ErrInput, name)
	case x.DType() != a.DType():
		return dialect.TypeError(fmt.Sprintf("%s must have the element type of %s, %v, got %v", name, aName, a.DType(), x.DType()))
	}
	return nil
}
