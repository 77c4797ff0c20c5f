package engine

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestAddKernels compares the Add loops (addLine over one line; addFlat,
// skipping or reporting, over rows of last indices, each row into its own
// row of dst), whose fast paths take indices in [0, size) two at a time
// and leave the others to a slower loop, with a loop that wraps every
// index. Negative indices count from the end or do not; out-of-range ones
// are skipped or reported, alone and in runs, anywhere in a row; rows have
// odd and even lengths; float32 runs its assembly on amd64.
func TestAddKernels(t *testing.T) {
	t.Run("float64", func(t *testing.T) { testAddKernels[float64](t) })
	t.Run("float32", func(t *testing.T) { testAddKernels[float32](t) }) // in assembly on amd64
}

func testAddKernels[T float32 | float64](t *testing.T) {
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
		upd := make([]T, n)
		outside := rng.Float64() * rng.Float64() // the share of indices outside [0, size)
		for k := range idx {
			idx[k] = rng.Int64N(size)
			if rng.Float64() < outside {
				idx[k] = rng.Int64N(4*size) - 2*size
			}
			upd[k] = T(k + 1)
		}
		fromEnd := int64(rng.IntN(2)) * size
		skip := kernel == 1 || kernel == 0 && rng.IntN(2) == 0
		at := rng.IntN(100)
		dst, want := make([]T, rows*size), make([]T, rows*size)
		for p := range dst {
			dst[p] = T(1000 * p)
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
		default:
			bad = addFlat(dst, size, idx, last, upd, fromEnd, skip, at)
		}
		if bad != wantBad || !slices.Equal(dst, want) {
			t.Fatalf("kernel %d, rows of %d, indices %v (fromEnd %d, skip %v): got %v, bad %d; want %v, bad %d",
				kernel, last, idx, fromEnd, skip, dst, bad, want, wantBad)
		}
	}
}

// TestGatherRowKernels holds gatherRow, eight at a time where the
// processor gathers (gatherRows) and one at a time, to a loop
// that wraps every index: elements of 1 to 16 bytes, rows of every length
// up to 40, indices in range, negative, out of range alone and in runs,
// in any group of eight, skipped or reported.
func TestGatherRowKernels(t *testing.T) {
	t.Run("uint8", func(t *testing.T) { gatherRowCases[uint8](t, func(i int) uint8 { return uint8(i) }) })
	t.Run("uint16", func(t *testing.T) { gatherRowCases[uint16](t, func(i int) uint16 { return uint16(i) }) })
	t.Run("float32", func(t *testing.T) { gatherRowCases[float32](t, func(i int) float32 { return float32(i) }) })
	t.Run("uint32", func(t *testing.T) { gatherRowCases[uint32](t, func(i int) uint32 { return uint32(i) }) })
	t.Run("float64", func(t *testing.T) { gatherRowCases[float64](t, func(i int) float64 { return float64(i) }) })
	t.Run("int64", func(t *testing.T) { gatherRowCases[int64](t, func(i int) int64 { return int64(i) << 33 }) })
	t.Run("complex128", func(t *testing.T) {
		gatherRowCases[complex128](t, func(i int) complex128 { return complex(float64(i), -float64(i)) })
	})
	if hasGather {
		// The kernels take every group of eight in range, row after
		// row, and stop at the first group that is not; the rows above
		// ran as the strategy chose, these run with the gather and then
		// without it, whatever it chose.
		src := []uint64{10, 11, 12, 99, 20, 21, 22, 99}
		src32 := []uint32{10, 11, 12, 99, 20, 21, 22, 99}
		idx := []int64{0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0, 3, 0, 0, 0, 0, 0}
		out := make([]uint64, len(idx))
		out32 := make([]uint32, len(idx))
		if k := gatherRows(unsafe.Pointer(&out[0]), unsafe.Pointer(&src[0]), 32, 3, &idx[0], 8, len(idx), true, false); k != 16 || out[7] != 11 || out[8] != 22 || out[16] != 0 {
			t.Errorf("gatherRows, 8 bytes, took %d, out %v; want 16, the second row from 8 on", k, out)
		}
		if k := gatherRows(unsafe.Pointer(&out32[0]), unsafe.Pointer(&src32[0]), 16, 3, &idx[0], 8, len(idx), false, false); k != 16 || out32[7] != 11 || out32[8] != 22 || out32[16] != 0 {
			t.Errorf("gatherRows, 4 bytes, took %d, out %v; want 16, the second row from 8 on", k, out32)
		}
		old := canGather
		defer func() { canGather = old }()
		canGather = true
		t.Run("float32 eight at a time", func(t *testing.T) { gatherRowCases[float32](t, func(i int) float32 { return float32(i) }) })
		t.Run("int64 eight at a time", func(t *testing.T) { gatherRowCases[int64](t, func(i int) int64 { return int64(i) << 33 }) })
		canGather = false
		t.Run("float32 one at a time", func(t *testing.T) { gatherRowCases[float32](t, func(i int) float32 { return float32(i) }) })
		t.Run("int64 one at a time", func(t *testing.T) { gatherRowCases[int64](t, func(i int) int64 { return int64(i) << 33 }) })
	}
}

func gatherRowCases[E comparable](t *testing.T, val func(int) E) {
	rng := rand.New(rand.NewPCG(9, 10))
	var zero E
	for i := 0; i < 4000; i++ {
		size, n := 1+rng.IntN(40), rng.IntN(40)
		row := make([]E, size)
		for p := range row {
			row[p] = val(p + 1) // never zero
		}
		idx := kernelIndices(rng, n, size)
		fromEnd := int64(rng.IntN(2)) * int64(size)
		skip := rng.IntN(2) == 0
		sentinel := val(1000)
		want := make([]E, n)
		wantBad := -1
		for k, v := range idx {
			if v < 0 {
				v += fromEnd
			}
			switch {
			case v >= 0 && v < int64(size):
				want[k] = row[v]
				continue
			case skip:
				want[k] = zero
				continue
			}
			wantBad = k
			for j := k; j < n; j++ {
				want[j] = sentinel // untouched from the first bad index on
			}
			break
		}
		got := make([]E, n)
		for k := range got {
			got[k] = sentinel
		}
		bad := gatherRow(got, row, idx, fromEnd, skip, false)
		if bad != wantBad || !slices.Equal(got[:max(bad, 0)], want[:max(bad, 0)]) || bad < 0 && !slices.Equal(got, want) {
			t.Fatalf("row of %d, indices %v, fromEnd %d, skip %v: got %v, bad %d; want %v, bad %d",
				size, idx, fromEnd, skip, got, bad, want, wantBad)
		}
	}
}

// TestGatherFlatKernel holds gatherFlat, whole rows eight at a time where
// the processor gathers and one at a time, to a loop that wraps every
// index: rows of 8, 16 and other lengths, each read from its own row of
// src (dstep apart), indices out of range anywhere, skipped or reported.
func TestGatherFlatKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 3000; i++ {
		rows, last := 1+rng.IntN(5), []int{8, 16, 24, 5, 9, 0}[rng.IntN(6)]
		size := 1 + rng.IntN(30)
		dstep := size + rng.IntN(3)
		src := make([]float32, rows*dstep)
		for p := range src {
			src[p] = float32(p + 1)
		}
		idx := kernelIndices(rng, rows*last, size)
		fromEnd := int64(rng.IntN(2)) * int64(size)
		skip, at := rng.IntN(2) == 0, rng.IntN(100)
		want := make([]float32, len(idx))
		wantBad := -1
		for k, v := range idx {
			if v < 0 {
				v += fromEnd
			}
			if v >= 0 && v < int64(size) {
				want[k] = src[k/last*dstep+int(v)]
			} else if !skip {
				wantBad = at + k
				break
			}
		}
		got := make([]float32, len(idx))
		bad := gatherFlat(got, src, dstep, size, idx, last, fromEnd, skip, at)
		n := len(got)
		if bad >= 0 {
			n = bad - at
		}
		if bad != wantBad || !slices.Equal(got[:n], want[:n]) {
			t.Fatalf("%d rows of %d from rows of %d (%d apart), indices %v, fromEnd %d, skip %v: got %v, bad %d; want %v, bad %d",
				rows, last, size, dstep, idx, fromEnd, skip, got, bad, want, wantBad)
		}
	}
}

// kernelIndices returns n indices for the kernels' tests: most in
// [0, size), a random share of them (often none) anywhere in
// [-2*size, 2*size), alone or in runs.
func kernelIndices(rng *rand.Rand, n, size int) []int64 {
	idx := make([]int64, n)
	outside := rng.Float64() * rng.Float64() * rng.Float64()
	for k := range idx {
		idx[k] = rng.Int64N(int64(size))
		if rng.Float64() < outside {
			idx[k] = rng.Int64N(4*int64(size)) - 2*int64(size)
		}
	}
	return idx
}

// TestAddFloatRowsNaN: the float32 loop adds as Go's += does, the
// element first, so that of two NaNs the element's payload survives on
// every path (x86 keeps the first operand's), whichever loop runs.
func TestAddFloatRowsNaN(t *testing.T) {
	elem, upd := math.Float32frombits(0x7fc00001), math.Float32frombits(0x7fc00002)
	for _, n := range []int{1, 4, 9} { // one at a time, four at a time, both
		dst := make([]float32, 3)
		idx := make([]int64, n)
		ups := make([]float32, n)
		for k := range ups {
			idx[k], ups[k] = int64(k%3), upd
		}
		for i := range dst {
			dst[i] = elem
		}
		want := slices.Clone(dst)
		for k, i := range idx {
			want[i] += ups[k]
		}
		if got := addFloatRows(dst, 3, idx, n, ups); got != n {
			t.Fatalf("%d updates: added %d", n, got)
		}
		for i := range dst {
			if math.Float32bits(dst[i]) != math.Float32bits(want[i]) {
				t.Errorf("%d updates: element %d is %#x, want %#x (Go's +=)", n, i, math.Float32bits(dst[i]), math.Float32bits(want[i]))
			}
		}
	}
}
