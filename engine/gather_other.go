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

// pairElemsGo is the specification of gatherPairElems, which amd64 has in
// assembly: out[t] set, for t from 0 while t < n, to src's element at the
// offset of the tuple of two index values at ind + 16t, each wrapped and
// checked against its limit and times its stride; elements of 4 bytes (8
// if wide). It returns the first t whose tuple lies outside the limits,
// or n. Builds without the assembly never call it (canPairElems is false
// there), but it builds everywhere, so that a test compares it with the
// assembly on amd64.
func pairElemsGo(out, src unsafe.Pointer, ind *int64, n int, lims *limit, strides *int, wide bool) int {
	if n == 0 {
		return 0
	}
	tuples := unsafe.Slice(ind, 2*n)
	l := unsafe.Slice(lims, 2)
	st := unsafe.Slice(strides, 2)
	for t := range n {
		p0, ok0 := l[0].pos(tuples[2*t])
		p1, ok1 := l[1].pos(tuples[2*t+1])
		if !ok0 || !ok1 {
			return t
		}
		d := uintptr(p0*st[0] + p1*st[1])
		if wide {
			*(*uint64)(unsafe.Add(out, 8*t)) = *(*uint64)(unsafe.Add(src, 8*d))
		} else {
			*(*uint32)(unsafe.Add(out, 4*t)) = *(*uint32)(unsafe.Add(src, 4*d))
		}
	}
	return n
}
