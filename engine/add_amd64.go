//go:build amd64 && !purego

package engine

// addFloatRows is the loop of addInRange and addFlat for float32, in
// assembly (addFloats): updates in rows of last, row r into
// dst[r*size:(r+1)*size], each added to the element at its index, in
// order, up to the first index outside [0, size); it returns how many it
// added. Go's loop spent ten instructions an update, half of them on
// bounds the range test had checked (docs/measurements.md has the
// times).
func addFloatRows(dst []float32, size int, idx []int64, last int, upd []float32) int {
	n := len(idx)
	if n == 0 || size <= 0 || last <= 0 {
		return 0
	}
	rows := 1 // no division for one row (S6)
	if last < n {
		rows = (n + last - 1) / last
	}
	// The rows the updates reach, and the updates: slicing panics, as
	// Go's indexing would, before the assembly could overrun them.
	dst, upd = dst[:rows*size], upd[:n]
	return addFloats(&dst[0], uint64(size), &idx[0], &upd[0], n, last, hasAVX2)
}

// addFloats is addFloatRows over n indices and updates at idx and upd and
// the rows of size elements at dst; with avx2 it checks eight indices at
// a time with AVX2.
//
//go:noescape
func addFloats(dst *float32, size uint64, idx *int64, upd *float32, n, last int, avx2 bool) int

// addPlaced adds upd[k] to dst[r*size + pos[k]] for every k, in order,
// r being k/last (rows of last positions, row r into dst's row r of size
// elements; one row of all of them for single elements), in assembly
// (addFloatsAt), without checking the positions: scratch.placed's, a copy
// of the indices that it has checked, each in [0, size), and no one else
// can change. Eight a round without a check take 4.4 instructions an
// update where addFloats' checked rounds take 5.9.
func addPlaced(dst []float32, size int, pos []int64, last int, upd []float32) {
	n := len(pos)
	if n == 0 || last <= 0 {
		return
	}
	// The rows the positions reach, and the updates: slicing panics, as
	// Go's indexing would, before the assembly could overrun them.
	rows := 1
	if last < n {
		rows = n / last
	}
	dst, upd = dst[:rows*size], upd[:n]
	addFloatsAt(&dst[0], size, &pos[0], &upd[0], n, last)
}

// addFloatsAt is addPlaced over n positions and updates at pos and upd,
// in rows of last, and the rows of size elements at dst.
//
//go:noescape
func addFloatsAt(dst *float32, size int, pos *int64, upd *float32, n, last int)

// addEntryFloats is applyEntries' loop for float32 sums, in assembly
// (addEntries), which asks for the element of an entry sixteen ahead
// while it adds the current one. Each entry's offset lies in dst: it was
// checked when sortHalves made the entry, so it is not checked again.
func addEntryFloats(dst []float32, es []entry[float32]) {
	if len(es) == 0 {
		return
	}
	_ = dst[0] // Go's panic, for a dst no entry could address
	addEntries(&dst[0], &es[0], len(es))
}

// addEntries is addEntryFloats' loop over the n entries at es.
//
//go:noescape
func addEntries(dst *float32, es *entry[float32], n int)

// sortFloatHalves is sortHalves for float32, in assembly (sortEntries):
// each entry one quadword store to each bucket, with no bounds check,
// where Go's loop stored its two halves apart and spilled the index; where
// the processor has AVX-512, eight updates a round, each bucket's entries
// packed together and stored at once (some eighteen instructions an
// update one at a time). The buckets must hold len(ind)+1 entries, and
// upd len(ind) updates:
// slicing panics, as Go's indexing would, before the assembly could
// overrun them.
func sortFloatHalves(b0, b1 []entry[float32], ind []int64, upd []float32, split int) (n0, n1 int, most uint64) {
	if len(ind) == 0 {
		return 0, 0, 0
	}
	b0, b1, upd = b0[:len(ind)+1], b1[:len(ind)+1], upd[:len(ind)]
	return sortEntries(&b0[0], &b1[0], &ind[0], &upd[0], len(ind), split, hasAVX512)
}

// sortEntries is sortFloatHalves over the n updates at ind and upd; with
// wide eight at a time with AVX-512.
//
//go:noescape
func sortEntries(b0, b1 *entry[float32], ind *int64, upd *float32, n, split int, wide bool) (n0, n1 int, most uint64)
