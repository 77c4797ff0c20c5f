package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAddKernels holds the Add loops whose fast paths take indices in
// [0, size) two at a time and leave the others to a slower loop (addLine
// over one line; addFlat and addFlatChecked over rows of last indices,
// each row into its own row of dst) to a loop that wraps every index:
// negative indices counting from the end or not, out-of-range ones
// skipped or reported, alone and in runs, anywhere in a row, rows of odd
// and even length.
func TestAddKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const size = 37
	for i := 0; i < 3000; i++ {
		rows, last := 1, rng.IntN(200)
		kernel := rng.IntN(3)
		if kernel > 0 {
			rows, last = 1+rng.IntN(8), rng.IntN(12)
		}
		n := rows * last
		idx := make([]int64, n)
		upd := make([]float64, n)
		outside := rng.Float64() * rng.Float64() // the share of indices outside [0, size)
		for k := range idx {
			idx[k] = rng.Int64N(size)
			if rng.Float64() < outside {
				idx[k] = rng.Int64N(4*size) - 2*size
			}
			upd[k] = float64(k + 1)
		}
		fromEnd := int64(rng.IntN(2)) * size
		skip := kernel == 1 || kernel == 0 && rng.IntN(2) == 0
		at := rng.IntN(100)
		dst, want := make([]float64, rows*size), make([]float64, rows*size)
		for p := range dst {
			dst[p] = float64(1000 * p)
		}
		copy(want, dst)
		wantBad := -1
		for k, v := range idx {
			if v < 0 {
				v += fromEnd
			}
			if v < 0 || v >= size {
				if skip {
					continue
				}
				wantBad = at + k
				break
			}
			want[k/last*size+int(v)] += upd[k]
		}
		var bad int
		switch kernel {
		case 0:
			bad = addLine(dst, idx, upd, fromEnd, skip, at)
		case 1:
			addFlat(dst, size, idx, last, upd, fromEnd)
			bad = -1
		case 2:
			bad = addFlatChecked(dst, size, idx, last, upd, fromEnd, at)
		}
		if bad != wantBad || !slices.Equal(dst, want) {
			t.Fatalf("kernel %d, rows of %d, indices %v (fromEnd %d, skip %v): got %v, bad %d; want %v, bad %d",
				kernel, last, idx, fromEnd, skip, dst, bad, want, wantBad)
		}
	}
}
