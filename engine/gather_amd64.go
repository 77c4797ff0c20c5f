package engine

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// canGather says that gatherIn32 and gatherIn64 run: they take eight
// indices at a time with AVX-512's gathers, where the processor has them.
// GatherElements along a row (W7) spends most of its time in gatherRow's
// loop, one index at a time; Go has no way to ask for these instructions.
var canGather = cpu.X86.HasAVX512F

// gatherIn32 sets out[j] = row[idx[j]] for 4-byte elements, eight j at a
// time from j = 0, while all eight indices lie in [0, size), and returns
// how many it set: a multiple of 8, at most n.
//
//go:noescape
func gatherIn32(out, row unsafe.Pointer, size uint64, idx *int64, n int) int

// gatherIn64 is gatherIn32 for 8-byte elements.
//
//go:noescape
func gatherIn64(out, row unsafe.Pointer, size uint64, idx *int64, n int) int
