package compare_test

import (
	"fmt"
	"os"

	"github.com/scatter-dev/scatter/compare"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/tensor"
)

func Example() {
	// The first example of ONNX's ScatterND, with index 3 written as -5,
	// through every dialect's plain-update member of the family. Inputs
	// may use any dialect's names.
	rep, err := compare.Run(compare.Request{
		Family: "scatter_nd",
		Inputs: map[string]tensor.Tensor{
			"data":    tensor.Must(tensor.Parse("float32:[1, 2, 3, 4, 5, 6, 7, 8]")),
			"indices": tensor.Must(tensor.Parse("int64:[[4], [-5], [1], [7]]")),
			"src":     tensor.Must(tensor.Parse("float32:[9, 10, 11, 12]")),
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := rep.WriteText(os.Stdout, 10); err != nil {
		fmt.Println(err)
	}
	// Output:
	// compare scatter_nd: onnx.ScatterND-18, openvino.ScatterNDUpdate-15, tf.tensor_scatter_nd_update
	//   onnx.ScatterND-18            data, indices, updates
	//   openvino.ScatterNDUpdate-15  data, indices, updates
	//   tf.tensor_scatter_nd_update  tensor=data, indices, updates
	// left out:
	//   mindspore.scatter_nd: takes no data: starts from zeros of data's shape, and data is not all zeros; always add (no reduction to choose), not none
	//   tf.scatter_nd: takes no data: starts from zeros of data's shape, and data is not all zeros; always add (no reduction to choose), not none
	//   tf.tensor_scatter_nd_add: always add (no reduction to choose), not none
	//   tf.tensor_scatter_nd_max: always max (no reduction to choose), not none
	//   tf.tensor_scatter_nd_min: always min (no reduction to choose), not none
	//   tf.tensor_scatter_nd_sub: always sub (no reduction to choose), not none
	// results:
	//   onnx.ScatterND-18            ok     float32[8] [1 11 3 10 9 6 7 12]
	//   openvino.ScatterNDUpdate-15  ok     float32[8] [1 11 3 10 9 6 7 12]
	//   tf.tensor_scatter_nd_update  error  tf.tensor_scatter_nd_update: indices[1] = [-5] does not index into shape [8]
	// outcomes differ: ok: onnx.ScatterND-18, openvino.ScatterNDUpdate-15; index out of range: tf.tensor_scatter_nd_update
	//     why: negative index indices[1] = [-5] (dimension 0 of size 8): onnx.ScatterND-18, openvino.ScatterNDUpdate-15: it counts from the end; tf.tensor_scatter_nd_update: a negative index is an error
	// differ: outcomes
}

func ExampleRoleOf() {
	for _, name := range []string{"params", "input_x", "src", "dim", "use_init_val", "batch_dims"} {
		role, _ := compare.RoleOf(name)
		fmt.Println(name, "->", role)
	}
	// Output:
	// params -> data
	// input_x -> data
	// src -> updates
	// dim -> axis
	// use_init_val -> include_self
	// batch_dims -> batch_dims
}

func ExampleReport_Agree() {
	// PyTorch's scatter_reduce without include_self against ONNX's
	// ScatterElements, which always includes the existing value.
	rep, err := compare.Run(compare.Request{
		Ops: []string{"torch.scatter_reduce", "onnx.ScatterElements"},
		Inputs: map[string]tensor.Tensor{
			"input": tensor.Must(tensor.Parse("float32:[1, 2, 3, 4]")),
			"index": tensor.Must(tensor.Parse("int64:[0, 1, 0, 1, 2, 1]")),
			"src":   tensor.Must(tensor.Parse("float32:[1, 2, 3, 4, 5, 6]")),
		},
		Attrs: map[string]dialect.Value{
			"reduce":       {Kind: dialect.String, Str: "sum"},
			"include_self": {Kind: dialect.Bool, Bool: false},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Agree(), rep.Differing, "of", rep.Compared)
	for _, g := range rep.Cells {
		for _, r := range g.Why {
			fmt.Println(r)
		}
	}
	// Output:
	// false 3 of 4
	// the value already here: torch.scatter_reduce: include_self=false: the existing value does not take part; onnx.ScatterElements-18: the existing value always takes part (no include_self)
}
