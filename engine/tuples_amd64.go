//go:build amd64 && !purego

package engine

import "unsafe"

// offsetsTriples is offsets3 without skip, in assembly (triples): the
// offsets of a KV-cache write's (batch, head, position) triples, each
// component wrapped and checked against its limit, up to the first triple
// outside them, whose position it returns (len(offs) if none). Go's loop
// took 46 instructions a triple, the assembly 31.
func offsetsTriples(offs []int32, ind []int64, lims []limit, strides []int) int {
	if len(offs) == 0 {
		return 0
	}
	// Slicing panics, as Go's indexing would, before the assembly could
	// overrun.
	ind, lims, strides = ind[:3*len(offs)], lims[:3], strides[:3]
	return triples(&offs[0], &ind[0], len(offs), &lims[0], &strides[0])
}

// triples is offsetsTriples over n triples at ind into offs.
//
//go:noescape
func triples(offs *int32, ind *int64, n int, lims *limit, strides *int) int

// offsetsPairs sets the offsets of the pairs of index values at the
// start of ind, as offsets2 does, four at a time in assembly (pairs)
// where the processor has AVX2 and the limits' sizes and the strides are
// below 2^32 (each component then multiplies in 32 bits), up to the first
// four holding a pair outside the limits; it returns how many it set,
// whose offsets offsets2 takes on from.
func offsetsPairs[O int32 | int](offs []O, ind []int64, l0, l1 limit, s0, s1 int) int {
	if !hasAVX2 || len(offs) < 4 || uint64(l0.size)|uint64(l1.size)|uint64(s0)|uint64(s1) >= 1<<32 {
		return 0
	}
	// Slicing panics, as Go's indexing would, before the assembly could
	// overrun.
	ind = ind[:2*len(offs)]
	lims, strides := [2]limit{l0, l1}, [2]int{s0, s1}
	var zero O
	return pairs(unsafe.Pointer(&offs[0]), &ind[0], len(offs), &lims[0], &strides[0], unsafe.Sizeof(zero) == 8)
}

// pairs is offsetsPairs over n pairs at ind into offs, of int32 (int if
// wide).
//
//go:noescape
func pairs(offs unsafe.Pointer, ind *int64, n int, lims *limit, strides *int, wide bool) int
