package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// BenchmarkGeneral times the general gather and scatter against the forms'
// fast paths on the same problems, the shapes of workloads W1, W2, W4, W5,
// W7 and W8 (writing into a reused dst): "fast" is the form's kernel,
// "general" the window walker with the form's dimension numbers. The
// general path is meant to stay within 1.25x of the fast one (issue 28).
func BenchmarkGeneral(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 1))
	f32 := func(s ...int) tensor.Tensor {
		t := tensor.Must(tensor.New(tensor.Float32, s))
		d := t.Data().([]float32)
		for i := range d {
			d[i] = rng.Float32()
		}
		return t
	}
	ints := func(n, size int, s ...int) tensor.Tensor {
		v := make([]int64, n)
		for i := range v {
			v[i] = rng.Int64N(int64(size))
		}
		return tensor.Must(tensor.From(s, v))
	}
	type problem struct {
		name string
		run  func(k kernels) error
		size int64 // bytes moved, for MB/s
	}
	var problems []problem
	{ // W1: ScatterND of single elements.
		data, upd := f32(4096, 4096), f32(1<<20)
		idx := ints(2<<20, 4096, 1<<20, 2)
		dst := f32(4096, 4096)
		problems = append(problems, problem{"W1-ScatterND-elem", func(k kernels) error {
			return k.ScatterND(dst, data, idx, upd, ScatterOptions{})
		}, 4 * (2*4096*4096 + 1<<20)})
	}
	{ // W2: ScatterND of rows.
		data, upd := f32(65536, 256), f32(16384, 256)
		idx := ints(16384, 65536, 16384, 1)
		dst := f32(65536, 256)
		problems = append(problems, problem{"W2-ScatterND-rows", func(k kernels) error {
			return k.ScatterND(dst, data, idx, upd, ScatterOptions{})
		}, 4 * (2*65536*256 + 16384*256)})
	}
	{ // W4: ScatterElements add along axis 1.
		data, upd := f32(4096, 4096), f32(4096, 1024)
		idx := ints(4096*1024, 4096, 4096, 1024)
		dst := f32(4096, 4096)
		problems = append(problems, problem{"W4-ScatterElements-add", func(k kernels) error {
			return k.ScatterElements(dst, data, idx, upd, 1, ScatterOptions{Reduction: Add})
		}, 4 * (2*4096*4096 + 4096*1024)})
	}
	{ // W5: GatherND of rows.
		data, dst := f32(65536, 256), f32(65536, 256)
		idx := ints(65536, 65536, 65536, 1)
		problems = append(problems, problem{"W5-GatherND-rows", func(k kernels) error {
			return k.GatherND(dst, data, idx, 0, IndexRules{})
		}, 4 * 2 * 65536 * 256})
	}
	{ // W7: GatherElements along axis 1.
		data, dst := f32(4096, 4096), f32(4096, 4096)
		idx := ints(4096*4096, 4096, 4096, 4096)
		problems = append(problems, problem{"W7-GatherElements", func(k kernels) error {
			return k.GatherElements(dst, data, idx, 1, IndexRules{})
		}, 4 * 2 * 4096 * 4096})
	}
	{ // W8: Gather along axis 0.
		data, dst := f32(65536, 256), f32(65536, 256)
		idx := ints(65536, 65536, 65536)
		problems = append(problems, problem{"W8-Gather", func(k kernels) error {
			return k.Gather(dst, data, idx, 0, 0, IndexRules{})
		}, 4 * 2 * 65536 * 256})
	}
	for _, p := range problems {
		for _, k := range bothKernels {
			b.Run(p.name+"/"+k.name, func(b *testing.B) {
				b.SetBytes(p.size)
				for b.Loop() {
					if err := p.run(k); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
