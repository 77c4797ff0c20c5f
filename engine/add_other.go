package engine

// addFloatRowsGo is the specification of addFloatRows, which amd64 has in
// assembly (addFloats), and what every other build runs (purego.go):
// updates in rows of last, row r into dst[r*size:(r+1)*size], each added
// to the element at its index, in order, up to the first index outside
// [0, size); it returns how many it added. A sum that is NaN is the one
// the assembly's ADDSS makes (add, the engine's rule: nan.go), which Go's
// + leaves open. It builds everywhere, so that a test compares it with
// the assembly on amd64.
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
		dst[base+int(v)] = add(dst[base+int(v)], upd[k])
	}
	return len(idx)
}

// addEntryFloatsGo is the specification of addEntryFloats, which amd64
// has in assembly (addEntries), and what every other build runs: each
// entry's update added to its element of dst, in order, a NaN sum as
// ADDSS makes it (add).
func addEntryFloatsGo(dst []float32, es []entry[float32]) {
	for _, e := range es {
		dst[e.off] = add(dst[e.off], e.v)
	}
}

// addPlacedGo is the specification of addPlaced, which amd64 has in
// assembly (addFloatsAt), and what every other build runs (purego.go):
// upd[k] added to dst[r*size + pos[k]] for every k, in order, r being
// k/last, the positions all in [0, size); a sum that is NaN is the one
// ADDSS makes (add). It builds everywhere, so that a test compares it
// with the assembly on amd64.
func addPlacedGo(dst []float32, size int, pos []int64, last int, upd []float32) {
	upd = upd[:len(pos)]
	for k, p := range pos {
		d := k/last*size + int(p)
		dst[d] = add(dst[d], upd[k])
	}
}
