package engine

import (
	"math"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// RunRules.EigenStart: TensorFlow's CPU kernels copy a segment of one row
// and reduce a longer one with an Eigen reducer, which starts from its
// own value: +0 for a sum or mean, 1 for a product, the lowest finite
// value for a maximum and the highest for a minimum. Starting from the
// first slice instead gives the same result but in two cases, which the
// engine corrects after reducing a run of more than one slice: a float
// or complex sum that is -0 is +0 (a sum from +0 is never -0, and
// otherwise equals the sum from the first value), and a float maximum
// of -Inf is the lowest finite value (a minimum of +Inf the highest). A
// product from 1 is the product from the first value.

// startFix corrects the block of a run of more than one slice at dst[d0:]
// for EigenStart (see above).
type startFix func(dst any, d0, n int)

// startFixOf returns the correction of EigenStart for element type d and
// reduction r, or nil where there is none.
func startFixOf(d tensor.DType, r Reduction) startFix {
	switch r {
	case Add, Mean:
		return floatRunOf(d).plusZero
	case Max, Min:
		return floatRunOf(d).finite[b2i(r == Min)]
	}
	return nil
}

// plusZero turns a -0 of the block into +0.
func plusZero[F float32 | float64](dst any, d0, n int) {
	for k, v := range dst.([]F)[d0 : d0+n] {
		if v == 0 {
			dst.([]F)[d0+k] = 0
		}
	}
}

// plusZeroHalf turns a -0 of the block of 16-bit floats into +0.
func plusZeroHalf[H float16.Float16 | bfloat16.BFloat16](dst any, d0, n int) {
	blk := dst.([]H)[d0 : d0+n]
	for k, v := range blk {
		if v == 0x8000 {
			blk[k] = 0
		}
	}
}

// plusZeroComplex turns a -0 part of the block into +0.
func plusZeroComplex[C complex64 | complex128](dst any, d0, n int) {
	blk := dst.([]C)[d0 : d0+n]
	for k, v := range blk {
		blk[k] = fixComplex(v+0, v, 0) // -0 + +0 is +0; every other part stays
	}
}

// finiteFix returns the correction of a float maximum (max) or minimum
// whose result is infinite on the side the reduction starts from: it
// becomes the finite extreme, top with the sign of that side.
func finiteFix[F float32 | float64](top F, max bool) startFix {
	inf, fin := F(math.Inf(1)), top
	if max {
		inf, fin = -inf, -top
	}
	return func(dst any, d0, n int) {
		blk := dst.([]F)[d0 : d0+n]
		for k, v := range blk {
			if v == inf {
				blk[k] = fin
			}
		}
	}
}

// halfFiniteFix is finiteFix for 16-bit floats, given their largest
// finite value and infinities.
func halfFiniteFix[H float16.Float16 | bfloat16.BFloat16](top, posInf, negInf H, max bool) startFix {
	inf, fin := posInf, top
	if max {
		inf, fin = negInf, top|0x8000
	}
	return func(dst any, d0, n int) {
		blk := dst.([]H)[d0 : d0+n]
		for k, v := range blk {
			if v == inf {
				blk[k] = fin
			}
		}
	}
}
