package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestOrDistances checks orDistances, whose blocks of eight values run in
// assembly on amd64 (sixteen at a time with AVX2, eight without: both
// run), against a plain loop: every length from 0 to 40 (no block, blocks
// and a rest), values that set each bit, the extremes of int64, and a lo
// that wraps the subtraction.
func TestOrDistances(t *testing.T) {
	eachVector(t, testOrDistances)
}

// eachVector runs test with the vector instructions orBlocks may use on
// and off (on only where the processor has them).
func eachVector(t *testing.T, test func(t *testing.T)) {
	defer func(on bool) { hasAVX2 = on }(hasAVX2)
	for _, on := range []bool{false, true} {
		if on && !cpu.X86.HasAVX2 {
			continue
		}
		hasAVX2 = on
		t.Run(fmt.Sprintf("avx2=%v", on), test)
	}
}

func testOrDistances(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, lo := range []int64{0, -64, -1024, 7, math.MinInt64, math.MaxInt64} {
		for n := range 41 {
			ind := make([]int64, n)
			for i := range ind {
				switch rng.IntN(4) {
				case 0:
					ind[i] = int64(1) << rng.IntN(63)
				case 1:
					ind[i] = [...]int64{math.MinInt64, math.MaxInt64, -1, 0}[rng.IntN(4)]
				default:
					ind[i] = rng.Int64N(2048) - 1024
				}
			}
			var want uint64
			for _, v := range ind {
				want |= uint64(v - lo)
			}
			if got := orDistances(ind, lo); got != want {
				t.Errorf("orDistances(%v, %d) = %#x, want %#x", ind, lo, got, want)
			}
		}
	}
}

// TestOrDistancesEachPosition puts a single distinct value at each
// position of 40 otherwise equal ones, so that a block or a lane left out
// of the OR is seen.
func TestOrDistancesEachPosition(t *testing.T) {
	eachVector(t, testOrDistancesEachPosition)
}

func testOrDistancesEachPosition(t *testing.T) {
	for i := range 40 {
		ind := make([]int64, 40)
		ind[i] = 1 << 40
		if got, want := orDistances(ind, -3), uint64(1<<40+3); got != want {
			t.Errorf("value at %d: orDistances = %#x, want %#x", i, got, want)
		}
	}
}
