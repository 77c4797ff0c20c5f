package tf_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

func ExampleGatherND() {
	// The first example of TensorFlow's GatherNd documentation.
	params := tensor.Must(tensor.From(tensor.Shape{2, 2}, []string{"a", "b", "c", "d"}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int32{0, 0, 1, 1}))

	out, err := tf.GatherND(params, indices, 0)
	fmt.Println(out, err)
	// Output: string[2] ["a" "d"] <nil>
}

func ExampleGatherND_batchDims() {
	// With batch_dims = 1, each row of indices indexes its own matrix.
	params := tensor.Must(tensor.From(tensor.Shape{2, 2, 2}, []string{"a0", "b0", "c0", "d0", "a1", "b1", "c1", "d1"}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{1, 0}))

	out, err := tf.GatherND(params, indices, 1)
	fmt.Println(out, err)
	// Output: string[2,2] [["c0" "d0"] ["a1" "b1"]] <nil>
}

func ExampleGatherND_error() {
	params := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{4, 4}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int64{0, 0, 7, 0}))

	_, err := tf.GatherND(params, indices, 0)
	fmt.Println(err)
	var ie *engine.IndexError
	if errors.As(err, &ie) {
		fmt.Println("value", ie.Value, "at", ie.Pos, "dimension", ie.Dim, errors.Is(err, engine.ErrIndex))
	}
	// Output:
	// tf.gather_nd: indices[1] = [7, 0] does not index into param shape [4,4]
	// value 7 at [1 0] dimension 0 true
}

func ExampleGatherNDInto() {
	params := tensor.Must(tensor.From(tensor.Shape{3}, []float64{10, 20, 30}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int32{2, 0}))
	dst := tensor.Must(tensor.New(tensor.Float64, tensor.Shape{2}))

	err := tf.GatherNDInto(dst, params, indices, 0)
	fmt.Println(dst, err)
	// Output: float64[2] [30 10] <nil>
}

func ExampleGather() {
	params := tensor.Must(tensor.From(tensor.Shape{4, 3}, []float32{0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32}))
	rows := tensor.Must(tensor.From(tensor.Shape{2}, []int32{3, 1}))
	cols := tensor.Must(tensor.From(tensor.Shape{2}, []int32{2, 1}))

	out, err := tf.Gather(params, rows, 0, 0)
	fmt.Println(out, err)
	out, err = tf.Gather(params, cols, 1, 0)
	fmt.Println(out, err)
	_, err = tf.Gather(params, rows, 1, 0)
	fmt.Println(err)
	// Output:
	// float32[2,3] [[30 31 32] [10 11 12]] <nil>
	// float32[4,2] [[2 1] [12 11] [22 21] [32 31]] <nil>
	// tf.gather: indices[0] = 3 is not in [0, 3)
}

func ExampleGather_batchDims() {
	// tf.gather(params, indices, axis=1, batch_dims=1): one gather per row.
	params := tensor.Must(tensor.From(tensor.Shape{3, 5}, []int32{0, 0, 1, 0, 2, 3, 0, 0, 0, 4, 0, 5, 0, 6, 0}))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 2}, []int64{2, 4, 0, 4, 1, 3}))

	out, err := tf.Gather(params, indices, 1, 1)
	fmt.Println(out, err)
	// TensorFlow's axis=None is axis = batch_dims.
	out, err = tf.Gather(params, indices, -1, -1)
	fmt.Println(out, err)
	// Output:
	// int32[3,2] [[1 2] [3 4] [5 6]] <nil>
	// int32[3,2] [[1 2] [3 4] [5 6]] <nil>
}

func ExampleGatherInto() {
	params := tensor.Must(tensor.From(tensor.Shape{3}, []string{"a", "b", "c"}))
	indices := tensor.Must(tensor.From(tensor.Shape{2}, []int64{2, 0}))
	dst := tensor.Must(tensor.New(tensor.String, tensor.Shape{2}))

	err := tf.GatherInto(dst, params, indices, 0, 0)
	fmt.Println(dst, err)
	// Output: string[2] ["c" "a"] <nil>
}

func ExampleScatterND() {
	// The first example of tf.scatter_nd's documentation.
	indices := tensor.Must(tensor.From(tensor.Shape{4, 1}, []int32{4, 3, 1, 7}))
	updates := tensor.Must(tensor.From(tensor.Shape{4}, []int32{9, 10, 11, 12}))

	out, err := tf.ScatterND(indices, updates, tensor.Shape{8})
	fmt.Println(out, err)
	// Output: int32[8] [0 11 0 10 9 0 0 12] <nil>
}

func ExampleScatterND_duplicates() {
	// Duplicate indices are summed; strings are concatenated.
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int64{1, 0, 1}))

	out, err := tf.ScatterND(indices, tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, 2, 3})), tensor.Shape{3})
	fmt.Println(out, err)
	out, err = tf.ScatterND(indices, tensor.Must(tensor.From(tensor.Shape{3}, []string{"x", "y", "z"})), tensor.Shape{3})
	fmt.Println(out, err)
	// Output:
	// float32[3] [2 4 0] <nil>
	// string[3] ["y" "xz" ""] <nil>
}

func ExampleScatterNDInto() {
	// dst is reused: its shape is the output shape, and it is cleared
	// first.
	dst := tensor.Must(tensor.From(tensor.Shape{2, 2}, []float64{7, 7, 7, 7}))
	indices := tensor.Must(tensor.From(tensor.Shape{1, 2}, []int64{1, 0}))
	updates := tensor.Must(tensor.From(tensor.Shape{1}, []float64{5}))

	err := tf.ScatterNDInto(dst, indices, updates)
	fmt.Println(dst, err)
	// Output: float64[2,2] [[0 0] [5 0]] <nil>
}

func ExampleTensorScatterUpdate() {
	t := tensor.Must(tensor.From(tensor.Shape{3, 2}, []int32{1, 1, 1, 1, 1, 1}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int32{0, 1, 2, 0}))
	updates := tensor.Must(tensor.From(tensor.Shape{2}, []int32{5, 10}))

	out, err := tf.TensorScatterUpdate(t, indices, updates)
	fmt.Println(out, err)
	// Output: int32[3,2] [[1 5] [1 1] [10 1]] <nil>
}

func ExampleTensorScatterUpdateInto() {
	// In place, with duplicate indices: the last update wins.
	t := tensor.Must(tensor.From(tensor.Shape{4}, []float32{0, 0, 0, 0}))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int64{2, 2, 0}))
	updates := tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, 2, 3}))

	err := tf.TensorScatterUpdateInto(t, t, indices, updates)
	fmt.Println(t, err)
	// Output: float32[4] [3 0 2 0] <nil>
}

func ExampleTensorScatterAdd() {
	t := tensor.Must(tensor.From(tensor.Shape{8}, []int32{1, 1, 1, 1, 1, 1, 1, 1}))
	indices := tensor.Must(tensor.From(tensor.Shape{4, 1}, []int32{4, 3, 1, 7}))
	updates := tensor.Must(tensor.From(tensor.Shape{4}, []int32{9, 10, 11, 12}))

	out, err := tf.TensorScatterAdd(t, indices, updates)
	fmt.Println(out, err)
	// Output: int32[8] [1 12 1 11 10 1 1 13] <nil>
}

func ExampleTensorScatterAddInto() {
	buf := []float64{1, 1, 1}
	t := tensor.Must(tensor.From(tensor.Shape{3}, buf))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{0, 0}))
	updates := tensor.Must(tensor.From(tensor.Shape{2}, []float64{2, 3}))

	err := tf.TensorScatterAddInto(t, t, indices, updates)
	fmt.Println(buf, err)
	// Output: [6 1 1] <nil>
}

func ExampleTensorScatterSub() {
	t := tensor.Must(tensor.From(tensor.Shape{8}, []int32{1, 1, 1, 1, 1, 1, 1, 1}))
	indices := tensor.Must(tensor.From(tensor.Shape{4, 1}, []int32{4, 3, 1, 7}))
	updates := tensor.Must(tensor.From(tensor.Shape{4}, []int32{9, 10, 11, 12}))

	out, err := tf.TensorScatterSub(t, indices, updates)
	fmt.Println(out, err)
	// Output: int32[8] [1 -10 1 -9 -8 1 1 -11] <nil>
}

func ExampleTensorScatterSubInto() {
	t := tensor.Must(tensor.From(tensor.Shape{2}, []int64{10, 10}))
	dst := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{2}))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int64{1, 1, 1}))
	updates := tensor.Must(tensor.From(tensor.Shape{3}, []int64{1, 2, 3}))

	err := tf.TensorScatterSubInto(dst, t, indices, updates)
	fmt.Println(dst, t, err)
	// Output: int64[2] [10 4] int64[2] [10 10] <nil>
}

func ExampleTensorScatterMin() {
	t := tensor.Must(tensor.From(tensor.Shape{8}, []int32{0, 0, 0, 0, 0, 0, 0, 0}))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int32{1, 4, 5}))
	updates := tensor.Must(tensor.From(tensor.Shape{3}, []int32{1, -1, 1}))

	out, err := tf.TensorScatterMin(t, indices, updates)
	fmt.Println(out, err)
	// Output: int32[8] [0 0 0 0 -1 0 0 0] <nil>
}

func ExampleTensorScatterMinInto() {
	// A NaN update is ignored; a NaN already in the tensor stays.
	nan := float32(math.NaN())
	t := tensor.Must(tensor.From(tensor.Shape{3}, []float32{nan, 5, 5}))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int64{0, 1, 2}))
	updates := tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, nan, 2}))

	err := tf.TensorScatterMinInto(t, t, indices, updates)
	fmt.Println(t, err)
	// Output: float32[3] [NaN 5 2] <nil>
}

func ExampleTensorScatterMax() {
	// The example of tf.tensor_scatter_nd_max's documentation.
	t := tensor.Must(tensor.From(tensor.Shape{8}, []int32{0, 0, 0, 0, 0, 0, 0, 0}))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int32{1, 4, 5}))
	updates := tensor.Must(tensor.From(tensor.Shape{3}, []int32{1, -1, 1}))

	out, err := tf.TensorScatterMax(t, indices, updates)
	fmt.Println(out, err)
	// Output: int32[8] [0 1 0 0 0 1 0 0] <nil>
}

func ExampleTensorScatterMaxInto() {
	t := tensor.Must(tensor.From(tensor.Shape{2, 2}, []float64{1, 2, 3, 4}))
	indices := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{1}))
	updates := tensor.Must(tensor.From(tensor.Shape{1, 2}, []float64{0, 9}))

	err := tf.TensorScatterMaxInto(t, t, indices, updates)
	fmt.Println(t, err)
	_, err = tf.TensorScatterMax(t, tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{-1})), updates)
	fmt.Println(err)
	// Output:
	// float64[2,2] [[1 2] [3 9]] <nil>
	// tf.tensor_scatter_nd_max: indices[0] = [-1] does not index into shape [2,2]
}

func ExampleOps() {
	// Generic callers reach the operators by name, with TensorFlow's input
	// and attribute names; scatter_nd's shape may come as an attribute.
	for _, op := range tf.Ops() {
		if op.Name != "tf.scatter_nd" {
			continue
		}
		out, err := op.Run(dialect.Call{
			Inputs: map[string]tensor.Tensor{
				"indices": tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{0, 2})),
				"updates": tensor.Must(tensor.From(tensor.Shape{2, 2}, []float32{1, 2, 3, 4})),
			},
			Attrs: map[string]dialect.Value{"shape": {Kind: dialect.Ints, Ints: []int64{3, 2}}},
		})
		fmt.Println(out, err)
	}
	for _, op := range tf.Ops() {
		fmt.Println(op.Name)
	}
	// Output:
	// float32[3,2] [[1 2] [0 0] [3 4]] <nil>
	// tf.gather_nd
	// tf.gather
	// tf.scatter_nd
	// tf.tensor_scatter_nd_update
	// tf.tensor_scatter_nd_add
	// tf.tensor_scatter_nd_sub
	// tf.tensor_scatter_nd_min
	// tf.tensor_scatter_nd_max
	// tf.math.segment_sum
	// tf.math.segment_prod
	// tf.math.segment_min
	// tf.math.segment_max
	// tf.math.segment_mean
	// tf.math.unsorted_segment_sum
	// tf.math.unsorted_segment_prod
	// tf.math.unsorted_segment_max
	// tf.math.unsorted_segment_min
	// tf.math.unsorted_segment_mean
	// tf.math.unsorted_segment_sqrt_n
	// tf.compat.v1.scatter_update
	// tf.compat.v1.scatter_add
	// tf.compat.v1.scatter_sub
	// tf.compat.v1.scatter_mul
	// tf.compat.v1.scatter_div
	// tf.compat.v1.scatter_min
	// tf.compat.v1.scatter_max
	// tf.math.bincount
}

// The sorted segment reductions: rows 0 and 1 share segment 0, segment 1
// has no row, so it holds 0 (1 for the product), and row 2 is segment 2.
func ExampleSegmentSum() {
	data := tensor.Must(tensor.From(tensor.Shape{3, 2}, []float32{1, 2, 3, 4, 5, 6}))
	ids := tensor.Must(tensor.From(tensor.Shape{3}, []int32{0, 0, 2}))
	sum, err := tf.SegmentSum(data, ids)
	fmt.Println(sum, err)
	prod, _ := tf.SegmentProd(data, ids)
	fmt.Println(prod)
	mean, _ := tf.SegmentMean(data, ids)
	fmt.Println(mean)
	largest, _ := tf.SegmentMax(data, ids)
	fmt.Println(largest)
	smallest, _ := tf.SegmentMin(data, ids)
	fmt.Println(smallest)
	// Ids must not decrease: the error names the first position at fault.
	_, err = tf.SegmentSum(data, tensor.Must(tensor.From(tensor.Shape{3}, []int32{1, 0, 2})))
	fmt.Println(err)
	// Output:
	// float32[3,2] [[4 6] [0 0] [5 6]] <nil>
	// float32[3,2] [[3 8] [1 1] [5 6]]
	// float32[3,2] [[2 3] [0 0] [5 6]]
	// float32[3,2] [[3 4] [0 0] [5 6]]
	// float32[3,2] [[1 2] [0 0] [5 6]]
	// tf.math.segment_sum: segment ids are not increasing (segment_ids[1] = 0 follows segment_ids[0] = 1)
}

// SegmentSumInto reuses an output: once warm, it allocates nothing.
func ExampleSegmentSumInto() {
	data := tensor.Must(tensor.From(tensor.Shape{4}, []int64{1, 2, 3, 4}))
	ids := tensor.Must(tensor.From(tensor.Shape{4}, []int64{0, 1, 1, 1}))
	dst := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{2}))
	err := tf.SegmentSumInto(dst, data, ids)
	fmt.Println(dst, err)
	// Output: int64[2] [1 9] <nil>
}
