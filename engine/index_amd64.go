//go:build amd64 && !purego

package engine

import "golang.org/x/sys/cpu"

// orBlocks returns the OR of uint64(v - lo) over the values v of ind,
// whose length is a multiple of 8: four values to an AVX2 instruction
// where the processor has them, else two to an SSE2 one. Every index check
// of every call runs it, and Go has no way to ask for the vector
// instructions. (S4 checks 512 indices: ~1100 instructions with SSE2.)
func orBlocks(ind []int64, lo int64) uint64 { return orWords(ind, lo, hasAVX2) }

// hasAVX2 says that orWords takes sixteen values a round.
var hasAVX2 = cpu.X86.HasAVX2

// hasAVX512 says that the processor (and operating system) run AVX-512F:
// the halves' sort of float32 takes eight updates at a time (sortEntries).
var hasAVX512 = cpu.X86.HasAVX512F

// orWords is orBlocks, with AVX2 if avx2.
//
//go:noescape
func orWords(ind []int64, lo int64, avx2 bool) uint64

// canPlace says that small float32 sums take their indices through
// scratch.placed: with AVX2's copy, which costs less than its checks
// save.
var canPlace = cpu.X86.HasAVX2

// copyOr copies ind to dst, which has its length, and returns the OR of
// the values: of which a value is in [0, size) when size is a power of
// two, and negative when its sign is set, in the pass that copies.
// Sixteen values to an AVX2 round where the processor has them, the rest
// one at a time.
func copyOr(dst, ind []int64) uint64 {
	dst = dst[:len(ind)]
	n, or := 0, uint64(0)
	if hasAVX2 {
		n = len(ind) &^ 15
	}
	if n > 0 {
		or = copyOrWords(&dst[0], &ind[0], n)
	}
	for i := n; i < len(ind); i++ {
		dst[i] = ind[i]
		or |= uint64(ind[i])
	}
	return or
}

// copyOrWords is copyOr over n values, a multiple of 16, with AVX2.
//
//go:noescape
func copyOrWords(dst, ind *int64, n int) uint64
