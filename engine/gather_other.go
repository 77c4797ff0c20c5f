package engine

import "unsafe"

// gatherRowsGo is the specification of gatherRows, which amd64 has in
// assembly with AVX-512's gathers: it sets out[j] = src[r*dstep + idx[j]]
// for elements of 4 bytes (8 if wide), r being j/last, eight j at a time
// from j = 0, while all eight indices lie in [0, size), and returns how
// many it set, at most n. dstep is in bytes; last and n are multiples of
// 8. Builds without the assembly never call it (canGather is false there:
// the callers' loops take every index), but it builds everywhere, so that
// a test compares it with the assembly on amd64.
func gatherRowsGo(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int, wide bool) int {
	if n == 0 {
		return 0
	}
	ind := unsafe.Slice(idx, n)
	row := src
	for j := 0; j < n; j += 8 {
		if j > 0 && j%last == 0 {
			row = unsafe.Add(row, dstep)
		}
		block := ind[j : j+8]
		for _, v := range block {
			if uint64(v) >= size {
				return j
			}
		}
		for k, v := range block {
			if wide {
				*(*uint64)(unsafe.Add(out, (j+k)*8)) = *(*uint64)(unsafe.Add(row, uintptr(v)*8))
			} else {
				*(*uint32)(unsafe.Add(out, (j+k)*4)) = *(*uint32)(unsafe.Add(row, uintptr(v)*4))
			}
		}
	}
	return n
}

// movePairsGo is the specification of movePairs4or8, which amd64 has in
// assembly (movePairsAhead), and what every other build runs (purego.go):
// each pair in order, dst[p.d] set to src[p.s], or to zero where p.s is
// negative. It builds everywhere, so that a test compares it with the
// assembly on amd64.
func movePairsGo[E any](dst, src []E, ps []pair) {
	var zero E
	for _, p := range ps {
		if p.s < 0 {
			dst[p.d] = zero
		} else {
			dst[p.d] = src[p.s]
		}
	}
}
