//go:build !amd64 || purego

package engine

import "unsafe"

// What a build without the assembly (another architecture, or amd64 with
// the purego tag) runs in place of each routine of the _amd64.s files:
// the Go twins, which are their specification (the _other.go files).

// addFloatRows is the loop of addInRange and addFlat for float32 (see
// addFloatRowsGo).
func addFloatRows(dst []float32, size int, idx []int64, last int, upd []float32) int {
	return addFloatRowsGo(dst, size, idx, last, upd)
}

// canGather says that gatherRows runs: only with the assembly.
var canGather = false

// gatherRows sets none in practice (canGather is false): the callers'
// loops take every index. See gatherRowsGo.
func gatherRows(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int, wide bool) int {
	return gatherRowsGo(out, src, dstep, size, idx, last, n, wide)
}

// orBlocks returns the OR of uint64(v - lo) over the values v of ind,
// whose length is a multiple of 8 (see orBlocksGo).
func orBlocks(ind []int64, lo int64) uint64 { return orBlocksGo(ind, lo) }

// hasAVX2 says that orBlocks takes sixteen values a round: only with the
// assembly.
var hasAVX2 = false

// canStream says that copyStreaming writes around the cache; without the
// assembly it does not, and the movers never ask it to.
const canStream = false

// prefetchBytes is a hint with nothing to compute: it does nothing.
func prefetchBytes(p unsafe.Pointer, n uintptr) {}

// copyStreaming copies n bytes from src to dst (see copyStreamingGo).
func copyStreaming(dst, src unsafe.Pointer, n uintptr) { copyStreamingGo(dst, src, n) }

// storeFence orders nothing: without non-temporal stores there are none
// to order.
func storeFence() {}

// floatRows is reduceBlocks' loop for float32 Add and the maxima and
// minima of MinMaxStdUpdate and MinMaxLastNaN (see floatRowsGo).
func floatRows(dst, src []float32, ps []pair, block int, red Reduction) bool {
	return floatRowsGo(dst, src, ps, block, red)
}

// floatOffsetRows is reduceOffsetBlocks' loop for the reductions of
// floatRows (see floatOffsetRowsGo).
func floatOffsetRows(dst, src []float32, offs []int32, block int, red Reduction) bool {
	return floatOffsetRowsGo(dst, src, offs, block, red)
}

// sumRun is sumRuns' loop for float32 (see sumRunGo32).
func sumRun(out, src []float32, rows, inner int, zero, mean bool) bool {
	return sumRunGo32(out, src, rows, inner, zero, mean)
}
