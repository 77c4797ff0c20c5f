//go:build amd64 && !purego

package engine

import "unsafe"

// placeRows copies row t of src, bytes bytes at src + t*bytes, to dst +
// offs[t]*esize for each t in [0, n), in order, skipping an offset of -1;
// bytes is a positive multiple of 16. S2's eight rows of 128 bytes took
// 94 instructions a row through copy and runtime.memmove, 21 here. The
// caller vouches that every row lands within dst and src (see
// wordMover.scatterOffsets): the assembly checks no bounds.
//
//go:noescape
func placeRows(dst unsafe.Pointer, esize uintptr, offs *int32, n int, src unsafe.Pointer, bytes uintptr)
