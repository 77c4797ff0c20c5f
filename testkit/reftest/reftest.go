// Package reftest holds reference implementations of the five operator
// families (scatter_nd, scatter_elements, gather_nd, gather_elements and
// gather) for the differential tests and fuzz targets of the engine and
// the dialects.
//
// They are written to be read, not to be fast. Each walks the coordinates
// of its operands one element at a time, converting between coordinates
// and flat positions with tensor.Shape's Coords and Offset. A scatter first lists, for every output position, the
// updates that land on it in row-major index order, and then folds each
// list into the position's value with the reduction. Nothing here calls a
// kernel of the engine or a dialect package.
//
// What the frameworks disagree on is a parameter, and the parameters are
// the engine's own types, which the engine defines and documents: what a
// negative index means and what an out-of-range one does
// (engine.IndexRules), the reduction (engine.Reduction), whether the
// existing value takes part, how float16 and bfloat16 round, how max and
// min treat NaN (engine.ScatterOptions and its engine.Arith). This
// package reads them as independently of the engine's code as it computes;
// where its reading differs from the engine's documentation, the function
// or this comment says so. What a framework refuses outright (element
// types, attribute values, its own shape rules) is for the caller to
// check. The functions here refuse only what has no meaning, with errors
// that wrap the engine's classes: shapes that do not fit
// (engine.ErrShape), an axis or batch dimension count out of range
// (engine.ErrArgument), a reduction the element type has no arithmetic for
// (engine.ErrType), and index values that the rules refuse (an
// *IndexError, which matches engine.ErrIndex). Index values are checked
// after everything else; a scatter checks element and index types before
// shapes, a gather shapes before the index type, as the engine does, so
// that of several faults both name one of the same class.
//
// The five forms read engine.IndexRules element by element:
// OutOfRangeClamp moves a value below 0 to position 0 and one at or past
// the size to the last position, and OutOfRangeWrap takes it modulo the
// size as Python's % does, both whatever Negative says (NumPy's modes
// "clip" and "wrap"); under either a dimension of size 0 refuses every
// value. Report has no part here: an *IndexError lists every refused
// value.
//
// How the scatters read engine.ScatterOptions: duplicate indices are
// applied in row-major order of indices: with None the last update wins,
// and every other reduction is the fold of the values that take part, in
// that order (the existing value first, unless ExcludeSelf). Integers
// wrap. Max and Min keep the existing value when the two compare equal
// (+0 and -0), and give NaN when either side is NaN, unless Arith.MinMax
// says otherwise. float16 and bfloat16 compute every step in float32 and
// round to their own precision after each one, unless Arith.HalfOnce.
// Mean is the fold with Add divided by the number of values that took
// part; integers divide rounding toward negative infinity, float16 and
// bfloat16 divide the rounded sum in float32 and round again. The
// reductions And, Or and Xor, and the options Fill, Exact and
// Arith.NumbersOnly, have no reference here (ErrArgument). Arith.CountInType
// counts in the element type for integers only: floating-point counts are
// exact (PyTorch's float32 count stops growing at 2^24, far beyond the
// sizes of tests). ExcludeSelf's Mul starts from one (for complex numbers,
// 1+0i, which turns a first update with a NaN or infinite part into
// NaN+NaNi), and with Arith.ZeroStart its Add and Mean start from the zero
// value of the element type (+0, false, ""). Scale, a scalar tensor of the
// element type, multiplies every update (the step Mul, rounded to the
// element type) before the reduction takes it; float16 and bfloat16 Add
// without HalfOnce adds scale*update in float32 and rounds once a step.
//
// Like every package under testkit/, it serves this module's own tests:
// no non-test package of the module imports it, and its API may change
// with them.
package reftest

import (
	"fmt"

	"github.com/scatter-dev/scatter/engine"
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

// Unwrap returns engine.ErrIndex.
func (e *IndexError) Unwrap() error { return engine.ErrIndex }
