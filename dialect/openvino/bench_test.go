package openvino_test

import (
	"testing"

	"github.com/scatter-dev/scatter/dialect/openvino"
	"github.com/scatter-dev/scatter/tensor"
)

// Small calls into a reused destination, where the per-call work of the
// dialect (version, Behavior, checks, options) is a large part of the
// time.

func BenchmarkScatterElementsUpdateIntoSmall(b *testing.B) {
	data := tensor.Must(tensor.Wrap(tensor.Shape{8, 16}, make([]float32, 8*16)))
	idx := make([]int64, 8*4)
	for i := range idx {
		idx[i] = int64(i*7) % 16
	}
	indices := tensor.Must(tensor.Wrap(tensor.Shape{8, 4}, idx))
	updates := tensor.Must(tensor.Wrap(tensor.Shape{8, 4}, make([]float32, 8*4)))
	b.ReportAllocs()
	for b.Loop() {
		if err := openvino.Latest.ScatterElementsUpdateInto(data, data, indices, updates, 1, "sum", true); err != nil {
			b.Fatal(err)
		}
	}
}

// ndInputs returns the tensors of the small ND calls: a [16,8] table, four
// row indices (one repeated) and four rows, updates or output.
func ndInputs() (data, indices, rows tensor.Tensor) {
	return tensor.Must(tensor.Wrap(tensor.Shape{16, 8}, make([]float32, 16*8))),
		tensor.Must(tensor.Wrap(tensor.Shape{4, 1}, []int64{3, 0, 9, 3})),
		tensor.Must(tensor.Wrap(tensor.Shape{4, 8}, make([]float32, 4*8)))
}

func BenchmarkScatterNDUpdateIntoSmall(b *testing.B) {
	data, indices, updates := ndInputs()
	b.ReportAllocs()
	for b.Loop() {
		if err := openvino.Latest.ScatterNDUpdateInto(data, data, indices, updates, "sum"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGatherNDIntoSmall(b *testing.B) {
	data, indices, out := ndInputs()
	b.ReportAllocs()
	for b.Loop() {
		if err := openvino.Latest.GatherNDInto(out, data, indices, 0); err != nil {
			b.Fatal(err)
		}
	}
}
