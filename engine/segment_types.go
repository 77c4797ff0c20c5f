package engine

import (
	"math"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// floatRun holds the typed loops of ReduceRuns that depend on how a
// floating-point or complex type represents its values: the integer
// types and bool need none of them.
type floatRun struct {
	// pairwise is the loop of PairwiseSum.
	pairwise typedRun
	// sum is the loop of float32 and float64 Add and Mean runs in the
	// machine's instructions (sumRunOf); nil for the other types.
	sum typedRun
	// plusZero is EigenStart's correction of a sum or a mean, and
	// finite its corrections of a maximum and of a minimum (nil for the
	// complex types, which have no order).
	plusZero startFix
	finite   [2]startFix
}

// floatRunTypes holds the floatRun of each floating-point and complex
// type at its number, a zero one at the other numbers: the per-type table
// the run reductions consult once per call.
var floatRunTypes = [...]floatRun{
	tensor.Float32: {pairwise: pairwiseFloats[float32], sum: sumRuns[float32], plusZero: plusZero[float32],
		finite: [2]startFix{finiteFix(float32(math.MaxFloat32), true), finiteFix(float32(math.MaxFloat32), false)}},
	tensor.Float64: {pairwise: pairwiseFloats[float64], sum: sumRuns[float64], plusZero: plusZero[float64],
		finite: [2]startFix{finiteFix(math.MaxFloat64, true), finiteFix(math.MaxFloat64, false)}},
	tensor.Float16: {pairwise: pairwiseHalves[float16.Float16], plusZero: plusZeroHalf[float16.Float16],
		finite: [2]startFix{
			halfFiniteFix(float16.Fromfloat32(65504), float16.Inf(1), float16.Inf(-1), true),
			halfFiniteFix(float16.Fromfloat32(65504), float16.Inf(1), float16.Inf(-1), false),
		}},
	tensor.BFloat16: {pairwise: pairwiseHalves[bfloat16.BFloat16], plusZero: plusZeroHalf[bfloat16.BFloat16],
		finite: [2]startFix{
			halfFiniteFix(bfloat16.BFloat16(0x7f7f), bfloat16.BFloat16(0x7f80), bfloat16.BFloat16(0xff80), true),
			halfFiniteFix(bfloat16.BFloat16(0x7f7f), bfloat16.BFloat16(0x7f80), bfloat16.BFloat16(0xff80), false),
		}},
	tensor.Complex64:  {pairwise: pairwiseComplex[complex64, float32], plusZero: plusZeroComplex[complex64]},
	tensor.Complex128: {pairwise: pairwiseComplex[complex128, float64], plusZero: plusZeroComplex[complex128]},
}

// noFloatRun is the floatRun of the types without one.
var noFloatRun floatRun

// floatRunOf returns the floatRun of d, a zero one for a type without one.
func floatRunOf(d tensor.DType) *floatRun {
	if uint(d) >= uint(len(floatRunTypes)) {
		return &noFloatRun
	}
	return &floatRunTypes[d]
}
