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
		lims := twinLimits(dims, fromEnd)
		for _, n := range twinLengths {
			for bad := -1; bad < 3*n; bad += max(1, n/2) {
				for _, value := range []int64{-1, -3, 7, 99, -99} {
					ind := twinTuples(r, n, dims, fromEnd, bad, value)
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

// TestOffsetsPairsTwin checks that offsets2 writes the same offsets and
// stops at the same pair, or skips the same, with the assembly's four
// pairs a round (pairs) and with its Go loop alone: negative values
// counting from the end or out, a bad value (past either end, or the
// extremes of int64) in either component at every position, offsets of
// int32 and of int; and that the assembly stops at the round holding the
// bad pair.
func TestOffsetsPairsTwin(t *testing.T) {
	if !hasAVX2 {
		t.Skip("the processor has no AVX2: the assembly cannot run")
	}
	r := rand.New(rand.NewPCG(9, 10))
	dims, strides := []int{5, 7}, [2]int{9, 1} // a row of 9 holds 7
	for _, fromEnd := range []bool{false, true} {
		lims := [2]limit(twinLimits(dims, fromEnd))
		for _, n := range twinLengths {
			for bad := -1; bad < 2*n; bad += max(1, n/3) {
				for _, value := range append([]int64{-6, 5, 7, -8}, badValues...) {
					ind := twinTuples(r, n, dims, fromEnd, bad, value)
					checkPairsTwin[int32](t, ind, lims, strides, bad, value)
					checkPairsTwin[int](t, ind, lims, strides, bad, value)
					if bad < 0 {
						break
					}
				}
			}
		}
	}
}

func checkPairsTwin[O int32 | int](t *testing.T, ind []int64, lims [2]limit, strides [2]int, bad int, value int64) {
	t.Helper()
	n := len(ind) / 2
	for _, skip := range []bool{false, true} {
		asm, twin := make([]O, n), make([]O, n)
		ka := offsets2(asm, ind, lims[0], lims[1], strides[0], strides[1], skip)
		hasAVX2 = false
		kt := offsets2(twin, ind, lims[0], lims[1], strides[0], strides[1], skip)
		hasAVX2 = true
		if ka != kt || !slices.Equal(asm[:ka], twin[:kt]) {
			t.Fatalf("%T, %d pairs, skip %v, bad %d = %d: stopped at %d with the assembly, %d without; offsets %v, %v",
				asm, n, skip, bad, value, ka, kt, asm, twin)
		}
	}
	got := offsetsPairs(make([]O, n), ind, lims[0], lims[1], strides[0], strides[1])
	want := n &^ 3
	for k := range n {
		if _, ok := lims[0].pos(ind[2*k]); !ok {
			want = min(want, k&^3)
		}
		if _, ok := lims[1].pos(ind[2*k+1]); !ok {
			want = min(want, k&^3)
		}
	}
	if n < 4 {
		want = 0
	}
	if got != want {
		t.Fatalf("%d pairs, bad %d = %d: the assembly set %d, want %d", n, bad, value, got, want)
	}
}

// twinLimits returns the limits of tuples' components of the given
// sizes, negative values counting from the end or refused.
func twinLimits(dims []int, fromEnd bool) []limit {
	lims := make([]limit, len(dims))
	for i, d := range dims {
		lims[i] = limit{size: d}
		if fromEnd {
			lims[i].fromEnd = int64(d)
		}
	}
	return lims
}

// twinTuples returns n tuples of len(dims) components, each in [-d, d)
// for its size d where negative values count from the end (else in [0,
// d)), with the value at bad (if bad >= 0) replaced by value.
func twinTuples(r *rand.Rand, n int, dims []int, fromEnd bool, bad int, value int64) []int64 {
	ind := make([]int64, len(dims)*n)
	for i := range ind {
		d := int64(dims[i%len(dims)])
		ind[i] = r.Int64N(2*d) - d
		if !fromEnd && ind[i] < 0 {
			ind[i] = -ind[i] - 1
		}
	}
	if bad >= 0 {
		ind[bad] = value
	}
	return ind
}
