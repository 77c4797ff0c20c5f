//go:build amd64 && !purego

package engine

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// twinLengths are the lengths the assembly and its Go twin are compared
// at: none, one, and around the widths the assembly takes at a time (8
// and 16 values, 64-byte lines).
var twinLengths = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200}

// twinIndices returns n indices in [0, size), with the one at bad (if
// bad is in [0, n)) replaced by value.
func twinIndices(r *rand.Rand, n, size, bad int, value int64) []int64 {
	idx := make([]int64, n)
	for i := range idx {
		idx[i] = int64(r.IntN(size))
	}
	if bad >= 0 && bad < n {
		idx[bad] = value
	}
	return idx
}

// badValues are indices outside [0, size) for a size of 10.
var badValues = []int64{-1, 10, 11, math.MinInt64, math.MaxInt64, -10}

// TestAddFloatRowsTwin checks that the assembly of addFloatRows and its Go
// twin add the same updates to the same bits and stop at the same bad
// index, with AVX2's checks of eight indices and without.
func TestAddFloatRowsTwin(t *testing.T) { eachVector(t, testAddFloatRowsTwin) }

func testAddFloatRowsTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const size = 10
	for _, n := range twinLengths {
		for _, last := range []int{1, 3, 8, 16, max(n, 1)} {
			for bad := -1; bad < n; bad += max(1, n/4) {
				for _, value := range badValues {
					idx := twinIndices(r, n, size, bad, value)
					upd := make([]float32, n)
					for i := range upd {
						upd[i] = twinFloat(r, 1e3)
					}
					rows := max(1, (n+last-1)/last)
					base := make([]float32, rows*size)
					for i := range base {
						base[i] = twinFloat(r, 1)
					}
					asm, twin := slices.Clone(base), slices.Clone(base)
					ka := addFloatRows(asm, size, idx, last, upd)
					kt := addFloatRowsGo(twin, size, idx, last, upd)
					if ka != kt || !sameFloat32Bits(asm, twin) {
						t.Fatalf("n %d, last %d, bad %d = %d: assembly added %d, twin %d; same dst %v",
							n, last, bad, value, ka, kt, sameFloat32Bits(asm, twin))
					}
					if bad < 0 {
						break // no bad index: one value is enough
					}
				}
			}
		}
	}
}

// TestAddEntryFloatsTwin checks that the assembly of addEntryFloats and
// its Go twin add the same entries, duplicates among them, to the same
// bits, with NaNs and infinities that make NaNs.
func TestAddEntryFloatsTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range twinLengths {
		for _, size := range []int{1, 5, 40} {
			es := make([]entry[float32], n)
			for i := range es {
				es[i] = entry[float32]{off: int32(r.IntN(size)), v: twinFloat(r, 1e3)}
			}
			base := make([]float32, size)
			for i := range base {
				base[i] = twinFloat(r, 1)
			}
			asm, twin := slices.Clone(base), slices.Clone(base)
			addEntryFloats(asm, es)
			addEntryFloatsGo(twin, es)
			if !sameFloat32Bits(asm, twin) {
				t.Fatalf("%d entries into %d: assembly %v, twin %v", n, size, asm, twin)
			}
		}
	}
}

// twinFloats are the values twinFloat picks now and then: NaNs with
// payloads, quiet and signalling, of both signs, and the infinities, so
// that the NaN a sum makes is compared too.
var twinFloats = []uint32{0x7fc00001, 0xffc00002, 0x7f800003, 0xff800004, 0x7f800000, 0xff800000}

// twinFloat returns a normal value of about scale, or one of twinFloats.
func twinFloat(r *rand.Rand, scale float64) float32 {
	if r.IntN(4) == 0 {
		return math.Float32frombits(twinFloats[r.IntN(len(twinFloats))])
	}
	return float32(r.NormFloat64() * scale)
}

func sameFloat32Bits(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
}

// TestOrBlocksTwin checks that the assembly's OR, with SSE2 and with AVX2
// where the processor has it, equals its Go twin's, whatever lo.
func TestOrBlocksTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range twinLengths {
		n -= n % 8 // the length is a multiple of 8
		for _, lo := range []int64{0, -3, 5, math.MinInt64, math.MaxInt64} {
			for bad := -1; bad < n; bad += max(1, n/3) {
				for _, value := range badValues {
					idx := twinIndices(r, n, 10, bad, value)
					want := orBlocksGo(idx, lo)
					for _, avx2 := range []bool{false, true} {
						if avx2 && !cpu.X86.HasAVX2 {
							continue
						}
						if got := orWords(idx, lo, avx2); got != want {
							t.Fatalf("n %d, lo %d, bad %d = %d, avx2 %v: assembly %#x, twin %#x", n, lo, bad, value, avx2, got, want)
						}
					}
					if bad < 0 {
						break
					}
				}
			}
		}
	}
}

// TestCopyStreamingTwin checks that the non-temporal copy writes the bytes
// its Go twin writes, and nothing past them.
func TestCopyStreamingTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	// aligned returns n bytes whose first lies on a 64-byte line, as
	// MOVNTDQ needs (16 bytes at least), followed by 64 more.
	aligned := func(n int) []byte {
		b := make([]byte, n+128)
		off := int(-uintptr(unsafe.Pointer(&b[0])) % 64)
		return b[off : off+n+64]
	}
	for _, lines := range []int{0, 1, 2, 3, 4, 5, 16, 65} {
		n := lines * 64
		src := aligned(n)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		asm, twin := aligned(n), aligned(n)
		prefetchL1(unsafe.Pointer(&src[0]), uintptr(n))
		prefetchL2(unsafe.Pointer(&src[0]), uintptr(n))
		copyStreaming(unsafe.Pointer(&asm[0]), unsafe.Pointer(&src[0]), uintptr(n))
		storeFence()
		copyStreamingGo(unsafe.Pointer(&twin[0]), unsafe.Pointer(&src[0]), uintptr(n))
		if !slices.Equal(asm, twin) {
			t.Fatalf("%d bytes: the assembly wrote %v, the twin %v", n, asm, twin)
		}
	}
}

// TestGatherRowsTwin checks that the AVX-512 gathers and their Go twin
// set the same elements, 4 and 8 bytes wide, stored as usual and around
// the cache, and stop at the same block of eight holding a bad index.
func TestGatherRowsTwin(t *testing.T) {
	if !hasGather {
		t.Skip("the processor has no AVX-512: the assembly cannot run")
	}
	r := rand.New(rand.NewPCG(7, 8))
	const size = 10
	for _, n := range twinLengths {
		n -= n % 8
		for _, last := range []int{8, 16, max(8, n)} {
			for bad := -1; bad < n; bad += max(1, n/5) {
				for _, value := range badValues {
					idx := twinIndices(r, n, size, bad, value)
					rows := max(1, (n+last-1)/last)
					const stride = size + 3 // a row of src is longer than size
					src := make([]uint64, rows*stride)
					for i := range src {
						src[i] = r.Uint64()
					}
					for _, c := range [...]struct{ wide, stream bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
						es := uintptr(4)
						if c.wide {
							es = 8
						}
						// A line-aligned out, as non-temporal stores
						// need, and a word past it.
						asm, twin := alignedWords(n+1), alignedWords(n+1)
						idxp := (*int64)(nil)
						if n > 0 {
							idxp = &idx[0]
						}
						ka := gatherRows(unsafe.Pointer(&asm[0]), unsafe.Pointer(&src[0]), stride*es, size, idxp, last, n, c.wide, c.stream)
						storeFence()
						kt := gatherRowsGo(unsafe.Pointer(&twin[0]), unsafe.Pointer(&src[0]), stride*es, size, idxp, last, n, c.wide)
						if ka != kt || !slices.Equal(asm, twin) {
							t.Fatalf("n %d, last %d, bad %d = %d, %+v: assembly set %d, twin %d; same out %v",
								n, last, bad, value, c, ka, kt, slices.Equal(asm, twin))
						}
					}
					if bad < 0 {
						break
					}
				}
			}
		}
	}
}

// alignedWords returns n zero words whose first lies on a 64-byte line.
func alignedWords(n int) []uint64 {
	b := make([]uint64, n+8)
	off := int(-uintptr(unsafe.Pointer(&b[0])) % 64 / 8)
	return b[off : off+n]
}

// TestCopyOrTwin checks that copyOr, sixteen values at a time in assembly
// where the processor has AVX2, copies what its Go twin copies and returns
// the same OR, with values of either sign and the extremes.
func TestCopyOrTwin(t *testing.T) { eachVector(t, testCopyOrTwin) }

func testCopyOrTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range twinLengths {
		for _, value := range append([]int64{5}, badValues...) {
			ind := twinIndices(r, n, 10, r.IntN(n+1), value)
			asm, twin := make([]int64, n), make([]int64, n)
			oa, ot := copyOr(asm, ind), copyOrGo(twin, ind)
			if oa != ot || !slices.Equal(asm, ind) || !slices.Equal(twin, ind) {
				t.Fatalf("n %d, a value %d: assembly %#x, twin %#x; copies equal: %v, %v",
					n, value, oa, ot, slices.Equal(asm, ind), slices.Equal(twin, ind))
			}
		}
	}
}

// TestAddPlacedTwin checks that the assembly of addPlaced and its Go twin
// add the same updates, duplicates in order, to the same bits, NaNs
// among them: in one row, and in rows of 1, 3, 8 and 9 positions, each
// into its own row of dst.
func TestAddPlacedTwin(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const size = 10
	for _, n := range twinLengths {
		pos := twinIndices(r, n, size, -1, 0)
		upd := make([]float32, n)
		for i := range upd {
			upd[i] = twinFloat(r, 1e3)
		}
		base := make([]float32, size*max(n, 1)+1) // a row a position at most, and one past
		for i := range base {
			base[i] = twinFloat(r, 1)
		}
		for _, last := range []int{n, 1, 3, 8, 9} {
			if last == 0 || n%last != 0 {
				continue
			}
			asm, twin := slices.Clone(base), slices.Clone(base)
			addPlaced(asm, size, pos, last, upd)
			addPlacedGo(twin, size, pos, last, upd)
			if !sameFloat32Bits(asm, twin) {
				t.Fatalf("n %d, rows of %d: assembly %v, twin %v", n, last, asm, twin)
			}
		}
	}
}

// TestSortEntriesWideTwin checks that sortEntries with AVX-512 (eight
// updates a round) sorts float32 updates into the same buckets, counts
// and largest index as one at a time and as its twin sortHalves: counts
// that are and are not multiples of eight, every update below split,
// every one at or above it, and mixes with negative indices and ones past
// any size, NaN payloads and -0 kept bit for bit.
func TestSortEntriesWideTwin(t *testing.T) {
	if !cpu.X86.HasAVX512F {
		t.Skip("no AVX-512F")
	}
	defer func(on bool) { hasAVX512 = on }(hasAVX512)
	rng := rand.New(rand.NewPCG(19, 20))
	for _, n := range []int{1, 7, 8, 9, 15, 16, 17, 64, 1000, 4099} {
		for _, split := range []int{-1, 0, 500, 1 << 20} {
			ind, upd := halvesInput(rng, n)
			type sorted struct {
				b0, b1 []entry[float32]
				n0, n1 int
				most   uint64
			}
			sort := func(f func(b0, b1 []entry[float32], ind []int64, upd []float32, split int) (int, int, uint64)) sorted {
				s := sorted{b0: make([]entry[float32], n+1), b1: make([]entry[float32], n+1)}
				s.n0, s.n1, s.most = f(s.b0, s.b1, ind, upd, split)
				s.b0, s.b1 = s.b0[:s.n0], s.b1[:s.n1]
				return s
			}
			hasAVX512 = true
			wide := sort(sortFloatHalves)
			hasAVX512 = false
			one := sort(sortFloatHalves)
			twin := sort(sortHalves[float32])
			for _, s := range []sorted{wide, one} {
				if s.n0 != twin.n0 || s.n1 != twin.n1 || s.most != twin.most ||
					!slices.EqualFunc(s.b0, twin.b0, sameEntry) || !slices.EqualFunc(s.b1, twin.b1, sameEntry) {
					t.Fatalf("%d updates, split %d: counts %d, %d, largest %d; the twin's %d, %d, %d; or the buckets differ",
						n, split, s.n0, s.n1, s.most, twin.n0, twin.n1, twin.most)
				}
			}
		}
	}
}

// sameEntry says that a and b hold the same offset and the same bits.
func sameEntry(a, b entry[float32]) bool {
	return a.off == b.off && math.Float32bits(a.v) == math.Float32bits(b.v)
}
