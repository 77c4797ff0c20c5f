//go:build amd64 && !purego && linux

package engine

import (
	"syscall"
	"testing"
	"unsafe"
)

// guarded returns n values of type T that end where a page the process may
// not read begins, so that an assembly loop reading one value past them
// faults, and a func that unmaps them.
func guarded[T any](t *testing.T, n int) ([]T, func()) {
	t.Helper()
	page := syscall.Getpagesize()
	size := int(unsafe.Sizeof(*new(T)))
	pages := (n*size+page-1)/page + 1
	mem, err := syscall.Mmap(-1, 0, pages*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	if err := syscall.Mprotect(mem[(pages-1)*page:], syscall.PROT_NONE); err != nil {
		syscall.Munmap(mem)
		t.Skipf("mprotect: %v", err)
	}
	end := (pages - 1) * page
	vals := unsafe.Slice((*T)(unsafe.Pointer(&mem[end-n*size])), n)
	return vals, func() { syscall.Munmap(mem) }
}

// TestAssemblyStaysInBounds runs the assembly loops that read a slice
// given by its start and length (the sums by index, placed and by entry;
// the halves' sort, whose buckets end there too;
// the index ORs; the element moves that read pairs or tuples ahead, at
// every distance ahead; the rows' reductions by pairs and by offsets and
// the runs' sums; the pairs' and the triples' offsets; GatherElements' gathers) over
// slices that end where an unreadable page begins, at every length around
// the widths they take at a time: a loop that read one value past the
// last faults. Each with AVX2 and without.
func TestAssemblyStaysInBounds(t *testing.T) { eachVector(t, testAssemblyStaysInBounds) }

func testAssemblyStaysInBounds(t *testing.T) {
	const size = 64
	for n := 0; n <= 70; n++ {
		dst := make([]float32, size*max(n, 1)) // a row an update at most
		idx, freeIdx := guarded[int64](t, n)
		upd, freeUpd := guarded[float32](t, n)
		es, freeEs := guarded[entry[float32]](t, n)
		for i := range idx {
			idx[i], upd[i], es[i] = int64(i%size), 1, entry[float32]{off: int32(i % size), v: 1}
		}
		for _, last := range []int{1, 8, max(n, 1)} {
			if k := addFloatRows(dst, size, idx, last, upd); k != n {
				t.Errorf("addFloatRows, n %d, last %d: added %d", n, last, k)
			}
		}
		for _, last := range []int{1, 8, n} { // rows of one, of eight, and one row
			if last > 0 && n%last == 0 {
				addPlaced(dst, size, idx, last, upd)
			}
		}
		addEntryFloats(dst, es)
		b0, freeB0 := guarded[entry[float32]](t, n+1)
		b1, freeB1 := guarded[entry[float32]](t, n+1)
		was := hasAVX512
		for _, wide := range []bool{false, was} { // the halves' sort, one and eight at a time
			hasAVX512 = wide
			if n0, n1, _ := sortFloatHalves(b0, b1, idx, upd, size/2); n0+n1 != n {
				t.Errorf("sortFloatHalves, n %d, wide %v: %d and %d sorted", n, wide, n0, n1)
			}
		}
		hasAVX512 = was
		freeB0()
		freeB1()
		if got := orBlocks(idx[:n&^7], 0); got >= 2*size {
			t.Errorf("orBlocks, n %d: %d", n, got)
		}
		out := make([]int64, n)
		if got := copyOr(out, idx); got >= 2*size {
			t.Errorf("copyOr, n %d: %d", n, got)
		}
		ps, freePs := guarded[pair](t, n)
		tuples, freeTuples := guarded[int64](t, 2*n)
		for i := range ps {
			ps[i] = pair{d: i, s: i % size}
			tuples[2*i], tuples[2*i+1] = int64(i%8), int64(i%size/8)
		}
		src := make([]uint64, size)
		lims := []limit{{size: 8}, {size: 8}}
		strides := []int{8, 1}
		if k := offsetsPairs(make([]int32, n), tuples, lims[0], lims[1], strides[0], strides[1]); hasAVX2 && k != n&^3 {
			t.Errorf("offsetsPairs, n %d: set %d", n, k)
		}
		for _, ahead := range []int{1, 16, 32, 100} {
			movePairs4or8(make([]uint32, max(n, 1)), make([]uint32, size), ps, ahead)
			movePairs4or8(make([]uint64, max(n, 1)), src, ps, ahead)
			if n > 0 {
				got := make([]uint64, n)
				if k := gatherPairElems(unsafe.Pointer(&got[0]), unsafe.Pointer(&src[0]), &tuples[0], n, &lims[0], &strides[0], ahead, true); k != n {
					t.Errorf("gatherPairElems, n %d, ahead %d: moved %d", n, ahead, k)
				}
			}
		}
		// The rows' reductions: pairs, offsets and the rows of src end
		// at the page; the runs' sums read src to its end.
		const block = 8
		rows, freeRows := guarded[float32](t, n*block)
		offs, freeOffs := guarded[int32](t, n)
		for i := range offs {
			offs[i] = int32(i % (size / block) * block)
		}
		rowPs, freeRowPs := guarded[pair](t, n)
		for i := range rowPs {
			rowPs[i] = pair{d: i % (size / block) * block, s: i * block}
		}
		for _, red := range []Reduction{Add, maxUpdate} {
			floatRows(make([]float32, size), rows, rowPs, block, red)
			floatOffsetRows(make([]float32, size), rows, offs, block, red)
		}
		freeRowPs()
		if n > 0 {
			sumRun(make([]float32, block), rows, n, block, false, true)
			// Triples: n/3 of them, their components ending at the page.
			trip, freeTrip := guarded[int64](t, n/3*3)
			clear(trip)
			if k := offsetsTriples(make([]int32, n/3), trip, []limit{{size: 2}, {size: 2}, {size: 2}}, []int{4, 2, 1}); k != n/3 {
				t.Errorf("offsetsTriples, %d triples: %d", n/3, k)
			}
			freeTrip()
			// GatherElements' eight indices at once (where the
			// processor gathers), the last eight ending at the page.
			if m := n &^ 7; m > 0 {
				for _, stream := range []bool{false, true} {
					if k := gatherAtOnce(alignedWords(m), src, 0, size, idx[n-m:], m, stream); canGather && k != m {
						t.Errorf("gatherAtOnce, %d indices, stream %v: gathered %d", m, stream, k)
					}
				}
				storeFence()
			}
		}
		freeRows()
		freeOffs()
		freePs()
		freeTuples()
		freeIdx()
		freeUpd()
		freeEs()
	}
}
