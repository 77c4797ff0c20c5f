package engine

// addFloatRowsGo is the specification of addFloatRows, which amd64 has in
// assembly (addFloats), and what every other build runs (purego.go):
// updates in rows of last, row r into dst[r*size:(r+1)*size], each added
// to the element at its index, in order, up to the first index outside
// [0, size); it returns how many it added. It builds everywhere, so that
// a test compares it with the assembly on amd64.
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
		dst[base+int(v)] += upd[k]
	}
	return len(idx)
}
