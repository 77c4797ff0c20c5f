package stablehlo_test

import (
	"testing"

	"github.com/scatter-dev/scatter/dialect/stablehlo"
	"github.com/scatter-dev/scatter/tensor"
)

// Small calls into a reused destination, where the per-call work of the
// dialect (checks, options) is a large part of the time.

func BenchmarkScatterIntoSmall(b *testing.B) {
	data := tensor.Must(tensor.Wrap(tensor.Shape{16, 8}, make([]float32, 16*8)))
	indices := tensor.Must(tensor.Wrap(tensor.Shape{4, 1}, []int64{3, 0, 9, 3}))
	updates := tensor.Must(tensor.Wrap(tensor.Shape{4, 8}, make([]float32, 4*8)))
	dims := stablehlo.ScatterDims{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0},
		ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}
	b.ReportAllocs()
	for b.Loop() {
		if err := stablehlo.ScatterInto(data, data, indices, updates, dims, stablehlo.Add); err != nil {
			b.Fatal(err)
		}
	}
}
