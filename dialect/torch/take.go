package torch

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/internal/rawbytes"
	"github.com/scatter-dev/scatter/tensor"
)

// The flat operators: torch.take and torch.put see input as the 1-D
// tensor of its elements in row-major order, and are the engine's Gather
// and ScatterND on that view; torch.take_along_dim is torch.gather of
// input and indices broadcast together, or a take of the flattened input
// without the count from the end.

// Take returns the elements of input, seen as 1-D in row-major order, at
// the positions index holds, in index's shape: torch.take(input, index).
// index is int64; a negative value counts from the end of the flattened
// input, in [-numel, numel-1], and any other is an error (an empty input
// takes no index at all).
func Take(input, index tensor.Tensor) (tensor.Tensor, error) {
	if err := checkTake(input, index); err != nil {
		return tensor.Tensor{}, opcall.Wrap(opTake, err)
	}
	return opcall.Alloc(opTake, input.DType(), index.Shape(), func(dst tensor.Tensor) error {
		return runTake(dst, input, index, takeBehavior.Index)
	})
}

// TakeInto is Take writing into dst, which has input's type and index's
// shape and does not overlap input or index.
func TakeInto(dst, input, index tensor.Tensor) error {
	err := checkTake(input, index)
	if err == nil {
		sh := opcall.GetShapes()
		err = checkGatherDst(dst, input, index, sh.Of(index))
		sh.Release()
	}
	if err != nil {
		return opcall.Wrap(opTake, err)
	}
	return opcall.Wrap(opTake, runTake(dst, input, index, takeBehavior.Index))
}

func checkTake(input, index tensor.Tensor) error {
	return checkFlat(takeBehavior, input, index, "index")
}

// checkFlat checks the inputs of the flat operator whose Behavior is b:
// input, and its index tensor, called name.
func checkFlat(b *dialect.Behavior, input, index tensor.Tensor, name string) error {
	if err := presentAs(input, index, name); err != nil {
		return err
	}
	if err := opcall.NoStrings(framework, "input", input.DType()); err != nil {
		return err
	}
	if err := opcall.CheckIndices(index, name, b.IndexTypes); err != nil {
		return err
	}
	return b.CheckType("input", input.DType())
}

// runTake gathers the elements of input, seen as 1-D, at index into dst,
// of index's element count, under rules.
func runTake(dst, input, index tensor.Tensor, rules engine.IndexRules) error {
	if index.Len() == 0 {
		return nil
	}
	sh := opcall.GetShapes()
	defer sh.Release()
	flat, _ := input.View(sh.Ptr(append(sh.Buf(1), input.Len())))
	idx, _ := index.View(sh.Ptr(append(sh.Buf(1), index.Len())))
	out, _ := dst.View(sh.Ptr(append(sh.Buf(1), index.Len())))
	return flatErr(engine.Gather(out, flat, idx, 0, 0, rules), index, input)
}

// flatErr restates an engine index error of a call on the flattened input
// for the caller's index: its position in index's shape, and input's
// shape.
func flatErr(err error, index, input tensor.Tensor) error {
	err = indexErr(err, index, input)
	if ie, ok := err.(*indexError); ok && len(ie.ie.Pos) == 1 && index.Rank() != 1 {
		ie.ie.Pos = index.Shape().Coords(ie.ie.Pos[0])
	}
	return err
}

// TakeAlongDim returns torch.take_along_dim(input, indices, dim): input
// and indices have the same rank and broadcast together in every
// dimension but dim (a dimension of size 1 stretches to the other's
// size), and the result, of the broadcast shape with indices' size along
// dim, is torch.gather of the broadcast tensors. indices is int64, its
// values in [0, input.size(dim)-1]; a negative value is an error.
func TakeAlongDim(input, indices tensor.Tensor, dim int) (tensor.Tensor, error) {
	return takeAlongDim.alloc(input, indices, dim)
}

// TakeAlongDimInto is TakeAlongDim writing into dst, which has input's
// type and the result's shape and does not overlap input or indices.
func TakeAlongDimInto(dst, input, indices tensor.Tensor, dim int) error {
	return takeAlongDim.into(dst, input, indices, dim)
}

// TakeAlongDimFlat returns torch.take_along_dim(input, indices) without
// dim: the elements of input, seen as 1-D in row-major order, at the
// positions indices holds, as a 1-D tensor of indices' element count.
// indices is int64 of any shape, its values in [0, numel-1]; a negative
// value is an error (torch.take counts it from the end).
func TakeAlongDimFlat(input, indices tensor.Tensor) (tensor.Tensor, error) {
	if err := checkTakeFlat(input, indices); err != nil {
		return tensor.Tensor{}, opcall.Wrap(opTakeAlongDim, err)
	}
	return opcall.Alloc(opTakeAlongDim, input.DType(), tensor.Shape{indices.Len()}, func(dst tensor.Tensor) error {
		return runTake(dst, input, indices, takeAlongDimBehavior.Index)
	})
}

// TakeAlongDimFlatInto is TakeAlongDimFlat writing into dst, which has
// input's type and shape [indices.Len()] and does not overlap input or
// indices.
func TakeAlongDimFlatInto(dst, input, indices tensor.Tensor) error {
	err := checkTakeFlat(input, indices)
	if err == nil && (dst.Rank() != 1 || dst.Len() != indices.Len()) && !dst.IsZero() {
		err = fmt.Errorf("%w: dst has shape %v, want [%d]", engine.ErrShape, dst.Shape(), indices.Len())
	}
	if err == nil {
		err = opcall.CheckDstType(dst, input.DType())
	}
	if err == nil && (engine.Overlap(dst, input) || engine.Overlap(dst, indices)) {
		err = fmt.Errorf("%w: dst overlaps input or indices", engine.ErrArgument)
	}
	if err != nil {
		return opcall.Wrap(opTakeAlongDim, err)
	}
	return opcall.Wrap(opTakeAlongDim, runTake(dst, input, indices, takeAlongDimBehavior.Index))
}

func checkTakeFlat(input, indices tensor.Tensor) error {
	return checkFlat(takeAlongDimBehavior, input, indices, "indices")
}

// checkTakeAlong checks a take_along_dim with dim and returns dim
// normalised and the result's shape, from sh.
func checkTakeAlong(sh *opcall.Shapes, input, indices tensor.Tensor, dim int) (int, tensor.Shape, error) {
	d, err := checkedDim(checkTakeFlat(input, indices), input, dim)
	if err != nil {
		return 0, nil, err
	}
	if input.Rank() != indices.Rank() {
		return 0, nil, fmt.Errorf("%w: input has rank %d, indices rank %d; they must be equal", engine.ErrShape, input.Rank(), indices.Rank())
	}
	shape := sh.Of(indices)
	for i := range shape {
		a, b := input.Dim(i), indices.Dim(i)
		switch {
		case i == d || a == b || a == 1:
		case b == 1:
			shape[i] = a
		default:
			return 0, nil, fmt.Errorf("%w: input %v and indices %v do not broadcast in dimension %d (dim = %d)",
				engine.ErrShape, input.Shape(), indices.Shape(), i, d)
		}
	}
	return d, shape, nil
}

// runTakeAlong runs a checked take_along_dim with dim d into dst, of the
// result's shape: torch.gather of input and indices, each first
// broadcast to that shape (input keeping its size along d) where it is
// not already.
func runTakeAlong(sh *opcall.Shapes, dst, input, indices tensor.Tensor, d int, shape tensor.Shape) error {
	if dst.Len() == 0 {
		return nil
	}
	in, idx := view1(sh, input), view1(sh, indices)
	inShape := sh.Of(in)
	if len(shape) > 0 {
		inShape = append(sh.Buf(len(shape)), shape...)
		inShape[d] = in.Dim(d)
	}
	if !in.HasShape(inShape) {
		b := getTensor(in.DType(), inShape)
		defer b.release()
		broadcast(b.t, in)
		in = b.t
	}
	if len(shape) > 0 && !idx.HasShape(shape) {
		b := getTensor(idx.DType(), shape)
		defer b.release()
		broadcast(b.t, idx)
		idx = b.t
	}
	out := view1(sh, dst)
	err := engine.GatherElements(out, in, idx, d, takeAlongDimBehavior.Index)
	return indexErr(err, indices, input)
}

// Put returns a copy of input, seen as 1-D in row-major order, into which
// the elements of source are written (or with accumulate, added) at the
// positions index holds, in index order: torch.put(input, index, source,
// accumulate). index is int64 of any shape; source has input's type and
// index's element count, in any shape. A negative index value counts from
// the end, in [-numel, numel-1]. Of duplicate positions without
// accumulate the last in index order wins (PyTorch leaves it undefined);
// with accumulate, duplicates are summed in index order, float16 and
// bfloat16 rounding after every step.
func Put(input, index, source tensor.Tensor, accumulate bool) (tensor.Tensor, error) {
	return opcall.AllocLike(opPut, input, "input", func(dst tensor.Tensor) error {
		return PutInto(dst, input, index, source, accumulate)
	})
}

// PutInto is Put writing into dst, which has input's type and shape and
// may be input itself (x.put_(...)).
func PutInto(dst, input, index, source tensor.Tensor, accumulate bool) error {
	return opcall.Wrap(opPut, runPut(dst, input, index, source, accumulate))
}

func runPut(dst, input, index, source tensor.Tensor, accumulate bool) error {
	if err := present(input, index); err != nil {
		return err
	}
	if source.IsZero() {
		return fmt.Errorf("%w: missing input \"source\"", dialect.ErrInput)
	}
	dt := input.DType()
	if err := opcall.NoStrings(framework, "input", dt); err != nil {
		return err
	}
	if err := opcall.CheckIndices(index, "index", putBehavior.IndexTypes); err != nil {
		return err
	}
	if err := putBehavior.CheckType("input", dt); err != nil {
		return err
	}
	if source.DType() != dt {
		return fmt.Errorf("%w: source has type %v, input has type %v; they must be equal", engine.ErrType, source.DType(), dt)
	}
	n := index.Len()
	if source.Len() != n {
		return fmt.Errorf("%w: source has %d elements, index %d; they must be equal", engine.ErrShape, source.Len(), n)
	}
	if err := checkScatterDst(dst, input, index, source, "source"); err != nil {
		return err
	}
	if n == 0 {
		copyAll(dst, input)
		return nil
	}
	red := engine.None
	if accumulate {
		red = engine.Add
	}
	sh := opcall.GetShapes()
	defer sh.Release()
	flat := sh.Ptr(append(sh.Buf(1), input.Len()))
	in, _ := input.View(flat)
	out, _ := dst.View(flat)
	idx, _ := index.View(sh.Ptr(append(sh.Buf(2), n, 1)))
	src, _ := source.View(sh.Ptr(append(sh.Buf(1), n)))
	opt := engine.ScatterOptions{Reduction: red, Rules: putBehavior.Index, Arith: putBehavior.Arith}
	if err := engine.ScatterND(out, in, idx, src, opt); err != nil {
		err = indexErr(err, index, input)
		if ie, ok := err.(*indexError); ok && len(ie.ie.Pos) > 0 {
			ie.ie.Pos = index.Shape().Coords(ie.ie.Pos[0])
		}
		return err
	}
	return nil
}

// The operators' names.
const (
	opTake         = "torch.take"
	opTakeAlongDim = "torch.take_along_dim"
	opPut          = "torch.put"
)

// presentAs checks that input and the index input called name are given.
func presentAs(input, index tensor.Tensor, name string) error {
	switch {
	case input.IsZero():
		return fmt.Errorf("%w: missing input \"input\"", dialect.ErrInput)
	case index.IsZero():
		return fmt.Errorf("%w: missing input %q", dialect.ErrInput, name)
	}
	return nil
}

// getTensor returns a tensor of type d and the given shape, its elements
// whatever they were, from the pool of filled tensors. Give it back with
// release once it is no longer used.
func getTensor(d tensor.DType, shape tensor.Shape) *filledSrc {
	f, _ := filledPool.Get().(*filledSrc)
	if f == nil {
		f = &filledSrc{}
	}
	if f.t.DType() != d || !f.t.HasShape(shape) {
		f.t = tensor.Must(tensor.New(d, shape))
	}
	return f
}

// broadcast writes src into dst, of src's type and rank, stretching each
// dimension of size 1 in src to dst's size there; the other sizes are
// equal.
func broadcast(dst, src tensor.Tensor) {
	size := dst.DType().Size()
	broadcastBytes(rawbytes.Bytes(dst.Data()), rawbytes.Bytes(src.Data()), dst, src, 0, size)
}

// broadcastBytes broadcasts the block of src from dimension k on into the
// block of dst, of elements of size bytes.
func broadcastBytes(dst, src []byte, dt, st tensor.Tensor, k, size int) {
	if k == dt.Rank() {
		copy(dst[:size], src[:size])
		return
	}
	inner, sinner := size, size
	for i := k + 1; i < dt.Rank(); i++ {
		inner *= dt.Dim(i)
		sinner *= st.Dim(i)
	}
	if inner == sinner && dt.Dim(k) == st.Dim(k) {
		copy(dst[:inner*dt.Dim(k)], src[:inner*dt.Dim(k)])
		return
	}
	for i := range dt.Dim(k) {
		j := i
		if st.Dim(k) == 1 {
			j = 0
		}
		broadcastBytes(dst[i*inner:], src[j*sinner:], dt, st, k+1, size)
	}
}
