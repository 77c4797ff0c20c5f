//go:build amd64 && !purego

package engine

import "unsafe"

// canGather says that gatherRows runs: the strategy asks for the AVX-512
// gather and the processor has it.
var canGather = hasGather && strategy.Gather

// gatherRows sets out[j] = src[r*dstep + idx[j]] for elements of 4 bytes
// (8 if wide), r being j/last, eight j at a time from j = 0, while all
// eight indices lie in [0, size), and returns how many it set, at most n.
// dstep is in bytes; last and n are multiples of 8. It takes eight
// indices an instruction with AVX-512's gathers; the callers run it only
// where the processor has them and the strategy asks for them
// (canGather). With stream it stores with non-temporal stores, out being
// aligned to 32 bytes (64 if wide), and storeFence must follow. Go has no
// way to ask for these instructions.
//
//go:noescape
func gatherRows(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int, wide, stream bool) int

// movePairs4or8 is moveElements' loop for elements of 4 or 8 bytes (see
// movePairsGo), in assembly (movePairsAhead), which asks for src's element
// of the pair ahead pairs on before it moves the current one. It reports
// false, having done nothing, for elements of another size. Every pair
// must address an element of dst and, unless its s is negative, of src:
// the check panics, as Go's indexing would, before the assembly could
// overrun them.
func movePairs4or8[E any](dst, src []E, ps []pair, ahead int) bool {
	var zero E
	size := unsafe.Sizeof(zero)
	if size != 4 && size != 8 {
		return false
	}
	if len(ps) == 0 {
		return true
	}
	checkPairs(len(dst), len(src), ps)
	var s unsafe.Pointer
	if len(src) > 0 {
		s = unsafe.Pointer(&src[0])
	}
	movePairsAhead(unsafe.Pointer(&dst[0]), s, &ps[0], len(ps), ahead, size == 8)
	return true
}

// movePairsAhead is movePairs4or8 over the n pairs at ps.
//
//go:noescape
func movePairsAhead(dst, src unsafe.Pointer, ps *pair, n, ahead int, wide bool)

// checkPairs panics unless every pair addresses an element of dst's dlen
// and, unless its s is negative, of src's slen.
func checkPairs(dlen, slen int, ps []pair) {
	for _, p := range ps {
		if uint(p.d) >= uint(dlen) || p.s >= slen {
			blockPanic(dlen, slen, p, 1)
		}
	}
}

// canPairElems says that gatherPairElems runs: with the assembly.
const canPairElems = true

// gatherPairElems sets out[t], for t from 0 while t < n, to src's element
// at the offset of the tuple of two index values at ind + 16t, each
// wrapped and checked against its limit (lims[0], lims[1]) and times its
// stride (strides[0], strides[1]); elements of 4 bytes (8 if wide). It
// returns the first t whose tuple lies outside the limits, or n. It asks
// for the element of the tuple ahead tuples on before it moves the
// current one, as movePairsAhead does, but makes the offsets as it goes
// rather than reading them from pairs (see pairElemsGo).
//
//go:noescape
func gatherPairElems(out, src unsafe.Pointer, ind *int64, n int, lims *limit, strides *int, ahead int, wide bool) int
