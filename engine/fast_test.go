package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAddLine holds addLine, whose fast loop stops at every index outside
// [0, size), to a loop that wraps each index: negative indices counting
// from the end or not, out-of-range ones skipped or reported, in runs and
// alone, at the start, the middle and the end of a line.
func TestAddLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const size = 37
	for i := 0; i < 2000; i++ {
		n := rng.IntN(200)
		idx := make([]int64, n)
		upd := make([]float64, n)
		outside := rng.Float64() // the share of indices outside [0, size)
		for k := range idx {
			idx[k] = rng.Int64N(size)
			if rng.Float64() < outside {
				idx[k] = rng.Int64N(4*size) - 2*size
			}
			upd[k] = float64(k + 1)
		}
		fromEnd := int64(rng.IntN(2)) * size
		skip := rng.IntN(2) == 0
		at := rng.IntN(100)
		dst, want := make([]float64, size), make([]float64, size)
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
			want[v] += upd[k]
		}
		if bad := addLine(dst, idx, upd, fromEnd, skip, at); bad != wantBad || !slices.Equal(dst, want) {
			t.Fatalf("indices %v (fromEnd %d, skip %v): got %v, bad %d; want %v, bad %d", idx, fromEnd, skip, dst, bad, want, wantBad)
		}
	}
}
