package numpy

import (
	"errors"
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// reduceatOp describes one of the ufunc.reduceat operators.
type reduceatOp struct {
	name  string // "numpy.add.reduceat"
	ufunc string // "add", as NumPy's errors name it
	red   engine.Reduction
	// widen says the operator reduces bool and the integers narrower
	// than 64 bits in int64 (uint64 for the unsigned ones), the output's
	// type: NumPy's default dtype of add and multiply reductions.
	widen bool
	types dialect.TypeSet
	b     *dialect.Behavior
}

// The element types: NumPy has no bfloat16, and this engine no order of
// complex numbers, which NumPy's maximum and minimum compare
// lexicographically.
var (
	numberTypes  = dialect.AnyType.Without(tensor.BFloat16, tensor.String)
	orderedTypes = numberTypes.Without(tensor.Complex64, tensor.Complex128)
)

var (
	opAddReduceat = &reduceatOp{name: "numpy.add.reduceat", ufunc: "add", red: engine.Add, widen: true, types: numberTypes}
	opMulReduceat = &reduceatOp{name: "numpy.multiply.reduceat", ufunc: "multiply", red: engine.Mul, widen: true, types: numberTypes}
	opMaxReduceat = &reduceatOp{name: "numpy.maximum.reduceat", ufunc: "maximum", red: engine.Max, types: orderedTypes}
	opMinReduceat = &reduceatOp{name: "numpy.minimum.reduceat", ufunc: "minimum", red: engine.Min, types: orderedTypes}
	reduceats     = []*reduceatOp{opAddReduceat, opMulReduceat, opMaxReduceat, opMinReduceat}
)

// reduceatIndexTypes are the index types NumPy casts safely to intp: every
// integer type but uint64.
var reduceatIndexTypes = dialect.IntegerTypes.Without(tensor.Uint64)

// reduceatRules: a negative index is out of range, and out of range is an
// IndexError, checked before anything is computed.
var reduceatRules = engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeError}

func (op *reduceatOp) behavior(int) dialect.Behavior {
	notes := []string{
		"Run i reduces array[indices[i]:indices[i+1]] along axis, the last run up to the end of axis; " +
			"where indices[i] >= indices[i+1] it is array[indices[i]] alone, so no run is empty.",
		"Every index is checked before anything is computed: a negative one is an error, not counted from the end.",
		"The output has array's shape with axis replaced by len(indices); axis is negative from the end.",
	}
	runs := engine.RunRules{Index: engine.RunStarts}
	if op.widen {
		notes = append(notes, "bool, int8, int16 and int32 are reduced in int64, the output's type, and "+
			"uint8, uint16 and uint32 in uint64: NumPy's default dtype (intp) on 64-bit platforms.")
	} else {
		notes = append(notes, "Complex arrays are refused (NumPy orders them lexicographically).")
	}
	if op.red == engine.Add {
		// NumPy's float and complex add loops sum a reduction pairwise.
		runs.PairwiseSum = true
		notes = append(notes, "A float or complex run is its first slice plus NumPy's pairwise sum of the others "+
			"(8 accumulators, halves above 128 elements; float16 in float32, rounded once), as NumPy's add loop sums a reduction "+
			"(NumPy 2.x, which starts a short sum from -0; 1.x from +0, which differs only in the sign of a zero sum).")
	}
	return dialect.Behavior{
		Index:      reduceatRules,
		IndexTypes: reduceatIndexTypes,
		DataTypes:  op.types,
		Reductions: map[string]engine.Reduction{op.ufunc: op.red},
		Runs:       runs,
		Notes:      notes,
	}
}

// reduceatTable is the operators' table, built once so that the typed
// functions read the Behaviors the table hands out.
var reduceatTable = func() []*dialect.Op {
	axis := dialect.Attr{Name: "axis", Role: dialect.RoleAxis, Kind: dialect.Int, Default: "0",
		Doc: "the axis of array along which runs are reduced, negative from the end"}
	inputs := []dialect.Param{
		{Name: "array", Role: dialect.RoleData, Doc: "the array to reduce, of rank >= 1"},
		{Name: "indices", Role: dialect.RoleIndices, Types: "integers but uint64, 1-D",
			Doc: "the start of each run along axis, each in [0, array.shape[axis])"},
	}
	t := opcall.Variants(reduceats, inputs, []dialect.Attr{axis}, func(op *reduceatOp) *dialect.Op {
		return &dialect.Op{Name: op.name, Family: "reduceat", Behavior: op.behavior,
			Summary: fmt.Sprintf("%s.reduce over each run of array along axis that starts at an index", op.ufunc),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return op.call(c.Inputs["array"], c.Inputs["indices"], int(c.Attrs["axis"].Int))
			}}
	})
	opcall.Unversioned("out", t)
	for _, op := range reduceats {
		op.b = opcall.SharedOf(t, op.name)
	}
	return t
}()

// reduceatOps returns the table entries of the reduceat operators.
func reduceatOps() []*dialect.Op { return reduceatTable }

// AddReduceat and its variants (MultiplyReduceat, ...) are generated into
// zvariants.go from the table of the genvariants command (see at.go).

// outType returns the output's element type for an array of type d.
func (op *reduceatOp) outType(d tensor.DType) tensor.DType {
	if w := engine.WiderType(d); op.widen && w != tensor.Undefined {
		return w
	}
	return d
}

func (op *reduceatOp) call(array, indices tensor.Tensor, axis int) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	a, err := op.check(array, indices, axis)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(op.name, err)
	}
	shape, err := engine.AppendRunsShape(sh.Buf(array.Rank()), sh.Of(array), indices, a, op.b.Runs)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(op.name, err)
	}
	return opcall.Alloc(op.name, op.outType(array.DType()), shape, func(dst tensor.Tensor) error {
		return op.run(dst, array, indices, a)
	})
}

func (op *reduceatOp) into(dst, array, indices tensor.Tensor, axis int) error {
	a, err := op.check(array, indices, axis)
	if err == nil {
		err = opcall.CheckDstType(dst, op.outType(array.DType()))
	}
	if err == nil {
		err = op.run(dst, array, indices, a)
	}
	return opcall.Wrap(op.name, err)
}

// check checks the types, the indices' rank and the axis, which it
// returns counted from the start.
func (op *reduceatOp) check(array, indices tensor.Tensor, axis int) (int, error) {
	if err := opcall.CheckInputs(op.b, array, "array", indices, "indices"); err != nil {
		return 0, err
	}
	if array.Rank() == 0 {
		return 0, fmt.Errorf("%w: cannot reduceat on a scalar", engine.ErrShape)
	}
	if indices.Rank() != 1 {
		return 0, fmt.Errorf("%w: object too deep for desired array: indices must be 1-D, got shape %v",
			engine.ErrShape, indices.Shape())
	}
	return dialect.NormAxis(axis, array.Rank(), "array")
}

func (op *reduceatOp) run(dst, array, indices tensor.Tensor, axis int) error {
	err := engine.ReduceRuns(dst, array, indices, axis, engine.RunOptions{Reduction: op.red, Rules: op.b.Runs, Arith: op.b.Arith})
	if err == nil {
		return nil
	}
	return op.indexError(err)
}

// indexError words err, when it is an index error, as NumPy does:
// "index 8 out-of-bounds in add.reduceat [0, 8)", with the position in
// indices.
func (op *reduceatOp) indexError(err error) error {
	var ie *engine.IndexError
	if !errors.As(err, &ie) {
		return err
	}
	return &reduceatError{
		msg: fmt.Sprintf("index %s out-of-bounds in %s.reduceat [0, %d) (indices%v)", ie.ValueString(), op.ufunc, ie.Size,
			tensor.Shape(ie.Pos)),
		err: ie,
	}
}

// reduceatError is an index error in NumPy's words; it unwraps to the
// engine's *engine.IndexError.
type reduceatError struct {
	msg string
	err *engine.IndexError
}

func (e *reduceatError) Error() string { return e.msg }

func (e *reduceatError) Unwrap() error { return e.err }
