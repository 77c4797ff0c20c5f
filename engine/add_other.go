//go:build !amd64

package engine

// addFloatRows is the loop of addInRange and addFlat for float32:
// updates in rows of last, row r into dst[r*size:(r+1)*size], each added
// to the element at its index, in order, up to the first index outside
// [0, size); it returns how many it added. amd64 has it in assembly.
func addFloatRows(dst []float32, size int, idx []int64, last int, upd []float32) int {
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
