//go:build amd64 && !purego

package engine

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// placeRows copies row t of src, bytes bytes at src + t*bytes, to dst +
// offs[t]*esize for each t in [0, n), in order, skipping an offset of -1;
// bytes is a positive multiple of 16; with avx it moves 128 bytes a step
// with AVX. S2's eight rows of 128 bytes took 94 instructions a row
// through copy and runtime.memmove, 36 here with SSE moves and 23 with
// AVX's (whole steps of 128 bytes). The caller vouches that every row lands within dst and src (see
// wordMover.scatterOffsets): the assembly checks no bounds.
//
//go:noescape
func placeRows(dst unsafe.Pointer, esize uintptr, offs *int32, n int, src unsafe.Pointer, bytes uintptr, avx bool)

// placeAVX says that placeRows may move 128 bytes a step with AVX.
var placeAVX = cpu.X86.HasAVX
