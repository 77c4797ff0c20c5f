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

func Example_segments() {
	// TensorFlow's, JAX's, NumPy's and PyTorch's segment maximum of three
	// rows into four segments, one id negative: NumPy's maximum.at and
	// PyTorch's index_reduce scatter the rows into zeros that compare
	// builds (num_segments rows of data's row shape).
	rep, err := compare.Run(compare.Request{
		Family: "segment_max",
		Inputs: map[string]tensor.Tensor{
			"data":        tensor.Must(tensor.Parse("float32:[4, -3, 5]")),
			"segment_ids": tensor.Must(tensor.Parse("int64:[0, -1, 0]")),
		},
		Attrs: map[string]dialect.Value{"num_segments": {Kind: dialect.Int, Int: 3}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := rep.WriteText(os.Stdout, 10); err != nil {
		fmt.Println(err)
	}
	// Output:
	// compare segment_max: jax.ops.segment_max, numpy.maximum.at, tf.math.unsorted_segment_max, torch.index_reduce
	//   jax.ops.segment_max           data, segment_ids=indices, num_segments
	//   numpy.maximum.at              a=[3] filled with 0 (num_segments rows), indices, b=data (the rows)
	//   tf.math.unsorted_segment_max  data, segment_ids=indices, num_segments
	//   torch.index_reduce            input=[3] filled with 0 (num_segments rows), index=indices, source=data (the rows), dim=0, reduce=amax, include_self=false
	// results:
	//   jax.ops.segment_max           ok     float32[3] [5 -Inf -Inf]
	//   numpy.maximum.at              ok     float32[3] [5 0 0]
	//   tf.math.unsorted_segment_max  ok     float32[3] [5 -3.4028235e+38 -3.4028235e+38]
	//   torch.index_reduce            error  torch.index_reduce: index out of range: index[1] = -1 is out of bounds for dimension 0 with size 3 (input [3], allowed range [0, 2])
	// outcomes differ: ok: jax.ops.segment_max, numpy.maximum.at, tf.math.unsorted_segment_max; index out of range: torch.index_reduce
	//     why: negative index indices[1] = -1 (dimension 0 of size 3): jax.ops.segment_max: a negative index is dropped, as every index out of range; numpy.maximum.at: it counts from the end; tf.math.unsorted_segment_max: a negative index is dropped; torch.index_reduce: a negative index is an error
	// 2 of 3 cells differ:
	//   [1]  jax.ops.segment_max: -Inf | numpy.maximum.at: 0 | tf.math.unsorted_segment_max: -3.4028235e+38  (no index lands here)
	//     why: no index lands here: jax.ops.segment_max: an empty segment holds -inf (the lowest integer, false); numpy.maximum.at: an empty segment holds 0: the destination compare starts it from (num_segments rows of 0); tf.math.unsorted_segment_max: an empty segment holds the lowest finite value of the type
	//   [2]  jax.ops.segment_max: -Inf | numpy.maximum.at: 0 | tf.math.unsorted_segment_max: -3.4028235e+38  (from indices[1] = -1)
	//     why: a negative index lands here: indices[1] = -1: jax.ops.segment_max: a negative index is dropped, as every index out of range; numpy.maximum.at: it counts from the end; tf.math.unsorted_segment_max: a negative index is dropped
	//     why: the value already here: jax.ops.segment_max, tf.math.unsorted_segment_max: a segment reduces its own rows only: there is no value already here; numpy.maximum.at: the existing value always takes part (no include_self): the 0 compare starts from
	// differ: outcomes, 2 cells
}
