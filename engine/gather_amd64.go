//go:build amd64 && !purego

package engine

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// canGather says that gatherRows runs: it takes eight indices at a time
// with AVX-512's gathers, where the processor has them. GatherElements
// spends most of its time in loops that take one index at a time
// (gatherRow, gatherFlat); Go has no way to ask for these instructions.
var canGather = cpu.X86.HasAVX512F

// gatherRows sets out[j] = src[r*dstep + idx[j]] for elements of 4 bytes
// (8 if wide), r being j/last, eight j at a time from j = 0, while all
// eight indices lie in [0, size), and returns how many it set, at most n.
// dstep is in bytes; last and n are multiples of 8.
//
//go:noescape
func gatherRows(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int, wide bool) int
