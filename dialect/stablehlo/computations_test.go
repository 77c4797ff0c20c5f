package stablehlo

import (
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// TestComputations holds computationList to the table of computations,
// and checks that each computation scatters with its own reduction:
// updates 12, 1 and 3 onto an int32 operand of 5 at one index give a
// value that tells every reduction apart.
func TestComputations(t *testing.T) {
	names := make([]string, len(computations))
	for i, e := range computations {
		names[i] = string(e.c)
	}
	if got := strings.Join(names, ", "); got != computationList {
		t.Errorf("computationList = %q, the table names %q", computationList, got)
	}
	want := map[Computation]int32{Replace: 3, Add: 21, Multiply: 180, Maximum: 12, Minimum: 1, And: 0, Or: 15, Xor: 11}
	dims := ScatterDims{UpdateWindowDims: []int{}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}
	for _, e := range computations {
		operand := tensor.Must(tensor.From(tensor.Shape{1}, []int32{5}))
		indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int64{0, 0, 0}))
		updates := tensor.Must(tensor.From(tensor.Shape{3}, []int32{12, 1, 3}))
		got, err := Scatter(operand, indices, updates, dims, e.c)
		if err != nil || got.Data().([]int32)[0] != want[e.c] {
			t.Errorf("%s: %v, %v; want [%d]", e.c, got, err, want[e.c])
		}
	}
}
