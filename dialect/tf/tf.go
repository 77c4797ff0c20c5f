// Package tf is the TensorFlow dialect: tf.gather_nd, tf.gather,
// tf.scatter_nd, tf.tensor_scatter_nd_update, _add, _sub, _min and _max,
// tf.math.segment_sum, _prod, _min, _max and _mean, the unsorted segment
// reductions tf.math.unsorted_segment_sum, _prod, _max, _min, _mean and
// _sqrt_n, tf.compat.v1.scatter_update, _add, _sub, _mul, _div, _min and
// _max, and tf.math.bincount as TensorFlow's Python API and CPU kernels
// define them.
//
// # Operators
//
// Each has an Into form that writes into a dst you supply (GatherNDInto):
//
//   - tf.gather_nd: [GatherND], take elements or slices of params at index tuples.
//   - tf.gather: [Gather], take slices of params along an axis.
//   - tf.scatter_nd: [ScatterND], scatter updates into zeros of a given shape, summing duplicates.
//   - tf.tensor_scatter_nd_update: [TensorScatterUpdate], write updates into a copy of tensor at index tuples.
//   - tf.tensor_scatter_nd_add: [TensorScatterAdd], add updates into a copy of tensor at index tuples.
//   - tf.tensor_scatter_nd_sub: [TensorScatterSub], subtract updates from a copy of tensor at index tuples.
//   - tf.tensor_scatter_nd_min: [TensorScatterMin], keep the smaller of tensor and updates at index tuples.
//   - tf.tensor_scatter_nd_max: [TensorScatterMax], keep the larger of tensor and updates at index tuples.
//   - tf.math.segment_sum, tf.math.segment_prod, tf.math.segment_min, tf.math.segment_max, tf.math.segment_mean:
//     [SegmentSum], [SegmentProd], [SegmentMin], [SegmentMax], [SegmentMean], reduce each run of rows of
//     data that share a sorted segment id; an empty segment holds 0 (1 for prod), and ids that decrease
//     or are negative are errors in TensorFlow's words naming the first position at fault.
//   - tf.math.unsorted_segment_sum: [UnsortedSegmentSum], sum the slices of data by segment.
//   - tf.math.unsorted_segment_prod: [UnsortedSegmentProd], multiply the slices of data by segment.
//   - tf.math.unsorted_segment_max: [UnsortedSegmentMax], take the maximum of the slices of data by segment.
//   - tf.math.unsorted_segment_min: [UnsortedSegmentMin], take the minimum of the slices of data by segment.
//   - tf.math.unsorted_segment_mean: [UnsortedSegmentMean], average the slices of data by segment.
//   - tf.math.unsorted_segment_sqrt_n: [UnsortedSegmentSqrtN], sum the slices of data by segment, divided by the root of their count.
//
// The tf.compat.v1 scatters update their ref in place, and so are their
// own Into forms:
//
//   - tf.compat.v1.scatter_update: [ScatterUpdate], write updates into rows of ref.
//   - tf.compat.v1.scatter_add: [ScatterAdd], add updates to rows of ref.
//   - tf.compat.v1.scatter_sub: [ScatterSub], subtract updates from rows of ref.
//   - tf.compat.v1.scatter_mul: [ScatterMul], multiply rows of ref by updates.
//   - tf.compat.v1.scatter_div: [ScatterDiv], divide rows of ref by updates.
//   - tf.compat.v1.scatter_min: [ScatterMin], keep the smaller of ref and updates in rows of ref.
//   - tf.compat.v1.scatter_max: [ScatterMax], keep the larger of ref and updates in rows of ref.
//
// And a count:
//
//   - tf.math.bincount: [Bincount], count the values of arr, or sum their weights, into bins (Into form [BincountInto]).
//
// [Ops] describes the same operators as tables for callers that run them
// by name.
//
// # Rules
//
// The rules, as TensorFlow's CPU kernels apply them:
//
//   - Indices are int32 or int64. A negative index is an error, like an
//     index past the end of its dimension; the error names the offending
//     index tuple (or index) and the shape it does not index into, in
//     TensorFlow's words.
//   - Duplicate indices are applied one at a time in row-major index
//     order: tensor_scatter_nd_update keeps the last update, scatter_nd
//     sums (strings are concatenated, bools OR-ed), and _add, _sub, _min
//     and _max accumulate in that order.
//   - tensor_scatter_nd_min and _max keep a NaN that is already in the
//     tensor and ignore a NaN in updates: the CPU kernels compare with
//     std::min and std::max, which return their first argument when the
//     comparison is false.
//   - The scatters need indices of rank >= 2, updates shaped
//     indices.shape[:-1] + shape[indices.shape[-1]:], and 1 <=
//     indices.shape[-1] <= 7 whenever the output has elements.
//   - gather_nd takes 0 <= indices.shape[-1] <= rank(params) (at most 7);
//     with batch_dims > 0 it works as tf.gather_nd does, by prefixing
//     every index tuple with its batch position.
//   - gather takes axis and batch_dims counted from the end when negative;
//     TensorFlow's axis=None is axis = batch_dims, and with axis 0
//     batch_dims is ignored, as tf.gather ignores it.
//   - Indices are checked only when the output has elements.
//   - The unsorted segment reductions drop a negative segment id; one at
//     or past num_segments is an error naming the first such id
//     ("segment_ids[0,0] = 2 is out of range [0, 2)"). An empty segment
//     holds 0 (sum, mean, sqrt_n), 1 (prod), the type's lowest finite
//     value (max) or its highest (min); max and min compare as
//     std::max(update, value), as the CPU kernels' Eigen cwiseMax does.
//     mean and sqrt_n divide by the count (its root) in data's type, as
//     TensorFlow's Python composites do, and take floating-point data
//     only (see the notes of their tables).
//   - The tf.compat.v1 scatters take indices of any shape, each naming a
//     row of ref, and updates shaped indices.shape + ref.shape[1:] or a
//     scalar (applied at every index, which the call spreads into memory
//     of its own). A bad index is an error naming the first one, as on
//     the CPU kernel, but ref is left as it was, where the CPU kernel has
//     applied the updates before it. Duplicates apply in row-major index
//     order: scatter_update keeps the last (TensorFlow leaves that order
//     undefined). scatter_div truncates integers toward zero and refuses an
//     integer update of 0 (engine.ErrArgument) before writing anything;
//     TensorFlow's kernel divides by it. scatter_min and _max keep a NaN
//     already in ref and ignore a NaN in updates, as the tensor scatters
//     do.
//   - bincount follows TensorFlow 2.15 and later, which run DenseBincount for
//     every dense arr: max(arr)+1 bins (0 for an empty arr), at least
//     minlength, at most maxlength; a negative value is an error naming the
//     first one, a value at or past the last bin is skipped, with weights
//     too. The number of bins is checked against the tensor size limit
//     before anything is allocated.
//
// Every error is a *dialect.OpError naming the operator ("tf.gather_nd"). An
// index error reads like TensorFlow's ("indices[1] = [7, 0] does not index
// into param shape [4,4]"; for the ND operators the last bad tuple, as the
// CPU kernels report it, and for gather the first bad index) and unwraps to
// an *engine.IndexError, so errors.Is(err, engine.ErrIndex) holds. Shape
// errors use TensorFlow's wording too.
//
// Element types: gather_nd, gather, scatter_nd, tensor_scatter_nd_update and
// scatter_update take every type; tensor_scatter_nd_add and _sub,
// scatter_add, _sub, _mul and _div, unsorted_segment_sum and _prod take
// numbers (not bool or string); tensor_scatter_nd_min and _max, scatter_min
// and _max, unsorted_segment_max and _min take real numbers;
// unsorted_segment_mean and _sqrt_n take floating-point numbers;
// bincount's weights and bins are int32, int64, float32 or float64.
//
// TensorFlow's operators are not versioned: every operator has the single
// version 1.
package tf

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// maxIndexDepth is the largest indices.shape[-1] TensorFlow's CPU kernels
// instantiate.
const maxIndexDepth = 7

// GatherND returns the slices of params that the index tuples in the last
// dimension of indices select, as tf.gather_nd(params, indices,
// batch_dims). The output has shape indices.shape[:-1] +
// params.shape[indices.shape[-1]:] (with batch_dims > 0: params' batch
// dimensions, then indices.shape[batch_dims:-1], then the rest of params
// after the indexed dimensions).
func GatherND(params, indices tensor.Tensor, batchDims int) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	g, err := prepareGatherND(sh, params, indices, batchDims)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(opGatherND, err)
	}
	return opcall.Alloc(opGatherND, params.DType(), g.shape, func(dst tensor.Tensor) error {
		return g.run(dst, params)
	})
}

// GatherNDInto is GatherND writing into dst, which has params' type and the
// output shape and shares no memory with the inputs.
func GatherNDInto(dst, params, indices tensor.Tensor, batchDims int) error {
	sh := opcall.GetShapes()
	defer sh.Release()
	g, err := prepareGatherND(sh, params, indices, batchDims)
	if err == nil {
		err = g.run(dst, params)
	}
	return opcall.Wrap(opGatherND, err)
}

// gatherND is a checked GatherND call.
type gatherND struct {
	indices   tensor.Tensor // reshaped so that its batch dimensions are params'
	orig      tensor.Tensor // as given, for the positions in errors
	batchDims int
	shape     tensor.Shape // of the output
	tuples    int          // the number of index tuples
}

// prepareGatherND checks a gather_nd call, with the shapes it reads and
// builds in sh.
func prepareGatherND(sh *opcall.Shapes, params, indices tensor.Tensor, batchDims int) (gatherND, error) {
	if err := opcall.CheckInputs(gatherNDB, params, "params", indices, "indices"); err != nil {
		return gatherND{}, err
	}
	orig := indices
	ps, is := sh.Of(params), sh.Of(indices)
	if batchDims != 0 {
		// tf.gather_nd checks these in Python before it builds the
		// batched index tuples.
		switch {
		case batchDims < 0:
			return gatherND{}, fmt.Errorf("%w: tf.gather_nd does not allow negative batch_dims (got %d)", dialect.ErrAttribute, batchDims)
		case batchDims >= len(is):
			return gatherND{}, fmt.Errorf("%w: Argument `batch_dims` = %d must be less than rank(`indices`) = %d",
				dialect.ErrAttribute, batchDims, len(is))
		case batchDims >= len(ps):
			return gatherND{}, fmt.Errorf("%w: Argument `batch_dims` = %d must be less than rank(`params`) = %d",
				dialect.ErrAttribute, batchDims, len(ps))
		}
		// TensorFlow reshapes indices to params' batch dimensions, so
		// they need only hold as many elements.
		want := append(append(sh.Buf(len(is)), ps[:batchDims]...), is[batchDims:]...)
		n, err := want.NumElements()
		if err != nil || n != indices.Len() {
			return gatherND{}, fmt.Errorf("%w: Input to reshape is a tensor with %d values, but the requested shape has %d"+
				" (the batch dimensions of indices %v must hold as many elements as those of params %v)",
				engine.ErrShape, indices.Len(), n, is, ps)
		}
		if indices, err = indices.View(sh.Ptr(want)); err != nil {
			return gatherND{}, fmt.Errorf("%w: %v", engine.ErrShape, err)
		}
		is = want
	}
	if len(ps) < 1 {
		return gatherND{}, fmt.Errorf("%w: params must be at least a vector", engine.ErrShape)
	}
	if len(is) < 1 {
		return gatherND{}, fmt.Errorf("%w: indices must be at least a vector", engine.ErrShape)
	}
	depth := batchDims + is[len(is)-1] // the tuple length TensorFlow's kernel sees
	if depth > len(ps) {
		return gatherND{}, fmt.Errorf("%w: index innermost dimension length must be <= params rank; saw: %d vs. %d",
			engine.ErrShape, depth, len(ps))
	}
	shape, err := engine.AppendGatherNDShape(sh.Buf(len(ps)+len(is)), ps, is, batchDims)
	if err != nil {
		return gatherND{}, err
	}
	tuples, _ := is[:len(is)-1].NumElements()
	if tuples > 0 {
		if params.Len() == 0 {
			return gatherND{}, fmt.Errorf("%w: Requested more than 0 entries, but params is empty.  Params shape: %v",
				engine.ErrShape, ps)
		}
		if depth > maxIndexDepth {
			return gatherND{}, fmt.Errorf("%w: Only indices.shape[-1] values between 1 and %d are currently supported.  Requested rank: %d",
				engine.ErrShape, maxIndexDepth, depth)
		}
	}
	return gatherND{indices: indices, orig: orig, batchDims: batchDims, shape: shape, tuples: tuples}, nil
}

func (g *gatherND) run(dst, params tensor.Tensor) error {
	if g.tuples == 0 {
		return opcall.CheckDst(dst, params.DType(), g.shape)
	}
	err := engine.GatherND(dst, params, g.indices, g.batchDims, ndRules)
	if err != nil && isIndexErr(err) {
		ps := params.Shape()
		is := g.indices.Shape()
		// TensorFlow's kernel sees tuples prefixed by their batch
		// coordinates, in an indices tensor whose batch dimensions are
		// flattened into one.
		at := is[:len(is)-1].Clone()
		var prefix func(t int) []int64
		if b := g.batchDims; b > 0 {
			batch, _ := ps[:b].NumElements()
			perBatch, _ := is[b : len(is)-1].NumElements()
			at = append(tensor.Shape{batch}, is[b:len(is)-1]...)
			prefix = func(t int) []int64 {
				var p []int64
				for _, c := range ps[:b].Coords(t / perBatch) {
					p = append(p, int64(c))
				}
				return p
			}
		}
		return ndIndexError(err, g.indices, g.orig, at, prefix, "param shape", ps)
	}
	return err
}

// Gather returns the slices of params along axis that the elements of
// indices select, as tf.gather(params, indices, axis=axis,
// batch_dims=batchDims). axis and batchDims count from the end when
// negative (batchDims against rank(indices)). TensorFlow's default
// axis=None means axis = batch_dims: pass the same value for both. When
// axis is 0, batchDims is ignored, as tf.gather ignores it. The output has
// shape params.shape[:axis] + indices.shape[batchDims:] +
// params.shape[axis+1:].
func Gather(params, indices tensor.Tensor, axis, batchDims int) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	g, err := prepareGather(sh, params, indices, axis, batchDims)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(opGather, err)
	}
	return opcall.Alloc(opGather, params.DType(), g.shape, func(dst tensor.Tensor) error {
		return g.run(dst, params, indices)
	})
}

// GatherInto is Gather writing into dst, which has params' type and the
// output shape and shares no memory with the inputs.
func GatherInto(dst, params, indices tensor.Tensor, axis, batchDims int) error {
	sh := opcall.GetShapes()
	defer sh.Release()
	g, err := prepareGather(sh, params, indices, axis, batchDims)
	if err == nil {
		err = g.run(dst, params, indices)
	}
	return opcall.Wrap(opGather, err)
}

// gather is a checked Gather call, with axis and batch_dims in [0, rank).
type gather struct {
	axis, batchDims int
	shape           tensor.Shape
}

// prepareGather checks a gather call, with the shapes it reads and builds
// in sh.
func prepareGather(sh *opcall.Shapes, params, indices tensor.Tensor, axis, batchDims int) (gather, error) {
	if err := opcall.CheckInputs(gatherB, params, "params", indices, "indices"); err != nil {
		return gather{}, err
	}
	if axis == 0 {
		batchDims = 0 // tf.gather drops batch_dims when axis is 0
	}
	ps, is := sh.Of(params), sh.Of(indices)
	if len(ps) < 1 {
		return gather{}, fmt.Errorf("%w: params must be at least 1 dimensional", engine.ErrShape)
	}
	// The rank axis needs, axis+1 or -axis, in uint64: for axis = MaxInt
	// or MinInt it is 2^63.
	minRank := uint64(axis) + 1
	if axis < 0 {
		minRank = -uint64(axis)
	}
	if uint64(len(ps)) < minRank {
		return gather{}, fmt.Errorf("%w: Shape must be at least rank %d but is rank %d (axis %d, params %v)",
			dialect.ErrAttribute, minRank, len(ps), axis, ps)
	}
	if axis < 0 {
		axis += len(ps)
	}
	if batchDims != 0 {
		if batchDims < -len(is) || batchDims > len(is) {
			return gather{}, fmt.Errorf("%w: Expected batch_dims in the range [%d, %d], but got %d",
				dialect.ErrAttribute, -len(is), len(is), batchDims)
		}
		if batchDims < 0 {
			batchDims += len(is)
		}
		if batchDims >= len(ps) {
			return gather{}, fmt.Errorf("%w: batch_dims (%d) must be less than rank(params) (%d).",
				dialect.ErrAttribute, batchDims, len(ps))
		}
		if axis < batchDims {
			return gather{}, fmt.Errorf("%w: batch_dims (%d) must be less than or equal to axis (%d).",
				dialect.ErrAttribute, batchDims, axis)
		}
		for d := 0; d < batchDims; d++ {
			if ps[d] != is[d] {
				return gather{}, fmt.Errorf("%w: params.shape[%d]: %d should be equal to indices.shape[%d]: %d",
					engine.ErrShape, d, ps[d], d, is[d])
			}
		}
	}
	shape, err := engine.AppendGatherShape(sh.Buf(len(ps)+len(is)), ps, is, axis, batchDims)
	if err != nil {
		return gather{}, err
	}
	return gather{axis: axis, batchDims: batchDims, shape: shape}, nil
}

func (g *gather) run(dst, params, indices tensor.Tensor) error {
	if n, _ := g.shape.NumElements(); n == 0 {
		// TensorFlow's kernel returns before reading any index.
		return opcall.CheckDst(dst, params.DType(), g.shape)
	}
	err := engine.Gather(dst, params, indices, g.axis, g.batchDims, rules)
	if ie, ok := asIndexErr(err); ok {
		return &indexError{
			msg: fmt.Sprintf("indices%s = %s is not in [0, %d)", slicePos(ie.Pos), ie.ValueString(), ie.Size),
			err: ie,
		}
	}
	return err
}

// ScatterND returns a tensor of the given shape holding zeros (false, "")
// with updates added at the index tuples in indices, as
// tf.scatter_nd(indices, updates, shape). Duplicate indices are summed in
// row-major index order; string updates are concatenated, bool updates
// OR-ed.
func ScatterND(indices, updates tensor.Tensor, shape tensor.Shape) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	skip, err := prepareScatterND(sh, indices, updates, shape)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(opScatterND, err)
	}
	return opcall.Alloc(opScatterND, updates.DType(), shape, func(dst tensor.Tensor) error {
		if skip {
			return nil // no elements
		}
		return runScatterND(dst, indices, updates)
	})
}

// ScatterNDInto is ScatterND writing into dst, whose shape is the output
// shape and whose type is that of updates. dst is overwritten; when an
// error is returned it is left unchanged.
func ScatterNDInto(dst, indices, updates tensor.Tensor) error {
	if dst.IsZero() {
		// Before the checks of the shape it stands for.
		return opcall.Wrap(opScatterND, opcall.CheckDstType(dst, updates.DType()))
	}
	sh := opcall.GetShapes()
	defer sh.Release()
	skip, err := prepareScatterND(sh, indices, updates, sh.Of(dst))
	if err == nil {
		err = opcall.CheckDstType(dst, updates.DType())
	}
	if err == nil && !skip {
		err = runScatterND(dst, indices, updates)
	}
	return opcall.Wrap(opScatterND, err)
}

// prepareScatterND checks a scatter_nd call; skip is true when the output
// has no elements.
func prepareScatterND(sh *opcall.Shapes, indices, updates tensor.Tensor, shape tensor.Shape) (skip bool, err error) {
	if err := opcall.CheckInputs(scatterNDB, updates, "updates", indices, "indices"); err != nil {
		return false, err
	}
	return checkScatterShapes(sh, true, indices, updates, shape)
}

func runScatterND(dst, indices, updates tensor.Tensor) error {
	opt := engine.ScatterOptions{Reduction: scatterNDReduction, Rules: ndRules, Arith: scatterNDArith}
	// A zero data tensor scatters onto zeros; the engine clears dst only
	// once every index is known to be valid.
	err := engine.ScatterND(dst, tensor.Tensor{}, indices, updates, opt)
	if err != nil && isIndexErr(err) {
		return ndIndexError(err, indices, indices, indices.Shape()[:indices.Rank()-1], nil, "shape", dst.Shape())
	}
	return err
}

// TensorScatterUpdate and its variants (TensorScatterAdd, ...), the
// compat.v1 scatters (ScatterUpdate, ...) and the segment reductions
// (UnsortedSegmentSum, SegmentSum, ...) are generated into zvariants.go
// from the table of the genvariants command.
//go:generate go run ../../internal/genvariants tf

func tensorScatter(op *scatterOp, t, indices, updates tensor.Tensor) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	skip, err := prepareTensorScatter(sh, op, t, indices, updates)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(op.name, err)
	}
	return opcall.Alloc(op.name, t.DType(), t.Shape(), func(dst tensor.Tensor) error {
		if skip {
			return nil // no elements
		}
		return runTensorScatter(op, dst, t, indices, updates)
	})
}

func tensorScatterInto(op *scatterOp, dst, t, indices, updates tensor.Tensor) error {
	sh := opcall.GetShapes()
	defer sh.Release()
	skip, err := prepareTensorScatter(sh, op, t, indices, updates)
	if err == nil && skip {
		err = opcall.CheckDstLike(dst, t)
	}
	if err == nil && !skip {
		err = runTensorScatter(op, dst, t, indices, updates)
	}
	return opcall.Wrap(op.name, err)
}

func prepareTensorScatter(sh *opcall.Shapes, op *scatterOp, t, indices, updates tensor.Tensor) (skip bool, err error) {
	if err := opcall.CheckInputs(op.b, t, "tensor", indices, "indices"); err != nil {
		return false, err
	}
	if updates.IsZero() {
		return false, fmt.Errorf("%w: missing input \"updates\"", dialect.ErrInput)
	}
	if updates.DType() != t.DType() {
		return false, fmt.Errorf("%w: updates has type %v, tensor has type %v; they must be equal",
			engine.ErrType, updates.DType(), t.DType())
	}
	return checkScatterShapes(sh, false, indices, updates, sh.Of(t))
}

func runTensorScatter(op *scatterOp, dst, t, indices, updates tensor.Tensor) error {
	// The CPU kernels' std::min and std::max ignore a NaN update and keep
	// a NaN value.
	opt := engine.ScatterOptions{Reduction: op.red, Rules: ndRules, Arith: tensorScatterArith}
	err := engine.ScatterND(dst, t, indices, updates, opt)
	if err != nil && isIndexErr(err) {
		return ndIndexError(err, indices, indices, indices.Shape()[:indices.Rank()-1], nil, "shape", t.Shape())
	}
	return err
}

// checkScatterShapes checks the shapes of a scatter as TensorFlow's
// ScatterNd (nd) or TensorScatter* kernel does, in the kernel's order and
// words. skip is true when the output has no elements, so that there is
// nothing to do.
func checkScatterShapes(sh *opcall.Shapes, nd bool, indices, updates tensor.Tensor, shape tensor.Shape) (skip bool, err error) {
	is, us := sh.Of(indices), sh.Of(updates)
	shapeErr := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{engine.ErrShape}, args...)...)
	}
	if len(is) < 1 {
		return false, shapeErr("Indices shape must have rank at least one. Found:%v", is)
	}
	if len(us) < 1 {
		return false, shapeErr("Updates shape must have rank at least one. Found:%v", us)
	}
	for _, d := range shape {
		if d < 0 {
			return false, shapeErr("Dimension %d must be >= 0", d)
		}
	}
	outElems, err := shape.NumElements()
	if err != nil {
		return false, shapeErr("the output shape %v holds more elements than an int can count", shape)
	}
	// ScatterNd compares the element count of its shape input (the output
	// rank) here, the tensor scatters the output's element count.
	inputs := outElems
	if nd {
		inputs = len(shape)
	}
	if !validEmpty(inputs, indices.Len(), updates.Len()) {
		return false, shapeErr("Indices and updates specified for empty output shape")
	}
	outer := len(is) - 1
	for i := 0; i < outer; i++ {
		if i >= len(us) || is[i] != us[i] {
			if nd {
				return false, shapeErr("Dimensions [0,%d) of indices[shape=%v] must match dimensions [0,%d) of updates[shape=%v]",
					outer, is, outer, us)
			}
			return false, shapeErr("Outer dimensions of indices and update must match. Indices shape: %v, updates shape:%v", is, us)
		}
	}
	ix := is[outer]
	innerErr := func() error {
		if nd {
			return shapeErr("Dimensions [%d,%d) of input[shape=%v] must match dimensions [%d,%d) of updates[shape=%v]",
				ix, len(shape), shape, outer, len(us), us)
		}
		return shapeErr("The inner %d dimensions of output.shape=%v must match the inner %d dimensions of updates.shape=%v",
			len(shape)-ix, shape, len(us)-outer, us)
	}
	if len(us)-outer != len(shape)-ix {
		if nd {
			return false, innerErr()
		}
		return false, shapeErr("Inner dimensions of output shape must match inner dimensions of updates shape. Output: %v updates: %v",
			shape, us)
	}
	for i := 0; i+outer < len(us); i++ {
		if us[i+outer] != shape[ix+i] {
			return false, innerErr()
		}
	}
	// What the shared DoScatterNd checks next.
	if len(shape) < 1 {
		return false, shapeErr("Output must be at least 1-D, got shape: %v", shape)
	}
	if !validEmpty(outElems, indices.Len(), updates.Len()) {
		return false, shapeErr("Indices and updates specified for empty output.  indices shape: %v", is)
	}
	if us[0] != is[0] {
		return false, shapeErr("Dimensions [0,1) of indices[shape=%v] = %d must match dimensions [0,1) of updates[shape=%v] = %d",
			is, is[0], us, us[0])
	}
	// The kernel reads 1-D indices as a list of 1-tuples here, although
	// the checks above read them as one tuple: only an empty update of
	// an empty output passes both.
	sliceDim, batchDim := 1, 1
	if len(is) > 1 {
		sliceDim, batchDim = is[len(is)-1], len(is)-1
	}
	// Formatted only when returned: a valid call builds no error.
	prefixErr := func() error {
		return shapeErr("Dimensions [0,%d) of indices[shape=%v] must match dimensions [0,%d) of updates[shape=%v]",
			batchDim, is, batchDim, us)
	}
	suffixErr := func() error {
		return shapeErr("Dimensions [%d,%d) of input[shape=%v] must match dimensions [%d,%d) of updates[shape=%v]",
			sliceDim, len(shape), shape, sliceDim, len(us), us)
	}
	switch {
	case len(us) < batchDim:
		return false, prefixErr()
	case len(shape) < sliceDim+len(us)-batchDim, len(us) != batchDim+len(shape)-sliceDim:
		return false, suffixErr()
	}
	for d := 0; d < batchDim; d++ {
		if us[d] != is[d] {
			return false, prefixErr()
		}
	}
	for d := 0; d < len(us)-batchDim; d++ {
		if us[d+batchDim] != shape[d+sliceDim] {
			return false, suffixErr()
		}
	}
	if outElems == 0 {
		return true, nil
	}
	if sliceDim < 1 || sliceDim > maxIndexDepth {
		return false, shapeErr("Only indices.shape[-1] values between 1 and %d are currently supported.  Requested rank: %d",
			maxIndexDepth, sliceDim)
	}
	return false, nil
}

// validEmpty is TensorFlow's rule for empty scatters: indices and updates
// both empty, or output, indices and updates all non-empty.
func validEmpty(outputs, indices, updates int) bool {
	if indices == 0 && updates == 0 {
		return true
	}
	return outputs != 0 && indices != 0 && updates != 0
}
