//go:build !amd64

package engine

import "unsafe"

// canGather says that gatherIn32 and gatherIn64 run: only on amd64.
var canGather = false

func gatherIn32(out, row unsafe.Pointer, size uint64, idx *int64, n int) int { return 0 }

func gatherIn64(out, row unsafe.Pointer, size uint64, idx *int64, n int) int { return 0 }
