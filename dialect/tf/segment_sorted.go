package tf

import (
	"errors"
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// segmentOp describes one of the sorted segment reductions,
// tf.math.segment_sum, _prod, _min, _max and _mean.
type segmentOp struct {
	name  string
	what  string           // what it computes, for its summary
	red   engine.Reduction // the reduction of a segment's rows
	empty engine.EmptyRun  // what an empty segment holds
	types typeSet          // the element types the CPU kernels register
	arith engine.Arith
	b     *dialect.Behavior
}

// The CPU kernels (segment_reduction_ops_impl_1.cc) register the real
// number types for all five and complex64 and complex128 for sum, prod
// and mean; an empty segment holds 0, or 1 for prod.
var (
	segSum  = &segmentOp{name: "tf.math.segment_sum", what: "sum", red: engine.Add, empty: engine.EmptyZero, types: numberTypes}
	segProd = &segmentOp{name: "tf.math.segment_prod", what: "product", red: engine.Mul, empty: engine.EmptyIdentity, types: numberTypes}
	segMin  = &segmentOp{name: "tf.math.segment_min", what: "minimum", red: engine.Min, empty: engine.EmptyZero, types: realTypes}
	segMax  = &segmentOp{name: "tf.math.segment_max", what: "maximum", red: engine.Max, empty: engine.EmptyZero, types: realTypes}
	segMean = &segmentOp{name: "tf.math.segment_mean", what: "mean", red: engine.Mean, empty: engine.EmptyZero, types: numberTypes,
		arith: segmentMeanArith}
	// segmentOps are the sorted segment reductions, in the order of the
	// table.
	segmentOps = []*segmentOp{segSum, segProd, segMin, segMax, segMean}
)

// segmentMeanArith is the arithmetic of segment_mean: Eigen's MeanReducer
// divides an integer sum by the count with C++'s /, which rounds toward
// zero. The others compute as the engine does by default: MinReducer and
// MaxReducer with PropagateNaN keep a NaN once met (MinMaxNaN).
var segmentMeanArith = engine.Arith{MeanTowardZero: true}

// segmentWords are TensorFlow's words for segment ids that break the
// rules, by the engine's reason; the engine's error adds the position.
var segmentWords = map[engine.SegmentReason]string{
	engine.SegmentNegativeLast: "segment ids must be >= 0",
	engine.SegmentDecreasing:   "segment ids are not increasing",
	engine.SegmentOutOfRange:   "Segment id %d out of range [0, %d), possibly because 'segment_ids' input is not sorted.",
}

func (op *segmentOp) behavior(int) dialect.Behavior {
	b := behavior(rules, op.types,
		"segment_ids are sorted: the output has segment_ids[-1] + 1 rows, and rows of data with the same id are reduced in order.",
		fmt.Sprintf("A segment no id names holds %s.", map[engine.EmptyRun]string{engine.EmptyZero: "0", engine.EmptyIdentity: "1"}[op.empty]),
		"Ids that decrease, or a negative id, are errors in TensorFlow's words, naming the first position at fault, as on the CPU kernel.",
		"A segment of one row is that row; a longer one reduces from the Eigen reducer's start (+0, 1, the lowest or highest finite value), "+
			"so a float sum of -0s is +0 and a maximum of -Infs the lowest finite value, as on the CPU kernel.")
	b.Arith, b.Reductions = op.arith, map[string]engine.Reduction{op.what: op.red}
	b.Runs = engine.RunRules{Index: engine.RunIDs, Empty: op.empty, EigenStart: true}
	return b
}

// sortedSegmentOps returns the table entries of the sorted segment
// reductions.
func sortedSegmentOps() []*dialect.Op {
	inputs := []dialect.Param{
		{Name: "data", Role: dialect.RoleData, Doc: "the rows to reduce, of rank >= 1"},
		{Name: "segment_ids", Role: dialect.RoleIndices, Types: "int32 or int64, 1-D",
			Doc: "the sorted segment id of each row of data (data.shape[0] of them)"},
	}
	return opcall.Variants(segmentOps, inputs, nil, func(op *segmentOp) *dialect.Op {
		return &dialect.Op{Name: op.name, Family: "segment_sum_sorted", Behavior: op.behavior,
			Summary: fmt.Sprintf("the %s of each run of rows of data with the same sorted segment id", op.what),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return op.call(c.Inputs["data"], c.Inputs["segment_ids"])
			}}
	})
}

// SegmentSum and its variants (SegmentProd, ...) are generated into
// zvariants.go from the table of the genvariants command (see tf.go).

func (op *segmentOp) call(data, ids tensor.Tensor) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	if err := op.check(data, ids); err != nil {
		return tensor.Tensor{}, opcall.Wrap(op.name, err)
	}
	shape, err := engine.AppendRunsShape(sh.Buf(data.Rank()), sh.Of(data), ids, 0, op.b.Runs)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(op.name, segmentError(err))
	}
	return opcall.Alloc(op.name, data.DType(), shape, func(dst tensor.Tensor) error {
		return op.run(dst, data, ids)
	})
}

func (op *segmentOp) into(dst, data, ids tensor.Tensor) error {
	err := op.check(data, ids)
	if err == nil {
		err = opcall.CheckDstType(dst, data.DType())
	}
	if err == nil {
		err = op.run(dst, data, ids)
	}
	return opcall.Wrap(op.name, err)
}

// check checks the types and shapes of a call as the CPU kernel does, in
// its words.
func (op *segmentOp) check(data, ids tensor.Tensor) error {
	if err := opcall.CheckInputs(op.b, data, "data", ids, "segment_ids"); err != nil {
		return err
	}
	switch {
	case data.Rank() == 0:
		return fmt.Errorf("%w: Shape must be at least rank 1 but is rank 0 for data", engine.ErrShape)
	case ids.Rank() != 1:
		return fmt.Errorf("%w: segment_ids should be a vector, got shape %v", engine.ErrShape, ids.Shape())
	case ids.Len() != data.Dim(0):
		return fmt.Errorf("%w: segment_ids should be the same size as dimension 0 of input: %d ids, data %v",
			engine.ErrShape, ids.Len(), data.Shape())
	}
	return nil
}

func (op *segmentOp) run(dst, data, ids tensor.Tensor) error {
	err := engine.ReduceRuns(dst, data, ids, 0, engine.RunOptions{Reduction: op.red, Rules: op.b.Runs, Arith: op.b.Arith})
	return segmentError(err)
}

// tfSegmentError is a *engine.SegmentError in TensorFlow's words, naming
// the position at fault; it unwraps to the engine's error.
type tfSegmentError struct {
	msg string
	err *engine.SegmentError
}

func (e *tfSegmentError) Error() string { return e.msg }

func (e *tfSegmentError) Unwrap() error { return e.err }

// segmentError words err, when it is a *engine.SegmentError, as
// TensorFlow does (segmentWords), with the position and value at fault.
func segmentError(err error) error {
	if err == nil {
		return nil // before se, which errors.As makes escape
	}
	var se *engine.SegmentError
	if !errors.As(err, &se) {
		return err
	}
	words := segmentWords[se.Reason]
	at := fmt.Sprintf("segment_ids[%d] = %d", se.Pos, se.Value)
	switch se.Reason {
	case engine.SegmentOutOfRange:
		words = fmt.Sprintf(words, se.Value, se.Rows)
	case engine.SegmentDecreasing:
		at += fmt.Sprintf(" follows segment_ids[%d] = %d", se.Pos-1, se.Prev)
	}
	return &tfSegmentError{msg: fmt.Sprintf("%s (%s)", words, at), err: se}
}
