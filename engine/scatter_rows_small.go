package engine

import (
	"math/bits"
	"unsafe"
)

// Small rows. A scatter of many rows of a few cache lines each into a dst
// of a few MiB at random rows (W10: a million rows of 16 float32 summed
// into 65536) waits on each row's read of dst, which misses the core's
// cache: the loop of a row is long enough that the processor looks at
// most a row or two ahead, so the misses barely overlap. The loops over
// blocks ask for the dst block of the pair rowsAhead pairs on to be
// brought into the cache as they reduce each one, so that several misses
// are under way at once. Each block is still reduced in the order of the
// pairs, element by element: the results are the same bits. Then the
// loop's own instructions count: float32 sums, and the maxima and minima
// that one vector instruction computes (MinMaxStdUpdate, MinMaxLastNaN),
// go by floatRows, eight elements an AVX instruction (rows_amd64.s).
// docs/measurements.md has the figures of both.

// rowsAhead is how many pairs ahead the loops over blocks prefetch.
const rowsAhead = 8

// rowsBatch is how many offsets scatterOffsets turns into pairs at a
// time, on its stack.
const rowsBatch = 128

// prefetchBlock asks for the dst block of ps[i+rowsAhead], of the given
// bytes, if there is one and the pair before it is of another block: a
// run of pairs into one block (ReduceRuns' sorted segments) asks once.
func prefetchBlock[T any](dst []T, ps []pair, i int, bytes uintptr) {
	if j := i + rowsAhead; j < len(ps) && ps[j].d != ps[j-1].d {
		prefetchL1(unsafe.Pointer(&dst[ps[j].d]), bytes)
	}
}

// blockBytes returns the size in bytes of a block of T.
func blockBytes[T any](block int) uintptr {
	var zero T
	return uintptr(block) * unsafe.Sizeof(zero)
}

// reduceBlocks reduces each block of src at p.s into the block of dst at
// p.d, block elements each, for the pairs of ps in order.
func reduceBlocks[T number](red Reduction, dst, src []T, ps []pair, block int) {
	if d, ok := any(dst).([]float32); ok && floatRows(d, any(src).([]float32), ps, block, red) {
		return
	}
	blockLoop(red, dst, src, ps, block)
}

// blockLoop is reduceBlocks' loop in Go.
func blockLoop[T number](red Reduction, dst, src []T, ps []pair, block int) {
	bytes := blockBytes[T](block)
	for i, p := range ps {
		prefetchBlock(dst, ps, i, bytes)
		reduceSlice(red, dst[p.d:p.d+block], src[p.s:p.s+block])
	}
}

// reduceOffsetBlocks reduces block t of src into the block of dst at
// offs[t] (none for an offset of -1), in order: float32 by
// floatOffsetRows, which reads the offsets without making pairs (W10's
// one loop: the pairs and their check were a third of its
// instructions), else by reduceBlocks.
func reduceOffsetBlocks[T number](red Reduction, dst, src []T, offs []int32, block int) {
	if d, ok := any(dst).([]float32); ok && floatOffsetRows(d, any(src).([]float32), offs, block, red) {
		return
	}
	var buf [rowsBatch]pair
	for t := 0; t < len(offs); {
		n, read := scatterPairsOffs(buf[:], offs[t:], 0, uint(len(dst)), t*block, block)
		reduceBlocks(red, dst, src, buf[:n], block)
		t += read
	}
}

// resetApply is each for ExcludeSelf without HalfOnce or Mean, in one
// pass where each made two: it applies the updates of it, a batch at a
// time, first resetting to the identity each block that no update has
// reached before, which it marks in worker w's bitmap. A pass over the
// updates to reset their blocks and another to apply them read each
// block of dst at a random place twice (torch's W12, amax without self:
// the reset was a third of the CPU). Block b, at offset d = b*block in
// the worker's range from lo, has bit (d - lo) >> s, 2^s being the
// largest power of two within block: distinct blocks, distinct bits,
// without a division.
func (run *scatterRun) resetApply(it *pairIter, w int) {
	shift := bits.Len(uint(it.block)) - 1
	words := ((it.hi-it.lo)>>shift)/64 + 1
	seen := resize(run.seen[w], words)
	clear(seen)
	run.seen[w] = seen
	it.start()
	for ps, ok := it.next(); ok; ps, ok = it.next() {
		for i, p := range ps {
			k := uint(p.d-it.lo) >> shift
			if bit := uint64(1) << (k % 64); seen[k/64]&bit == 0 {
				seen[k/64] |= bit
				run.reset.setIdentity(ps[i : i+1])
			}
		}
		run.apply(ps)
	}
}
