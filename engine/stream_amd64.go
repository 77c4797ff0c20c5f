//go:build amd64 && !purego

package engine

import "unsafe"

// canStream says that copyStreaming writes around the cache (see
// stream.go).
const canStream = true

// prefetchBytes asks for the n bytes at p to be brought into the cache,
// a line of 64 bytes at a time, without waiting for them.
//
//go:noescape
func prefetchBytes(p unsafe.Pointer, n uintptr)

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
