//go:build !amd64

package engine

import "unsafe"

// canStream says that copyStreaming writes around the cache; on this
// architecture it does not, and the movers never ask it to.
const canStream = false

func prefetchBytes(p unsafe.Pointer, n uintptr) {}

func copyStreaming(dst, src unsafe.Pointer, n uintptr) {
	copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
}

func storeFence() {}
