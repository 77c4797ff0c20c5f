package stablehlo_test

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect/stablehlo"
	"github.com/scatter-dev/scatter/tensor"
)

// iota returns the int64 tensor of the given shape holding 1, 2, 3, ...
func iota(shape tensor.Shape) tensor.Tensor {
	n, _ := shape.NumElements()
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(i + 1)
	}
	return tensor.Must(tensor.From(shape, v))
}

func ExampleGather() {
	// The example of the StableHLO specification: slices of 2x2 from a
	// 2x3x4x2 operand, with a batching dimension; the start index [0, 9]
	// is clamped to [0, 2] so that its slice fits.
	operand := iota(tensor.Shape{2, 3, 4, 2})
	startIndices := tensor.Must(tensor.From(tensor.Shape{2, 2, 3, 2}, []int64{
		0, 0, 1, 0, 2, 1,
		0, 1, 1, 1, 0, 9,
		0, 0, 2, 1, 2, 2,
		1, 2, 0, 1, 1, 0}))
	out, err := stablehlo.Gather(operand, startIndices, stablehlo.GatherDims{
		OffsetDims:               []int{3, 4},
		CollapsedSliceDims:       []int{1},
		OperandBatchingDims:      []int{0},
		StartIndicesBatchingDims: []int{1},
		StartIndexMap:            []int{2, 1},
		IndexVectorDim:           3,
		SliceSizes:               []int{1, 1, 2, 2},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Shape())
	fmt.Println(out.Data())
	// Output:
	// [2,2,3,2,2]
	// [1 2 3 4 3 4 5 6 13 14 15 16 33 34 35 36 35 36 37 38 41 42 43 44 1 2 3 4 13 14 15 16 21 22 23 24 43 44 45 46 33 34 35 36 27 28 29 30]
}

func ExampleScatter() {
	// The example of the StableHLO specification: windows of ones added
	// into a 2x3x4x2 operand; the window at [0, 9] does not fit and is
	// skipped.
	input := iota(tensor.Shape{2, 3, 4, 2})
	scatterIndices := tensor.Must(tensor.From(tensor.Shape{2, 2, 3, 2}, []int64{
		0, 0, 1, 0, 2, 1,
		0, 1, 1, 1, 0, 9,
		0, 0, 2, 1, 2, 2,
		1, 2, 0, 1, 1, 0}))
	ones := make([]int64, 2*2*3*2*2)
	for i := range ones {
		ones[i] = 1
	}
	updates := tensor.Must(tensor.From(tensor.Shape{2, 2, 3, 2, 2}, ones))
	out, err := stablehlo.Scatter(input, scatterIndices, updates, stablehlo.ScatterDims{
		UpdateWindowDims:           []int{3, 4},
		InsertedWindowDims:         []int{1},
		InputBatchingDims:          []int{0},
		ScatterIndicesBatchingDims: []int{1},
		ScatterDimsToOperandDims:   []int{2, 1},
		IndexVectorDim:             3,
	}, stablehlo.Add)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Data())
	// Output: [3 4 6 7 6 7 7 8 9 10 11 12 15 16 17 18 17 18 19 20 22 23 24 25 25 26 28 29 30 31 31 32 35 36 38 39 38 39 39 40 41 42 44 45 46 47 47 48]
}

func ExampleDynamicSlice() {
	// The example of the StableHLO specification: the start [-1, 3] is
	// clamped to [0, 2].
	operand := tensor.Must(tensor.From(tensor.Shape{4, 4}, []int32{
		0, 0, 1, 1,
		0, 0, 1, 1,
		0, 0, 0, 0,
		0, 0, 0, 0}))
	out, err := stablehlo.DynamicSlice(operand, []tensor.Tensor{tensor.Scalar(int64(-1)), tensor.Scalar(int64(3))}, []int{2, 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Data())
	// Output: [1 1 1 1]
}

func ExampleDynamicUpdateSliceInto() {
	// The example of the StableHLO specification, in place: the start
	// [-1, 3] is clamped to [0, 2].
	buf := []int32{
		1, 1, 0, 0,
		1, 1, 0, 0,
		1, 1, 1, 1,
		1, 1, 1, 1}
	operand := tensor.Must(tensor.From(tensor.Shape{4, 4}, buf))
	update := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int32{1, 1, 1, 1}))
	start := []tensor.Tensor{tensor.Scalar(int64(-1)), tensor.Scalar(int64(3))}
	if err := stablehlo.DynamicUpdateSliceInto(operand, operand, update, start); err != nil {
		panic(err)
	}
	fmt.Println(buf)
	// Output: [1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1]
}
