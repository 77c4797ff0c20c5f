//go:build !amd64

package engine

import "unsafe"

// canGather says that gatherRows32 and gatherRows64 run: only on amd64.
var canGather = false

func gatherRows32(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int) int {
	return 0
}

func gatherRows64(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int) int {
	return 0
}
