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

// addEntryFloats is applyEntries' loop for float32 sums (see
// addEntryFloatsGo).
func addEntryFloats(dst []float32, es []entry[float32]) { addEntryFloatsGo(dst, es) }

// sortFloatHalves is sortHalves for float32 (see sortHalves, its twin).
func sortFloatHalves(b0, b1 []entry[float32], ind []int64, upd []float32, split int) (n0, n1 int, most uint64) {
	return sortHalves(b0, b1, ind, upd, split)
}

// canGather says that gatherRows runs: only with the assembly.
var canGather = false

// gatherRows sets none in practice (canGather is false): the callers'
// loops take every index. See gatherRowsGo.
func gatherRows(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int, wide, stream bool) int {
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

// prefetchL1 is a hint with nothing to compute: it does nothing.
func prefetchL1(p unsafe.Pointer, n uintptr) {}

// prefetchL2 is a hint with nothing to compute: it does nothing.
func prefetchL2(p unsafe.Pointer, n uintptr) {}

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

// placeRows copies rows of src to offsets of dst (see placeRowsGo).
func placeRows(dst unsafe.Pointer, esize uintptr, offs *int32, n int, src unsafe.Pointer, bytes uintptr, avx bool) {
	placeRowsGo(dst, esize, offs, n, src, bytes)
}

// placeAVX says that placeRows moves rows with AVX: only with the
// assembly.
var placeAVX = false

// offsetsTriples is offsets3 without skip, whose Go loop is its twin.
func offsetsTriples(offs []int32, ind []int64, lims []limit, strides []int) int {
	return offsets3(offs, ind, lims, strides, false)
}

// offsetsPairs sets no offsets at once without the assembly: offsets2's
// loop, the assembly's twin, sets them all.
func offsetsPairs[O int32 | int](offs []O, ind []int64, l0, l1 limit, s0, s1 int) int { return 0 }

// copyOr copies ind to dst and returns the OR of its values (see
// copyOrGo).
func copyOr(dst, ind []int64) uint64 { return copyOrGo(dst, ind) }

// addPlaced adds updates at checked positions (see addPlacedGo).
func addPlaced(dst []float32, size int, pos []int64, last int, upd []float32) {
	if len(pos) > 0 && last > 0 {
		addPlacedGo(dst, size, pos, last, upd)
	}
}

// canPlace says that small float32 sums take their indices through
// scratch.placed: only with the assembly.
var canPlace = false

// movePairs4or8 moves single elements by pairs (see movePairsGo): ahead
// asks for nothing without the assembly.
func movePairs4or8[E any](dst, src []E, ps []pair, ahead int) bool {
	movePairsGo(dst, src, ps)
	return true
}

// canPairElems says that gatherPairElems runs: only with the assembly.
const canPairElems = false

// gatherPairElems gathers single elements by pairs of index values (see
// pairElemsGo); ahead asks for nothing without the assembly.
func gatherPairElems(out, src unsafe.Pointer, ind *int64, n int, lims *limit, strides *int, ahead int, wide bool) int {
	return pairElemsGo(out, src, ind, n, lims, strides, wide)
}
