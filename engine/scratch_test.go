package engine

import (
	"errors"
	"fmt"
	"runtime"
	"testing"
	"weak"

	"github.com/scatter-dev/scatter/tensor"
)

// TestReleaseDropsCallerIndices: a scratch back in its pool keeps no
// caller tensor alive. Each call hands the caller's int64 indices to a
// job of the scratch (ScatterElements along axis 0 to its column job,
// ScatterND to its walk of tuples, Gather to its gather job, the general
// scatter to its start and apply jobs, the general gather to its walk);
// after the call and one collection (which leaves the pool's scratches in
// its victim cache, still reachable), nothing may hold them.
func TestReleaseDropsCallerIndices(t *testing.T) {
	for _, c := range []struct {
		name string
		k    kernels
		call func(k kernels, indices tensor.Tensor) error
	}{
		{"ScatterElements along axis 0, by column blocks", fastKernels, func(k kernels, indices tensor.Tensor) error {
			const rows, cols = 64, 1024
			if columnWidth(rows, 4) == 0 || small(2*rows*cols+rows*cols) {
				t.Fatal("the call would not take the column blocks")
			}
			data, dst := f32s(rows, cols), f32s(rows, cols)
			return k.ScatterElements(dst, data, indices, f32s(rows, cols), 0, ScatterOptions{})
		}},
		{"ScatterND of single elements, checking as it goes", fastKernels, func(k kernels, indices tensor.Tensor) error {
			tuples := tensor.Must(indices.Reshape(tensor.Shape{64 * 1024, 1}))
			return k.ScatterND(f32s(64), f32s(64), tuples, f32s(64*1024), ScatterOptions{})
		}},
		{"Gather", fastKernels, func(k kernels, indices tensor.Tensor) error {
			return k.Gather(f32s(64, 1024), f32s(64), indices, 0, 0, IndexRules{})
		}},
		{"general ScatterElements along axis 1, checking as it goes", generalKernels, func(k kernels, indices tensor.Tensor) error {
			data, dst := f32s(64, 1024), f32s(64, 1024)
			return k.ScatterElements(dst, data, indices, f32s(64, 1024), 1, ScatterOptions{})
		}},
		{"general ScatterElements in place, starts first", generalKernels, func(k kernels, indices tensor.Tensor) error {
			data := f32s(64, 1024)
			return k.ScatterElements(data, data, indices, f32s(64, 1024), 1, ScatterOptions{})
		}},
		{"general GatherElements", generalKernels, func(k kernels, indices tensor.Tensor) error {
			return k.GatherElements(f32s(64, 1024), f32s(64, 1024), indices, 1, IndexRules{})
		}},
		{"general ScatterElements in place that fails on a bad index", generalKernels, func(k kernels, indices tensor.Tensor) error {
			idx := indices.Data().([]int64)
			idx[len(idx)-1] = 1024 // out of range: refused before anything is written
			data := f32s(64, 1024)
			if err := k.ScatterElements(data, data, indices, f32s(64, 1024), 1, ScatterOptions{}); !errors.Is(err, ErrIndex) {
				return fmt.Errorf("a bad index gave %v", err)
			}
			return nil
		}},
	} {
		ind := callOnce(t, func(indices tensor.Tensor) error { return c.call(c.k, indices) })
		runtime.GC()
		if ind.Value() != nil {
			t.Errorf("%s: the indices of a finished call are still reachable", c.name)
		}
	}
}

// callOnce runs call on [64,1024] int64 indices in [0, 64) and returns a
// weak pointer to them.
//
//go:noinline
func callOnce(t *testing.T, call func(indices tensor.Tensor) error) weak.Pointer[int64] {
	ind := make([]int64, 64*1024)
	for i := range ind {
		ind[i] = int64(i % 64)
	}
	if err := call(tensor.Must(tensor.From(tensor.Shape{64, 1024}, ind))); err != nil {
		t.Fatal(err)
	}
	return weak.Make(&ind[0])
}

func f32s(s ...int) tensor.Tensor { return tensor.Must(tensor.New(tensor.Float32, s)) }

// TestReleaseDropsCallerTensors: the movers that a call got (one for
// filling dst from data and one for applying updates, of the element
// size of the call: 1, 2, 4, 8 or 16 bytes, or strings) keep none of its
// tensors once the scratch is back in its pool, though release clears
// only the movers the call used.
func TestReleaseDropsCallerTensors(t *testing.T) {
	for _, d := range []tensor.DType{tensor.Int8, tensor.Float16, tensor.Float32, tensor.Float64, tensor.Complex128, tensor.String} {
		for _, inPlace := range []bool{false, true} {
			dst, data, upd := scatterOnce(t, d, inPlace)
			runtime.GC()
			for _, p := range []struct {
				name string
				gone bool
			}{{"dst", dst()}, {"data", data()}, {"updates", upd()}} {
				if !p.gone {
					t.Errorf("%v, in place %v: the %s of a finished call are still reachable", d, inPlace, p.name)
				}
			}
		}
	}
}

// scatterOnce runs a ScatterND of 4096 updates into [4096] elements of
// type d, in place or not, and returns whether each of its tensors' memory
// has been collected.
//
//go:noinline
func scatterOnce(t *testing.T, d tensor.DType, inPlace bool) (dst, data, upd func() bool) {
	const n = 4096
	data0, upd0 := tensor.Must(tensor.New(d, tensor.Shape{n})), tensor.Must(tensor.New(d, tensor.Shape{n}))
	dst0 := data0
	if !inPlace {
		dst0 = tensor.Must(tensor.New(d, tensor.Shape{n}))
	}
	ind := make([]int64, n)
	for i := range ind {
		ind[i] = int64(n - 1 - i)
	}
	if err := ScatterND(dst0, data0, tensor.Must(tensor.From(tensor.Shape{n, 1}, ind)), upd0, ScatterOptions{}); err != nil {
		t.Fatal(err)
	}
	gone := func(x tensor.Tensor) func() bool {
		p, _, _ := sliceOf(&x)
		w := weak.Make((*byte)(p)) // the start of the element array
		return func() bool { return w.Value() == nil }
	}
	return gone(dst0), gone(data0), gone(upd0)
}
