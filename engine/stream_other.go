package engine

import "unsafe"

// copyStreamingGo is the specification of copyStreaming, which amd64 has
// in assembly with non-temporal stores: it copies n bytes from src to dst.
// Every other build runs it (purego.go), though the movers never ask it to
// there (canStream is false). It builds everywhere, so that a test
// compares it with the assembly on amd64. prefetchL1, prefetchL2 and
// storeFence compute nothing: their twins are empty (purego.go).
func copyStreamingGo(dst, src unsafe.Pointer, n uintptr) { copyBytes(dst, src, n) }
