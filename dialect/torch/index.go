package torch

import (
	"fmt"
	"sync"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// The index operators along a dimension: torch.index_add, index_copy,
// index_fill and index_reduce. Each is the engine's general scatter of
// slices of source (or of value) into input along dim, the index viewed
// as a column of start indices ([n,1]) and every dimension but dim a
// window dimension: along dim 0 that is ScatterND's form, which the
// engine runs by its rows kernel.

// IndexAdd returns a copy of input to which alpha times slice i of source
// along dim is added at slice index[i] of input, in index order:
// torch.index_add(input, dim, index, source, alpha=alpha). index is 0-d
// or 1-D, int32 or int64, its values in [0, input.size(dim)-1] (a
// negative value is an error); source has input's type and shape but for
// dimension dim, which has one slice per index value (both may be 0-d,
// with one index value). alpha is cast to input's type as PyTorch casts a
// Python number (see ScatterValue); pass Int(1) for PyTorch's default.
// Each update added is alpha*source rounded to the element type; float16
// and bfloat16 compute self + alpha*source in float32 and round once a
// step, as PyTorch's CPU kernel does.
func IndexAdd(input tensor.Tensor, dim int, index, source tensor.Tensor, alpha Scalar) (tensor.Tensor, error) {
	c := indexCall{alongDim: alongDim{opIndexAdd, indexAddBehavior, input, dim, index}, kind: &indexAddKind, source: source, alpha: alpha, includeSelf: true}
	return c.alloc()
}

// IndexAddInto is IndexAdd writing into dst, which has input's type and
// shape and may be input itself (x.index_add_(...)).
func IndexAddInto(dst, input tensor.Tensor, dim int, index, source tensor.Tensor, alpha Scalar) error {
	c := indexCall{alongDim: alongDim{opIndexAdd, indexAddBehavior, input, dim, index}, kind: &indexAddKind, source: source, alpha: alpha, includeSelf: true}
	return c.into(dst)
}

// IndexCopy returns a copy of input whose slice index[i] along dim is
// slice i of source: torch.index_copy(input, dim, index, source). index
// is 0-d or 1-D int64, its values in [0, input.size(dim)-1]; source has
// input's type and shape but for dimension dim (a 0-d source takes one
// index value). Of duplicate index values the last in index order wins
// (PyTorch leaves it undefined).
func IndexCopy(input tensor.Tensor, dim int, index, source tensor.Tensor) (tensor.Tensor, error) {
	c := indexCall{alongDim: alongDim{opIndexCopy, indexCopyBehavior, input, dim, index}, kind: &indexCopyKind, source: source}
	return c.alloc()
}

// IndexCopyInto is IndexCopy writing into dst, which has input's type and
// shape and may be input itself (x.index_copy_(...)).
func IndexCopyInto(dst, input tensor.Tensor, dim int, index, source tensor.Tensor) error {
	c := indexCall{alongDim: alongDim{opIndexCopy, indexCopyBehavior, input, dim, index}, kind: &indexCopyKind, source: source}
	return c.into(dst)
}

// IndexFill returns a copy of input whose slices index[i] along dim hold
// value everywhere: torch.index_fill(input, dim, index, value). index is
// 0-d or 1-D int64; a negative value counts from the end, in
// [-size, size-1]. value is cast to input's type as PyTorch casts a
// Python number (see ScatterValue); a complex value into a real input is
// an error whatever its imaginary part.
func IndexFill(input tensor.Tensor, dim int, index tensor.Tensor, value Scalar) (tensor.Tensor, error) {
	c := indexCall{alongDim: alongDim{opIndexFill, indexFillBehavior, input, dim, index}, kind: &indexFillKind, value: value}
	return c.alloc()
}

// IndexFillInto is IndexFill writing into dst, which has input's type and
// shape and may be input itself (x.index_fill_(...)).
func IndexFillInto(dst, input tensor.Tensor, dim int, index tensor.Tensor, value Scalar) error {
	c := indexCall{alongDim: alongDim{opIndexFill, indexFillBehavior, input, dim, index}, kind: &indexFillKind, value: value}
	return c.into(dst)
}

// IndexReduce returns a copy of input into whose slice index[i] along dim
// slice i of source is reduced, in index order, by reduce (ReduceProd,
// ReduceMean, ReduceAmax or ReduceAmin), input's own values taking part
// when includeSelf is true: torch.index_reduce(input, dim, index, source,
// reduce, include_self=includeSelf). index is as IndexAdd's. With
// includeSelf false, the slices that index names start from the
// reduction's identity (1, 0, the lowest or the highest value of the
// type: -Inf and +Inf for floats); the others keep input's values. mean
// divides by the number of values that took part, counted in the
// element type; integers divide rounding toward negative infinity.
// float16 and bfloat16 round after every step. bool and complex input
// are refused.
func IndexReduce(input tensor.Tensor, dim int, index, source tensor.Tensor, reduce Reduce, includeSelf bool) (tensor.Tensor, error) {
	c := indexCall{alongDim: alongDim{opIndexReduce, indexReduceBehavior, input, dim, index}, kind: &indexReduceKind, source: source,
		reduce: string(reduce), includeSelf: includeSelf}
	return c.alloc()
}

// IndexReduceInto is IndexReduce writing into dst, which has input's type
// and shape and may be input itself (x.index_reduce_(...)).
func IndexReduceInto(dst, input tensor.Tensor, dim int, index, source tensor.Tensor, reduce Reduce, includeSelf bool) error {
	c := indexCall{alongDim: alongDim{opIndexReduce, indexReduceBehavior, input, dim, index}, kind: &indexReduceKind, source: source,
		reduce: string(reduce), includeSelf: includeSelf}
	return c.into(dst)
}

// The operators' names.
const (
	opIndexAdd    = "torch.index_add"
	opIndexCopy   = "torch.index_copy"
	opIndexFill   = "torch.index_fill"
	opIndexReduce = "torch.index_reduce"
)

// indexKind is what sets an index operator's calls apart beyond its
// Behavior: the rules of PyTorch's kernel for it.
type indexKind struct {
	// fill says that the operator fills with a value (index_fill), where
	// the others take the slices of source.
	fill bool
	// scaled says that source is scaled by alpha (index_add).
	scaled bool
	// expanded says that the call may take PyTorch's scatter_add path
	// over an expanded index, which rounds float16 and bfloat16 sums
	// once (index_add: see rowsPath).
	expanded bool
	// scalarSource says that a 0-d source goes into an input of rank 0
	// or 1, taking exactly one index value (index_copy).
	scalarSource bool
	// emptyRank is the least rank of an input without elements that
	// PyTorch returns unchanged without checking the index values:
	// index_add's kernel for rank 2 or more, index_copy's and
	// index_fill's for any; -1 for none (index_reduce checks them all).
	emptyRank int
}

// The kinds of the index operators.
var (
	indexAddKind    = indexKind{scaled: true, expanded: true, emptyRank: 2}
	indexCopyKind   = indexKind{scalarSource: true}
	indexFillKind   = indexKind{fill: true}
	indexReduceKind = indexKind{emptyRank: -1}
)

// indexCall is one call of an index operator along dim: with source, or
// with value (fill).
type indexCall struct {
	alongDim
	kind        *indexKind
	source      tensor.Tensor
	value       Scalar // index_fill's
	alpha       Scalar // index_add's
	reduce      string // index_reduce's
	includeSelf bool
}

func (c *indexCall) alloc() (tensor.Tensor, error) {
	return opcall.AllocLike(c.op, c.input, "input", c.into)
}

func (c *indexCall) into(dst tensor.Tensor) error {
	return opcall.Wrap(c.op, c.run(dst))
}

// check checks the call as PyTorch's argument checks do and returns dim
// normalised.
func (c *indexCall) check(dst tensor.Tensor) (int, error) {
	d, err := c.checkFirst(c.source, "source", c.kind.fill)
	if err != nil {
		return 0, err
	}
	dt := c.input.DType()
	if c.index.Rank() > 1 {
		return 0, fmt.Errorf("%w: index must be 0-d or 1-D, got shape %v", engine.ErrShape, c.index.Shape())
	}
	if err := opcall.CheckIndices(c.index, "index", c.b.IndexTypes); err != nil {
		return 0, err
	}
	if err := c.b.CheckType("input", dt); err != nil {
		return 0, err
	}
	if !c.kind.fill {
		if err := c.checkSource(d); err != nil {
			return 0, err
		}
	}
	return d, checkScatterDst(dst, c.input, c.index, c.source, "source")
}

// checkSource checks source's type and shape against input and index:
// input and source both 0-d, or of one rank and equal but for dim; and
// for index_copy, a 0-d source into an input of rank 0 or 1, with one
// index value.
func (c *indexCall) checkSource(d int) error {
	in, src, n := c.input, c.source, c.index.Len()
	if src.DType() != in.DType() {
		return fmt.Errorf("%w: source has type %v, input has type %v; they must be equal", engine.ErrType, src.DType(), in.DType())
	}
	if c.kind.scalarSource && src.Rank() == 0 && in.Rank() <= 1 {
		if n != 1 {
			return fmt.Errorf("%w: a 0-d source takes exactly one index value, got %d", engine.ErrShape, n)
		}
		return nil
	}
	if src.Rank() == 0 && in.Rank() == 0 {
		if n != 1 {
			return fmt.Errorf("%w: index has %d values, a 0-d source gives one", engine.ErrShape, n)
		}
		return nil
	}
	if src.Rank() != in.Rank() {
		return fmt.Errorf("%w: source has shape %v, input %v; they must match but for dimension dim = %d",
			engine.ErrShape, src.Shape(), in.Shape(), d)
	}
	if src.Dim(d) != n {
		return fmt.Errorf("%w: index has %d values, source.size(%d) is %d; they must be equal", engine.ErrShape, n, d, src.Dim(d))
	}
	for i := range in.Rank() {
		if i != d && src.Dim(i) != in.Dim(i) {
			return fmt.Errorf("%w: source has shape %v, input %v; they must match but for dimension dim = %d",
				engine.ErrShape, src.Shape(), in.Shape(), d)
		}
	}
	return nil
}

// options returns the engine's options of the call, its scale (alpha)
// given by scale: the reduction its Behavior names (index_add always
// adds), none for an operator without reductions.
func (c *indexCall) options(d int, scale *filledSrc) (engine.ScatterOptions, error) {
	opt := engine.ScatterOptions{Rules: c.b.Index, Arith: c.b.Arith}
	if c.b.Reductions != nil {
		red, err := c.b.ParseReduction(c.reduce)
		if err != nil {
			return opt, err
		}
		opt.Reduction, opt.ExcludeSelf = red, !c.includeSelf
	}
	if scale != nil {
		opt.Scale = scale.t
	}
	if c.kind.expanded && c.rowsPath(d, scale == nil) {
		opt.Arith = indexAddRowsArith
	}
	return opt, nil
}

// rowsPath reports whether PyTorch's CPU index_add takes its scatter_add
// path over an expanded index (aten/src/ATen/native/cpu/
// ScatterGatherKernel.cpp, can_use_expanded_index_path), which
// accumulates float16 and bfloat16 in float32 (indexAddRowsArith): input
// of rank 2 or more, dim 0, alpha 1 (one), an int64 index, rows of 16
// elements or more ("channels" below 16 take the generic kernel, which
// rounds every step), a floating-point type (the only ones where the
// order of rounding shows), source shaped as input but for dim.
func (c *indexCall) rowsPath(d int, one bool) bool {
	in := c.input
	return one && d == 0 && in.Rank() > 1 && in.Len() >= 16*in.Dim(0) && in.Len() > 0 &&
		c.index.DType() == tensor.Int64 && in.DType().IsFloat()
}

// skipsEmpty reports whether PyTorch returns the call's input, which has
// no elements, unchanged without checking the index values (see
// indexKind.emptyRank; index_add: "numel == 0 || self.numel() == 0").
func (c *indexCall) skipsEmpty() bool {
	return c.kind.emptyRank >= 0 && c.input.Rank() >= c.kind.emptyRank
}

func (c *indexCall) run(dst tensor.Tensor) error {
	d, err := c.check(dst)
	if err != nil {
		return err
	}
	dt := c.input.DType()
	var fill, scale *filledSrc
	var v cast
	switch {
	case c.kind.fill:
		if c.value.kind == kindComplex && !dt.IsComplex() {
			return fmt.Errorf("%w: value %v is complex and input is %v: a complex value cannot fill a real tensor", dialect.ErrInput, c.value, dt)
		}
		if v, err = c.value.as(dt); err != nil {
			return err
		}
	case c.kind.scaled:
		a, err := c.alpha.asParam(dt, "alpha")
		if err != nil {
			return err
		}
		// PyTorch multiplies source by alpha even when alpha is 1: a
		// no-op but for complex numbers, where (1+0i)*(-inf+1i) is
		// (-inf+nani), as c10::complex multiplies.
		one, _ := Int(1).as(dt)
		if a != one || dt.IsComplex() {
			scale = getOne(dt, a)
			defer scale.release()
		}
	}
	opt, err := c.options(d, scale)
	if err != nil {
		return err
	}
	n := c.index.Len()
	if n == 0 || c.input.Len() == 0 && c.skipsEmpty() {
		copyAll(dst, c.input)
		return nil
	}
	sh := opcall.GetShapes()
	defer sh.Release()
	input, out := view1(sh, c.input), view1(sh, dst)
	r := input.Rank()
	// The index as a column of start indices.
	index, _ := c.index.View(sh.Ptr(append(sh.Buf(2), n, 1)))
	var src tensor.Tensor
	if c.kind.fill {
		shape := sh.Of(input)
		shape[d] = n
		fill = getFilledShape(dt, shape, v)
		defer fill.release()
		src = fill.t
	} else {
		src = view1(sh, c.source)
	}
	dims := getDims(r, d)
	defer dimsPool.Put(dims)
	if err := engine.ScatterGeneral(out, input, index, src, dims, opt); err != nil {
		return alongErr(err, c.index, c.input)
	}
	return nil
}

// alongErr restates an engine index error of a call along dim for the
// caller's index (0-d or 1-D) and input.
func alongErr(err error, index, input tensor.Tensor) error {
	err = indexErr(err, index, input)
	if ie, ok := err.(*indexError); ok && len(ie.ie.Pos) > index.Rank() {
		ie.ie.Pos = ie.ie.Pos[:index.Rank()]
	}
	return err
}

// dimsPool holds the dimension numbers of calls along a dimension.
var dimsPool = sync.Pool{New: func() any { return new(engine.ScatterDims) }}

// getDims returns, from dimsPool, the dimension numbers of a scatter of
// slices along dim d of an input of rank r, by a [n,1] index: every
// dimension of source but d is a window dimension, d is inserted.
func getDims(r, d int) *engine.ScatterDims {
	s := dimsPool.Get().(*engine.ScatterDims)
	s.UpdateWindowDims = s.UpdateWindowDims[:0]
	for i := range r {
		if i != d {
			s.UpdateWindowDims = append(s.UpdateWindowDims, i)
		}
	}
	s.InsertedWindowDims = append(s.InsertedWindowDims[:0], d)
	s.ScatterDimsToOperandDims = append(s.ScatterDimsToOperandDims[:0], d)
	s.InputBatchingDims, s.ScatterIndicesBatchingDims = s.InputBatchingDims[:0], s.ScatterIndicesBatchingDims[:0]
	s.IndexVectorDim = 1
	return s
}

// getOne returns a tensor of one element v of type d from the pool of
// filled tensors (see getFilled).
func getOne(d tensor.DType, v cast) *filledSrc {
	return getFilledShape(d, oneShape, v)
}

// oneShape is the shape of getOne's tensors; nothing changes it.
var oneShape = tensor.Shape{1}

// getFilledShape returns a tensor of type d and the given shape with
// every element v, from the pool of filled tensors. Give it back with
// release once it is no longer used.
func getFilledShape(d tensor.DType, shape tensor.Shape, v cast) *filledSrc {
	f, _ := filledPool.Get().(*filledSrc)
	if f == nil {
		f = &filledSrc{}
	}
	if f.t.DType() != d || !f.t.HasShape(shape) {
		f.t = tensor.Must(tensor.New(d, shape))
	}
	v.fill(f.t)
	return f
}
