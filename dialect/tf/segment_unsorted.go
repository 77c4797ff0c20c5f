package tf

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// The unsorted segment reductions, tf.math.unsorted_segment_sum, _prod,
// _max, _min, _mean and _sqrt_n: the slice of data at each position of
// segment_ids (whose shape is a prefix of data's) goes into the segment
// its id names, of num_segments segments. Each is one ScatterND of the
// engine: the ids as index tuples of one component, data as the updates,
// into a dst that starts as the operator's fill (an empty segment's
// value), with TensorFlow's CPU rules as the Behavior's data: a negative
// id dropped (engine.NegativeSkip), one at or past num_segments an
// error naming the first such id.

// unsortedOp describes one of the tf.math.unsorted_segment_* operators.
type unsortedOp struct {
	name    string
	family  string
	summary string
	red     engine.Reduction
	// excludeSelf leaves the fill out of the reduction (mean and sqrt_n:
	// the sum of the segment's values alone, divided).
	excludeSelf bool
	arith       engine.Arith
	fill        dialect.Fill
	types       typeSet
	// trueDiv holds, for the element types of data whose output has
	// another type (mean: TensorFlow's true division of an integer sum),
	// that type and how to divide into it; nil for none.
	trueDiv map[tensor.DType]trueDiv
	notes   []string
	b       *dialect.Behavior // its shared Behavior, which init sets
}

// outType returns the output's element type for data of type d.
func (op *unsortedOp) outType(d tensor.DType) tensor.DType {
	if t, ok := op.trueDiv[d]; ok {
		return t.out
	}
	return d
}

// floatTypes are the element types tf.math.unsorted_segment_mean and
// _sqrt_n take here (see the notes of opSegmentMean).
var floatTypes = typeSet{dialect.FloatTypes, "floating-point numbers (float16, bfloat16, float32, float64)"}

// segmentRules are the CPU kernels' rules for segment ids: a negative one
// is dropped, one at or past num_segments is an error naming the first.
var segmentRules = engine.IndexRules{Negative: engine.NegativeSkip, OutOfRange: engine.OutOfRangeError}

// noTuples are no index tuples of one component.
var noTuples = tensor.Must(tensor.From(tensor.Shape{0, 1}, []int64{}))

// meanArith is the arithmetic of the Python composites of mean and sqrt_n,
// sum / maximum(N, 1) and sum / sqrt(N): the sum starts from +0
// (unsorted_segment_sum's setZero), and N is a sum of ones in data's type.
var meanArith = engine.Arith{ZeroStart: true, CountInType: true}

var (
	opSegmentSum = &unsortedOp{name: "tf.math.unsorted_segment_sum", family: "segment_sum", summary: "sum the slices of data by segment",
		red: engine.Add, types: numberTypes, fill: dialect.FillZero,
		notes: []string{"Slices are summed one at a time in row-major order of segment_ids; float16 and bfloat16 round after every step."}}
	opSegmentProd = &unsortedOp{name: "tf.math.unsorted_segment_prod", family: "segment_prod", summary: "multiply the slices of data by segment",
		red: engine.Mul, types: numberTypes, fill: dialect.FillOne,
		notes: []string{"Slices are multiplied one at a time in row-major order of segment_ids."}}
	opSegmentMax = &unsortedOp{name: "tf.math.unsorted_segment_max", family: "segment_max", summary: "take the maximum of the slices of data by segment",
		red: engine.Max, types: realTypes, fill: dialect.FillLowest, arith: engine.Arith{MinMax: engine.MinMaxStdUpdate},
		notes: []string{"The lowest finite value is numeric_limits<T>::lowest() (-3.4028235e+38 for float32), not -inf: " +
			"a segment of -inf values only ends with it too."}}
	opSegmentMin = &unsortedOp{name: "tf.math.unsorted_segment_min", family: "segment_min", summary: "take the minimum of the slices of data by segment",
		red: engine.Min, types: realTypes, fill: dialect.FillHighest, arith: engine.Arith{MinMax: engine.MinMaxStdUpdate},
		notes: []string{"The highest finite value is numeric_limits<T>::max(), not +inf: a segment of +inf values only ends with it too."}}
	opSegmentMean = &unsortedOp{name: "tf.math.unsorted_segment_mean", family: "segment_mean", summary: "average the slices of data by segment",
		red: engine.Mean, excludeSelf: true, types: realTypes, fill: dialect.FillZero, arith: meanArith, trueDiv: trueDivs,
		notes: []string{"The sum is divided by the count N of the segment's slices, N counted in data's type, as TensorFlow's sum / maximum(N, 1) computes it.",
			"Integer data gives float64 (float32 for 8- and 16-bit integers), as TensorFlow's composite computes it: the sum and N in data's type " +
				"(wrapping as it does), then Python's true division, which casts both; TensorFlow's documentation says floating point or complex only, " +
				"its implementation and unit tests take integers. Complex data is refused: maximum(N, 1) has no complex kernel."}}
	opSegmentSqrtN = &unsortedOp{name: "tf.math.unsorted_segment_sqrt_n", family: "segment_sqrt_n", summary: "sum the slices of data by segment, divided by the root of their count",
		red: engine.Mean, excludeSelf: true, types: floatTypes, fill: dialect.FillZero,
		arith: engine.Arith{ZeroStart: true, CountInType: true, SqrtCount: true},
		notes: []string{"The sum is divided by sqrt(N), N the count of the segment's slices in data's type, its root rounded to that type, as sum / sqrt(N) computes it.",
			"Integer and complex data are refused, as tf.sqrt refuses integers and maximum(N, 1) complex numbers."}}
	unsortedOps = []*unsortedOp{opSegmentSum, opSegmentProd, opSegmentMax, opSegmentMin, opSegmentMean, opSegmentSqrtN}
)

// UnsortedSegmentSum and its variants (UnsortedSegmentProd, ...) are
// generated into zvariants.go from the table of the genvariants command
// (see tf.go).

// unsortedSegment runs op into a new output of numSegments segments.
func unsortedSegment(op *unsortedOp, data, segmentIDs tensor.Tensor, numSegments int) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	shape, err := prepareUnsorted(sh, op, data, segmentIDs, numSegments)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(op.name, err)
	}
	return opcall.Alloc(op.name, op.outType(data.DType()), shape, func(dst tensor.Tensor) error {
		return op.run(sh, dst, data, segmentIDs)
	})
}

// unsortedSegmentInto runs op into dst, whose first dimension is the
// number of segments.
func unsortedSegmentInto(op *unsortedOp, dst, data, segmentIDs tensor.Tensor) error {
	if dst.Rank() < 1 {
		return opcall.Wrap(op.name, fmt.Errorf("%w: dst must have rank >= 1 (its first dimension is num_segments), got shape %v",
			engine.ErrShape, dst.Shape()))
	}
	sh := opcall.GetShapes()
	defer sh.Release()
	shape, err := prepareUnsorted(sh, op, data, segmentIDs, dst.Dim(0))
	if err == nil {
		err = opcall.CheckDst(dst, op.outType(data.DType()), shape)
	}
	if err == nil {
		err = op.run(sh, dst, data, segmentIDs)
	}
	return opcall.Wrap(op.name, err)
}

// prepareUnsorted checks a call of op as TensorFlow's kernel does, in its
// order and words, and returns the output's shape, built in sh.
func prepareUnsorted(sh *opcall.Shapes, op *unsortedOp, data, segmentIDs tensor.Tensor, numSegments int) (tensor.Shape, error) {
	if err := opcall.CheckInputs(op.b, data, "data", segmentIDs, "segment_ids"); err != nil {
		return nil, err
	}
	ds, is := sh.Of(data), sh.Of(segmentIDs)
	if len(is) > len(ds) || !ds[:len(is)].Equal(is) {
		return nil, fmt.Errorf("%w: data.shape = %v does not start with segment_ids.shape = %v", engine.ErrShape, ds, is)
	}
	if numSegments < 0 {
		return nil, fmt.Errorf("%w: Input num_segments == %d must not be negative.", dialect.ErrInput, numSegments)
	}
	shape := append(append(sh.Buf(1+len(ds)-len(is)), numSegments), ds[len(is):]...)
	if _, err := shape.NumElements(); err != nil {
		return nil, fmt.Errorf("%w: the output shape %v holds more elements than an int can count", engine.ErrShape, shape)
	}
	return shape, nil
}

// run runs op into dst, whose type and shape the caller has checked: a
// mean whose output has another type than data (an integer mean) by
// TensorFlow's composite, every other call by one scatter.
func (op *unsortedOp) run(sh *opcall.Shapes, dst, data, segmentIDs tensor.Tensor) error {
	if t, ok := op.trueDiv[data.DType()]; ok {
		return trueDivMean(sh, t, dst, data, segmentIDs)
	}
	return runUnsorted(sh, op, dst, data, segmentIDs)
}

// runUnsorted runs op into dst, of data's type, whose shape
// prepareUnsorted has checked.
func runUnsorted(sh *opcall.Shapes, op *unsortedOp, dst, data, segmentIDs tensor.Tensor) error {
	fill, ok := dialect.FillValue(op.b.Fill, dst.DType())
	if !ok {
		return fmt.Errorf("%w: %v has no value for an empty segment (%v)", engine.ErrType, dst.DType(), op.b.Fill)
	}
	opt := engine.ScatterOptions{Reduction: op.red, ExcludeSelf: op.excludeSelf, Rules: op.b.Index, Arith: op.b.Arith, Fill: fill}
	if data.Len() == 0 {
		// TensorFlow's kernel fills the output and returns before it
		// reads an id: no tuples, no updates.
		rest := sh.Of(dst)[1:]
		none, err := data.View(sh.Ptr(append(append(sh.Buf(1+len(rest)), 0), rest...)))
		if err != nil {
			return fmt.Errorf("%w: %v", engine.ErrShape, err)
		}
		return engine.ScatterND(dst, tensor.Tensor{}, noTuples, none, opt)
	}
	// The ids as index tuples of one component, data as the updates.
	tuples, err := segmentIDs.View(sh.Ptr(append(segmentIDs.AppendShape(sh.Buf(segmentIDs.Rank()+1)), 1)))
	if err != nil {
		return fmt.Errorf("%w: %v", engine.ErrShape, err)
	}
	return rowIndexError(engine.ScatterND(dst, tensor.Tensor{}, tuples, data, opt), "segment_ids", "is out of range")
}

// behavior returns the Behavior of op.
func (op *unsortedOp) behavior(int) dialect.Behavior {
	b := behavior(segmentRules, op.types, append([]string{
		"A negative segment id is dropped; one at or past num_segments is an error naming the first, as on TensorFlow's CPU kernels.",
		fmt.Sprintf("An empty segment holds %v.", op.fill),
		"When data has no elements no id is read, as TensorFlow's kernel returns first.",
	}, op.notes...)...)
	b.Arith, b.Fill = op.arith, op.fill
	b.Reductions = map[string]engine.Reduction{op.family[len("segment_"):]: op.red}
	return b
}

// unsortedTable returns the table entries of the unsorted segment
// reductions, which tf's ops list appends.
func unsortedTable() []*dialect.Op {
	inputs := []dialect.Param{
		{Name: "data", Role: dialect.RoleData, Doc: "the slices to reduce"},
		{Name: "segment_ids", Role: dialect.RoleIndices, Doc: "a segment id per slice of data, its shape a prefix of data's"},
		{Name: "num_segments", Role: dialect.RoleNumSegments, Types: "int32 or int64 scalar", AttrKind: dialect.Int,
			Doc: "the number of segments, the output's first dimension"},
	}
	return opcall.Variants(unsortedOps, inputs, nil, func(op *unsortedOp) *dialect.Op {
		return &dialect.Op{Name: op.name, Family: op.family, Summary: op.summary, Behavior: op.behavior,
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				n, err := numSegmentsOf(c.Inputs["num_segments"])
				if err != nil {
					return tensor.Tensor{}, opcall.Wrap(op.name, err)
				}
				return unsortedSegment(op, c.Inputs["data"], c.Inputs["segment_ids"], n)
			}}
	})
}

// numSegmentsOf reads num_segments as TensorFlow's kernel takes it: an
// int32 or int64 scalar.
func numSegmentsOf(t tensor.Tensor) (int, error) {
	if d := t.DType(); d != tensor.Int32 && d != tensor.Int64 {
		return 0, dialect.TypeError(fmt.Sprintf("num_segments must be int32 or int64, got %v", d))
	}
	if t.Rank() != 0 {
		return 0, fmt.Errorf("%w: num_segments should be a scalar, not shape %v", dialect.ErrInput, t.Shape())
	}
	return dialect.IntOf(t, "num_segments")
}
