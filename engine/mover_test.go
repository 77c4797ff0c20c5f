package engine

import "testing"

// TestFillRange checks fillRange on ranges shorter than, as long as and
// longer than what it copies at a time, at offsets that are not multiples
// of it: every element of the range holds the fill (of two element sizes,
// and zero bits cleared), and none outside it changes.
func TestFillRange(t *testing.T) {
	const outside = 0x5a5a
	for _, n := range []int{0, 1, 2, 3, 1023, 1024, 1025, 2048, 5000, 70001} {
		for _, lo := range []int{0, 3} {
			for _, fill := range []uint32{0x3f800000, 0} {
				d := make([]uint32, lo+n+5)
				for i := range d {
					d[i] = outside
				}
				m := &wordMover[uint32]{dst: d, fill: fill}
				m.fillRange(lo, lo+n)
				for i, v := range d {
					want := uint32(outside)
					if i >= lo && i < lo+n {
						want = fill
					}
					if v != want {
						t.Fatalf("uint32 fill %#x of [%d:%d]: element %d is %#x, want %#x", fill, lo, lo+n, i, v, want)
					}
				}
			}
			d := make([]uint64, lo+n+1)
			m := &wordMover[uint64]{dst: d, fill: 0xfff0000000000001}
			m.fillRange(lo, lo+n)
			for i, v := range d {
				want := uint64(0)
				if i >= lo && i < lo+n {
					want = m.fill
				}
				if v != want {
					t.Fatalf("uint64 fill of [%d:%d]: element %d is %#x, want %#x", lo, lo+n, i, v, want)
				}
			}
		}
	}
}
