// Package torch is the PyTorch dialect: torch.scatter, torch.scatter_add,
// torch.scatter_reduce, torch.gather and torch.index_select, and the index
// operators (index_add, index_copy, index_fill, index_reduce, take,
// take_along_dim, put, index_put, masked_scatter), as PyTorch 2.1 and
// later computes them on the CPU, checks and corner cases included.
// From 2.1 on, PyTorch's CPU kernels accumulate float16 and bfloat16 sums
// in float32 and round once, at the end, as this dialect does; earlier
// releases rounded after every step.
//
// # Operators
//
// Each has an Into form that writes into a dst you supply (GatherInto):
//
//   - torch.scatter: [Scatter] with src, [ScatterValue] with a value; write into input at positions along dim, optionally adding or multiplying (Reduce).
//   - torch.scatter_add: [ScatterAdd], add src into input at positions along dim.
//   - torch.scatter_reduce: [ScatterReduce], reduce src into input along dim with sum, prod, mean, amax or amin (Reduce), input's own values taking part or not (includeSelf, its last parameter).
//   - torch.gather: [Gather], take elements of input at positions along dim.
//   - torch.index_select: [IndexSelect], take slices of input along dim.
//   - torch.index_add: [IndexAdd], add alpha times slices of source into slices of input along dim, duplicates summed.
//   - torch.index_copy: [IndexCopy], copy slices of source into slices of input along dim.
//   - torch.index_fill: [IndexFill], fill slices of input along dim with a value.
//   - torch.index_reduce: [IndexReduce], reduce slices of source into slices of input along dim with prod, mean, amax or amin.
//   - torch.take: [Take], take elements of input, seen as 1-D, at positions index holds.
//   - torch.take_along_dim: [TakeAlongDim], take elements of input at positions along dim, input and indices broadcast; [TakeAlongDimFlat] without dim.
//   - torch.put: [Put], write or add source into input, seen as 1-D, at positions index holds.
//   - torch.index_put: [IndexPut], write or add values at the positions a tuple of index tensors (or masks) selects: input[indices] = values.
//   - torch.masked_scatter: [MaskedScatter], write source's elements, in order, where mask is true.
//
// [Ops] describes the same operators as tables for callers that run them
// by name.
//
// # Rules
//
// The rules, as PyTorch's argument checks and CPU kernels apply them:
//
//   - dim counts from the end when negative; a 0-d input takes dim 0 or -1.
//   - index is an int64 tensor (PyTorch's documented LongTensor; newer
//     PyTorch also takes int32, which this dialect refuses, as the
//     documentation does) for the scatters and gather, int32 or int64 for
//     index_select. Values lie in [0, size-1]; a negative or larger value
//     is an error. In place (dst is input) every index value is checked
//     before anything is written; into another dst, an error may leave
//     dst partly written.
//   - For the scatters and gather, input, index and src have the same
//     rank, a 0-d tensor counting as a 1-D tensor of size 1;
//     index.size(d) <= src.size(d) for every d and index.size(d) <=
//     input.size(d) for d != dim. Nothing broadcasts.
//   - An index with no elements skips those checks and is accepted with
//     any rank and element type: a scatter returns input unchanged, gather
//     an empty tensor shaped like index. index_select always wants a 0-d or
//     1-D int32 or int64 index.
//   - Element types: bool, uint8, int8, int16, int32, int64, float16,
//     bfloat16, float32, float64, complex64 and complex128. uint16, uint32
//     and uint64 tensors pass only where PyTorch's CPU kernels take them: a
//     scatter or gather whose index is empty, and index_select of an input
//     of rank 2 or more. There are no string tensors in PyTorch.
//   - Duplicate indices: a plain scatter keeps the last update in index
//     order (PyTorch documents the choice as undefined; its CPU kernel
//     makes this one), and every reduction accumulates in index order.
//   - float16 and bfloat16 sums and products (scatter_add, reduce add and
//     multiply, sum, prod, mean) accumulate in float32 and round once, at
//     the end, as PyTorch's CPU kernels do with their float32 buffer.
//   - scatter_reduce mean divides by the number of values that took part,
//     the input's own value included when include_self is true, counted in
//     the input's type as PyTorch counts; integers divide rounding toward
//     negative infinity. With include_self false, a position that receives
//     updates starts from 0 (sum, mean), 1 (prod), or the lowest or
//     highest value of the type (amax, amin); one that receives none keeps
//     its value. amax and amin propagate NaN, and a position that ends as
//     NaN holds the last NaN update it received, as in PyTorch. mean is
//     refused for bool and amax and amin for complex input.
//   - A value for torch.scatter is cast as PyTorch casts a Python number
//     (see ScatterValue).
//   - Complex products (multiply, prod) and a complex mean's division are
//     c10::complex's, every operation rounded to the precision of the
//     parts (engine.ComplexC10), not Go's, which computes a complex64
//     product or quotient in float64 and rounds once.
//
// The index operators (each function's documentation has the details):
//
//   - index_add, index_copy, index_reduce and take_along_dim refuse a
//     negative index; index_fill, index_put, take and put count it from
//     the end (take and put of the flattened input). An index out of range
//     is an error.
//   - index is 0-d or 1-D for the operators along dim: int32 or int64 for
//     index_add and index_reduce, int64 for index_copy and index_fill.
//     take, take_along_dim and put take int64 of any shape; index_put
//     int32 and int64 index tensors and bool or uint8 masks; masked_scatter
//     a bool mask.
//   - Duplicates: index_copy, put and index_put without accumulate keep
//     the last in index order (PyTorch leaves it undefined); index_add,
//     put and index_put with accumulate, and index_reduce, combine in
//     index order.
//   - float16 and bfloat16 round after every step, but for index_add along
//     dim 0 with alpha 1, an int64 index and rows of 16 elements or more,
//     which PyTorch sends through scatter_add's expanded-index kernel and
//     sums in float32.
//   - index_reduce mean counts in the element type and divides integers
//     rounding toward negative infinity; with include_self false the
//     slices index names start from 1, +0, -Inf (the lowest integer) or
//     +Inf (the highest).
//
// One thing is not reproduced bit for bit: PyTorch's float32 buffer for
// float16 and bfloat16 rewrites NaN payloads in a way that depends on the
// CPU's vector width (here NaNs keep their payload where possible).
//
// Every error is a *dialect.OpError naming the operator ("torch.gather").
// An index out of range is an error that wraps an *engine.IndexError.
package torch

import (
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// Reduce is the reduce argument of Scatter, ScatterValue and
// ScatterReduce, named as PyTorch names it. Scatter and ScatterValue take
// ReduceAdd or ReduceMultiply, or "" for a plain write; ScatterReduce
// takes ReduceSum, ReduceProd, ReduceMean, ReduceAmax or ReduceAmin.
type Reduce string

// The reductions, as the operators' Behavior tables name them (Ops).
const (
	ReduceAdd      Reduce = "add"      // torch.scatter: updates are added
	ReduceMultiply Reduce = "multiply" // torch.scatter: elements are multiplied by updates
	ReduceSum      Reduce = "sum"      // torch.scatter_reduce: the sum
	ReduceProd     Reduce = "prod"     // torch.scatter_reduce: the product
	ReduceMean     Reduce = "mean"     // torch.scatter_reduce: the mean of the values that take part
	ReduceAmax     Reduce = "amax"     // torch.scatter_reduce: the largest value, NaN if any is NaN
	ReduceAmin     Reduce = "amin"     // torch.scatter_reduce: the smallest value, NaN if any is NaN
)

// Scatter returns a copy of input in which, for each element of index at
// position p, the element at p with p[dim] replaced by the index value is
// set to (or with reduce ReduceAdd or ReduceMultiply, combined with) src at p:
// torch.scatter(input, dim, index, src, reduce=reduce). reduce "" is no
// reduction.
func Scatter(input tensor.Tensor, dim int, index, src tensor.Tensor, reduce Reduce) (tensor.Tensor, error) {
	c := scatterCall{alongDim: alongDim{opScatter, scatterBehavior, input, dim, index}, src: src, reduce: string(reduce), includeSelf: true}
	return c.alloc()
}

// ScatterInto is Scatter writing into dst, which has input's type and shape
// and may be input itself: ScatterInto(x, x, ...) is PyTorch's in-place
// x.scatter_(...).
func ScatterInto(dst, input tensor.Tensor, dim int, index, src tensor.Tensor, reduce Reduce) error {
	c := scatterCall{alongDim: alongDim{opScatter, scatterBehavior, input, dim, index}, src: src, reduce: string(reduce), includeSelf: true}
	return c.into(dst)
}

// ScatterValue is Scatter with every update equal to value:
// torch.scatter(input, dim, index, value=value, reduce=reduce). value is
// cast to input's element type as PyTorch casts a Python number: a value
// the type cannot hold is an error ("value 300 cannot be converted to int8
// without overflow"; 255.5 does not fit uint8 either, while -1 wraps to
// 255), a float in range truncates toward zero into an integer type, and
// anything nonzero, NaN included, is true. float16 and bfloat16 round
// through float32. The cast happens only if index has elements.
func ScatterValue(input tensor.Tensor, dim int, index tensor.Tensor, value Scalar, reduce Reduce) (tensor.Tensor, error) {
	c := scatterCall{alongDim: alongDim{opScatter, scatterBehavior, input, dim, index}, value: value, hasValue: true,
		reduce: string(reduce), includeSelf: true}
	return c.alloc()
}

// ScatterValueInto is ScatterValue writing into dst, which has input's type
// and shape and may be input itself.
func ScatterValueInto(dst, input tensor.Tensor, dim int, index tensor.Tensor, value Scalar, reduce Reduce) error {
	c := scatterCall{alongDim: alongDim{opScatter, scatterBehavior, input, dim, index}, value: value, hasValue: true,
		reduce: string(reduce), includeSelf: true}
	return c.into(dst)
}

// ScatterAdd returns a copy of input to which, for each element of index
// at position p, src at p is added at p with p[dim] replaced by the index
// value: torch.scatter_add(input, dim, index, src).
func ScatterAdd(input tensor.Tensor, dim int, index, src tensor.Tensor) (tensor.Tensor, error) {
	c := scatterCall{alongDim: alongDim{opScatterAdd, scatterAddBehavior, input, dim, index}, src: src, reduce: "add", includeSelf: true}
	return c.alloc()
}

// ScatterAddInto is ScatterAdd writing into dst, which has input's type and
// shape and may be input itself (x.scatter_add_(...)).
func ScatterAddInto(dst, input tensor.Tensor, dim int, index, src tensor.Tensor) error {
	c := scatterCall{alongDim: alongDim{opScatterAdd, scatterAddBehavior, input, dim, index}, src: src, reduce: "add", includeSelf: true}
	return c.into(dst)
}

// ScatterReduce returns a copy of input into which src is reduced along
// dim by reduce, with input's own values taking part when includeSelf is
// true: torch.scatter_reduce(input, dim, index, src, reduce,
// include_self=includeSelf). For each element of index at position p, src
// at p is reduced at p with p[dim] replaced by the index value. reduce is
// ReduceSum, ReduceProd, ReduceMean, ReduceAmax or ReduceAmin; with
// includeSelf false, input's own value at a position that receives
// updates takes no part.
func ScatterReduce(input tensor.Tensor, dim int, index, src tensor.Tensor, reduce Reduce, includeSelf bool) (tensor.Tensor, error) {
	c := scatterCall{alongDim: alongDim{opScatterReduce, scatterReduceBehavior, input, dim, index}, src: src, reduce: string(reduce),
		includeSelf: includeSelf}
	return c.alloc()
}

// ScatterReduceInto is ScatterReduce writing into dst, which has input's
// type and shape and may be input itself (x.scatter_reduce_(...)).
func ScatterReduceInto(dst, input tensor.Tensor, dim int, index, src tensor.Tensor, reduce Reduce, includeSelf bool) error {
	c := scatterCall{alongDim: alongDim{opScatterReduce, scatterReduceBehavior, input, dim, index}, src: src, reduce: string(reduce),
		includeSelf: includeSelf}
	return c.into(dst)
}

// Gather returns, for each position p of index, the element of input at p
// with p[dim] replaced by the index value: torch.gather(input, dim,
// index). The result has index's shape and input's type.
func Gather(input tensor.Tensor, dim int, index tensor.Tensor) (tensor.Tensor, error) {
	return gatherDim.alloc(input, index, dim)
}

// GatherInto is Gather writing into dst, which has input's type and
// index's shape and does not overlap input or index.
func GatherInto(dst, input tensor.Tensor, dim int, index tensor.Tensor) error {
	return gatherDim.into(dst, input, index, dim)
}

// runGather runs torch.gather on checked arguments, with dim d normalised.
func runGather(sh *opcall.Shapes, dst, input, index tensor.Tensor, d int, _ tensor.Shape) error {
	if index.Len() == 0 {
		return nil
	}
	err := engine.GatherElements(view1(sh, dst), view1(sh, input), view1(sh, index), d, gatherBehavior.Index)
	return indexErr(err, index, input)
}

func checkGather(sh *opcall.Shapes, input, index tensor.Tensor, dim int) (int, tensor.Shape, error) {
	d, err := checkedDim(present(input, index), input, dim)
	if err != nil || index.Len() == 0 {
		return d, sh.Of(index), err
	}
	if err := opcall.CheckIndices(index, "index", gatherBehavior.IndexTypes); err != nil {
		return 0, nil, err
	}
	if err := checkRanks(input, index, "input"); err != nil {
		return 0, nil, err
	}
	is, ds := nonEmpty(sh, index), nonEmpty(sh, input)
	for i := range is {
		if i != d && is[i] > ds[i] {
			return 0, nil, fmt.Errorf("%w: index %v is larger than input %v in dimension %d (only dimension dim = %d may be larger)",
				engine.ErrShape, index.Shape(), input.Shape(), i, d)
		}
	}
	return d, sh.Of(index), gatherBehavior.CheckType("input", input.DType())
}

// IndexSelect returns the slices of input along dim that the values of
// index pick, in index order: torch.index_select(input, dim, index). index
// is 0-d or 1-D; the result has input's shape with dimension dim replaced
// by the number of index values (a 0-d input gives a 0-d result and takes
// exactly one index value).
func IndexSelect(input tensor.Tensor, dim int, index tensor.Tensor) (tensor.Tensor, error) {
	return indexSelectDim.alloc(input, index, dim)
}

// IndexSelectInto is IndexSelect writing into dst, which has input's type
// and the result's shape and does not overlap input or index.
func IndexSelectInto(dst, input tensor.Tensor, dim int, index tensor.Tensor) error {
	return indexSelectDim.into(dst, input, index, dim)
}

// runIndexSelect runs torch.index_select on checked arguments, with dim d
// normalised, viewing the tensors with shapes from sh.
func runIndexSelect(sh *opcall.Shapes, dst, input, index tensor.Tensor, d int, _ tensor.Shape) error {
	n := index.Len()
	in := view1(sh, input)
	outShape := sh.Of(in)
	outShape[d] = n
	out, _ := dst.View(sh.Ptr(outShape))
	idx, _ := index.View(sh.Ptr(append(sh.Buf(1), n)))
	err := engine.Gather(out, in, idx, d, 0, indexSelectBehavior.Index)
	return indexErr(err, index, input)
}

// dimGather is a gather along dim (gather, index_select, take_along_dim):
// check checks a call and returns dim normalised and the result's shape,
// from sh; run writes the result of a checked call into dst.
type dimGather struct {
	op    string
	check func(sh *opcall.Shapes, input, index tensor.Tensor, dim int) (int, tensor.Shape, error)
	run   func(sh *opcall.Shapes, dst, input, index tensor.Tensor, d int, shape tensor.Shape) error
}

// The gathers along dim.
var (
	gatherDim      = &dimGather{op: opGather, check: checkGather, run: runGather}
	indexSelectDim = &dimGather{op: opIndexSelect, check: checkIndexSelect, run: runIndexSelect}
	takeAlongDim   = &dimGather{op: opTakeAlongDim, check: checkTakeAlong, run: runTakeAlong}
)

// alloc runs g into a new tensor.
func (g *dimGather) alloc(input, index tensor.Tensor, dim int) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	d, shape, err := g.check(sh, input, index, dim)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(g.op, err)
	}
	return opcall.Alloc(g.op, input.DType(), shape, func(dst tensor.Tensor) error {
		return g.run(sh, dst, input, index, d, shape)
	})
}

// into runs g into dst, which has input's type and the result's shape and
// overlaps neither input nor index.
func (g *dimGather) into(dst, input, index tensor.Tensor, dim int) error {
	sh := opcall.GetShapes()
	defer sh.Release()
	d, shape, err := g.check(sh, input, index, dim)
	if err == nil {
		err = checkGatherDst(dst, input, index, shape)
	}
	if err != nil {
		return opcall.Wrap(g.op, err)
	}
	return opcall.Wrap(g.op, g.run(sh, dst, input, index, d, shape))
}

// checkGatherDst checks the dst of gather or index_select: input's type,
// the result's shape, and no overlap with input or index.
func checkGatherDst(dst, input, index tensor.Tensor, shape tensor.Shape) error {
	if err := opcall.CheckDst(dst, input.DType(), shape); err != nil {
		return err
	}
	if engine.Overlap(dst, input) || engine.Overlap(dst, index) {
		return fmt.Errorf("%w: dst overlaps input or index", engine.ErrArgument)
	}
	return nil
}

func checkIndexSelect(sh *opcall.Shapes, input, index tensor.Tensor, dim int) (int, tensor.Shape, error) {
	d, err := checkedDim(present(input, index), input, dim)
	if err != nil {
		return 0, nil, err
	}
	n := index.Len()
	switch {
	case index.Rank() > 1:
		return 0, nil, fmt.Errorf("%w: index must be 0-d or 1-D, got shape %v", engine.ErrShape, index.Shape())
	case input.Rank() == 0 && n != 1:
		return 0, nil, fmt.Errorf("%w: index into a 0-d input must hold exactly one value, got %d", engine.ErrShape, n)
	}
	if err := opcall.CheckIndices(index, "index", indexSelectBehavior.IndexTypes); err != nil {
		return 0, nil, err
	}
	dt := input.DType()
	if err := indexSelectBehavior.CheckType("input", dt); err != nil {
		return 0, nil, err
	}
	if input.Rank() <= 1 && !kernelTypes.Has(dt) {
		return 0, nil, fmt.Errorf("%w: %v input of rank %d is not supported (PyTorch's CPU kernel for rank 0 and 1 is not built for %v; from rank 2 it copies bytes)",
			dialect.ErrInput, dt, input.Rank(), dt)
	}
	shape := sh.Of(input)
	if len(shape) > 0 {
		shape[d] = n
	}
	return d, shape, nil
}

// The operators' names.
const (
	opScatter       = "torch.scatter"
	opScatterAdd    = "torch.scatter_add"
	opScatterReduce = "torch.scatter_reduce"
	opGather        = "torch.gather"
	opIndexSelect   = "torch.index_select"
)

// scatterCall is one call of a scatter: src, or value when hasValue is set.
type scatterCall struct {
	alongDim
	src         tensor.Tensor
	value       Scalar
	hasValue    bool
	reduce      string // PyTorch's name ("add" for scatter_add); "" for none (torch.scatter only)
	includeSelf bool
}

func (c *scatterCall) alloc() (tensor.Tensor, error) {
	return opcall.AllocLike(c.op, c.input, "input", c.into)
}

func (c *scatterCall) into(dst tensor.Tensor) error {
	return opcall.Wrap(c.op, c.run(dst))
}

// check checks the call as PyTorch does and returns the normalised dim and
// the engine's reduction.
func (c *scatterCall) check(sh *opcall.Shapes, dst tensor.Tensor) (int, engine.Reduction, error) {
	d, err := c.checkFirst(c.src, "src", c.hasValue)
	if err != nil {
		return 0, 0, err
	}
	dt := c.input.DType()
	empty := c.index.Len() == 0
	if !empty {
		if err := opcall.CheckIndices(c.index, "index", c.b.IndexTypes); err != nil {
			return 0, 0, err
		}
	}
	if !c.hasValue && c.src.DType() != dt {
		return 0, 0, fmt.Errorf("%w: src has type %v, input has type %v; they must be equal", engine.ErrType, c.src.DType(), dt)
	}
	if !empty {
		if err := c.checkShapes(sh, d); err != nil {
			return 0, 0, err
		}
	}
	red, err := c.b.ParseReduction(c.reduce)
	if err != nil {
		return 0, 0, err
	}
	if err := checkReduceType(c.b, c.reduce, red, dt, empty); err != nil {
		return 0, 0, err
	}
	src := c.src
	if c.hasValue {
		src = tensor.Tensor{}
	}
	return d, red, checkScatterDst(dst, c.input, c.index, src, "src")
}

// checkShapes checks the ranks and sizes of a non-empty index against
// input and src.
func (c *scatterCall) checkShapes(sh *opcall.Shapes, d int) error {
	if err := checkRanks(c.input, c.index, "input"); err != nil {
		return err
	}
	is, ds := nonEmpty(sh, c.index), nonEmpty(sh, c.input)
	for i := range is {
		if i != d && is[i] > ds[i] {
			return fmt.Errorf("%w: index %v is larger than input %v in dimension %d (only dimension dim = %d may be larger)",
				engine.ErrShape, c.index.Shape(), c.input.Shape(), i, d)
		}
	}
	if c.hasValue {
		return nil
	}
	if err := checkRanks(c.src, c.index, "src"); err != nil {
		return err
	}
	ss := nonEmpty(sh, c.src)
	for i := range is {
		if is[i] > ss[i] {
			return fmt.Errorf("%w: index %v is larger than src %v in dimension %d", engine.ErrShape, c.index.Shape(), c.src.Shape(), i)
		}
	}
	return nil
}

// run checks the call and scatters into dst: input itself (in place), or
// another tensor of its type and shape.
func (c *scatterCall) run(dst tensor.Tensor) error {
	sh := opcall.GetShapes()
	defer sh.Release()
	dim, red, err := c.check(sh, dst)
	if err != nil {
		return err
	}
	// PyTorch's arithmetic is its Behavior's Arith (see arith).
	// includeSelf is false only for scatter_reduce, none of whose
	// reductions is None, so ExcludeSelf always has a reduction to act on.
	opt := engine.ScatterOptions{Reduction: red, ExcludeSelf: !c.includeSelf, Rules: c.b.Index,
		Arith: c.b.Arith}
	if c.index.Len() == 0 && red != engine.Mean {
		copyAll(dst, c.input)
		return nil
	}
	input, index, out := view1(sh, c.input), view1(sh, c.index), view1(sh, dst)
	if c.index.Len() == 0 {
		// An empty index of any shape and type returns input, but a mean
		// still divides every element by its count (Arith.DivideAll):
		// a scatter of nothing, through an empty index of input's rank.
		zeros := sh.Buf(input.Rank())[:input.Rank()]
		clear(zeros) // the pool's memory holds earlier shapes
		none := sh.Ptr(zeros)
		index, _ = empties[tensor.Int64].View(none)
		src, _ := empties[input.DType()].View(none)
		return engine.ScatterElements(out, input, index, src, 0, opt)
	}
	src := c.src
	if c.hasValue {
		v, err := c.value.as(c.input.DType())
		if err != nil {
			return err
		}
		f := getFilled(c.input.DType(), index, v)
		defer f.release()
		src = f.t
	} else {
		src = view1(sh, src)
	}
	if err := engine.ScatterElements(out, input, index, src, dim, opt); err != nil {
		return indexErr(err, c.index, c.input)
	}
	return nil
}

// empties holds a tensor of no elements of each element type, made once,
// which the mean of an empty index views under its rank.
var empties = func() map[tensor.DType]tensor.Tensor {
	m := make(map[tensor.DType]tensor.Tensor)
	for _, d := range tensor.DTypes() {
		m[d] = tensor.Must(tensor.New(d, tensor.Shape{0}))
	}
	return m
}()

// checkScatterDst checks the dst of a scatter of input: input's type and
// shape, input itself or apart from it, and apart from index and from
// src (called name; the zero Tensor for none).
func checkScatterDst(dst, input, index, src tensor.Tensor, name string) error {
	if err := opcall.CheckDstLike(dst, input); err != nil {
		return err
	}
	if !engine.SameMemory(dst, input) && engine.Overlap(dst, input) {
		return fmt.Errorf("%w: dst overlaps input without being input", engine.ErrArgument)
	}
	if engine.Overlap(dst, index) || !src.IsZero() && engine.Overlap(dst, src) {
		return fmt.Errorf("%w: dst overlaps index or %s", engine.ErrArgument, name)
	}
	return nil
}

// checkReduceType checks element type d against the kernel of reduction
// red, which PyTorch reaches only when index has elements; mean's division
// happens even when it is empty.
func checkReduceType(b *dialect.Behavior, name string, red engine.Reduction, d tensor.DType, empty bool) error {
	if red == engine.Mean && (d == tensor.Bool || d.IsUnsigned() && d != tensor.Uint8) {
		return fmt.Errorf("%w: reduce \"mean\" is not defined for %v input", dialect.ErrInput, d)
	}
	if empty {
		return nil
	}
	if err := b.CheckType("input", d); err != nil {
		return err
	}
	if (red == engine.Max || red == engine.Min) && d.IsComplex() {
		return fmt.Errorf("%w: reduce %q is not defined for %v input, which has no order", dialect.ErrInput, name, d)
	}
	return nil
}

// framework names PyTorch in the errors that refuse strings, which it has
// none of.
const framework = "torch"

// present checks that input and index are given.
func present(input, index tensor.Tensor) error { return presentAs(input, index, "index") }

// checkRanks checks that t (named name) and a non-empty index have the same
// rank, a 0-d tensor counting as rank 1.
func checkRanks(t, index tensor.Tensor, name string) error {
	if max(t.Rank(), 1) != max(index.Rank(), 1) {
		return fmt.Errorf("%w: index has rank %d, %s has rank %d; they must be equal (0-d counts as 1-D)",
			engine.ErrShape, index.Rank(), name, t.Rank())
	}
	return nil
}

// alongDim is what a scatter or index call along dim holds whatever its
// operator.
type alongDim struct {
	op    string
	b     *dialect.Behavior // op's
	input tensor.Tensor
	dim   int
	index tensor.Tensor
}

// checkFirst runs the first checks of a call along dim, in PyTorch's
// order: input and index given, other (named name) given unless the call
// takes a value instead, dim within input's rank, input not of strings.
// It returns dim normalised.
func (a *alongDim) checkFirst(other tensor.Tensor, name string, hasValue bool) (int, error) {
	if err := present(a.input, a.index); err != nil {
		return 0, err
	}
	if !hasValue && other.IsZero() {
		return 0, fmt.Errorf("%w: missing input %q", dialect.ErrInput, name)
	}
	d, err := wrapDim(a.dim, a.input.Rank())
	if err != nil {
		return 0, err
	}
	if err := opcall.NoStrings(framework, "input", a.input.DType()); err != nil {
		return 0, err
	}
	return d, nil
}

// checkedDim returns dim normalised for input's rank (wrapDim), unless
// err, the outcome of the checks that come before it, is not nil.
func checkedDim(err error, input tensor.Tensor, dim int) (int, error) {
	if err != nil {
		return 0, err
	}
	return wrapDim(dim, input.Rank())
}

// wrapDim maps dim in [-rank, rank-1] to [0, rank); a 0-d tensor counts as
// rank 1.
func wrapDim(dim, rank int) (int, error) {
	r := max(rank, 1)
	if dim < -r || dim >= r {
		return 0, fmt.Errorf("%w: dim %d is out of range [%d, %d] for input of rank %d", dialect.ErrAttribute, dim, -r, r-1, rank)
	}
	if dim < 0 {
		dim += r
	}
	return dim, nil
}

// nonEmpty returns t's shape, or [1] for a scalar's, from sh.
func nonEmpty(sh *opcall.Shapes, t tensor.Tensor) tensor.Shape {
	if t.Rank() == 0 {
		return append(sh.Buf(1), 1)
	}
	return sh.Of(t)
}

// view1 returns t, or a 1-D view of one element for a 0-d t, whose shape
// sh holds.
func view1(sh *opcall.Shapes, t tensor.Tensor) tensor.Tensor {
	if t.Rank() != 0 {
		return t
	}
	v, _ := t.View(sh.Ptr(append(sh.Buf(1), 1)))
	return v
}

// copyAll copies src's elements into dst, which has src's type and size.
func copyAll(dst, src tensor.Tensor) {
	if !engine.SameMemory(dst, src) {
		reflect.Copy(reflect.ValueOf(dst.Data()), reflect.ValueOf(src.Data()))
	}
}

// indexError is an index out of range, told in PyTorch's words. It wraps
// the engine's *engine.IndexError.
type indexError struct{ ie *engine.IndexError }

func (e *indexError) Error() string {
	ie := e.ie
	pos := ""
	if len(ie.Pos) > 0 {
		pos = tensor.Shape(ie.Pos).String()
	}
	if ie.Max < ie.Min {
		return fmt.Sprintf("index out of range: index%s = %d is out of bounds for dimension %d with size 0 (input %v)",
			pos, ie.Value, ie.Dim, ie.DataShape)
	}
	return fmt.Sprintf("index out of range: index%s = %d is out of bounds for dimension %d with size %d (input %v, allowed range [%d, %d])",
		pos, ie.Value, ie.Dim, ie.Size, ie.DataShape, ie.Min, ie.Max)
}

// Unwrap returns the engine's *engine.IndexError.
func (e *indexError) Unwrap() error { return e.ie }

// indexErr restates an engine index error for the caller's index and
// input: the engine saw 0-d tensors as 1-D and index_select's index as
// 1-D.
func indexErr(err error, index, input tensor.Tensor) error {
	if err == nil {
		return nil
	}
	var ie *engine.IndexError
	if !errors.As(err, &ie) {
		return err
	}
	c := *ie
	if index.Rank() == 0 {
		c.Pos = []int{}
	}
	c.DataShape = input.Shape()
	return &indexError{ie: &c}
}

// filledSrc is a src of one value for ScatterValue, kept in a pool with
// its tensor: a call whose index has the shape and whose input has the
// type of an earlier one refills that tensor rather than allocating one.
type filledSrc struct{ t tensor.Tensor }

var filledPool sync.Pool

// getFilled returns a tensor of type d and index's shape with every
// element v. Give it back with release once it is no longer used.
func getFilled(d tensor.DType, index tensor.Tensor, v cast) *filledSrc {
	f, _ := filledPool.Get().(*filledSrc)
	if f == nil {
		f = &filledSrc{}
	}
	if f.t.DType() != d || !f.t.SameShape(index) {
		f.t = tensor.Must(tensor.New(d, index.Shape()))
	}
	v.fill(f.t)
	return f
}

func (f *filledSrc) release() { filledPool.Put(f) }
