package openvino_test

import (
	"errors"
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/openvino"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

func ExampleOpset_ScatterElementsUpdate() {
	// Examples 1 and 2 of the ScatterElementsUpdate-12 specification:
	// reduction sum with and without data's own values. Index -2 is
	// element 2, -1 element 3.
	data := tensor.Must(tensor.From(tensor.Shape{4}, []float32{2, 3, 4, 6}))
	indices := tensor.Must(tensor.From(tensor.Shape{6}, []int64{1, 0, 0, -2, -1, 2}))
	updates := tensor.Must(tensor.From(tensor.Shape{6}, []float32{10, 20, 30, 40, 70, 60}))

	for _, useInitVal := range []bool{true, false} {
		out, err := openvino.Latest.ScatterElementsUpdate(data, indices, updates, 0, "sum", useInitVal)
		fmt.Println(useInitVal, out, err)
	}
	// Version 3 has no reduction, and no negative indices.
	_, err := openvino.Opset(3).ScatterElementsUpdate(data, indices, updates, 0, "", true)
	fmt.Println(err)
	// Output:
	// true float32[4] [52 13 104 76] <nil>
	// false float32[4] [50 10 100 70] <nil>
	// openvino.ScatterElementsUpdate: index out of range: indices[3] = -2, allowed range [0, 3] for dimension 0 of data [4]
}

func ExampleOpset_ScatterElementsUpdateInto() {
	// In place: dst is data itself. Integer mean rounds toward negative
	// infinity: (1 - 4) / 2 = -1.5 gives -2.
	buf := []int32{1, 1, 1}
	data := tensor.Must(tensor.From(tensor.Shape{3}, buf))
	indices := tensor.Must(tensor.From(tensor.Shape{2}, []uint8{0, 2}))
	updates := tensor.Must(tensor.From(tensor.Shape{2}, []int32{-4, 4}))

	err := openvino.Latest.ScatterElementsUpdateInto(data, data, indices, updates, 0, openvino.ReductionMean, true)
	fmt.Println(buf, err)
	// Output: [-2 1 2] <nil>
}

func ExampleOpset_ScatterNDUpdate() {
	// Index -3 is element 1. Version 15 counts it from the end and
	// subtracts in index order; version 3 refuses it.
	data := tensor.Must(tensor.From(tensor.Shape{4}, []int32{1, 2, 3, 4}))
	indices := tensor.Must(tensor.From(tensor.Shape{5, 1}, []int32{0, 2, -3, -3, 0}))
	updates := tensor.Must(tensor.From(tensor.Shape{5}, []int32{10, 20, 30, 40, 50}))

	out, err := openvino.Opset(15).ScatterNDUpdate(data, indices, updates, openvino.ReductionSub)
	fmt.Println(out, err)
	_, err = openvino.Opset(3).ScatterNDUpdate(data, indices, updates, "")
	var ie *engine.IndexError
	fmt.Println(errors.As(err, &ie), ie.Value, ie.Min, ie.Max)
	// Output:
	// int32[4] [-59 -68 -17 4] <nil>
	// true -3 0 3
}

func ExampleOpset_ScatterNDUpdateInto() {
	// Replace a whole row; dst is data itself.
	buf := []float64{1, 2, 3, 4, 5, 6}
	data := tensor.Must(tensor.From(tensor.Shape{2, 3}, buf))
	indices := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{-1}))
	updates := tensor.Must(tensor.From(tensor.Shape{1, 3}, []float64{7, 8, 9}))

	err := openvino.Latest.ScatterNDUpdateInto(data, data, indices, updates, "")
	fmt.Println(buf, err)
	// Output: [1 2 3 7 8 9] <nil>
}

func ExampleOpset_GatherND() {
	// Example 6 of the GatherND specifications: two batch dimensions,
	// kept by version 8 and flattened into one by version 5.
	data := tensor.Must(tensor.From(tensor.Shape{2, 3, 4}, []int32{
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
		13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 3, 1, 1}, []int64{1, 0, 2, 0, 2, 2}))

	for _, opset := range []openvino.Opset{8, 5} {
		out, err := opset.GatherND(data, indices, 2)
		fmt.Println(opset, out, err)
	}
	// Output:
	// 8 int32[2,3,1] [[[2] [5] [11]] [[13] [19] [23]]] <nil>
	// 5 int32[6,1] [[2] [5] [11] [13] [19] [23]] <nil>
}

func ExampleOpset_GatherNDInto() {
	data := tensor.Must(tensor.From(tensor.Shape{2, 2}, []string{"a", "b", "c", "d"}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int8{0, 1, -1, 0}))
	dst := tensor.Must(tensor.New(tensor.String, tensor.Shape{2}))

	err := openvino.Latest.GatherNDInto(dst, data, indices, 0)
	fmt.Println(dst, err)
	// Output: string[2] ["b" "c"] <nil>
}

func ExampleOpset_GatherElements() {
	// Example 2 of the GatherElements-6 specification: indices longer
	// than data along the axis.
	data := tensor.Must(tensor.From(tensor.Shape{2, 2}, []float32{1, 7, 4, 3}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 3}, []int32{1, 1, 0, 1, 0, 1}))

	out, err := openvino.Latest.GatherElements(data, indices, 1)
	fmt.Println(out, err)
	// Output: float32[2,3] [[7 7 1] [3 4 3]] <nil>
}

func ExampleOpset_GatherElementsInto() {
	data := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int64{1, 2, 3, 4}))
	indices := tensor.Must(tensor.From(tensor.Shape{1, 2}, []int64{1, 0}))
	dst := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{1, 2}))

	err := openvino.Latest.GatherElementsInto(dst, data, indices, -2)
	fmt.Println(dst, err)
	// Output: int64[1,2] [[3 2]] <nil>
}

func ExampleOps() {
	// A generic call by name, as the command line makes it: the axis input
	// of ScatterElementsUpdate given as an attribute (--attr axis=-1).
	var seu *dialect.Op
	for _, op := range openvino.Ops() {
		if op.Name == "openvino.ScatterElementsUpdate" {
			seu = op
		}
	}
	out, err := seu.Run(dialect.Call{
		Opset: 12,
		Inputs: map[string]tensor.Tensor{
			"data":    tensor.Must(tensor.From(tensor.Shape{2, 2}, []float32{1, 2, 3, 4})),
			"indices": tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{-1, 0})),
			"updates": tensor.Must(tensor.From(tensor.Shape{2, 1}, []float32{10, 20})),
		},
		Attrs: map[string]dialect.Value{
			"axis":      {Kind: dialect.Int, Int: -1},
			"reduction": {Kind: dialect.String, Str: "max"},
		},
	})
	fmt.Println(out, err)
	// Output: float32[2,2] [[1 10] [20 4]] <nil>
}
