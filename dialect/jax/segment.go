package jax

import (
	"fmt"
	"math"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// The segment reductions, jax.ops.segment_sum, segment_prod, segment_max
// and segment_min: row i of data goes into segment segment_ids[i] of an
// output of num_segments rows that starts as the reduction's identity,
// as jax.ops' _segment_update builds it (jnp.full, then the scatter of
// lax.scatter_add, _mul, _max or _min with normalize_indices=False). Each
// is one general scatter of the engine, the ScatterND form's dimension
// numbers (so that it takes the form's kernel), with the identity as the
// engine's fill (Behavior.Fill).

// SegmentOptions are the keyword arguments of jax.ops.segment_sum and its
// kin, but num_segments.
type SegmentOptions struct {
	// IndicesAreSorted and UniqueIndices are indices_are_sorted and
	// unique_indices: promises that never change a result here.
	IndicesAreSorted, UniqueIndices bool
	// BucketSize is bucket_size, 0 for JAX's None. JAX reduces each
	// bucket of BucketSize rows apart and then the buckets: the result is
	// the same for max and min, and for sums and products of integers
	// (exact, and wrapping alike in any order), which take it; a
	// floating-point sum or product, whose rounding the order of the
	// buckets' reduction decides, refuses it.
	BucketSize int
	// Mode is mode: the default, "drop", "fill" and "promise_in_bounds"
	// drop an id outside [0, num_segments), negative ones too (JAX does not
	// count them from the end); "clip" moves it to the nearest segment.
	Mode Mode
}

// segmentOp describes one of the jax.ops.segment_* operators.
type segmentOp struct {
	name    string
	family  string
	summary string
	red     engine.Reduction
	fill    dialect.Fill
	b       *dialect.Behavior // its shared Behavior, which init sets
}

// The operators' names.
const (
	opSegmentSum  = "jax.ops.segment_sum"
	opSegmentProd = "jax.ops.segment_prod"
	opSegmentMax  = "jax.ops.segment_max"
	opSegmentMin  = "jax.ops.segment_min"
)

var (
	segSum  = &segmentOp{name: opSegmentSum, family: "segment_sum", summary: "sum the rows of data by segment", red: engine.Add, fill: dialect.FillZero}
	segProd = &segmentOp{name: opSegmentProd, family: "segment_prod", summary: "multiply the rows of data by segment", red: engine.Mul, fill: dialect.FillOne}
	segMax  = &segmentOp{name: opSegmentMax, family: "segment_max", summary: "take the maximum of the rows of data by segment", red: engine.Max, fill: dialect.FillMinusInf}
	segMin  = &segmentOp{name: opSegmentMin, family: "segment_min", summary: "take the minimum of the rows of data by segment", red: engine.Min, fill: dialect.FillPlusInf}
	segOps  = []*segmentOp{segSum, segProd, segMax, segMin}
)

// SegmentSum and its variants (SegmentProd, ...) are generated into
// zvariants.go from the table of the genvariants command (see jax.go).

// NumSegments returns the number of segments JAX's num_segments=None
// gives: the largest id plus one, as np.max(segment_ids) + 1 (0 or less
// when every id is negative, which SegmentSum refuses below 0). Empty
// segment ids have no largest id, an error as NumPy's max of nothing is.
func NumSegments(segmentIDs tensor.Tensor) (int, error) {
	if err := opcall.CheckIndices(segmentIDs, "segment_ids", indexTypes); err != nil {
		return 0, err
	}
	if segmentIDs.Len() == 0 {
		return 0, fmt.Errorf("%w: segment_ids is empty: num_segments=None takes max(segment_ids) + 1, which has no value", dialect.ErrInput)
	}
	top := int64(math.MinInt64)
	for i := range segmentIDs.Len() {
		v, _ := segmentIDs.IntAt(i) // a uint64 as its bits
		if v < 0 && segmentIDs.DType() == tensor.Uint64 || v >= math.MaxInt {
			return 0, fmt.Errorf("%w: max(segment_ids) + 1 is beyond an int", dialect.ErrInput)
		}
		top = max(top, v)
	}
	return int(top) + 1, nil
}

// indexTypes are the types segment_ids may have: every integer type.
var indexTypes = dialect.IntegerTypes

func segment(op *segmentOp, data, segmentIDs tensor.Tensor, numSegments int, opt SegmentOptions) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	shape, err := prepareSegment(sh, op, data, segmentIDs, numSegments, opt)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(op.name, err)
	}
	return opcall.Alloc(op.name, data.DType(), shape, func(dst tensor.Tensor) error {
		return runSegment(sh, op, dst, data, segmentIDs, opt)
	})
}

func segmentInto(op *segmentOp, dst, data, segmentIDs tensor.Tensor, opt SegmentOptions) error {
	if dst.Rank() < 1 {
		return opcall.Wrap(op.name, fmt.Errorf("%w: dst must have rank >= 1 (its first dimension is num_segments), got shape %v",
			engine.ErrShape, dst.Shape()))
	}
	sh := opcall.GetShapes()
	defer sh.Release()
	shape, err := prepareSegment(sh, op, data, segmentIDs, dst.Dim(0), opt)
	if err == nil {
		err = opcall.CheckDst(dst, data.DType(), shape)
	}
	if err == nil {
		err = runSegment(sh, op, dst, data, segmentIDs, opt)
	}
	return opcall.Wrap(op.name, err)
}

// prepareSegment checks a call of op and returns the output's shape,
// built in sh.
func prepareSegment(sh *opcall.Shapes, op *segmentOp, data, segmentIDs tensor.Tensor, numSegments int, opt SegmentOptions) (tensor.Shape, error) {
	if err := opcall.CheckGeneral(op.b, data, segmentIDs, "data", "segment_ids"); err != nil {
		return nil, err
	}
	ds := sh.Of(data)
	switch {
	case len(ds) == 0:
		return nil, fmt.Errorf("%w: data must have rank >= 1 (its rows are reduced), got a scalar", engine.ErrShape)
	case segmentIDs.Rank() != 1 || segmentIDs.Dim(0) != ds[0]:
		return nil, fmt.Errorf("%w: segment_ids must be 1-D with an id per row of data %v, got shape %v", engine.ErrShape, ds, segmentIDs.Shape())
	case numSegments < 0:
		return nil, fmt.Errorf("%w: num_segments must be non-negative (got %d).", dialect.ErrInput, numSegments)
	case opt.BucketSize < 0:
		return nil, fmt.Errorf("%w: bucket_size must be positive, or 0 for None (got %d)", dialect.ErrAttribute, opt.BucketSize)
	case opt.BucketSize > 0 && (op.red == engine.Add || op.red == engine.Mul) && !data.DType().IsInteger():
		return nil, fmt.Errorf("%w: bucket_size %d on %v data: JAX sums each bucket and then the buckets, whose floating-point order XLA leaves open; "+
			"only integer sums and products, and max and min, take it here", dialect.ErrAttribute, opt.BucketSize, data.DType())
	}
	if _, err := scatterOptions(op.red, opt.Mode); err != nil {
		return nil, err
	}
	shape := append(append(sh.Buf(len(ds)), numSegments), ds[1:]...)
	if _, err := shape.NumElements(); err != nil {
		return nil, fmt.Errorf("%w: the output shape %v holds more elements than an int can count", engine.ErrShape, shape)
	}
	return shape, nil
}

// runSegment runs op into dst, whose shape prepareSegment has checked: a
// general scatter of data's rows at the ids (as [N,1] start indices) with
// ScatterND's dimension numbers, onto the identity.
func runSegment(sh *opcall.Shapes, op *segmentOp, dst, data, segmentIDs tensor.Tensor, opt SegmentOptions) error {
	sopt, _ := scatterOptions(op.red, opt.Mode)
	fill, ok := dialect.FillValue(op.b.Fill, dst.DType())
	if !ok {
		return fmt.Errorf("%w: %v has no identity for %s", engine.ErrType, dst.DType(), op.name)
	}
	sopt.Fill, sopt.Exact = fill, false
	starts, err := segmentIDs.View(sh.Ptr(append(append(sh.Buf(2), segmentIDs.Dim(0)), 1)))
	if err != nil {
		return fmt.Errorf("%w: %v", engine.ErrShape, err)
	}
	d := segmentDims(data.Rank())
	return engine.ScatterGeneral(dst, tensor.Tensor{}, starts, data, &d, sopt)
}

// segmentDims are the dimension numbers of a segment reduction of data of
// the given rank: ScatterND's for one start index per row, the rows'
// dimensions the window's.
func segmentDims(rank int) engine.ScatterDims {
	return engine.ScatterDims{UpdateWindowDims: windowDims(rank - 1), InsertedWindowDims: firstDim,
		ScatterDimsToOperandDims: firstDim, IndexVectorDim: 1}
}

// firstDim is the list [0], which the engine only reads.
var firstDim = []int{0}

// counting holds 1, 2, ..., whose prefixes windowDims hands out.
var counting = func() []int {
	c := make([]int, 32)
	for i := range c {
		c[i] = i + 1
	}
	return c
}()

// windowDims returns the list 1, 2, ..., n, shared (the engine only reads
// it) up to a rank that tensors seldom pass.
func windowDims(n int) []int {
	if n <= len(counting) {
		return counting[:n:n]
	}
	d := make([]int, n)
	for i := range d {
		d[i] = i + 1
	}
	return d
}

func (op *segmentOp) behavior(int) dialect.Behavior {
	b := opcall.HLOBehavior(framework, skipRules,
		"An id outside [0, num_segments) is dropped, a negative one too (JAX does not count it from the end); mode clip moves it to the nearest segment.",
		fmt.Sprintf("An empty segment holds %v, the identity jax.ops fills the output with.", op.fill),
		"num_segments left out is max(segment_ids) + 1, as JAX's None.",
		"bucket_size is taken by max and min, and by integer sums and products, whose result it does not change; "+
			"a floating-point sum or product refuses it (JAX's result depends on the order XLA reduces the buckets in).",
		"segment_ids is 1-D, an id per row of data (JAX's broadcasting of other shapes is refused).")
	b.IndexTypes = indexTypes
	// lax.scatter_add and _mul trace lax.add and lax.mul, which take
	// numbers (no bool); complex numbers have no order for max and min.
	if op.red == engine.Add || op.red == engine.Mul {
		b.DataTypes = b.DataTypes.Without(tensor.Bool)
	} else {
		b.DataTypes = b.DataTypes.Without(tensor.Complex64, tensor.Complex128)
	}
	b.Arith, b.Fill = arithOf(op.red), op.fill
	b.Reductions = map[string]engine.Reduction{op.family[len("segment_"):]: op.red}
	return b
}

// segmentTable returns the table entries of the segment reductions.
func segmentTable(mode dialect.Attr, hints []dialect.Attr) []*dialect.Op {
	inputs := []dialect.Param{
		{Name: "data", Role: dialect.RoleData, Doc: "the rows to reduce, of rank >= 1"},
		{Name: "segment_ids", Role: dialect.RoleIndices, Doc: "a segment id per row of data, 1-D"},
		{Name: "num_segments", Role: dialect.RoleNumSegments, Types: "an integer scalar", AttrKind: dialect.Int, Optional: true,
			Doc: "the number of segments; left out, max(segment_ids) + 1"},
	}
	attrs := append([]dialect.Attr{mode,
		{Name: "bucket_size", Kind: dialect.Int, Doc: "the rows reduced apart before the buckets are; left out, JAX's None"}}, hints...)
	return opcall.Variants(segOps, inputs, attrs, func(op *segmentOp) *dialect.Op {
		return &dialect.Op{Name: op.name, Family: op.family, Summary: op.summary, Behavior: op.behavior,
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				data, ids := c.Inputs["data"], c.Inputs["segment_ids"]
				n, err := numSegmentsOf(c.Inputs["num_segments"], ids)
				if err != nil {
					return tensor.Tensor{}, opcall.Wrap(op.name, err)
				}
				opt := SegmentOptions{Mode: Mode(c.Attrs["mode"].Str), BucketSize: int(c.Attrs["bucket_size"].Int),
					IndicesAreSorted: c.Attrs["indices_are_sorted"].Bool, UniqueIndices: c.Attrs["unique_indices"].Bool}
				if v, ok := c.Attrs["bucket_size"]; ok && v.Int == 0 {
					return tensor.Tensor{}, opcall.Wrap(op.name, fmt.Errorf("%w: bucket_size must be positive (got 0); leave it out for None", dialect.ErrAttribute))
				}
				return segment(op, data, ids, n, opt)
			},
			// The call as the general scatter it runs, under its mode's
			// rules (clip clamps an id to the nearest segment), which
			// explain traces.
			Plan: func(_ *dialect.Behavior, c dialect.Call) (dialect.Plan, error) {
				sopt, err := scatterOptions(op.red, Mode(c.Attrs["mode"].Str))
				if err != nil {
					return dialect.Plan{}, err
				}
				d := segmentDims(c.Inputs["data"].Rank())
				return dialect.Plan{Scatter: &d, Rules: sopt.Rules}, nil
			}}
	})
}

// numSegmentsOf reads num_segments as a generic call gives it: an integer
// scalar, or when left out (the zero Tensor) max(segment_ids) + 1.
func numSegmentsOf(t, ids tensor.Tensor) (int, error) {
	if t.IsZero() {
		return NumSegments(ids)
	}
	if !t.DType().IsInteger() || t.Rank() != 0 {
		return 0, fmt.Errorf("%w: num_segments must be an integer scalar, got %v of shape %v", dialect.ErrInput, t.DType(), t.Shape())
	}
	return dialect.IntOf(t, "num_segments")
}
