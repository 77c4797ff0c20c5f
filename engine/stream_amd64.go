//go:build amd64 && !purego

package engine

import "unsafe"

// canStream says that copyStreaming writes around the cache (see
// stream.go).
const canStream = true

// prefetchL1 asks for the n bytes at p to be brought into the core's
// nearest cache (PREFETCHT0), a line of 64 bytes at a time, without
// waiting for them: for lines a loop will read and write a few steps on
// (a block of dst that a reduction is about to update).
func prefetchL1(p unsafe.Pointer, n uintptr) { prefetchLines(p, n, false) }

// prefetchL2 asks for the n bytes at p to be brought into the L2
// (PREFETCHT1): for lines a loop will only read, asked for far ahead (the
// rows of a table past the cache), whose misses then take the L2's slots
// for misses under way, which are many, rather than the L1's, which are
// few and which the loop's own loads need.
func prefetchL2(p unsafe.Pointer, n uintptr) { prefetchLines(p, n, true) }

// prefetchLines is prefetchL1, or prefetchL2 if l2.
//
//go:noescape
func prefetchLines(p unsafe.Pointer, n uintptr, l2 bool)

// copyStreaming copies n bytes, a multiple of 64, from src to dst, which
// must be 16-byte aligned (MOVNTDQ faults otherwise), with non-temporal
// stores: the lines of dst are written to memory without being read into
// the cache first. storeFence must follow before the bytes are read.
//
//go:noescape
func copyStreaming(dst, src unsafe.Pointer, n uintptr)

// storeFence orders the non-temporal stores before it before every store
// after it.
func storeFence()
