package jax_test

import (
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/dialect/jax"
	"github.com/scatter-dev/scatter/tensor"
)

// TestGatherFillsWhatItDrops: rows of a gather whose start is out of
// bounds under mode "fill" are the fill value, zero here, in an output
// that TestMain poisons: a row left unwritten would read 0xa5 bytes.
func TestGatherFillsWhatItDrops(t *testing.T) {
	x := tensor.Must(tensor.From(tensor.Shape{3, 2}, []int32{10, 11, 20, 21, 30, 31}))
	indices := tensor.Must(tensor.From(tensor.Shape{4, 1}, []int32{2, 7, 0, -1}))
	dims := jax.GatherDimensionNumbers{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}}
	zero := tensor.Must(tensor.From(tensor.Shape{}, []int32{0}))
	for _, mode := range []jax.Mode{jax.Fill, jax.Drop} {
		out, err := jax.Gather(x, indices, dims, []int{1, 2}, mode, zero)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := out.Data().([]int32), []int32{30, 31, 0, 0, 10, 11, 0, 0}; !slices.Equal(got, want) {
			t.Errorf("mode %s: %v, want %v", mode, got, want)
		}
	}
}
