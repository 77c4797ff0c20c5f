package torch_test

import (
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
