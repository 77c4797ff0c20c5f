package onnx_test

import (
	"errors"
	"fmt"

	"github.com/scatter-dev/scatter/dialect/onnx"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

func ExampleOpset_ScatterND() {
	// The first example of the ONNX specification: plain Go slices wrapped
	// as tensors, without copying.
	data := tensor.Must(tensor.From(tensor.Shape{8}, []float32{1, 2, 3, 4, 5, 6, 7, 8}))
	indices := tensor.Must(tensor.From(tensor.Shape{4, 1}, []int64{4, 3, 1, 7}))
	updates := tensor.Must(tensor.From(tensor.Shape{4}, []float32{9, 10, 11, 12}))

	out, err := onnx.Latest.ScatterND(data, indices, updates, onnx.ReductionNone)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Data())
	// Output: [1 11 3 10 9 6 7 12]
}

func ExampleOpset_ScatterNDInto() {
	// Reuse a destination across calls; dst may be data itself.
	buf := []float32{1, 1, 1, 1}
	data := tensor.Must(tensor.From(tensor.Shape{4}, buf))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int64{0, 0, -1}))
	updates := tensor.Must(tensor.From(tensor.Shape{3}, []float32{2, 3, 4}))

	if err := onnx.Opset(16).ScatterNDInto(data, data, indices, updates, onnx.ReductionAdd); err != nil {
		panic(err)
	}
	fmt.Println(buf)
	// Output: [6 1 1 5]
}

func ExampleOpset_ScatterND_error() {
	data := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{4, 4}))
	indices := tensor.Must(tensor.From(tensor.Shape{1, 2}, []int64{1, 4}))
	updates := tensor.Must(tensor.From(tensor.Shape{1}, []float32{1}))

	_, err := onnx.Latest.ScatterND(data, indices, updates, "")
	fmt.Println(err)
	var ie *engine.IndexError
	if errors.As(err, &ie) {
		fmt.Println("value", ie.Value, "at", ie.Pos, "dimension", ie.Dim)
	}
	// Output:
	// onnx.ScatterND: index out of range: indices[0] = [1, 4]: component 1 is 4, allowed range [-4, 3] for dimension 1 of data [4,4]
	// value 4 at [0 1] dimension 1
}

func ExampleOpset_ScatterElements() {
	data := tensor.Must(tensor.From(tensor.Shape{1, 5}, []float32{1, 2, 3, 4, 5}))
	indices := tensor.Must(tensor.From(tensor.Shape{1, 2}, []int64{1, 1}))
	updates := tensor.Must(tensor.From(tensor.Shape{1, 2}, []float32{1.1, 2.1}))

	for _, reduction := range []onnx.Reduction{onnx.ReductionNone, onnx.ReductionAdd, onnx.ReductionMax} {
		out, err := onnx.Latest.ScatterElements(data, indices, updates, 1, reduction)
		if err != nil {
			panic(err)
		}
		fmt.Println(reduction, out)
	}
	_, err := onnx.Opset(16).ScatterElements(data, indices, updates, 1, onnx.ReductionMax)
	fmt.Println(err)
	// Output:
	// none float32[1,5] [[1 2.1 3 4 5]]
	// add float32[1,5] [[1 5.2 3 4 5]]
	// max float32[1,5] [[1 2.1 3 4 5]]
	// onnx.ScatterElements: invalid attribute: reduction "max" is not allowed in version 16 (allowed: none, add, mul)
}

func ExampleOpset_Scatter() {
	data := tensor.Must(tensor.From(tensor.Shape{1, 5}, []float32{1, 2, 3, 4, 5}))
	indices := tensor.Must(tensor.From(tensor.Shape{1, 2}, []int32{1, 3}))
	updates := tensor.Must(tensor.From(tensor.Shape{1, 2}, []float32{1.1, 2.1}))

	out, err := onnx.Opset(10).Scatter(data, indices, updates, 1)
	fmt.Println(out, err)
	_, err = onnx.Opset(11).Scatter(data, indices, updates, 1)
	fmt.Println(err)
	// Output:
	// float32[1,5] [[1 1.1 3 2.1 5]] <nil>
	// onnx.Scatter: not defined at this version: the operator was removed in opset 11 (requested 11)
}

func ExampleOpset_GatherND() {
	data := tensor.Must(tensor.From(tensor.Shape{2, 2, 2}, []int32{0, 1, 2, 3, 4, 5, 6, 7}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{1, 0}))

	out, err := onnx.Latest.GatherND(data, indices, 1) // batch_dims = 1
	fmt.Println(out, err)
	// Output: int32[2,2] [[2 3] [4 5]] <nil>
}

func ExampleOpset_GatherElements() {
	data := tensor.Must(tensor.From(tensor.Shape{3, 3}, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 3}, []int64{-1, -2, 0, -2, 0, 0}))

	out, err := onnx.Latest.GatherElements(data, indices, 0)
	fmt.Println(out, err)
	// Output: float32[2,3] [[7 5 3] [4 2 3]] <nil>
}

func ExampleOpset_Gather() {
	embeddings := tensor.Must(tensor.From(tensor.Shape{4, 2}, []float32{0, 0, 1, 1, 2, 2, 3, 3}))
	ids := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int64{3, 1, 0, -1}))

	out, err := onnx.Latest.Gather(embeddings, ids, 0)
	fmt.Println(out, err)
	// Output: float32[2,2,2] [[[3 3] [1 1]] [[0 0] [3 3]]] <nil>
}

func ExampleOpset_GatherInto() {
	data := tensor.Must(tensor.From(tensor.Shape{3}, []string{"a", "b", "c"}))
	dst := tensor.Must(tensor.New(tensor.String, tensor.Shape{2}))
	indices := tensor.Must(tensor.From(tensor.Shape{2}, []int32{2, 0}))

	err := onnx.Latest.GatherInto(dst, data, indices, 0)
	fmt.Println(dst, err)
	// Output: string[2] ["c" "a"] <nil>
}

func ExampleReduction() {
	// A reduction named at run time (a flag, a model's attribute) is a
	// string converted to Reduction; whether the opset accepts it is
	// checked by the call.
	data := tensor.Must(tensor.From(tensor.Shape{3}, []int32{5, 5, 5}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{0, 0}))
	updates := tensor.Must(tensor.From(tensor.Shape{2}, []int32{2, 3}))

	for _, name := range []string{"mul", "max", "sum"} {
		out, err := onnx.Opset(16).ScatterND(data, indices, updates, onnx.Reduction(name))
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(name, out)
	}
	// Output:
	// mul int32[3] [30 5 5]
	// onnx.ScatterND: invalid attribute: reduction "max" is not allowed in version 16 (allowed: none, add, mul)
	// onnx.ScatterND: invalid attribute: reduction "sum" is not allowed in version 16 (allowed: none, add, mul)
}
