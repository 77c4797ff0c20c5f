package engine

// orBlocks returns the OR of uint64(v - lo) over the values v of ind,
// whose length is a multiple of 8, two values to an SSE2 instruction:
// every index check of every call runs it, and Go has no way to ask for
// the vector instructions.
//
//go:noescape
func orBlocks(ind []int64, lo int64) uint64
