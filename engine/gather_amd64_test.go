//go:build amd64 && !purego

package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
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
