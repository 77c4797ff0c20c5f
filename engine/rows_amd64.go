//go:build amd64 && !purego

package engine

import (
	"fmt"

	"golang.org/x/sys/cpu"
)

// floatRows is reduceBlocks' loop for float32 Add, maxUpdate, minUpdate,
// maxLast and minLast, in assembly where the processor has AVX (rowsFloat32): eight
// elements an instruction, where Go's loop took one and a NaN check each.
// It reports false, having done nothing, for another reduction or without
// AVX. Every pair must address a whole block of dst and of src: the check
// panics, as Go's slicing would, before the assembly could overrun them.
func floatRows(dst, src []float32, ps []pair, block int, red Reduction) bool {
	op, ok := floatOp(red)
	if !ok {
		return false
	}
	if len(ps) == 0 || block <= 0 {
		return true // nothing to reduce
	}
	checkBlocks(len(dst), len(src), ps, block)
	rowsFloat32(&dst[0], &src[0], &ps[0], len(ps), block, op)
	return true
}

// floatOffsetRows is floatRows for the blocks of src in order, block t
// into the block of dst at offs[t] (none at -1), in assembly without
// pairs (offsRowsFloat32). The offsets are tupleOffsets': each is -1 or
// the start of a whole block of dst, checked when it was made, so only
// src's length is checked here.
func floatOffsetRows(dst, src []float32, offs []int32, block int, red Reduction) bool {
	op, ok := floatOp(red)
	if !ok {
		return false
	}
	if len(offs) == 0 || block <= 0 || len(dst) == 0 {
		return true // nothing to reduce
	}
	_ = src[:len(offs)*block] // Go's panic before the assembly's overrun
	offsRowsFloat32(&dst[0], &src[0], &offs[0], len(offs), block, op)
	return true
}

// floatOp returns rowsFloat32's op for red, or false for a reduction it
// does not compute or without AVX.
func floatOp(red Reduction) (int, bool) {
	switch {
	case !hasAVX:
		return 0, false
	case red == Add:
		return 0, true
	case red == maxUpdate:
		return 1, true
	case red == minUpdate:
		return 2, true
	case red == maxLast:
		return 3, true
	case red == minLast:
		return 4, true
	}
	return 0, false
}

// hasAVX says that rowsFloat32 runs.
var hasAVX = cpu.X86.HasAVX

// rowsFloat32 is floatRows' loop over the n pairs at ps, op 0 adding, 1
// and 2 taking the maximum and minimum of std::max(update, value), 3 and 4
// those of MinMaxLastNaN (see rows_amd64.s).
//
//go:noescape
func rowsFloat32(dst, src *float32, ps *pair, n, block, op int)

// offsRowsFloat32 is floatOffsetRows' loop over the n offsets at offs
// (see rows_amd64.s), op as rowsFloat32's.
//
//go:noescape
func offsRowsFloat32(dst, src *float32, offs *int32, n, block, op int)

// sumRun is sumRuns' loop for float32 where the processor has AVX, in
// assembly (sumRunFloat32): it sums the rows of a run of rows*inner
// elements of src into out, from +0 if zero (EigenStart's start) or else
// from the first row, and divides each sum by rows if mean. It reports
// false, having done nothing, without AVX. See sumRunGo32.
func sumRun(out, src []float32, rows, inner int, zero, mean bool) bool {
	if !hasAVX {
		return false
	}
	if rows <= 0 || inner <= 0 {
		return true // nothing to sum
	}
	_, _ = out[:inner], src[:rows*inner] // Go's panic before the assembly's overrun
	sumRunFloat32(&out[0], &src[0], rows, inner, b2i(zero)|b2i(mean)<<1)
	return true
}

// sumRunFloat32 is sumRun's loop, mode's bit 0 starting each sum from
// +0, bit 1 dividing it by rows (see rows_amd64.s).
//
//go:noescape
func sumRunFloat32(out, src *float32, rows, inner, mode int)

// checkBlocks panics unless every pair addresses a whole block of block
// elements within dst's dlen elements and src's slen, as slicing the
// blocks would, before the assembly could overrun them: two comparisons
// a pair, where slicing both blocks took twenty instructions (W10: a
// fifth of the engine's).
func checkBlocks(dlen, slen int, ps []pair, block int) {
	maxD, maxS := dlen-block, slen-block
	if len(ps) > 0 && min(maxD, maxS) < 0 {
		blockPanic(dlen, slen, ps[0], block)
	}
	i := 0
	for ; i < len(ps); i++ {
		if uint(ps[i].d) > uint(maxD) || uint(ps[i].s) > uint(maxS) {
			break
		}
	}
	if i < len(ps) {
		blockPanic(dlen, slen, ps[i], block)
	}
}

// blockPanic is checkBlocks' panic, out of its loop.
//
//go:noinline
func blockPanic(dlen, slen int, p pair, block int) {
	panic(fmt.Sprintf("engine: block of %d at dst %d, src %d is out of range [0:%d], [0:%d]", block, p.d, p.s, dlen, slen))
}
