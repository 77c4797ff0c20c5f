package engine

import (
	"fmt"

	"github.com/scatter-dev/scatter/tensor"
)

// Reduction says how an update combines with the value already at its
// destination.
type Reduction uint8

// The reductions. For bool elements Add is OR, Sub is XOR, Mul is AND, Max
// is OR and Min is AND; Mean is not defined for bool. And, Or and Xor are
// defined for bool and the integers only. Strings allow only None, and Add
// with Arith.ConcatStrings; complex numbers have no Max or Min. Div is not
// defined for bool; on integers it truncates toward zero (C's and Go's /,
// the most negative value divided by -1 staying itself), and an integer
// update of 0 is an error (ErrArgument) found before anything is written,
// whether or not the index rules skip that update. Sub and Div cannot
// leave the existing value out (ExcludeSelf).
const (
	None Reduction = iota // the update replaces the value
	Add                   // value + update
	Sub                   // value - update
	Mul                   // value * update
	Max                   // the larger; a NaN on either side gives NaN; of equals (+0, -0) the existing value
	Min                   // the smaller; a NaN on either side gives NaN; of equals (+0, -0) the existing value
	Mean                  // the mean of the values taking part; integers round toward -Inf
	And                   // bitwise AND (integers), logical AND (bool)
	Or                    // bitwise OR (integers), logical OR (bool)
	Xor                   // bitwise XOR (integers), logical XOR (bool)
	Div                   // value / update; integers truncate toward zero, an integer update of 0 is an error
)

var reductionNames = [...]string{"none", "add", "sub", "mul", "max", "min", "mean", "and", "or", "xor", "div"}

// String returns the reduction's name in lower case ("none", "add", ...).
func (r Reduction) String() string {
	if int(r) < len(reductionNames) {
		return reductionNames[r]
	}
	return fmt.Sprintf("reduction(%d)", uint8(r))
}

// Negative says what a negative index means.
type Negative uint8

const (
	// NegativeError treats a negative index as out of range.
	NegativeError Negative = iota
	// NegativeFromEnd counts a negative index from the end of its
	// dimension: -1 is the last position, -size the first.
	NegativeFromEnd
	// NegativeSkip drops a negative index whatever OutOfRange says: a
	// scatter ignores its update (a tuple with a negative component, the
	// whole tuple), while an index past the end is still an error under
	// OutOfRangeError (TensorFlow's unsorted segment reductions). Only the
	// scatters take it (ScatterND, ScatterElements, and ScatterGeneral
	// with the dimension numbers of one of them), and not with
	// OutOfRangeClamp; the other kernels refuse it with ErrArgument.
	NegativeSkip
	// NegativeRefused makes a negative index an error whatever OutOfRange
	// says of one past the end, which it skips (or clamps) as usual:
	// TensorFlow's bincount refuses a negative value ("Input arr must be
	// non-negative!") and skips one at or past the number of bins. The
	// error names the first negative index in row-major order (with
	// ReportLast, the last tuple holding one). With OutOfRangeError it is
	// NegativeError; the dynamic slices, which always clamp, treat it as
	// NegativeError too.
	NegativeRefused
)

// OutOfRange says what an index outside the allowed range does.
type OutOfRange uint8

const (
	// OutOfRangeError makes the whole call fail with an *IndexError.
	OutOfRangeError OutOfRange = iota
	// OutOfRangeSkip drops the index: a scatter ignores that update (the
	// whole window of the general scatter), a gather writes zero values
	// (or GatherOptions.Fill) for it.
	OutOfRangeSkip
	// OutOfRangeClamp moves the start index to the nearest position at
	// which the window fits: StableHLO's gather and dynamic_slice, and
	// JAX's mode "clip". Only the general kernels (GatherGeneral,
	// ScatterGeneral, DynamicSlice and DynamicUpdateSlice) take it; the
	// forms' own (ScatterND, ScatterElements, GatherND, GatherElements,
	// Gather) refuse it with ErrArgument.
	OutOfRangeClamp
	// OutOfRangeWrap takes the start index modulo the number of positions
	// at which the window fits (the dimension's size for single
	// elements), as Python's % does, whatever its sign: -1 is the last
	// position, size the first, 2*size+1 the second (NumPy's mode
	// "wrap"). Negative says nothing under it. A dimension in which no
	// window fits admits no index: an *IndexError. Like OutOfRangeClamp,
	// only the general kernels take it; the forms' own refuse it with
	// ErrArgument.
	OutOfRangeWrap
)

// IndexRules are the rules an operator applies to index values.
// The zero value accepts only indices in [0, size-1] and fails on others.
type IndexRules struct {
	Negative   Negative
	OutOfRange OutOfRange
	// Report says which of several bad indices an error names.
	Report Report
}

// Report says which of several bad indices an *IndexError names.
type Report uint8

const (
	// ReportFirst names the first bad index in row-major order of the
	// indices.
	ReportFirst Report = iota
	// ReportLast names, of the index tuples (or values) that hold a bad
	// index, the last, and in it the first bad component: TensorFlow's
	// CPU kernels go on past a bad tuple and report the last they saw.
	ReportLast
)

// ScatterOptions are the knobs of the scatters that take them:
// ScatterGeneral, ScatterND and ScatterElements.
type ScatterOptions struct {
	Reduction Reduction
	// ExcludeSelf leaves the destination's existing value out of the
	// reduction: a position that receives updates gets the reduction of
	// those updates alone, and a position that receives none keeps its
	// value (PyTorch include_self=False, OpenVINO use_init_val=false).
	// It has no effect with reduction None. A complex product starts
	// from 1+0i, which turns a first update with a NaN or infinite part
	// into NaN+NaNi, as PyTorch's does.
	ExcludeSelf bool
	Rules       IndexRules
	// Arith says how the reduction computes where frameworks compute it
	// differently.
	Arith Arith
	// Exact makes the general scatter refuse what StableHLO refuses and
	// the engine would accept: batching dimensions of indices smaller than
	// the operand's, updates larger than indices (see ScatterDims).
	Exact bool
	// Fill, a scalar of dst's element type, is the value every element of
	// dst starts from when data is the zero Tensor, instead of zeros: an
	// element no update reaches keeps it (the value of an empty segment).
	// The zero Tensor fills with zero values. A scatter given both data
	// and Fill fails with ErrArgument.
	Fill tensor.Tensor
	// Scale, where set, is one element of the updates' type by which
	// every update is multiplied before it is combined: the update
	// combined is scale*update rounded to the element type, as reduction
	// Mul computes it under Arith (complex numbers by Arith.Complex; bool
	// is AND), in a copy of updates from a pool. float16 and bfloat16 Add
	// without HalfOnce computes value + scale*update in float32 instead
	// and rounds once a step (the product of two of them is exact in
	// float32), as PyTorch's add kernel does. PyTorch's index_add(alpha)
	// is self + alpha*source. The zero Tensor scales nothing; reduction
	// Div takes no scale (ErrArgument).
	Scale tensor.Tensor
}

// GatherOptions are the knobs of the general gather.
type GatherOptions struct {
	Rules IndexRules
	// Fill is a scalar of the operand's element type that fills a slice
	// the rules skip; the zero Tensor fills with zero values.
	Fill tensor.Tensor
	// Exact refuses what StableHLO refuses and the engine would accept:
	// batching dimensions of indices smaller than the operand's (see
	// GatherDims).
	Exact bool
}

// Arith holds the knobs of the reductions' arithmetic on the element types
// where frameworks compute the same reduction differently. The zero value
// is Go's arithmetic, with strings taking reduction None only.
type Arith struct {
	// Complex says how complex products and quotients are computed: Mul,
	// the product that ExcludeSelf starts from one, and Mean's division.
	Complex ComplexArith
	// ConcatStrings lets reduction Add (and only Add) take string
	// elements, as concatenation, value + update: ONNX Runtime's
	// std::string += and TensorFlow's string addition. With ExcludeSelf an
	// updated position starts from "".
	ConcatStrings bool
	// MinMax says how floating-point Max and Min treat NaN and signed
	// zeros.
	MinMax MinMax
	// HalfOnce makes float16 and bfloat16 Add, Mul and Mean accumulate in
	// float32 and round once, at the end, as PyTorch's float32 buffer
	// does, rather than round after every step. It keeps a float32 for
	// every element of dst, of which it touches those updated.
	HalfOnce bool
	// ZeroStart makes ExcludeSelf start a block of Add or Mean from the
	// zero value (+0) rather than from the identity of addition (-0), as
	// PyTorch does (it fills the positions with zeros first): a sum of -0
	// updates then ends as +0.
	ZeroStart bool
	// CountInType makes Mean divide by the number of values as the
	// element type counts it, as PyTorch's kernels do: integer counts
	// wrap (an int8 count of 128 is -128), float32 counts stop growing at
	// 2^24, float16 and bfloat16 counts are rounded (with HalfOnce, as
	// PyTorch's float32 buffer rounds them once) or, without HalfOnce,
	// stop growing where a sum of ones in the type does (2048 for
	// float16, 256 for bfloat16: TensorFlow's count of ones), and a count
	// of 0 is taken as 1.
	CountInType bool
	// DivideAll makes Mean divide every element of dst by its count, one
	// that receives no updates by 1 (its own value's count, or 1 with
	// ExcludeSelf), as PyTorch divides its whole output: x / 1 is x but
	// for complex values with a NaN or infinite part, which become
	// NaN+NaNi. It touches all of dst.
	DivideAll bool
	// NumbersOnly refuses Add, Sub and Mul on bool elements, as JAX's
	// lax.add, lax.sub and lax.mul take numbers only; without it bool Add
	// is OR, Mul is AND and Sub is XOR.
	NumbersOnly bool
	// MeanTowardZero makes a signed integer Mean round its quotient toward
	// zero, as C++'s / does (TensorFlow's Eigen MeanReducer), rather than
	// toward negative infinity: -7 / 2 is -3, not -4. Unsigned and
	// floating-point means are the same either way. CountInType takes
	// precedence over it.
	MeanTowardZero bool
	// SqrtCount makes Mean divide by the square root of the number of
	// values rather than by the number (TensorFlow's sqrt_n reductions):
	// the count converted to the element type (after CountInType's
	// counting, with it), its square root rounded to the element type,
	// then the quotient, as sum / sqrt(N) computes in the element type.
	// Only floating-point and complex elements take it.
	SqrtCount bool
}

// MinMax says how floating-point Max and Min treat NaN and equal values
// (+0 and -0).
type MinMax uint8

const (
	// MinMaxNaN propagates NaN: a NaN in place stays, otherwise the first
	// NaN update wins and stays; of two equal values (+0, -0) the one in
	// place stays. (ONNX's reference, OpenVINO, MindSpore.)
	MinMaxNaN MinMax = iota
	// MinMaxStd compares as C++'s std::max(value, update) and
	// std::min(value, update) do (TensorFlow's CPU kernels): the update
	// replaces the value only when it compares larger (smaller), so a NaN
	// update is ignored and a NaN in place stays.
	MinMaxStd
	// MinMaxLastNaN is MinMaxNaN but that every NaN update replaces the
	// value, so that a position ending as NaN holds the last NaN update it
	// received (PyTorch's kernels).
	MinMaxLastNaN
	// MinMaxIEEE is IEEE 754's maximum and minimum (StableHLO's): NaN
	// propagates as with MinMaxNaN, and -0 is less than +0.
	MinMaxIEEE
	// MinMaxStdUpdate compares as std::max(update, value) and
	// std::min(update, value) do, Eigen's cwiseMax and cwiseMin of the
	// update with the value (TensorFlow's unsorted segment reductions):
	// the update replaces the value unless it compares smaller (larger),
	// so a NaN update replaces the value, a NaN in place is replaced by
	// the next update, and of equal values (+0, -0) the update wins.
	MinMaxStdUpdate
)

// ComplexArith says how complex products and quotients are computed.
type ComplexArith uint8

const (
	// ComplexGo is Go's own arithmetic: a complex64 product or quotient is
	// computed in float64 and rounded to float32 once at the end; a
	// quotient follows Smith's algorithm and recovers infinities and zeros
	// as C99's Annex G does.
	ComplexGo ComplexArith = iota
	// ComplexC10 computes as C++'s c10::complex does (PyTorch's CPU
	// kernels), every operation rounded to the precision of the element's
	// parts: (a+bi)(c+di) is (ac-bd) + (ad+bc)i, and (a+bi)/(c+di) is
	// Smith's algorithm with the reciprocal of its denominator multiplied
	// in: for |c| >= |d|, r = d/c, s = 1/(c+dr), ((a+br)s) + ((b-ar)s)i,
	// and the mirror image otherwise; 0/0 divides each part by zero. The
	// last bit differs from ComplexGo's on many inputs, and a NaN or
	// infinite part spreads to the other one where ComplexGo recovers an
	// infinity.
	ComplexC10
)

// bitwise reports whether r is And, Or or Xor.
func (r Reduction) bitwise() bool { return r == And || r == Or || r == Xor }

// negativesOnly reports whether the only index values r refuses are the
// negative ones (NegativeRefused with an OutOfRange that does not refuse).
func (r IndexRules) negativesOnly() bool {
	return r.Negative == NegativeRefused && r.OutOfRange != OutOfRangeError
}

// bounds returns the inclusive range of index values r accepts for a
// dimension of the given size.
func (r IndexRules) bounds(size int) (lo, hi int64) {
	if r.Negative == NegativeFromEnd {
		return -int64(size), int64(size) - 1
	}
	return 0, int64(size) - 1
}

// windowLimit returns the limit of the start values of a window of size
// w along a dimension of the given size: [0, size-w], and negative values
// counted from the end where the rules say so.
func (r IndexRules) windowLimit(size, w int) limit {
	l := limit{size: max(size-w+1, 0)}
	if r.Negative == NegativeFromEnd {
		l.fromEnd = int64(size)
	}
	return l
}
