//go:build amd64 && !purego

package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestMovePairsTwin checks that the assembly of movePairs4or8 and its Go
// twin move the same elements of 4 and 8 bytes: pairs at random, with
// repeated destinations (the last move wins) and negative sources (a
// zero), fewer and more of them than it asks for ahead, the last of them
// too; and that it takes no element of another size.
func TestMovePairsTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 6))
	for _, ahead := range []int{1, 32, 100} {
		for _, n := range []int{0, 1, 31, 32, 33, 500} {
			ps := make([]pair, n)
			for i := range ps {
				ps[i] = pair{r.IntN(50), r.IntN(70)}
				if r.IntN(5) == 0 {
					ps[i].s = -1 - r.IntN(3)
				}
			}
			if n > 0 {
				ps[n-1].s = -1
			}
			movePairsCase(t, ps, ahead, func(i int) word32 { return word32(r.Uint32() | 1) })
			movePairsCase(t, ps, ahead, func(i int) word64 { return word64(r.Uint64() | 1) })
		}
	}
	if movePairs4or8(make([]word128, 2), make([]word128, 2), []pair{{0, 0}}, 8) {
		t.Error("movePairs4or8 took 16-byte elements")
	}
}

func movePairsCase[E comparable](t *testing.T, ps []pair, ahead int, value func(int) E) {
	t.Helper()
	dst := make([]E, 50)
	src := make([]E, 70)
	for i := range dst {
		dst[i] = value(i)
	}
	for i := range src {
		src[i] = value(i)
	}
	asm, twin := slices.Clone(dst), slices.Clone(dst)
	if !movePairs4or8(asm, src, ps, ahead) {
		t.Fatalf("%T: not taken", dst)
	}
	movePairsGo(twin, src, ps)
	for i := range asm {
		if asm[i] != twin[i] {
			t.Fatalf("%T, %d pairs, %d ahead: element %d is %v by the assembly, %v by the twin", dst, len(ps), ahead, i, asm[i], twin[i])
		}
	}
}

// TestCheckPairs checks that movePairs4or8's check panics for a pair past
// dst's or src's end, or before dst's start, and passes a negative source
// (a zero) and the last elements.
func TestCheckPairs(t *testing.T) {
	checkPairs(10, 20, []pair{{0, 0}, {9, 19}, {5, -1}}) // no panic
	for _, c := range []struct {
		name string
		p    pair
	}{
		{"past dst", pair{10, 0}},
		{"past src", pair{0, 20}},
		{"before dst", pair{-1, 0}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: pair %v into 10 and 20 elements passed", c.name, c.p)
				}
			}()
			checkPairs(10, 20, []pair{{0, 0}, c.p})
		}()
	}
}

// TestPairElemsTwin checks that the assembly of gatherPairElems and its Go
// twin gather the same elements of 4 and 8 bytes by tuples of two index
// values, negative ones counted from the end under one limit and refused
// under the other, and stop at the same first tuple outside the limits:
// fewer and more tuples than it asks for ahead, a bad one among the first,
// the middle and the last.
func TestPairElemsTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 7))
	const rows, cols = 13, 11
	lims := []limit{{size: rows, fromEnd: rows}, {size: cols}}
	strides := []int{cols, 1}
	src32 := make([]uint32, rows*cols)
	src64 := make([]uint64, rows*cols)
	for i := range src32 {
		src32[i], src64[i] = r.Uint32(), r.Uint64()
	}
	for _, n := range []int{0, 1, 5, 40, 300} {
		for _, bad := range []int{-1, 0, n / 2, n - 1} {
			if n == 0 && bad >= 0 {
				continue
			}
			ind := make([]int64, 2*n)
			for i := range n {
				ind[2*i], ind[2*i+1] = int64(r.IntN(2*rows)-rows), int64(r.IntN(cols))
			}
			if bad >= 0 {
				ind[2*bad+1] = []int64{-1, cols, 1 << 40}[r.IntN(3)]
			}
			for _, ahead := range []int{1, 32, 1000} {
				for _, wide := range []bool{false, true} {
					src, size := unsafe.Pointer(&src32[0]), 4
					if wide {
						src, size = unsafe.Pointer(&src64[0]), 8
					}
					asm, twin := make([]byte, size*(n+1)), make([]byte, size*(n+1))
					var ip *int64
					if n > 0 {
						ip = &ind[0]
					}
					ka := gatherPairElems(unsafe.Pointer(&asm[0]), src, ip, n, &lims[0], &strides[0], ahead, wide)
					kt := pairElemsGo(unsafe.Pointer(&twin[0]), src, ip, n, &lims[0], &strides[0], wide)
					if ka != kt || !slices.Equal(asm, twin) {
						t.Fatalf("%d tuples, bad %d, %d ahead, wide %v: the assembly stopped at %d, the twin at %d, or their elements differ",
							n, bad, ahead, wide, ka, kt)
					}
					if want := n; bad >= 0 && ka != bad || bad < 0 && ka != want {
						t.Fatalf("%d tuples, bad %d: stopped at %d", n, bad, ka)
					}
				}
			}
		}
	}
}
