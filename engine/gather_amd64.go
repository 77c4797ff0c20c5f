//go:build amd64 && !purego

package engine

import "unsafe"

// canGather says that gatherRows runs: the strategy asks for the AVX-512
// gather and the processor has it.
var canGather = hasGather && strategy.Gather

// gatherRows sets out[j] = src[r*dstep + idx[j]] for elements of 4 bytes
// (8 if wide), r being j/last, eight j at a time from j = 0, while all
// eight indices lie in [0, size), and returns how many it set, at most n.
// dstep is in bytes; last and n are multiples of 8. It takes eight
// indices an instruction with AVX-512's gathers; the callers run it only
// where the processor has them and the strategy asks for them
// (canGather). Go has no way to ask for these instructions.
//
//go:noescape
func gatherRows(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int, wide bool) int
