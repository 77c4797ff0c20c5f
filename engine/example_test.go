package engine_test

import (
	"errors"
	"fmt"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// The general gather with dimension numbers: rows 2 and 0 of a [3,4]
// operand, each a slice [1,4] whose dimension 0 is collapsed, so that the
// result is [2,4]. An index out of range is clamped so that its slice
// fits, as StableHLO does, unless the rules say otherwise.
func ExampleGatherGeneral() {
	operand := tensor.Must(tensor.From(tensor.Shape{3, 4}, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{2, 0}))
	dims := &engine.GatherDims{
		OffsetDims:         []int{1},
		CollapsedSliceDims: []int{0},
		StartIndexMap:      []int{0},
		IndexVectorDim:     1,
		SliceSizes:         []int{1, 4},
	}
	dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2, 4}))
	if err := engine.GatherGeneral(dst, operand, indices, dims, engine.GatherOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(dst)
	// Output:
	// float32[2,4] [[8 9 10 11] [0 1 2 3]]
}

// ScatterND adds updates at index tuples, duplicates accumulating in
// index order; a negative index counts from the end only when the rules
// say so, and an error names the offending index.
func ExampleScatterND() {
	data := tensor.Must(tensor.From(tensor.Shape{4}, []int32{1, 2, 3, 4}))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int64{0, -1, 0}))
	updates := tensor.Must(tensor.From(tensor.Shape{3}, []int32{10, 20, 30}))
	dst := tensor.Must(tensor.New(tensor.Int32, tensor.Shape{4}))
	opt := engine.ScatterOptions{Reduction: engine.Add, Rules: engine.IndexRules{Negative: engine.NegativeFromEnd}}
	if err := engine.ScatterND(dst, data, indices, updates, opt); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(dst)

	opt.Rules.Negative = engine.NegativeError
	err := engine.ScatterND(dst, data, indices, updates, opt)
	var ie *engine.IndexError
	fmt.Println(errors.Is(err, engine.ErrIndex), errors.As(err, &ie) && ie.Value == -1)
	fmt.Println(err)
	// Output:
	// int32[4] [41 2 3 24]
	// true true
	// index out of range: indices[1] = [-1]: component 0 is -1, allowed range [0, 3] for dimension 0 of data [4]
}
