//go:build amd64 && !purego

package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOffsetsTriplesTwin checks that the assembly of offsetsTriples and
// its Go twin, offsets3 without skip, write the same offsets and stop at
// the same triple: every component in range, negative ones counting from
// the end or out, and a bad value (out of range either way) in each
// component at every position.
func TestOffsetsTriplesTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	dims := []int{2, 5, 7}
	strides := []int{35, 7, 1}
	for _, fromEnd := range []bool{false, true} {
		lims := make([]limit, 3)
		for i, d := range dims {
			lims[i] = limit{size: d}
			if fromEnd {
				lims[i].fromEnd = int64(d)
			}
		}
		for _, n := range twinLengths {
			for bad := -1; bad < 3*n; bad += max(1, n/2) {
				for _, value := range []int64{-1, -3, 7, 99, -99} {
					ind := make([]int64, 3*n)
					for i := range ind {
						d := int64(dims[i%3])
						ind[i] = r.Int64N(2*d) - d // in [-d, d): negative ones too
						if !fromEnd && ind[i] < 0 {
							ind[i] = -ind[i] - 1
						}
					}
					if bad >= 0 {
						ind[bad] = value
					}
					asm, twin := make([]int32, n), make([]int32, n)
					ka := offsetsTriples(asm, ind, lims, strides)
					kt := offsets3(twin, ind, lims, strides, false)
					if ka != kt || !slices.Equal(asm[:ka], twin[:kt]) {
						t.Fatalf("fromEnd %v, %d triples, bad %d = %d: assembly stopped at %d, twin at %d; offsets %v, %v",
							fromEnd, n, bad, value, ka, kt, asm, twin)
					}
					if bad < 0 {
						break
					}
				}
			}
		}
	}
}
