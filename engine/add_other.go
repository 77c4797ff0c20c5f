package engine

import "math"

// addFloatRowsGo is the specification of addFloatRows, which amd64 has in
// assembly (addFloats), and what every other build runs (purego.go):
// updates in rows of last, row r into dst[r*size:(r+1)*size], each added
// to the element at its index, in order, up to the first index outside
// [0, size); it returns how many it added. A sum that is NaN is the one
// the assembly's ADDSS makes (addNaN), which Go's + leaves open. It builds
// everywhere, so that a test compares it with the assembly on amd64.
func addFloatRowsGo(dst []float32, size int, idx []int64, last int, upd []float32) int {
	upd = upd[:len(idx)]
	base, next := 0, last
	for k, v := range idx {
		if k == next {
			base, next = base+size, next+last
		}
		if uint64(v) >= uint64(size) {
			return k
		}
		x := dst[base+int(v)]
		s := x + upd[k]
		if s != s {
			s = addNaN(x, upd[k])
		}
		dst[base+int(v)] = s
	}
	return len(idx)
}

// addEntryFloatsGo is the specification of addEntryFloats, which amd64
// has in assembly (addEntries), and what every other build runs: each
// entry's update added to its element of dst, in order, a NaN sum as
// ADDSS makes it (addNaN).
func addEntryFloatsGo(dst []float32, es []halfEntry[float32]) {
	for _, e := range es {
		x := dst[e.off]
		s := x + e.u
		if s != s {
			s = addNaN(x, e.u)
		}
		dst[e.off] = s
	}
}

// addNaN is the NaN that x86's ADDSS makes of x + u when the sum is NaN:
// x's if x is a NaN, else u's, either quieted; else (an infinity added to
// its opposite) the negative quiet NaN. Go leaves which NaN open: arm64
// keeps the payload of whichever operand the compiler put first, and makes
// the positive quiet NaN of infinities.
func addNaN(x, u float32) float32 {
	const quiet = 1 << 22
	switch {
	case x != x:
		return math.Float32frombits(math.Float32bits(x) | quiet)
	case u != u:
		return math.Float32frombits(math.Float32bits(u) | quiet)
	}
	return math.Float32frombits(0xffc00000)
}

// addPlacedGo is the specification of addPlaced, which amd64 has in
// assembly (addFloatsAt), and what every other build runs (purego.go):
// upd[k] added to dst[pos[k]] for every k, in order, the positions all in
// range; a sum that is NaN is the one ADDSS makes (addNaN). It builds
// everywhere, so that a test compares it with the assembly on amd64.
func addPlacedGo(dst []float32, pos []int64, upd []float32) {
	upd = upd[:len(pos)]
	for k, p := range pos {
		x := dst[p]
		s := x + upd[k]
		if s != s {
			s = addNaN(x, upd[k])
		}
		dst[p] = s
	}
}
