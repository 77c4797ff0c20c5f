package tf

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

const opBincount = "tf.math.bincount"

// BincountOptions are tf.math.bincount's arguments but arr. The zero value
// counts the occurrences of each value of the flattened arr into int32
// bins.
type BincountOptions struct {
	// Weights, when given, has as many elements as arr (its shape with
	// Axis -1 and a 2-D arr; TensorFlow flattens both otherwise): each
	// value of arr adds its weight to its bin rather than 1, and the
	// output has the weights' type. A weights tensor of no elements
	// counts, in its own type, as TensorFlow's kernel does.
	Weights tensor.Tensor
	// MinLength is the least number of bins; 0 or less asks for none more
	// than the values need.
	MinLength int
	// MaxLength, when HasMaxLength, is the most bins: values at or above
	// it are skipped. A negative MaxLength is an error, as the size it
	// makes is.
	MaxLength    int
	HasMaxLength bool
	// DType is the type of the bins without weights: int32 (the zero
	// value, Undefined, stands for it), int64, float32 or float64.
	DType tensor.DType
	// Axis is 0 (TensorFlow's None too), which counts over the flattened
	// arr, or -1, which counts each row of a 2-D arr into a row of bins
	// (an arr of rank 0 or 1 is counted as with 0; of rank 3 or more,
	// refused). arr is int32 or int64: TensorFlow casts an arr of floats
	// to int32, which the caller does here.
	Axis int
	// BinaryOutput sets a bin to 1 when any value falls in it; it
	// excludes Weights.
	BinaryOutput bool
}

// Bincount counts the occurrences of each value in arr, as
// tf.math.bincount(arr, weights, minlength, maxlength, dtype,
// axis=axis, binary_output=binary_output) does in TensorFlow 2.15 and
// later (DenseBincount): the output has max(arr)+1 bins (0 for an empty
// arr), at least MinLength and at most MaxLength, or a row of them per
// row of arr with Axis -1. arr is int32 or int64; a negative value is an
// error naming its position (TensorFlow's "Input arr must be
// non-negative!"), and values at or above the number of bins are
// skipped. Weights are added in row-major order of arr. The output's size
// is checked against the tensor size limit (tensor.SetMaxBytes) before
// anything is allocated.
func Bincount(arr tensor.Tensor, opts BincountOptions) (tensor.Tensor, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	bc, err := prepareBincount(sh, arr, opts)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(opBincount, err)
	}
	return opcall.Alloc(opBincount, bc.dtype, bc.shape, func(dst tensor.Tensor) error {
		return bc.run(sh, dst, arr, opts)
	})
}

// BincountInto is Bincount writing into dst, which has the output's type
// and the shape BincountShape gives. It allocates nothing once warm, but
// to count more than 65536 values without weights: it then allocates as
// many ones, the updates it adds.
func BincountInto(dst, arr tensor.Tensor, opts BincountOptions) error {
	sh := opcall.GetShapes()
	defer sh.Release()
	bc, err := prepareBincount(sh, arr, opts)
	if err == nil {
		err = opcall.CheckDst(dst, bc.dtype, bc.shape)
	}
	if err == nil {
		err = bc.run(sh, dst, arr, opts)
	}
	return opcall.Wrap(opBincount, err)
}

// BincountShape returns the element type and shape of Bincount's output,
// for BincountInto's dst; it reads arr's values for the number of bins.
func BincountShape(arr tensor.Tensor, opts BincountOptions) (tensor.DType, tensor.Shape, error) {
	sh := opcall.GetShapes()
	defer sh.Release()
	bc, err := prepareBincount(sh, arr, opts)
	if err != nil {
		return tensor.Undefined, nil, opcall.Wrap(opBincount, err)
	}
	return bc.dtype, bc.shape.Clone(), nil
}

// bincountRules are the kernel's: a negative value is an error ("Input arr
// must be non-negative!"), one at or above the number of bins is skipped.
var bincountRules = engine.IndexRules{Negative: engine.NegativeRefused, OutOfRange: engine.OutOfRangeSkip}

// bincountTypes are DenseBincount's types of weights and bins.
var bincountTypes = typeSet{dialect.Types(tensor.Int32, tensor.Int64, tensor.Float32, tensor.Float64),
	"int32, int64, float32 or float64"}

var bincountB *dialect.Behavior

func bincountBehavior(int) dialect.Behavior {
	b := behavior(bincountRules, bincountTypes,
		"TensorFlow 2.15 and later (DenseBincount): weights are added into bins of their type; without weights "+
			"the bins have type dtype (int32 by default) and count occurrences.",
		"A negative value in arr is an error naming the first one (\"Input arr must be non-negative!\"); "+
			"values at or above the number of bins (max(arr)+1, at least minlength, at most maxlength) are skipped.",
		"Weights are added in row-major order of arr; TensorFlow's CPU kernel sums per-thread partial bins, "+
			"which can differ in the last bits for floats.",
		"binary_output sets a bin to 1 and excludes weights; axis is 0 (None) or -1, which counts each row of a 2-D arr.",
		"The output's size is checked against the tensor size limit before anything is allocated.")
	b.Reductions = map[string]engine.Reduction{"add": engine.Add}
	b.Flag = dialect.FlagReduction{Attr: "binary_output", Off: engine.Add, On: engine.None}
	return b
}

// bincountOps returns the table entry of tf.math.bincount.
func bincountOps() []*dialect.Op {
	return []*dialect.Op{{
		Name:     opBincount,
		Family:   "bincount",
		Summary:  "count the occurrences of each value of arr, or sum their weights, into bins",
		Behavior: bincountBehavior,
		Inputs: []dialect.Param{
			{Name: "arr", Role: dialect.RoleIndices, Doc: "the non-negative values to count, int32 or int64"},
			{Name: "weights", Role: dialect.RoleUpdates, Optional: true,
				Doc: "what each value adds to its bin: as many as arr (arr's shape with axis -1 and a 2-D arr)"},
		},
		Attrs: []dialect.Attr{
			{Name: "minlength", Kind: dialect.Int, Default: "0", Doc: "the least number of bins"},
			{Name: "maxlength", Kind: dialect.Int, Doc: "the most bins; values at or above it are skipped (none when absent)"},
			{Name: "dtype", Kind: dialect.String, Default: "int32", Doc: "the bins' type without weights: int32, int64, float32 or float64"},
			{Name: "axis", Role: dialect.RoleAxis, Kind: dialect.Int, Default: "0",
				Doc: "0 counts over the flattened arr (TensorFlow's None); -1 counts each row of a 2-D arr"},
			{Name: "binary_output", Kind: dialect.Bool, Default: "false", Doc: "set a bin to 1 rather than count"},
		},
		Plan: bincountPlan,
		Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
			d, err := tensor.ParseDType(c.Attrs["dtype"].Str)
			if err != nil {
				return tensor.Tensor{}, opcall.Wrap(opBincount, fmt.Errorf("%w: dtype: %v", dialect.ErrAttribute, err))
			}
			opts := BincountOptions{Weights: c.Inputs["weights"], MinLength: int(c.Attrs["minlength"].Int), DType: d,
				Axis: int(c.Attrs["axis"].Int), BinaryOutput: c.Attrs["binary_output"].Bool}
			if m, ok := c.Attrs["maxlength"]; ok {
				opts.MaxLength, opts.HasMaxLength = int(m.Int), true
			}
			return Bincount(c.Inputs["arr"], opts)
		},
	}}
}

// bincountPlan is a call with weights as the general scatter, which
// explain traces: each value of arr a start index of one component into
// the bins, its weight the update added there (or, with binary_output,
// a one written there: the reduction the registry's flag names); with
// axis -1 and a 2-D arr, the rows of arr and of the bins are batching
// dimensions. A count without weights has no plan: explain gives it
// weights of ones.
func bincountPlan(_ *dialect.Behavior, c dialect.Call) (dialect.Plan, error) {
	arr, w := c.Inputs["arr"], c.Inputs["weights"]
	if w.IsZero() || w.Len() == 0 {
		return dialect.Plan{}, fmt.Errorf("%w: a count without weights has no plan", engine.ErrArgument)
	}
	d := &engine.ScatterDims{InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: arr.Rank()}
	if c.Attrs["axis"].Int == -1 && arr.Rank() == 2 {
		d.InsertedWindowDims, d.ScatterDimsToOperandDims = []int{1}, []int{1}
		d.InputBatchingDims, d.ScatterIndicesBatchingDims = []int{0}, []int{0}
	}
	return dialect.Plan{Scatter: d, Rules: bincountRules}, nil
}

// bincount is a checked Bincount call.
type bincount struct {
	dtype   tensor.DType
	shape   tensor.Shape // of the output
	axis    int          // of the scatter: 0, or 1 for the rows of a 2-D arr
	counts  bool         // no weights: each value adds 1
	arrDims tensor.Shape // arr as the scatter reads it: [n] or [rows, n]
}

// prepareBincount checks a call and works out its output, with the shapes
// it reads and builds in sh. It reads every value of arr, for the number
// of bins; the engine refuses a negative one (bincountRules).
func prepareBincount(sh *opcall.Shapes, arr tensor.Tensor, opts BincountOptions) (bincount, error) {
	var bc bincount
	if err := opcall.CheckIndices(arr, "arr", bincountB.IndexTypes); err != nil {
		return bc, err
	}
	w := opts.Weights
	switch {
	case !w.IsZero() && opts.BinaryOutput:
		return bc, fmt.Errorf("%w: arguments binary_output and weights are mutually exclusive; give only one", engine.ErrArgument)
	case opts.Axis != 0 && opts.Axis != -1:
		return bc, fmt.Errorf("%w: unsupported value for argument axis=%d; only 0 and -1 are supported", dialect.ErrAttribute, opts.Axis)
	}
	bc.dtype = opts.DType
	if bc.dtype == tensor.Undefined {
		bc.dtype = tensor.Int32
	}
	if !w.IsZero() {
		if err := bincountB.CheckData("weights", w); err != nil {
			return bc, err
		}
		bc.dtype = w.DType()
	} else if err := bincountB.CheckType("dtype", bc.dtype); err != nil {
		return bc, err
	}
	as := sh.Of(arr)
	bc.arrDims = append(sh.Buf(1), arr.Len())
	if opts.Axis == -1 && len(as) > 1 {
		if len(as) > 2 {
			// DenseBincount's words.
			return bc, fmt.Errorf("%w: Shape must be at most rank 2 but is rank %d (arr %v, axis -1)", engine.ErrShape, len(as), as)
		}
		bc.axis, bc.arrDims = 1, as
	}
	bc.counts = w.IsZero() || w.Len() == 0
	switch {
	case bc.counts:
	case bc.axis == 1 && !w.SameShape(arr):
		return bc, fmt.Errorf("%w: weights must have the shape of arr %v or no elements, got %v", engine.ErrShape, as, sh.Of(w))
	case w.Len() != arr.Len():
		// Both are flattened (axis 0) or 1-D: DenseBincount compares sizes.
		return bc, fmt.Errorf("%w: Input indices and weights must have the same size: arr %v, weights %v", engine.ErrShape, as, sh.Of(w))
	}
	top := maxOf(arr)
	size := int64(0)
	if arr.Len() > 0 {
		if top == math.MaxInt64 {
			// No number of bins holds it.
			at := firstMax(arr)
			pos := as.Coords(at)
			return bc, &indexError{
				msg: fmt.Sprintf("arr%s = %d: max(arr)+1 bins overflow int64", slicePos(pos), top),
				err: &engine.IndexError{Pos: pos, Value: top, Dim: bc.axis, Size: math.MaxInt, Min: 0, Max: math.MaxInt64 - 1},
			}
		}
		size = top + 1
	}
	size = max(size, int64(opts.MinLength))
	if opts.HasMaxLength {
		size = min(size, int64(opts.MaxLength))
	}
	if size < 0 {
		return bc, fmt.Errorf("%w: size (%d) must be non-negative: maxlength is %d", dialect.ErrAttribute, size, opts.MaxLength)
	}
	if size > math.MaxInt {
		return bc, fmt.Errorf("%w: %d bins (max(arr)+1, at least minlength %d) are more than an int can count", tensor.ErrTooLarge, size, opts.MinLength)
	}
	bc.shape = sh.Buf(2)
	if bc.axis == 1 {
		bc.shape = append(bc.shape, as[0])
	}
	bc.shape = append(bc.shape, int(size))
	if _, err := bc.shape.NumElements(); err != nil {
		return bc, fmt.Errorf("%w: the output %v holds more elements than an int can count", engine.ErrShape, bc.shape)
	}
	return bc, nil
}

// maxOf returns the largest value of arr, an int32 or int64 tensor, or
// MinInt64 when it is empty.
func maxOf(arr tensor.Tensor) int64 {
	switch v := arr.Data().(type) {
	case []int32:
		if len(v) > 0 {
			return int64(slices.Max(v))
		}
	case []int64:
		if len(v) > 0 {
			return slices.Max(v)
		}
	}
	return math.MinInt64
}

// firstMax returns the flat position of the first largest value of arr,
// an int64 tensor that is not empty.
func firstMax(arr tensor.Tensor) int {
	v := arr.Data().([]int64)
	at := 0
	for i, x := range v {
		if x > v[at] {
			at = i
		}
	}
	return at
}

// run writes the bins into dst: the weights (or ones) added at arr's
// values, or ones set, by the engine onto zeros, which refuses a negative
// value before it writes anything, even into no bins.
func (bc *bincount) run(sh *opcall.Shapes, dst, arr tensor.Tensor, opts BincountOptions) error {
	if arr.Len() == 0 {
		return zeroBins(dst)
	}
	idx, err := arr.View(sh.Ptr(bc.arrDims))
	if err != nil {
		return err
	}
	var upd tensor.Tensor
	if bc.counts {
		upd, err = ones(bc.dtype, arr.Len())
	} else {
		upd = opts.Weights
	}
	if err == nil {
		upd, err = upd.View(sh.Ptr(bc.arrDims))
	}
	if err != nil {
		return err
	}
	opt := engine.ScatterOptions{Reduction: engine.Add, Rules: bincountRules}
	if opts.BinaryOutput {
		opt.Reduction = engine.None
	}
	err = engine.ScatterElements(dst, tensor.Tensor{}, idx, upd, bc.axis, opt)
	if ie, ok := asIndexErr(err); ok {
		// The position in arr as given, in TensorFlow's words.
		ie.Pos = arr.Shape().Coords(idx.Shape().Offset(ie.Pos))
		return &indexError{msg: fmt.Sprintf("Input arr must be non-negative! arr%s = %d", slicePos(ie.Pos), ie.Value), err: ie}
	}
	return err
}

// zeroBins sets every bin of dst, of one of bincountTypes, to 0.
func zeroBins(dst tensor.Tensor) error {
	switch v := dst.Data().(type) {
	case []int32:
		clear(v)
	case []int64:
		clear(v)
	case []float32:
		clear(v)
	case []float64:
		clear(v)
	default:
		return fmt.Errorf("%w: bins of type %v", engine.ErrType, dst.DType())
	}
	return nil
}

// onesCache holds, for each of bincountTypes, the last tensor of at most
// maxCachedOnes ones that ones made: counting calls of one size share it,
// read-only.
var onesCache sync.Map // tensor.DType -> tensor.Tensor

// maxCachedOnes bounds what onesCache keeps: 512 KiB of int64 or float64
// ones at the most.
const maxCachedOnes = 1 << 16

// ones returns a 1-D tensor of n ones of type d, one of bincountTypes: the
// cached one for the n of the last call when n is at most maxCachedOnes,
// else a new one.
func ones(d tensor.DType, n int) (tensor.Tensor, error) {
	if c, ok := onesCache.Load(d); ok {
		if t := c.(tensor.Tensor); t.Len() == n {
			return t, nil
		}
	}
	t, err := tensor.New(d, tensor.Shape{n})
	if err != nil {
		return tensor.Tensor{}, err
	}
	switch v := t.Data().(type) {
	case []int32:
		fillOnes(v)
	case []int64:
		fillOnes(v)
	case []float32:
		fillOnes(v)
	case []float64:
		fillOnes(v)
	}
	if n <= maxCachedOnes {
		onesCache.Store(d, t)
	}
	return t, nil
}

func fillOnes[T int32 | int64 | float32 | float64](v []T) {
	for i := range v {
		v[i] = 1
	}
}
