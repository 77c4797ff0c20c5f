package engine_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	. "github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// TestScatterSlabs holds ScatterElements along the last axis into a dst
// past the cache, whose slabs go through a buffer (see slabsThrough), to
// testkit/reftest, by the form's kernel and by the general core in turn:
// with and without asking ahead, rank 2 and 3, slabs of
// several rows, fewer slabs of indices than of dst (the rest only
// filled), updates larger than indices (not asked for ahead), rows of
// indices not a whole number of steps, reductions none (a mover), add,
// max and mul, float32 and int64, duplicates, and a value out of range
// first, in the middle and last: an *IndexError naming it, or under
// OutOfRangeSkip, skipped. A slab of no whole number of cache lines
// (120 bytes) takes the fill in place, to the same result. Every dst
// counts as past the cache, and the work is split however small.
func TestScatterSlabs(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	cases := []struct {
		dt              tensor.DType
		red             Reduction
		data, idx, upds tensor.Shape
	}{
		{tensor.Float32, Add, tensor.Shape{64, 256}, tensor.Shape{64, 150}, nil},
		{tensor.Float32, Max, tensor.Shape{16, 4, 128}, tensor.Shape{15, 4, 100}, tensor.Shape{16, 4, 128}},
		{tensor.Float32, Mul, tensor.Shape{128, 80}, tensor.Shape{128, 16}, nil},
		{tensor.Int64, None, tensor.Shape{32, 256}, tensor.Shape{30, 250}, nil},
		{tensor.Int64, Add, tensor.Shape{8, 4, 256}, tensor.Shape{8, 3, 70}, tensor.Shape{8, 4, 70}},
		{tensor.Float32, Add, tensor.Shape{100, 30}, tensor.Shape{100, 10}, nil},
	}
	defer SetMinWork(1)() // two workers, each with slabs of its own
	for _, s := range []Strategy{
		{StreamBytes: 1, StreamBlock: 256, PrefetchAhead: 8, NonTemporal: true},
		{StreamBytes: 1, StreamBlock: 256, NonTemporal: true},
	} {
		ForceStrategy(t, s)
		for ci, c := range cases {
			upds := c.upds
			if upds == nil {
				upds = c.idx
			}
			axis := len(c.data) - 1
			size := c.data[axis]
			n, _ := c.idx.NumElements()
			elems, _ := c.data.NumElements()
			un, _ := upds.NumElements()
			data, updates := slabValues(r, c.dt, c.data, elems), slabValues(r, c.dt, upds, un)
			for i, bad := range []string{"none", "first", "middle", "last"} {
				for _, out := range []OutOfRange{OutOfRangeError, OutOfRangeSkip} {
					k := []Kernels{FastKernels, GeneralKernels}[(i+ci)%2]
					name := fmt.Sprintf("%s, %v: %v %v, data %v, indices %v, updates %v, bad %s, out of range %v", k.Name(), s, c.dt, c.red, c.data, c.idx, upds, bad, out)
					idx := placedIndices(r, n, size, bad)
					indices := tensor.Must(tensor.From(c.idx, idx))
					opt := ScatterOptions{Reduction: c.red, Rules: IndexRules{Negative: NegativeFromEnd, OutOfRange: out}}
					want, wantErr := reftest.ScatterElements(data, indices, updates, axis, opt)
					dst := tensor.Must(tensor.New(c.dt, c.data))
					err := k.ScatterElements(dst, data, indices, updates, axis, opt)
					if d := reftest.Disagreement(dst, err, want, wantErr, sameClass); d != "" {
						t.Fatalf("%s: %s", name, d)
					}
					if bad == "none" || out == OutOfRangeSkip {
						continue
					}
					first := slices.IndexFunc(idx, func(v int64) bool { return v < -int64(size) || v >= int64(size) })
					var ie *IndexError
					if !errors.As(err, &ie) || !slices.Equal(ie.Pos, c.idx.Coords(first)) {
						t.Fatalf("%s: error %v, want an *IndexError at %v", name, err, c.idx.Coords(first))
					}
				}
			}
		}
	}
}

// slabValues returns a tensor of the shape with n distinct values of dt
// (float32 or int64).
func slabValues(r *rand.Rand, dt tensor.DType, shape tensor.Shape, n int) tensor.Tensor {
	if dt == tensor.Int64 {
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(i)*7 + r.Int64N(5)
		}
		return tensor.Must(tensor.From(shape, v))
	}
	return tensor.Must(tensor.FromFloat32s(tensor.Float32, shape, randFloats(r, n)))
}

// FuzzScatterSlabs runs ScatterElements along the last axis with its slabs
// through a buffer (every dst past the cache, slabs of whole cache lines,
// two workers), by the form's kernel or the general core, against
// testkit/reftest: a float32 or int64 dst of rank 2 or 3 whose slabs are
// 16 to 64 elements, indices within it with values from the input (some
// out of range), updates as large or larger, a reduction and the
// out-of-range rule from the input.
func FuzzScatterSlabs(f *testing.F) {
	f.Add([]byte{0, 1, 3, 1, 2, 0, 1, 5, 7, 200, 9, 4, 3, 2, 1})
	f.Add([]byte{1, 0, 7, 0, 3, 1, 0, 250, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Fuzz(func(t *testing.T, b []byte) {
		in := tensortest.NewFuzz(b)
		ForceStrategy(t, Strategy{StreamBytes: 1, StreamBlock: 64, PrefetchAhead: 8, NonTemporal: true})
		defer SetMinWork(1)()
		k := []Kernels{FastKernels, GeneralKernels}[in.Pick(2)]
		dt := []tensor.DType{tensor.Float32, tensor.Int64}[in.Pick(2)]
		red := []Reduction{None, Add, Max, Min, Mul}[in.Pick(5)]
		out := []OutOfRange{OutOfRangeError, OutOfRangeSkip}[in.Pick(2)]
		ds := tensor.Shape{1 + in.Pick(6), 16 * (1 + in.Pick(2))}
		if in.Bool() {
			ds = tensor.Shape{ds[0], 1 + in.Pick(3), ds[1]}
		}
		axis := len(ds) - 1
		is := in.Within(ds, -1)
		is[axis] = in.Pick(2 * ds[axis])
		us := is.Clone()
		if in.Bool() {
			us[0] = ds[0]
		}
		n, _ := is.NumElements()
		idx := make([]int64, n)
		for i := range idx {
			idx[i] = int64(int8(in.Next())) % int64(ds[axis]+2)
		}
		indices := tensor.Must(tensor.From(is, idx))
		data, updates := in.Elements(dt, ds), in.Elements(dt, us)
		opt := ScatterOptions{Reduction: red, Rules: IndexRules{Negative: NegativeFromEnd, OutOfRange: out}}
		want, wantErr := reftest.ScatterElements(data, indices, updates, axis, opt)
		dst := tensor.Must(tensor.New(dt, ds))
		err := k.ScatterElements(dst, data, indices, updates, axis, opt)
		if d := reftest.Disagreement(dst, err, want, wantErr, sameClass); d != "" {
			t.Fatalf("%s: %v %v, data %v, indices %v %v, updates %v: %s", k.Name(), dt, red, ds, is, idx, us, d)
		}
	})
}
