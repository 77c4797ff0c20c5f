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
	value := rowValues(r)
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

// TestFloatOffsetRowsTwin checks that the assembly of floatOffsetRows
// and its Go twin reduce the same blocks to the same bits, as
// TestFloatRowsTwin does floatRows', the offsets at random with repeats
// and -1s (dropped: their blocks of src touch nothing), more of them than
// it prefetches ahead (32), a -1 among the last.
func TestFloatOffsetRowsTwin(t *testing.T) {
	if !hasAVX {
		t.Skip("no AVX")
	}
	r := rand.New(rand.NewPCG(24, 9))
	value := rowValues(r)
	for _, red := range []Reduction{Add, maxUpdate, minUpdate, maxLast, minLast} {
		for _, block := range []int{1, 3, 7, 8, 9, 15, 16, 17, 24, 33} {
			for _, n := range []int{0, 1, 8, 9, 40, 70} {
				const rows = 6
				dst := make([]float32, rows*block)
				src := make([]float32, n*block)
				for i := range dst {
					dst[i] = value()
				}
				for i := range src {
					src[i] = value()
				}
				offs := make([]int32, n)
				for i := range offs {
					offs[i] = int32(r.IntN(rows) * block)
					if r.IntN(5) == 0 || i == n-2 {
						offs[i] = -1
					}
				}
				asm, twin := slices.Clone(dst), slices.Clone(dst)
				if !floatOffsetRows(asm, src, offs, block, red) || !floatOffsetRowsGo(twin, src, offs, block, red) {
					t.Fatalf("%v: not taken", red)
				}
				for i := range asm {
					if math.Float32bits(asm[i]) != math.Float32bits(twin[i]) {
						t.Fatalf("%v, block %d, %d offsets: element %d is %#x by the assembly, %#x by the twin",
							red, block, n, i, math.Float32bits(asm[i]), math.Float32bits(twin[i]))
					}
				}
				if n > 0 && slices.Equal(asm, dst) && red == Add && slices.ContainsFunc(offs, func(o int32) bool { return o >= 0 }) {
					t.Fatalf("block %d, %d offsets: nothing added", block, n)
				}
			}
		}
	}
	if floatOffsetRows(make([]float32, 4), make([]float32, 4), []int32{0}, 4, Max) {
		t.Error("floatOffsetRows took Max, which its assembly does not compute")
	}
}

// rowValues returns a source of float32 in [-4, 4) and, one time in
// four, a special value: NaNs of several payloads, a signalling one (the
// assembly quiets it as Go's rule does), ±0, ±Inf.
func rowValues(r *rand.Rand) func() float32 {
	special := []float32{float32(math.NaN()), math.Float32frombits(0x7fc00003), math.Float32frombits(0xffc00005),
		math.Float32frombits(0x7f800001), float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.Inf(-1)), 1}
	return func() float32 {
		if r.IntN(4) == 0 {
			return special[r.IntN(len(special))]
		}
		return r.Float32()*8 - 4
	}
}

// TestSumRunTwin checks that the assembly of sumRun and its Go twin sum
// the same runs to the same bits: NaNs of every payload (a signalling one
// quieted by an add or a division, kept by a lone row's copy), ±0 (a run
// of -0s is -0 from its first row, +0 from +0) and infinities among
// them, with and without a mean, for widths around the assembly's 32 and
// 8 columns at a time and runs of 1 to 17 rows.
func TestSumRunTwin(t *testing.T) {
	if !hasAVX {
		t.Skip("no AVX")
	}
	r := rand.New(rand.NewPCG(24, 11))
	negZero := float32(math.Copysign(0, -1))
	special := []float32{float32(math.NaN()), math.Float32frombits(0x7fc00003), math.Float32frombits(0xffc00005),
		math.Float32frombits(0x7f800001), negZero, 0, float32(math.Inf(1)), float32(math.Inf(-1)), 3}
	for _, inner := range []int{1, 7, 8, 9, 16, 31, 32, 33, 41, 64, 72} {
		for _, rows := range []int{1, 2, 3, 8, 17} {
			for _, mode := range []int{0, 1, 2, 3} {
				zero, mean := mode&1 != 0, mode&2 != 0
				src := make([]float32, rows*inner)
				for i := range src {
					switch {
					case i%inner == 0:
						src[i] = negZero // column 0 is a run of -0s
					case r.IntN(6) == 0:
						src[i] = special[r.IntN(len(special))]
					default:
						src[i] = r.Float32()*8 - 4
					}
				}
				asm, twin := make([]float32, inner+1), make([]float32, inner+1)
				asm[inner], twin[inner] = 7, 7 // past the block: left alone
				if !sumRun(asm, src, rows, inner, zero, mean) || !sumRunGo32(twin, src, rows, inner, zero, mean) {
					t.Fatal("not taken")
				}
				for i := range asm {
					if math.Float32bits(asm[i]) != math.Float32bits(twin[i]) {
						t.Fatalf("inner %d, %d rows, zero %v, mean %v: element %d is %#x by the assembly, %#x by the twin",
							inner, rows, zero, mean, i, math.Float32bits(asm[i]), math.Float32bits(twin[i]))
					}
				}
				if want := zero && rows > 0; math.Signbit(float64(asm[0])) == want {
					t.Errorf("inner %d, %d rows, zero %v: a sum of -0s is %v", inner, rows, zero, asm[0])
				}
			}
		}
	}
}

// TestCheckBlocks checks that floatRows' check panics for a pair whose
// block lies past dst's or src's end, or before its start, or a block
// larger than either, and passes whole blocks up to the last.
func TestCheckBlocks(t *testing.T) {
	checkBlocks(32, 48, []pair{{0, 0}, {16, 32}, {8, 17}}, 16) // the last blocks whole: no panic
	for _, c := range []struct {
		name       string
		dlen, slen int
		p          pair
	}{
		{"past dst", 32, 48, pair{17, 0}},
		{"past src", 32, 48, pair{0, 33}},
		{"before dst", 32, 48, pair{-1, 0}},
		{"before src", 32, 48, pair{0, -16}},
		{"block larger than dst", 8, 48, pair{0, 0}},
		{"block larger than src", 32, 8, pair{0, 0}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: pair %v into %d and %d elements passed", c.name, c.p, c.dlen, c.slen)
				}
			}()
			checkBlocks(c.dlen, c.slen, []pair{{0, 0}, c.p}, 16)
		}()
	}
}
