//go:build amd64 && !purego

package engine

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// TestPlaceRowsTwin checks that the assembly of placeRows and its Go twin
// write the same bytes for rows of one to twenty 16-byte words (the steps
// of 64 and 16 bytes, and their mixes) at offsets in any order, repeated,
// or -1, and touch nothing else of dst.
// The assembly runs with AVX's moves and without, where the processor has
// them.
func TestPlaceRowsTwin(t *testing.T) {
	defer func(on bool) { placeAVX = on }(placeAVX)
	for _, on := range []bool{false, cpu.X86.HasAVX} {
		placeAVX = on
		testPlaceRowsTwin(t)
	}
}

func testPlaceRowsTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, esize := range []uintptr{1, 2, 4, 8, 16} {
		for words := 1; words <= 20; words++ { // up to 320 bytes: the steps of 128, 64 and 16
			rowBytes := uintptr(words) * 16
			block := int(rowBytes / esize)
			for _, n := range []int{0, 1, 2, 3, 8, 17} {
				const rows = 6 // of dst
				src := make([]byte, n*int(rowBytes))
				for i := range src {
					src[i] = byte(r.Uint32())
				}
				offs := make([]int32, n)
				for i := range offs {
					offs[i] = int32(r.IntN(rows) * block)
					if r.IntN(4) == 0 {
						offs[i] = -1
					}
				}
				base := make([]byte, rows*int(rowBytes)+1) // a byte past the rows, which stays
				for i := range base {
					base[i] = byte(r.Uint32())
				}
				asm, twin := bytes.Clone(base), bytes.Clone(base)
				var o *int32
				var s unsafe.Pointer
				if n > 0 {
					o, s = &offs[0], unsafe.Pointer(&src[0])
				}
				placeRows(unsafe.Pointer(&asm[0]), esize, o, n, s, rowBytes, placeAVX)
				placeRowsGo(unsafe.Pointer(&twin[0]), esize, o, n, s, rowBytes)
				if !bytes.Equal(asm, twin) {
					t.Fatalf("element size %d, rows of %d bytes, %d rows at %v: assembly and twin differ", esize, rowBytes, n, offs)
				}
				for i := range n {
					if o := offs[i]; o >= 0 && i == lastAt(offs, o) {
						at := uintptr(o) * esize
						if !bytes.Equal(asm[at:at+rowBytes], src[uintptr(i)*rowBytes:uintptr(i+1)*rowBytes]) {
							t.Fatalf("element size %d, rows of %d bytes: row %d is not at offset %d", esize, rowBytes, i, o)
						}
					}
				}
				if asm[len(asm)-1] != base[len(base)-1] {
					t.Fatalf("element size %d, rows of %d bytes: the byte past the rows changed", esize, rowBytes)
				}
			}
		}
	}
}

// lastAt returns the last position of o in offs.
func lastAt(offs []int32, o int32) int {
	at := -1
	for i, x := range offs {
		if x == o {
			at = i
		}
	}
	return at
}
