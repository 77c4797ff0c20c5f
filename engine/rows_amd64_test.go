//go:build amd64 && !purego

package engine

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFloatRowsTwin checks that the assembly of floatRows and its Go twin
// reduce the same rows to the same bits, NaNs of every payload, ±0 and
// infinities among them (Inf + -Inf makes the rule's NaN), for the
// reductions it takes and for blocks around its eight elements an
// instruction; the pairs come in a random order, with repeats, more of
// them than it prefetches ahead.
func TestFloatRowsTwin(t *testing.T) {
	if !hasAVX {
		t.Skip("no AVX")
	}
	r := rand.New(rand.NewPCG(24, 8))
	special := []float32{float32(math.NaN()), math.Float32frombits(0x7fc00003), math.Float32frombits(0xffc00005),
		math.Float32frombits(0x7f800001), // signalling: the assembly quiets it as Go's rule does
		float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.Inf(-1)), 1}
	value := func() float32 {
		if r.IntN(4) == 0 {
			return special[r.IntN(len(special))]
		}
		return r.Float32()*8 - 4
	}
	for _, red := range []Reduction{Add, maxUpdate, minUpdate, maxLast, minLast} {
		for _, block := range []int{1, 3, 7, 8, 9, 15, 16, 17, 24, 33} {
			for _, n := range []int{0, 1, 8, 9, 40} {
				const rows = 6
				dst := make([]float32, rows*block)
				src := make([]float32, 2*n*block)
				for i := range dst {
					dst[i] = value()
				}
				for i := range src {
					src[i] = value()
				}
				ps := make([]pair, n)
				for i := range ps {
					ps[i] = pair{r.IntN(rows) * block, r.IntN(2*n) * block}
				}
				asm, twin := slices.Clone(dst), slices.Clone(dst)
				if !floatRows(asm, src, ps, block, red) || !floatRowsGo(twin, src, ps, block, red) {
					t.Fatalf("%v: not taken", red)
				}
				for i := range asm {
					if math.Float32bits(asm[i]) != math.Float32bits(twin[i]) {
						t.Fatalf("%v, block %d, %d pairs: element %d is %#x by the assembly, %#x by the twin",
							red, block, n, i, math.Float32bits(asm[i]), math.Float32bits(twin[i]))
					}
				}
			}
		}
	}
	if floatRows(make([]float32, 4), make([]float32, 4), []pair{{0, 0}}, 4, Max) {
		t.Error("floatRows took Max, which its assembly does not compute")
	}
}
