package engine

// orBlocksGo is the specification of orBlocks, which amd64 has in
// assembly (orWords), and what every other build runs (purego.go): the OR
// of uint64(v - lo) over the values v of ind, whose length is a multiple
// of 8, in four independent chains. It builds everywhere, so that a test
// compares it with the assembly on amd64.
func orBlocksGo(ind []int64, lo int64) uint64 {
	var a, b, c, d uint64
	for i := 0; i+4 <= len(ind); i += 4 {
		x := ind[i : i+4 : i+4]
		a |= uint64(x[0] - lo)
		b |= uint64(x[1] - lo)
		c |= uint64(x[2] - lo)
		d |= uint64(x[3] - lo)
	}
	return a | b | c | d
}

// copyOrGo is the specification of copyOr, which amd64 runs sixteen values
// at a time in assembly (copyOrWords), and what every other build runs
// (purego.go): ind copied to dst, and the OR of its values. It builds
// everywhere, so that a test compares it with the assembly on amd64.
func copyOrGo(dst, ind []int64) uint64 {
	dst = dst[:len(ind)]
	var or uint64
	for i, v := range ind {
		dst[i] = v
		or |= uint64(v)
	}
	return or
}
