package mindspore_test

import (
	"errors"
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/mindspore"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

func ExampleScatterND() {
	// The second example of MindSpore's documentation: two elements of a
	// 3x3 zero tensor.
	indices := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int32{0, 1, 1, 1}))
	updates := tensor.Must(tensor.From(tensor.Shape{2}, []float32{3.2, 1.1}))

	out, err := mindspore.ScatterND(indices, updates, tensor.Shape{3, 3})
	fmt.Println(out, err)

	// Duplicate indices accumulate.
	indices = tensor.Must(tensor.From(tensor.Shape{3, 1}, []int64{1, 1, 0}))
	updates = tensor.Must(tensor.From(tensor.Shape{3}, []int32{5, 6, 7}))
	out, err = mindspore.ScatterND(indices, updates, tensor.Shape{3})
	fmt.Println(out, err)
	// Output:
	// float32[3,3] [[0 3.2 0] [0 1.1 0] [0 0 0]] <nil>
	// int32[3] [7 11 0] <nil>
}

func ExampleScatterND_error() {
	// Negative indices are errors in scatter_nd, and so is a shape with a
	// dimension below 1.
	indices := tensor.Must(tensor.From(tensor.Shape{1, 2}, []int64{1, -1}))
	updates := tensor.Must(tensor.From(tensor.Shape{1}, []float32{1}))

	_, err := mindspore.ScatterND(indices, updates, tensor.Shape{2, 2})
	fmt.Println(err)
	var ie *engine.IndexError
	if errors.As(err, &ie) {
		fmt.Println("value", ie.Value, "at", ie.Pos, "dimension", ie.Dim)
	}
	_, err = mindspore.ScatterND(indices, updates, tensor.Shape{2, 0})
	fmt.Println(err, errors.Is(err, dialect.ErrInput))
	// Output:
	// mindspore.scatter_nd: index out of range: indices[0] = [1, -1]: component 1 is -1, allowed range [0, 1] for dimension 1 of data [2,2]
	// value -1 at [0 1] dimension 1
	// mindspore.scatter_nd: invalid input: shape [2,0]: every dimension must be >= 1, shape[1] is 0 true
}

func ExampleScatterNDInto() {
	// dst gives the shape; whatever it held is replaced.
	buf := []float64{9, 9, 9, 9}
	dst := tensor.Must(tensor.From(tensor.Shape{2, 2}, buf))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int32{1, 1}))
	updates := tensor.Must(tensor.From(tensor.Shape{2, 2}, []float64{1, 2, 3, 4}))

	err := mindspore.ScatterNDInto(dst, indices, updates)
	fmt.Println(buf, err)
	// Output: [0 0 4 6] <nil>
}

func ExampleGatherND() {
	// The example of MindSpore's documentation.
	inputX := tensor.Must(tensor.From(tensor.Shape{2, 3}, []float32{-0.1, 0.3, 3.6, 0.4, 0.5, -3.2}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int32{0, 0, 1, 1}))

	out, err := mindspore.GatherND(inputX, indices)
	fmt.Println(out, err)

	// Slices, and an out-of-range index.
	rows := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{1, 0}))
	out, err = mindspore.GatherND(inputX, rows)
	fmt.Println(out, err)
	_, err = mindspore.GatherND(inputX, tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{2})))
	fmt.Println(err)
	// Output:
	// float32[2] [-0.1 0.5] <nil>
	// float32[2,3] [[0.4 0.5 -3.2] [-0.1 0.3 3.6]] <nil>
	// mindspore.gather_nd: index out of range: indices[0] = [2]: component 0 is 2, allowed range [0, 1] for dimension 0 of data [2,3]
}

func ExampleGatherNDInto() {
	inputX := tensor.Must(tensor.From(tensor.Shape{3}, []int8{10, 20, 30}))
	dst := tensor.Must(tensor.New(tensor.Int8, tensor.Shape{2}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int32{2, 0}))

	err := mindspore.GatherNDInto(dst, inputX, indices)
	fmt.Println(dst, err)
	// Output: int8[2] [30 10] <nil>
}

func ExampleTensorScatterElements() {
	// The second example of MindSpore's documentation: -1 counts from the
	// end, and add accumulates.
	inputX := tensor.Must(tensor.From(tensor.Shape{3, 3}, []int32{1, 2, 3, 4, 5, 6, 7, 8, 9}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 3}, []int32{1, -1, 2, 0, 2, 1}))
	updates := tensor.Must(tensor.From(tensor.Shape{2, 3}, []int32{1, 2, 2, 4, 5, 8}))

	out, err := mindspore.TensorScatterElements(inputX, indices, updates, 0, mindspore.ReductionAdd)
	fmt.Println(out, err)

	// Indices outside [-3, 2] are skipped without an error.
	indices = tensor.Must(tensor.From(tensor.Shape{2, 3}, []int32{3, -4, 2, 0, 9, -3}))
	out, err = mindspore.TensorScatterElements(inputX, indices, updates, 0, mindspore.ReductionNone)
	fmt.Println(out, err)
	// Output:
	// int32[3,3] [[5 2 3] [5 5 14] [7 15 11]] <nil>
	// int32[3,3] [[4 2 8] [4 5 6] [7 8 2]] <nil>
}

func ExampleTensorScatterElementsInto() {
	// An in-place update along the last axis.
	buf := []float32{1, 2, 3, 4, 5}
	x := tensor.Must(tensor.From(tensor.Shape{1, 5}, buf))
	indices := tensor.Must(tensor.From(tensor.Shape{1, 2}, []int64{2, 4}))
	updates := tensor.Must(tensor.From(tensor.Shape{1, 2}, []float32{8, 8}))

	err := mindspore.TensorScatterElementsInto(x, x, indices, updates, -1, mindspore.ReductionNone)
	fmt.Println(buf, err)
	// Output: [1 2 8 4 8] <nil>
}

func ExampleOps() {
	// A generic call by name, as the command line makes it: scatter_nd's
	// shape may be an attribute (`--attr shape=2,2`) or an input tensor.
	var scatterND *dialect.Op
	for _, op := range mindspore.Ops() {
		fmt.Println(op.Name, op.Versions)
		if op.Name == "mindspore.scatter_nd" {
			scatterND = op
		}
	}
	shape, _ := dialect.ParseValue(dialect.Ints, "2,2")
	out, err := scatterND.Run(dialect.Call{
		Inputs: map[string]tensor.Tensor{
			"indices": tensor.Must(tensor.From(tensor.Shape{1, 2}, []int64{1, 0})),
			"updates": tensor.Must(tensor.From(tensor.Shape{1}, []float32{5})),
		},
		Attrs: map[string]dialect.Value{"shape": shape},
	})
	fmt.Println(out, err)
	// Output:
	// mindspore.scatter_nd [1]
	// mindspore.gather_nd [1]
	// mindspore.tensor_scatter_elements [1]
	// float32[2,2] [[0 0] [5 0]] <nil>
}
