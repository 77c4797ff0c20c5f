package tf_test

import (
	"errors"
	"fmt"

	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

func ExampleBincount() {
	// The examples of tf.math.bincount's documentation.
	values := tensor.Must(tensor.From(tensor.Shape{8}, []int32{1, 1, 2, 3, 2, 4, 4, 5}))
	counts, err := tf.Bincount(values, tf.BincountOptions{})
	fmt.Println(counts, err)

	weights := tensor.Must(tensor.From(tensor.Shape{8}, []float32{1, 5, 0, 1, 0, 5, 4, 5}))
	sums, err := tf.Bincount(values, tf.BincountOptions{Weights: weights})
	fmt.Println(sums, err)

	data := tensor.Must(tensor.From(tensor.Shape{2, 4}, []int32{1, 2, 3, 0, 0, 0, 1, 2}))
	rows, err := tf.Bincount(data, tf.BincountOptions{Axis: -1, BinaryOutput: true})
	fmt.Println(rows, err)
	// Output:
	// int32[6] [0 2 2 1 2 1] <nil>
	// float32[6] [0 6 0 1 9 5] <nil>
	// int32[2,4] [[1 1 1 1] [1 1 1 0]] <nil>
}

func ExampleBincount_lengths() {
	// maxlength skips the values at or past it; minlength pads.
	values := tensor.Must(tensor.From(tensor.Shape{4}, []int64{0, 7, 2, 2}))
	short, err := tf.Bincount(values, tf.BincountOptions{MaxLength: 3, HasMaxLength: true, DType: tensor.Float64})
	fmt.Println(short, err)
	long, err := tf.Bincount(values, tf.BincountOptions{MinLength: 10})
	fmt.Println(long, err)

	_, err = tf.Bincount(tensor.Must(tensor.From(tensor.Shape{3}, []int64{1, -2, 3})), tf.BincountOptions{})
	fmt.Println(err, errors.Is(err, engine.ErrIndex))
	// Output:
	// float64[3] [1 0 2] <nil>
	// int32[10] [1 0 2 0 0 0 0 1 0 0] <nil>
	// tf.math.bincount: Input arr must be non-negative! arr[1] = -2 true
}

func ExampleBincountInto() {
	// The number of bins depends on the values: BincountShape says what
	// dst must be, and repeated calls reuse it.
	values := tensor.Must(tensor.From(tensor.Shape{5}, []int32{3, 0, 3, 1, 3}))
	opts := tf.BincountOptions{MinLength: 4}
	dtype, shape, err := tf.BincountShape(values, opts)
	if err != nil {
		panic(err)
	}
	dst := tensor.Must(tensor.Empty(dtype, shape))
	err = tf.BincountInto(dst, values, opts)
	fmt.Println(dst, err)
	// Output: int32[4] [1 1 0 3] <nil>
}
