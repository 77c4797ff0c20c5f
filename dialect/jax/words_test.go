package jax

import (
	"errors"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// TestScatterErrorsInJAXWords: a scatter's error about the operand's
// batching dimensions names them as lax.ScatterDimensionNumbers does,
// operand_batching_dims, and still wraps the engine's error.
func TestScatterErrorsInJAXWords(t *testing.T) {
	operand := tensor.Must(tensor.From(tensor.Shape{2, 2}, []float32{1, 2, 3, 4}))
	indices := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{0}))
	updates := tensor.Must(tensor.From(tensor.Shape{1, 2}, []float32{5, 6}))
	dims := ScatterDimensionNumbers{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0},
		ScatterDimsToOperandDims: []int{0}, OperandBatchingDims: []int{1}}
	_, err := Scatter(operand, indices, updates, dims, "")
	if err == nil || !strings.Contains(err.Error(), "operand_batching_dims") || strings.Contains(err.Error(), "input_batching_dims") ||
		!errors.Is(err, engine.ErrArgument) {
		t.Errorf("a scatter with too many window and batching dims: %v, want an ErrArgument naming operand_batching_dims", err)
	}
}
