// Package reftest holds reference implementations of the five operator
// families (scatter_nd, scatter_elements, gather_nd, gather_elements and
// gather) for the differential tests and fuzz targets of the dialects.
//
// They are written to be read, not to be fast. Each walks the coordinates
// of its operands one element at a time, converting between coordinates
// and flat positions with tensor.Shape's Coords and Offset. A scatter first lists, for every output position, the
// updates that land on it in row-major index order, and then folds each
// list into the position's value with the reduction. Nothing here calls the
// engine or a dialect package.
//
// What the frameworks disagree on is a parameter: what a negative index
// means and what an out-of-range one does (Rules), the reduction, whether
// the existing value takes part, how float16 and bfloat16 round and how max
// and min treat NaN (Options). What a framework refuses outright (element
// types, attribute values, its own shape rules) is for the caller to
// check. The functions here refuse only what has no meaning: shapes that do
// not fit (ErrShape), an axis or batch dimension count out of range
// (ErrArgument), a reduction the element type has no arithmetic for
// (ErrType), and index values that the rules refuse (an *IndexError, which
// matches ErrIndex). Index values are checked after everything else; a
// scatter checks element and index types before shapes, a gather shapes
// before the index type, as the engine does, so that of several faults
// both name one of the same class.
//
// Like every package under testkit/, it serves this module's own tests:
// no non-test package of the module imports it, and its API may change
// with them.
package reftest

import (
	"errors"
	"fmt"
)

// The error classes. Every error of this package wraps exactly one.
var (
	// ErrIndex: index values that the rules refuse; the error is an
	// *IndexError.
	ErrIndex = errors.New("reftest: index out of range")
	// ErrShape: shapes that do not fit together.
	ErrShape = errors.New("reftest: shapes do not fit")
	// ErrArgument: an axis or a batch dimension count out of range, or a
	// reduction that cannot leave the existing value out.
	ErrArgument = errors.New("reftest: invalid argument")
	// ErrType: element types that differ where they must be equal, indices
	// that are not integers, or a reduction that the element type has no
	// arithmetic for.
	ErrType = errors.New("reftest: unsupported element type")
)

// IndexError reports the index values that the rules refuse.
type IndexError struct {
	// Bad holds the flat (row-major) positions in indices of every refused
	// value, in increasing order.
	Bad []int
}

// Error lists the positions of the refused values.
func (e *IndexError) Error() string {
	return fmt.Sprintf("reftest: index out of range at flat positions %v of indices", e.Bad)
}

// Unwrap returns ErrIndex.
func (e *IndexError) Unwrap() error { return ErrIndex }

// Negative says what a negative index value means.
type Negative uint8

const (
	// NegativeError: a negative value is out of range.
	NegativeError Negative = iota
	// NegativeFromEnd: -1 is the last position of the dimension, -size
	// the first.
	NegativeFromEnd
	// NegativeSkip: a negative value is dropped (a scatter ignores its
	// update) whatever OutOfRange says of the values past the end.
	NegativeSkip
	// NegativeRefused: a negative value is an error, whatever OutOfRange
	// says of a value past the end (TensorFlow's bincount).
	NegativeRefused
)

// OutOfRange says what an index value outside the dimension does.
type OutOfRange uint8

const (
	// OutOfRangeError: the call fails with an *IndexError.
	OutOfRangeError OutOfRange = iota
	// OutOfRangeSkip: a scatter ignores the update; a gather writes the
	// zero value.
	OutOfRangeSkip
	// OutOfRangeClampElem: a value below 0 addresses position 0, one at
	// or past the size the last position (NumPy's mode "clip", whatever
	// Negative says: it counts nothing from the end); a dimension of size
	// 0 refuses every value.
	OutOfRangeClampElem
	// OutOfRangeWrap: the value is taken modulo the size as Python's %
	// does, whatever Negative says (NumPy's mode "wrap"); a dimension of
	// size 0 refuses every value.
	OutOfRangeWrap
)

// Rules are what an operator does with index values.
type Rules struct {
	Negative   Negative
	OutOfRange OutOfRange
}

// Reduction says how an update combines with the value at its position.
type Reduction uint8

// The reductions. On bool elements Add and Max are OR, Mul and Min are AND
// and Sub is XOR; Mean has no meaning. On strings Add concatenates, with
// Options.ConcatStrings (TensorFlow's scatter_nd, ONNX Runtime), and
// nothing else but None has a meaning.
// Complex numbers have no Max or Min. Div has no meaning on bool; on
// integers it truncates toward zero, and an integer update of 0 is an
// error (ErrArgument), whatever its index.
const (
	None Reduction = iota // the update replaces the value
	Add                   // value + update
	Sub                   // value - update
	Mul                   // value * update
	Max                   // the larger (see Options.StdMinMax for NaN and ties)
	Min                   // the smaller
	Mean                  // the mean of the values that take part
	Div                   // value / update
)

var reductionNames = [...]string{"none", "add", "sub", "mul", "max", "min", "mean", "div"}

// String returns the reduction's name in lower case.
func (r Reduction) String() string {
	if int(r) < len(reductionNames) {
		return reductionNames[r]
	}
	return fmt.Sprintf("reduction(%d)", uint8(r))
}

// Options are the parameters of the scatters. The zero value is a plain
// update whose indices must lie in [0, size-1].
//
// Whatever the options, duplicate indices are applied in row-major order
// of indices: with None the last update wins, and every other reduction is
// the fold of the values that take part, in that order (the existing value
// first, unless ExcludeSelf). Integers wrap. Max and Min keep the existing
// value when the two compare equal (+0 and -0), and, unless StdMinMax, give
// NaN when either side is NaN. float16 and bfloat16 compute every step in
// float32 and round to their own precision after each one, unless
// HalfOnce. Mean is the fold with Add divided by the number of values that
// took part; integers divide rounding toward negative infinity, float16
// and bfloat16 divide the rounded sum in float32 and round again.
type Options struct {
	Rules     Rules
	Reduction Reduction
	// ExcludeSelf leaves the existing value out of the reduction: a
	// position that receives updates ends with the reduction of its updates
	// alone (PyTorch include_self=False, OpenVINO use_init_val=false), and
	// one that receives none keeps its value. No effect with None; Sub
	// cannot exclude the existing value (ErrArgument).
	ExcludeSelf bool
	// ZeroStart makes ExcludeSelf's Add and Mean start from the zero value
	// of the element type (+0, false, ""), and Mul from one, as PyTorch
	// does (it first fills the positions with the reduction's identity),
	// rather than from the first update: a sum of -0 updates then ends as
	// +0, and a complex product goes through (1+0i)*u, which turns a
	// value with a NaN or infinite part into NaN+NaNi.
	ZeroStart bool
	// HalfOnce makes float16 and bfloat16 Add, Mul and Mean accumulate in
	// float32 and round once, at the end, as PyTorch's float32 buffer does.
	HalfOnce bool
	// StdMinMax makes Max and Min compare as C++'s std::max(value, update)
	// and std::min(value, update) do (TensorFlow's CPU kernels): the update
	// replaces the value only when it compares larger (smaller), so a NaN
	// update is ignored and a NaN value stays.
	StdMinMax bool
	// LastNaN makes every NaN update replace the value under Max and Min,
	// so that a position ending as NaN holds the last NaN update it
	// received (PyTorch's kernels).
	LastNaN bool
	// SignedZeros makes Max and Min order -0 below +0, as IEEE 754's
	// maximum and minimum do (StableHLO), where otherwise the existing of
	// two equal values stays.
	SignedZeros bool
	// DivideAll makes Mean divide every position by its count, one that
	// receives no updates by 1, as PyTorch divides its whole output. x / 1
	// is x but for complex values with a NaN or infinite part, which the
	// division turns into NaN (NaN+3i / 1 is NaN+NaNi).
	DivideAll bool
	// CountInType makes Mean on integer elements divide by the count of
	// values converted to the element type, which wraps (an int8 count of
	// 128 is -128), with a count that wraps to 0 taken as 1 (PyTorch).
	// Floating-point counts are exact either way (PyTorch's float32 count
	// stops growing at 2^24, far beyond the sizes of tests).
	CountInType bool
	// C10Complex makes complex Mul, and Mean's division by the count,
	// compute as C++'s c10::complex does (PyTorch): every operation on the
	// parts rounded to their type, where Go computes a complex64 product
	// or quotient in float64 and rounds once; the last bit differs.
	C10Complex bool
	// ConcatStrings gives strings reduction Add, which concatenates
	// (value + update); without it they take None only (ErrType).
	ConcatStrings bool
	// MeanTowardZero makes Mean on signed integers round its quotient
	// toward zero, as C++'s / does (TensorFlow's Eigen MeanReducer),
	// unless CountInType.
	MeanTowardZero bool
	// StdUpdateMinMax makes Max and Min compare as std::max(update,
	// value) and std::min(update, value) do (TensorFlow's unsorted
	// segment reductions): the update replaces the value unless it
	// compares smaller (larger), so a NaN update replaces the value, a NaN
	// value is replaced by the next update, and of equals the update wins.
	StdUpdateMinMax bool
	// SqrtCount makes Mean divide by the square root of the count, in the
	// element type (TensorFlow's sqrt_n): the count converted to the type,
	// its square root rounded to it, the quotient rounded. Only
	// floating-point and complex elements have it (ErrType).
	SqrtCount bool
	// Scale, where not nil, is a Go value of the element type by which
	// every update is multiplied (the step Mul, rounded to the element
	// type) before the reduction takes it: PyTorch's index_add with
	// alpha. float16 and bfloat16 Add without HalfOnce adds scale*update
	// in float32 and rounds once a step, as PyTorch's add kernel does.
	Scale any
}
