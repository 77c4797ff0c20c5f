package jax_test

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect/jax"
	"github.com/scatter-dev/scatter/tensor"
)

func ExampleSegmentSum() {
	// The example of JAX's docstring, num_segments=None.
	data := tensor.Must(tensor.From(tensor.Shape{5}, []int32{0, 1, 2, 3, 4}))
	ids := tensor.Must(tensor.From(tensor.Shape{5}, []int32{0, 0, 1, 1, 2}))

	n, _ := jax.NumSegments(ids)
	out, err := jax.SegmentSum(data, ids, n, jax.SegmentOptions{})
	fmt.Println(out, err)
	// Output: int32[3] [1 5 4] <nil>
}

func ExampleSegmentSum_dropped() {
	// Ids outside [0, num_segments) are dropped, negative ones too; mode
	// "clip" moves them to the nearest segment instead.
	data := tensor.Must(tensor.From(tensor.Shape{4}, []float32{1, 2, 4, 8}))
	ids := tensor.Must(tensor.From(tensor.Shape{4}, []int64{-1, 0, 5, 1}))

	out, err := jax.SegmentSum(data, ids, 2, jax.SegmentOptions{})
	fmt.Println(out, err)
	out, err = jax.SegmentSum(data, ids, 2, jax.SegmentOptions{Mode: jax.Clip})
	fmt.Println(out, err)
	// Output:
	// float32[2] [2 8] <nil>
	// float32[2] [3 12] <nil>
}

func ExampleSegmentSumInto() {
	// num_segments is dst's first dimension.
	data := tensor.Must(tensor.From(tensor.Shape{3, 2}, []float64{1, 2, 3, 4, 5, 6}))
	ids := tensor.Must(tensor.From(tensor.Shape{3}, []int32{1, 1, 0}))
	dst := tensor.Must(tensor.New(tensor.Float64, tensor.Shape{2, 2}))

	err := jax.SegmentSumInto(dst, data, ids, jax.SegmentOptions{})
	fmt.Println(dst, err)
	// Output: float64[2,2] [[5 6] [4 6]] <nil>
}

func ExampleSegmentProd() {
	// The example of JAX's docstring.
	data := tensor.Must(tensor.From(tensor.Shape{6}, []int32{0, 1, 2, 3, 4, 5}))
	ids := tensor.Must(tensor.From(tensor.Shape{6}, []int32{0, 0, 1, 1, 2, 2}))

	out, err := jax.SegmentProd(data, ids, 4, jax.SegmentOptions{})
	fmt.Println(out, err) // segment 3 is empty: 1
	// Output: int32[4] [0 6 20 1] <nil>
}

func ExampleSegmentMax() {
	// An empty segment holds -inf (the lowest integer for integers).
	data := tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, 7, 3}))
	ids := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 0, 2}))

	out, err := jax.SegmentMax(data, ids, 3, jax.SegmentOptions{BucketSize: 2})
	fmt.Println(out, err)
	// Output: float32[3] [7 -Inf 3] <nil>
}

func ExampleSegmentMin() {
	// An empty segment holds +inf (the highest integer for integers).
	data := tensor.Must(tensor.From(tensor.Shape{3}, []int8{1, -7, 3}))
	ids := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 0, 2}))

	out, err := jax.SegmentMin(data, ids, 3, jax.SegmentOptions{})
	fmt.Println(out, err)
	// Output: int8[3] [-7 127 3] <nil>
}
