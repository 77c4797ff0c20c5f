package tf_test

import (
	"errors"
	"fmt"

	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

func ExampleScatterUpdate() {
	// Rows 2 and 0 of a [3,2] variable; of the two updates of row 2 the
	// last wins.
	ref := tensor.Must(tensor.From(tensor.Shape{3, 2}, []float32{1, 2, 3, 4, 5, 6}))
	indices := tensor.Must(tensor.From(tensor.Shape{3}, []int64{2, 0, 2}))
	updates := tensor.Must(tensor.From(tensor.Shape{3, 2}, []float32{10, 11, 20, 21, 30, 31}))

	err := tf.ScatterUpdate(ref, indices, updates)
	fmt.Println(ref, err)
	// Output: float32[3,2] [[20 21] [3 4] [30 31]] <nil>
}

func ExampleScatterUpdate_error() {
	// A bad index is refused before ref is touched.
	ref := tensor.Must(tensor.From(tensor.Shape{6}, []float32{1, 2, 3, 4, 5, 6}))
	indices := tensor.Must(tensor.From(tensor.Shape{3}, []int64{2, 0, 6}))
	updates := tensor.Must(tensor.From(tensor.Shape{3}, []float32{-3, -4, -5}))

	err := tf.ScatterUpdate(ref, indices, updates)
	fmt.Println(err, errors.Is(err, engine.ErrIndex))
	fmt.Println(ref)
	// Output:
	// tf.compat.v1.scatter_update: indices[2] = 6 is not in [0, 6) true
	// float32[6] [1 2 3 4 5 6]
}

func ExampleScatterAdd() {
	// indices of any shape: here [2,2], so updates are [2,2] + ref.shape[1:].
	ref := tensor.Must(tensor.From(tensor.Shape{3}, []int32{0, 0, 0}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int32{0, 2, 0, 0}))
	updates := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int32{1, 2, 3, 4}))

	err := tf.ScatterAdd(ref, indices, updates)
	fmt.Println(ref, err)
	// Output: int32[3] [8 0 2] <nil>
}

func ExampleScatterSub() {
	// A scalar update applies at every index.
	ref := tensor.Must(tensor.From(tensor.Shape{3}, []float64{1, 1, 1}))
	indices := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 2, 2}))

	err := tf.ScatterSub(ref, indices, tensor.Scalar(0.25))
	fmt.Println(ref, err)
	// Output: float64[3] [0.75 1 0.5] <nil>
}

func ExampleScatterMul() {
	ref := tensor.Must(tensor.From(tensor.Shape{2, 2}, []float32{1, 2, 3, 4}))
	indices := tensor.Must(tensor.From(tensor.Shape{1}, []int64{1}))
	updates := tensor.Must(tensor.From(tensor.Shape{1, 2}, []float32{10, -1}))

	err := tf.ScatterMul(ref, indices, updates)
	fmt.Println(ref, err)
	// Output: float32[2,2] [[1 2] [30 -4]] <nil>
}

func ExampleScatterDiv() {
	// Integers truncate toward zero, one update at a time; a zero divisor
	// is an error rather than a crash.
	ref := tensor.Must(tensor.From(tensor.Shape{2}, []int32{-7, 100}))
	err := tf.ScatterDiv(ref, tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 1, 1})),
		tensor.Must(tensor.From(tensor.Shape{3}, []int32{2, 3, 2})))
	fmt.Println(ref, err)

	err = tf.ScatterDiv(ref, tensor.Must(tensor.From(tensor.Shape{2}, []int64{0, 1})),
		tensor.Must(tensor.From(tensor.Shape{2}, []int32{1, 0})))
	fmt.Println(ref, errors.Is(err, engine.ErrArgument))
	fmt.Println(err)
	// Output:
	// int32[2] [-3 16] <nil>
	// int32[2] [-3 16] true
	// tf.compat.v1.scatter_div: invalid argument: reduction div: updates[1] is 0, and an integer cannot be divided by zero
}

func ExampleScatterMin() {
	ref := tensor.Must(tensor.From(tensor.Shape{3}, []float32{5, 5, 5}))
	indices := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 1, 0}))
	updates := tensor.Must(tensor.From(tensor.Shape{3}, []float32{7, 2, 3}))

	err := tf.ScatterMin(ref, indices, updates)
	fmt.Println(ref, err)
	// Output: float32[3] [3 2 5] <nil>
}

func ExampleScatterMax() {
	ref := tensor.Must(tensor.From(tensor.Shape{3}, []float32{5, 5, 5}))
	indices := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 1, 0}))
	updates := tensor.Must(tensor.From(tensor.Shape{3}, []float32{7, 2, 9}))

	err := tf.ScatterMax(ref, indices, updates)
	fmt.Println(ref, err)
	// Output: float32[3] [9 5 5] <nil>
}
