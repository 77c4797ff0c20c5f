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

// orWords is orBlocks, with AVX2 if avx2.
//
//go:noescape
func orWords(ind []int64, lo int64, avx2 bool) uint64
