package tf_test

import (
	"errors"
	"fmt"

	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

func ExampleUnsortedSegmentSum() {
	// The example of TensorFlow's documentation, with a negative id, whose
	// row is dropped.
	data := tensor.Must(tensor.From(tensor.Shape{4, 4}, []int32{1, 2, 3, 4, 5, 6, 7, 8, 4, 3, 2, 1, 9, 9, 9, 9}))
	ids := tensor.Must(tensor.From(tensor.Shape{4}, []int32{0, 1, 0, -1}))

	out, err := tf.UnsortedSegmentSum(data, ids, 2)
	fmt.Println(out, err)
	// Output: int32[2,4] [[5 5 5 5] [5 6 7 8]] <nil>
}

func ExampleUnsortedSegmentSumInto() {
	// num_segments is dst's first dimension; dst is overwritten.
	data := tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, 2, 3}))
	ids := tensor.Must(tensor.From(tensor.Shape{3}, []int64{2, 2, 0}))
	dst := tensor.Must(tensor.From(tensor.Shape{4}, []float32{9, 9, 9, 9}))

	err := tf.UnsortedSegmentSumInto(dst, data, ids)
	fmt.Println(dst, err)
	// Output: float32[4] [3 0 3 0] <nil>
}

func ExampleUnsortedSegmentSum_error() {
	// An id at or past num_segments is an error, in TensorFlow's words
	// (segment_reduction_ops_test.py, testBadIndices).
	data := tensor.Must(tensor.From(tensor.Shape{1, 1}, []float32{17}))
	ids := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int32{2}))

	_, err := tf.UnsortedSegmentSum(data, ids, 2)
	var ie *engine.IndexError
	fmt.Println(err)
	fmt.Println(errors.As(err, &ie), ie.Pos, ie.Value)
	// Output:
	// tf.math.unsorted_segment_sum: segment_ids[0,0] = 2 is out of range [0, 2)
	// true [0 0] 2
}

func ExampleUnsortedSegmentProd() {
	data := tensor.Must(tensor.From(tensor.Shape{4}, []int64{2, 3, 4, 5}))
	ids := tensor.Must(tensor.From(tensor.Shape{4}, []int64{0, 0, 2, 0}))

	out, err := tf.UnsortedSegmentProd(data, ids, 3)
	fmt.Println(out, err) // segment 1 is empty: 1
	// Output: int64[3] [30 1 4] <nil>
}

func ExampleUnsortedSegmentMax() {
	// An empty segment holds the lowest finite float32, not -inf.
	data := tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, 7, 3}))
	ids := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 0, 2}))

	out, err := tf.UnsortedSegmentMax(data, ids, 3)
	fmt.Println(out, err)
	// Output: float32[3] [7 -3.4028235e+38 3] <nil>
}

func ExampleUnsortedSegmentMin() {
	// An empty segment holds the highest int8.
	data := tensor.Must(tensor.From(tensor.Shape{3}, []int8{1, -7, 3}))
	ids := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 0, 2}))

	out, err := tf.UnsortedSegmentMin(data, ids, 3)
	fmt.Println(out, err)
	// Output: int8[3] [-7 127 3] <nil>
}

func ExampleUnsortedSegmentMean() {
	data := tensor.Must(tensor.From(tensor.Shape{3, 2}, []float64{1, 2, 4, 6, 5, 5}))
	ids := tensor.Must(tensor.From(tensor.Shape{3}, []int64{1, 1, 2}))

	out, err := tf.UnsortedSegmentMean(data, ids, 3)
	fmt.Println(out, err) // segment 0 is empty: 0
	// Output: float64[3,2] [[0 0] [2.5 4] [5 5]] <nil>
}

func ExampleUnsortedSegmentSqrtN() {
	// Four values in segment 0: their sum divided by sqrt(4).
	data := tensor.Must(tensor.From(tensor.Shape{5}, []float32{1, 2, 3, 4, 9}))
	ids := tensor.Must(tensor.From(tensor.Shape{5}, []int64{0, 0, 0, 0, 1}))

	out, err := tf.UnsortedSegmentSqrtN(data, ids, 2)
	fmt.Println(out, err)
	// Output: float32[2] [5 9] <nil>
}
