package engine_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	. "github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// onceStrategy makes every dst past the cache and rows of a cache line
// streamed, so that small calls take the paths that write around it.
var onceStrategy = Strategy{StreamBytes: 1, StreamBlock: 64, PrefetchAhead: 8, NonTemporal: true}

// TestScatterRowsOnce holds ScatterND of rows into another dst past the
// cache, each row of dst written once from its last update or from data
// (see scatter_nd_once.go), to testkit/reftest: rows of one index and of
// pairs, float32 and int64, several updates of a row (the last wins),
// rows no update writes, a value out of range first, in the middle and
// last (an error naming it, or under OutOfRangeSkip a row skipped), a
// negative value from the end, one worker and two, and rows of 24 bytes,
// which are not whole cache lines and take the two passes.
func TestScatterRowsOnce(t *testing.T) {
	ForceStrategy(t, onceStrategy)
	r := rand.New(rand.NewPCG(21, 22))
	for _, c := range []struct {
		dt     tensor.DType
		data   tensor.Shape
		tuples int // index tuples
		k      int // their components
	}{
		{tensor.Float32, tensor.Shape{300, 64}, 200, 1},
		{tensor.Int64, tensor.Shape{20, 30, 16}, 700, 2},
		{tensor.Float32, tensor.Shape{1000, 6}, 400, 1},
	} {
		for _, bad := range []string{"none", "first", "middle", "last"} {
			for _, out := range []OutOfRange{OutOfRangeError, OutOfRangeSkip} {
				for _, split := range []bool{false, true} {
					name := fmt.Sprintf("%v %v, %d tuples of %d, bad %s, out of range %v, split %v", c.dt, c.data, c.tuples, c.k, bad, out, split)
					idx := make([]int64, c.tuples*c.k)
					for i := range idx {
						size := c.data[i%c.k]
						idx[i] = int64(r.IntN(size))
						if r.IntN(8) == 0 {
							idx[i] -= int64(size) // from the end
						}
					}
					at := map[string]int{"first": 0, "middle": c.tuples / 2 * c.k, "last": len(idx) - 1}
					if i, ok := at[bad]; ok {
						idx[i] = int64(c.data[i%c.k]) + 3
					}
					indices := tensor.Must(tensor.From(tensor.Shape{c.tuples, c.k}, idx))
					us := append(tensor.Shape{c.tuples}, c.data[c.k:]...)
					n, _ := us.NumElements()
					elems, _ := c.data.NumElements()
					data, updates := slabValues(r, c.dt, c.data, elems), slabValues(r, c.dt, us, n)
					opt := ScatterOptions{Rules: IndexRules{Negative: NegativeFromEnd, OutOfRange: out}}
					want, wantErr := reftest.ScatterND(data, indices, updates, opt)
					dst := tensor.Must(tensor.New(c.dt, c.data))
					restore := func() {}
					if split {
						restore = SetMinWork(1)
					}
					err := ScatterND(dst, data, indices, updates, opt)
					restore()
					if d := reftest.Disagreement(dst, err, want, wantErr, sameClass); d != "" {
						t.Fatalf("%s: %s", name, d)
					}
				}
			}
		}
	}
}

// FuzzScatterRowsOnce runs ScatterND of rows into another dst, every dst
// past the cache and rows of a cache line streamed (so that rows of whole
// lines are written once, see scatter_nd_once.go), on one worker or two,
// against testkit/reftest: a float32 or int64 dst, tuples of one or two
// components with values from the input (some out of range, some
// negative), the out-of-range rule from the input.
func FuzzScatterRowsOnce(f *testing.F) {
	f.Add([]byte{0, 1, 3, 2, 5, 7, 200, 9, 4, 3, 2, 1})
	f.Add([]byte{1, 0, 7, 1, 250, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Fuzz(func(t *testing.T, b []byte) {
		in := tensortest.NewFuzz(b)
		ForceStrategy(t, onceStrategy)
		if in.Bool() {
			defer SetMinWork(1)()
		}
		dt := []tensor.DType{tensor.Float32, tensor.Int64}[in.Pick(2)]
		out := []OutOfRange{OutOfRangeError, OutOfRangeSkip}[in.Pick(2)]
		k := 1 + in.Pick(2)
		ds := tensor.Shape{1 + in.Pick(9), 1 + in.Pick(4), 16 * (1 + in.Pick(3))}
		tuples := in.Pick(3 * ds[0])
		idx := make([]int64, tuples*k)
		for i := range idx {
			idx[i] = int64(int8(in.Next())) % int64(ds[i%k]+2)
		}
		indices := tensor.Must(tensor.From(tensor.Shape{tuples, k}, idx))
		data, updates := in.Elements(dt, ds), in.Elements(dt, append(tensor.Shape{tuples}, ds[k:]...))
		opt := ScatterOptions{Rules: IndexRules{Negative: NegativeFromEnd, OutOfRange: out}}
		want, wantErr := reftest.ScatterND(data, indices, updates, opt)
		dst := tensor.Must(tensor.New(dt, ds))
		err := ScatterND(dst, data, indices, updates, opt)
		if d := reftest.Disagreement(dst, err, want, wantErr, sameClass); d != "" {
			t.Fatalf("%v %v, indices %v: %s", dt, ds, idx, d)
		}
	})
}
