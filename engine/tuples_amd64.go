//go:build amd64 && !purego

package engine

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
