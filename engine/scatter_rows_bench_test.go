package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// BenchmarkScatterRows is WORKLOADS.md's W10 and W12 at the engine:
// [1048576,16] float32 rows reduced into [65536,16] at uniform ids, by
// ScatterND with one-component tuples, as the dialects call it (tf: onto
// a fill value; torch: onto a copy of zeros, amax without self). It
// reports the CPU time a call takes, which a loaded machine blurs less
// than the wall time.
func BenchmarkScatterRows(b *testing.B) {
	const n, segments, width = 1 << 20, 1 << 16, 16
	rng := rand.New(rand.NewPCG(10, 0))
	updates := RandomFloats(tensor.Float32, tensor.Shape{n, width}, func() float64 { return rng.Float64()*2 - 1 })
	v := make([]int64, n)
	for i := range v {
		v[i] = rng.Int64N(segments)
	}
	ids := tensor.Must(tensor.Wrap(tensor.Shape{n, 1}, v))
	dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{segments, width}))
	zeros := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{segments, width}))
	lowest := tensor.Must(tensor.Wrap(tensor.Shape{}, []float32{-3.4028235e38}))
	for _, c := range []struct {
		name string
		data tensor.Tensor
		opt  ScatterOptions
	}{
		{"sum/fill", tensor.Tensor{}, ScatterOptions{Reduction: Add}},
		{"sum/copy", zeros, ScatterOptions{Reduction: Add}},
		{"max/std-update", tensor.Tensor{}, ScatterOptions{Reduction: Max, Fill: lowest, Arith: Arith{MinMax: MinMaxStdUpdate}}},
		{"max/last-nan/exclude-self", zeros, ScatterOptions{Reduction: Max, ExcludeSelf: true, Arith: Arith{MinMax: MinMaxLastNaN}}},
		{"mean", tensor.Tensor{}, ScatterOptions{Reduction: Mean}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(4*updates.Len() + 8*len(v)))
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				if err := ScatterND(dst, c.data, ids, updates, c.opt); err != nil {
					b.Fatal(err)
				}
			}
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
