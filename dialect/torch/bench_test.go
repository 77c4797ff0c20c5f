package torch_test

import (
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/dialect/torch"
	"github.com/scatter-dev/scatter/tensor"
)

// Small calls into a reused destination, where the per-call work of the
// dialect (checks, Behavior, options) is a large part of the time.

func smallInputs(b *testing.B) (input, index, src, out tensor.Tensor) {
	b.Helper()
	in := make([]float32, 8*16)
	for i := range in {
		in[i] = float32(i)
	}
	idx := make([]int64, 8*4)
	for i := range idx {
		idx[i] = int64(i*7) % 16
	}
	input = tensor.Must(tensor.Wrap(tensor.Shape{8, 16}, in))
	index = tensor.Must(tensor.Wrap(tensor.Shape{8, 4}, idx))
	src = tensor.Must(tensor.Wrap(tensor.Shape{8, 4}, make([]float32, 8*4)))
	out = tensor.Must(tensor.Wrap(tensor.Shape{8, 4}, make([]float32, 8*4)))
	return input, index, src, out
}

func BenchmarkScatterAddIntoSmall(b *testing.B) {
	input, index, src, _ := smallInputs(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := torch.ScatterAddInto(input, input, 1, index, src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScatterReduceIntoSmall(b *testing.B) {
	input, index, src, _ := smallInputs(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := torch.ScatterReduceInto(input, input, 1, index, src, "amax", true); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGatherIntoSmall(b *testing.B) {
	input, index, _, out := smallInputs(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := torch.GatherInto(out, input, 1, index); err != nil {
			b.Fatal(err)
		}
	}
}

// segmentInputs are W10's and W12's shapes (shared/bench/WORKLOADS.md):
// [1048576,16] float32 rows, ids uniform in [0,65536), into [65536,16].
func segmentInputs(b *testing.B, seed uint64) (data, ids, out tensor.Tensor) {
	b.Helper()
	rng := rand.New(rand.NewPCG(seed, 0))
	const n, segments, width = 1 << 20, 1 << 16, 16
	d := make([]float32, n*width)
	for i := range d {
		d[i] = rng.Float32()*2 - 1
	}
	v := make([]int64, n)
	for i := range v {
		v[i] = rng.Int64N(segments)
	}
	data = tensor.Must(tensor.Wrap(tensor.Shape{n, width}, d))
	ids = tensor.Must(tensor.Wrap(tensor.Shape{n}, v))
	out = tensor.Must(tensor.New(tensor.Float32, tensor.Shape{segments, width}))
	return data, ids, out
}

// BenchmarkW10IndexAdd is W10 as torch.index_add into zeros along dim 0,
// into a reused output (zeroed each call, as PyTorch's zeros + index_add_).
func BenchmarkW10IndexAdd(b *testing.B) {
	data, ids, out := segmentInputs(b, 10)
	zeros := tensor.Must(tensor.New(tensor.Float32, out.Shape()))
	b.ReportAllocs()
	for b.Loop() {
		if err := torch.IndexAddInto(out, zeros, 0, ids, data, torch.Int(1)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkW12IndexReduce is W12 as torch.index_reduce amax without self
// along dim 0.
func BenchmarkW12IndexReduce(b *testing.B) {
	data, ids, out := segmentInputs(b, 12)
	zeros := tensor.Must(tensor.New(tensor.Float32, out.Shape()))
	b.ReportAllocs()
	for b.Loop() {
		if err := torch.IndexReduceInto(out, zeros, 0, ids, data, torch.ReduceAmax, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkS8Put is S8 as torch.put in place: 64 distinct positions of a
// [4096] float32 tensor.
func BenchmarkS8Put(b *testing.B) {
	rng := rand.New(rand.NewPCG(8, 0))
	x := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{4096}))
	pos := rng.Perm(4096)[:64]
	idx := make([]int64, 64)
	vals := make([]float32, 64)
	for i, p := range pos {
		idx[i], vals[i] = int64(p), rng.Float32()
	}
	index := tensor.Must(tensor.Wrap(tensor.Shape{64}, idx))
	source := tensor.Must(tensor.Wrap(tensor.Shape{64}, vals))
	b.ReportAllocs()
	for b.Loop() {
		if err := torch.PutInto(x, x, index, source, false); err != nil {
			b.Fatal(err)
		}
	}
}
