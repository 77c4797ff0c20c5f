// Package jax is the JAX dialect: jax.lax.gather, jax.lax.scatter,
// scatter_add, scatter_sub, scatter_mul, scatter_min, scatter_max,
// dynamic_slice and dynamic_update_slice, and the segment reductions
// jax.ops.segment_sum, segment_prod, segment_max and segment_min, as JAX
// documents them and runs them on the CPU (through XLA).
//
// # Operators
//
// Each has an Into form that writes into a dst you supply (GatherInto).
// The gather and the scatters take their dimension numbers as dims and the
// treatment of out-of-bounds starts as mode; the gather takes its slice
// sizes as sliceSizes and, for mode "fill", fillValue:
//
//   - jax.lax.gather: [Gather], take slices of operand at start indices, by dimension numbers.
//   - jax.lax.scatter: [Scatter], write windows of updates into operand at start indices.
//   - jax.lax.scatter_add: [ScatterAdd], add windows of updates into operand at start indices.
//   - jax.lax.scatter_sub: [ScatterSub], subtract windows of updates from operand at start indices.
//   - jax.lax.scatter_mul: [ScatterMul], multiply operand by windows of updates at start indices.
//   - jax.lax.scatter_min: [ScatterMin], keep the smaller of operand and windows of updates.
//   - jax.lax.scatter_max: [ScatterMax], keep the larger of operand and windows of updates.
//   - jax.lax.dynamic_slice: [DynamicSlice], take one slice of operand at a start index.
//   - jax.lax.dynamic_update_slice: [DynamicUpdateSlice], replace one slice of operand at a start index.
//   - jax.ops.segment_sum: [SegmentSum], sum the rows of data by segment.
//   - jax.ops.segment_prod: [SegmentProd], multiply the rows of data by segment.
//   - jax.ops.segment_max: [SegmentMax], take the maximum of the rows of data by segment.
//   - jax.ops.segment_min: [SegmentMin], take the minimum of the rows of data by segment.
//
// [Ops] describes the same operators as tables for callers that run them
// by name.
//
// # Rules
//
//   - Dimension numbers are lax.GatherDimensionNumbers and
//     lax.ScatterDimensionNumbers; the index vector is the last dimension
//     of the indices, as in JAX. Shapes are checked as lax checks them:
//     batching dimensions of equal sizes, updates of exactly the shape the
//     dimension numbers give.
//   - mode says what an out-of-bounds start index does. For Gather, "clip"
//     clamps it so that the slice lies within operand, "fill" and "drop"
//     fill the whole slice with the fill value (by default NaN for
//     floating-point and complex types, the lowest value of a signed
//     integer type, the highest of an unsigned one, true for bool), and
//     "promise_in_bounds" and the default, "", clamp as XLA does. For the
//     scatters, "clip" clamps, and "fill", "drop", "promise_in_bounds" and
//     the default skip a window that does not lie wholly within operand,
//     as XLA does. A negative start index is out of bounds (lax does not
//     count from the end; jax.numpy does before it calls lax).
//   - DynamicSlice and DynamicUpdateSlice count a negative start from the
//     end of its dimension when allowNegative is true (JAX's default),
//     and clamp the start so that the slice lies within operand.
//   - Duplicate start indices: windows are applied in row-major order of
//     their start indices: Scatter keeps the last (JAX leaves it
//     undefined), the others accumulate in that order. Max and min give
//     NaN when either side is NaN; float16 and bfloat16 round after every
//     step, as XLA computes them.
//   - unique_indices and indices_are_sorted are hints that never change a
//     result here.
//   - The segment reductions drop an id outside [0, num_segments),
//     negative ones too (JAX does not count them from the end), unless
//     mode is "clip", which moves it to the nearest segment; an empty
//     segment holds the reduction's identity: 0, 1, -inf (the lowest
//     integer, false) for max, +inf (the highest integer, true) for min.
//     JAX's num_segments=None is [NumSegments]; bucket_size is taken
//     where it changes nothing (see [SegmentOptions]).
//   - There are no string tensors in JAX; complex numbers have no min or
//     max.
//
// Every error is a *dialect.OpError naming the operator
// ("jax.lax.scatter_add").
package jax

import (
	"fmt"
	"math"
	"strings"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// GatherDimensionNumbers are lax.GatherDimensionNumbers.
type GatherDimensionNumbers struct {
	OffsetDims               []int
	CollapsedSliceDims       []int
	StartIndexMap            []int
	OperandBatchingDims      []int
	StartIndicesBatchingDims []int
}

// ScatterDimensionNumbers are lax.ScatterDimensionNumbers.
type ScatterDimensionNumbers struct {
	UpdateWindowDims           []int
	InsertedWindowDims         []int
	ScatterDimsToOperandDims   []int
	OperandBatchingDims        []int
	ScatterIndicesBatchingDims []int
}

// Mode is lax.GatherScatterMode, spelled as JAX parses it from a string.
type Mode string

// The modes. The zero Mode is JAX's None.
const (
	Default         Mode = ""
	Clip            Mode = "clip"
	Fill            Mode = "fill"
	Drop            Mode = "drop"
	PromiseInBounds Mode = "promise_in_bounds"
)

// The operators' names.
const (
	opGather             = "jax.lax.gather"
	opScatter            = "jax.lax.scatter"
	opScatterAdd         = "jax.lax.scatter_add"
	opScatterSub         = "jax.lax.scatter_sub"
	opScatterMul         = "jax.lax.scatter_mul"
	opScatterMin         = "jax.lax.scatter_min"
	opScatterMax         = "jax.lax.scatter_max"
	opDynamicSlice       = "jax.lax.dynamic_slice"
	opDynamicUpdateSlice = "jax.lax.dynamic_update_slice"
)

// Gather returns the slices of operand of the given sizes that the start
// indices in the last dimension of startIndices select, as the dimension
// numbers say; mode and fillValue say what an out-of-bounds start does
// (the zero Tensor for JAX's default fill value, else a scalar of
// operand's type).
func Gather(operand, startIndices tensor.Tensor, dims GatherDimensionNumbers, sliceSizes []int, mode Mode, fillValue tensor.Tensor) (tensor.Tensor, error) {
	return gather(operand, startIndices, gatherDims(dims, startIndices, sliceSizes), mode, fillValue)
}

// GatherInto is Gather writing into dst, which has operand's type and the
// result's shape and shares no memory with the inputs.
func GatherInto(dst, operand, startIndices tensor.Tensor, dims GatherDimensionNumbers, sliceSizes []int, mode Mode, fillValue tensor.Tensor) error {
	opt, err := gatherOptions(operand, startIndices, mode, fillValue)
	if err == nil {
		d := gatherDims(dims, startIndices, sliceSizes)
		err = engine.GatherGeneral(dst, operand, startIndices, &d, opt)
	}
	return opcall.Wrap(opGather, err)
}

// gather is Gather by the engine's dimension numbers d.
func gather(operand, indices tensor.Tensor, d engine.GatherDims, mode Mode, fill tensor.Tensor) (tensor.Tensor, error) {
	opt, err := gatherOptions(operand, indices, mode, fill)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(opGather, err)
	}
	return opcall.AllocGather(opGather, operand, indices, &d, opt)
}

// gatherOptions checks a gather's inputs and returns the engine's options
// for it.
func gatherOptions(operand, indices tensor.Tensor, mode Mode, fill tensor.Tensor) (engine.GatherOptions, error) {
	if err := checkInputs(gatherB, operand, indices, "operand", "start_indices"); err != nil {
		return engine.GatherOptions{}, err
	}
	opt := engine.GatherOptions{Rules: clampRules, Exact: true}
	switch mode {
	case Default, PromiseInBounds, Clip:
	case Fill, Drop:
		opt.Rules = skipRules
		if fill.IsZero() {
			fill = defaultFill(operand.DType())
		}
		if fill.DType() != operand.DType() || fill.Rank() != 0 {
			err := fmt.Errorf("%w: fill_value must be a %v scalar, got %v of shape %v",
				dialect.ErrInput, operand.DType(), fill.DType(), fill.Shape())
			if fill.DType() != operand.DType() {
				err = dialect.TypeError(strings.TrimPrefix(err.Error(), dialect.ErrInput.Error()+": "))
			}
			return opt, err
		}
		opt.Fill = fill
	default:
		return opt, badMode(mode)
	}
	return opt, nil
}

// gatherDims returns the engine's dimension numbers of a gather with JAX's
// dims and slice sizes and the given indices, whose last dimension holds
// the index vectors.
func gatherDims(dims GatherDimensionNumbers, indices tensor.Tensor, sizes []int) engine.GatherDims {
	return engine.GatherDims{
		OffsetDims:               dims.OffsetDims,
		CollapsedSliceDims:       dims.CollapsedSliceDims,
		OperandBatchingDims:      dims.OperandBatchingDims,
		StartIndicesBatchingDims: dims.StartIndicesBatchingDims,
		StartIndexMap:            dims.StartIndexMap,
		IndexVectorDim:           indices.Rank() - 1,
		SliceSizes:               sizes,
	}
}

// Scatter and its variants (ScatterAdd, ...), and the segment reductions
// (SegmentSum, ...), are generated into zvariants.go from the table of the
// genvariants command.
//go:generate go run ../../internal/genvariants jax

// scatterAlloc is scatterInto into a new tensor of operand's type and
// shape.
func scatterAlloc(op string, r engine.Reduction, operand, indices, updates tensor.Tensor, d engine.ScatterDims, mode Mode) (tensor.Tensor, error) {
	return opcall.AllocLike(op, operand, "operand", func(dst tensor.Tensor) error {
		return scatterInto(op, r, dst, operand, indices, updates, d, mode)
	})
}

// scatterInto runs the scatter op with reduction r by the engine's
// dimension numbers d in the given mode.
func scatterInto(op string, r engine.Reduction, dst, operand, indices, updates tensor.Tensor, d engine.ScatterDims, mode Mode) error {
	err := checkInputs(scatterB, operand, indices, "operand", "scatter_indices")
	if err == nil && updates.IsZero() {
		err = fmt.Errorf("%w: missing input \"updates\"", dialect.ErrInput)
	}
	opt, merr := scatterOptions(r, mode)
	if err == nil {
		err = merr
	}
	if err == nil {
		err = jaxWords(engine.ScatterGeneral(dst, operand, indices, updates, &d, opt))
	}
	return opcall.Wrap(op, err)
}

// reworded is an error of the engine's in JAX's words.
type reworded struct {
	msg string
	err error
}

func (e *reworded) Error() string { return e.msg }

func (e *reworded) Unwrap() error { return e.err }

// jaxWords returns err in JAX's words: the engine names the operand's
// batching dimensions as StableHLO does, input_batching_dims, where
// lax.ScatterDimensionNumbers has operand_batching_dims. The error still
// wraps err, for errors.Is and errors.As.
func jaxWords(err error) error {
	if err == nil || !strings.Contains(err.Error(), "input_batching_dims") {
		return err
	}
	return &reworded{msg: strings.ReplaceAll(err.Error(), "input_batching_dims", batching), err: err}
}

// scatterOptions returns the engine's options for a scatter with
// reduction r in the given mode.
func scatterOptions(r engine.Reduction, mode Mode) (engine.ScatterOptions, error) {
	opt := engine.ScatterOptions{Reduction: r, Rules: skipRules, Arith: arithOf(r), Exact: true}
	switch mode {
	case Default, Fill, Drop, PromiseInBounds:
	case Clip:
		opt.Rules = clampRules
	default:
		return opt, badMode(mode)
	}
	return opt, nil
}

// scatterDims returns the engine's dimension numbers of a scatter with
// JAX's dims and the given indices, whose last dimension holds the index
// vectors.
func scatterDims(dims ScatterDimensionNumbers, indices tensor.Tensor) engine.ScatterDims {
	return engine.ScatterDims{
		UpdateWindowDims:           dims.UpdateWindowDims,
		InsertedWindowDims:         dims.InsertedWindowDims,
		InputBatchingDims:          dims.OperandBatchingDims,
		ScatterIndicesBatchingDims: dims.ScatterIndicesBatchingDims,
		ScatterDimsToOperandDims:   dims.ScatterDimsToOperandDims,
		IndexVectorDim:             indices.Rank() - 1,
	}
}

// DynamicSlice returns the slice of operand of the given sizes that starts
// at startIndices, one integer scalar per dimension of operand. A
// negative start counts from the end of its dimension if allowNegative;
// the start is then clamped so that the slice lies within operand.
func DynamicSlice(operand tensor.Tensor, startIndices []tensor.Tensor, sliceSizes []int, allowNegative bool) (tensor.Tensor, error) {
	return opcall.DynamicSlice(opDynamicSlice, framework, operand, startIndices, sliceSizes, sliceRules(allowNegative))
}

// DynamicSliceInto is DynamicSlice writing into dst, whose shape gives the
// slice sizes.
func DynamicSliceInto(dst, operand tensor.Tensor, startIndices []tensor.Tensor, allowNegative bool) error {
	return opcall.DynamicSliceInto(opDynamicSlice, framework, dst, operand, startIndices, sliceRules(allowNegative))
}

// DynamicUpdateSlice returns a copy of operand in which the slice that
// starts at startIndices (one integer scalar per dimension) is replaced by
// update. A negative start counts from the end of its dimension if
// allowNegative; the start is then clamped so that update lies within
// operand.
func DynamicUpdateSlice(operand, update tensor.Tensor, startIndices []tensor.Tensor, allowNegative bool) (tensor.Tensor, error) {
	return opcall.DynamicUpdateSlice(opDynamicUpdateSlice, framework, operand, update, startIndices, sliceRules(allowNegative))
}

// DynamicUpdateSliceInto is DynamicUpdateSlice writing into dst, which has
// operand's type and shape and may be operand itself.
func DynamicUpdateSliceInto(dst, operand, update tensor.Tensor, startIndices []tensor.Tensor, allowNegative bool) error {
	return opcall.DynamicUpdateSliceInto(opDynamicUpdateSlice, framework, dst, operand, update, startIndices, sliceRules(allowNegative))
}

// framework names JAX in the errors that refuse strings, which it has
// none of.
const framework = "JAX"

var (
	// clampRules: a start is clamped into the operand; a negative one is
	// out of bounds, so clamped to 0.
	clampRules = engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeClamp}
	// skipRules: a window that does not fit is filled (gather) or
	// dropped (scatter).
	skipRules = engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeSkip}
)

// arithOf returns the arithmetic of a scatter with reduction r: XLA's,
// under which maximum and minimum are IEEE 754's (StableHLO's): NaN
// propagates and -0 is less than +0; and JAX's: scatter_add, scatter_sub
// and scatter_mul trace lax.add, lax.sub and lax.mul, which take numbers
// only, so they refuse bool (the other scatters take it).
func arithOf(r engine.Reduction) engine.Arith {
	return engine.Arith{MinMax: engine.MinMaxIEEE, NumbersOnly: r == engine.Add || r == engine.Sub || r == engine.Mul}
}

// sliceRules returns the rules of the dynamic slices.
func sliceRules(allowNegative bool) engine.IndexRules {
	r := clampRules
	if allowNegative {
		r.Negative = engine.NegativeFromEnd
	}
	return r
}

func badMode(m Mode) error {
	return fmt.Errorf("%w: unknown mode %q (clip, fill, drop or promise_in_bounds)", dialect.ErrAttribute, string(m))
}

// gatherB and scatterB are the shared Behaviors of gather and of the
// scatters, whose types the typed functions check, which init sets.
var gatherB, scatterB *dialect.Behavior

// checkInputs checks the data and index inputs of a gather or scatter of
// Behavior b: given, of its types, the indices of rank >= 1.
func checkInputs(b *dialect.Behavior, data, indices tensor.Tensor, dataName, indName string) error {
	if err := opcall.CheckGeneral(b, data, indices, dataName, indName); err != nil {
		return err
	}
	if indices.Rank() < 1 {
		return fmt.Errorf("%w: %s must have rank >= 1 (its last dimension holds the index vectors), got a scalar",
			engine.ErrShape, indName)
	}
	return nil
}

// defaultFill returns JAX's fill value for a gather of element type d:
// NaN for floating-point and complex types, the lowest value of a signed
// integer type, the highest of an unsigned one, true for bool.
func defaultFill(d tensor.DType) tensor.Tensor { return defaultFills[d] }

// defaultFills holds the fill values of defaultFill, made once so that a
// call allocates none.
var defaultFills = map[tensor.DType]tensor.Tensor{
	tensor.Bool:       tensor.Scalar(true),
	tensor.Int8:       tensor.Scalar(int8(math.MinInt8)),
	tensor.Int16:      tensor.Scalar(int16(math.MinInt16)),
	tensor.Int32:      tensor.Scalar(int32(math.MinInt32)),
	tensor.Int64:      tensor.Scalar(int64(math.MinInt64)),
	tensor.Uint8:      tensor.Scalar(uint8(math.MaxUint8)),
	tensor.Uint16:     tensor.Scalar(uint16(math.MaxUint16)),
	tensor.Uint32:     tensor.Scalar(uint32(math.MaxUint32)),
	tensor.Uint64:     tensor.Scalar(uint64(math.MaxUint64)),
	tensor.Float16:    tensor.Scalar(float16.Fromfloat32(float32(math.NaN()))), // 0x7e00, as NumPy casts NaN
	tensor.BFloat16:   tensor.Scalar(bfloat16.FromFloat32(float32(math.NaN()))),
	tensor.Float32:    tensor.Scalar(float32(math.NaN())),
	tensor.Float64:    tensor.Scalar(math.NaN()),
	tensor.Complex64:  tensor.Scalar(complex(float32(math.NaN()), 0)),
	tensor.Complex128: tensor.Scalar(complex(math.NaN(), 0)),
}
