package numpy_test

import (
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/dialect/numpy"
	"github.com/scatter-dev/scatter/tensor"
)

// BenchmarkTakeRows takes 65536 rows of 16 float32 from a [65536,16]
// array along axis 0 into a reused output (W8-like).
func BenchmarkTakeRows(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 9))
	a := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{65536, 16}))
	pos := make([]int64, 65536)
	for i := range pos {
		pos[i] = rng.Int64N(65536)
	}
	ind := tensor.Must(tensor.From(tensor.Shape{65536}, pos))
	out := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{65536, 16}))
	b.ReportAllocs()
	for b.Loop() {
		if err := numpy.TakeInto(out, a, ind, numpy.AxisAt(0), numpy.ModeRaise); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAddAtRows is W10's shape (../shared/bench/WORKLOADS.md) as
// np.add.at(out, ids, data): 1048576 rows of 16 float32 added into
// [65536,16] zeros, in place.
func BenchmarkAddAtRows(b *testing.B) {
	rng := rand.New(rand.NewPCG(10, 10))
	ids := make([]int64, 1<<20)
	for i := range ids {
		ids[i] = rng.Int64N(65536)
	}
	data := make([]float32, 16<<20)
	for i := range data {
		data[i] = rng.Float32()
	}
	idx := numpy.Indices{tensor.Must(tensor.From(tensor.Shape{1 << 20}, ids))}
	upd := tensor.Must(tensor.From(tensor.Shape{1 << 20, 16}, data))
	out := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{65536, 16}))
	b.ReportAllocs()
	for b.Loop() {
		if err := numpy.AddAt(out, idx, upd); err != nil {
			b.Fatal(err)
		}
	}
}
