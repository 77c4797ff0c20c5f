//go:build !amd64

package engine

import "unsafe"

// canGather says that gatherRows runs: only on amd64.
var canGather = false

// gatherRows sets none (canGather is false): the callers' loops take
// every index.
func gatherRows(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int, wide bool) int {
	return 0
}
