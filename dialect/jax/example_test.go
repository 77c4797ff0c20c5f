package jax_test

import (
	"fmt"
	"math"

	"github.com/scatter-dev/scatter/dialect/jax"
	"github.com/scatter-dev/scatter/tensor"
)

func ExampleGather() {
	// JAX's documented example: x[indices] as lax.gather.
	x := tensor.Must(tensor.From(tensor.Shape{3}, []int32{10, 11, 12}))
	indices := tensor.Must(tensor.From(tensor.Shape{6, 1}, []int32{0, 1, 1, 2, 2, 2}))
	out, err := jax.Gather(x, indices, jax.GatherDimensionNumbers{
		CollapsedSliceDims: []int{0},
		StartIndexMap:      []int{0},
	}, []int{1}, jax.PromiseInBounds, tensor.Tensor{})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Data())
	// Output: [10 11 11 12 12 12]
}

func ExampleGather_fill() {
	// mode "fill": an out-of-bounds index gives the fill value, by default
	// NaN for floats; the default mode clamps it to the last element.
	x := tensor.Must(tensor.From(tensor.Shape{3}, []float32{10, 11, 12}))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int32{0, 5, -1}))
	dims := jax.GatherDimensionNumbers{CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}}
	filled, err := jax.Gather(x, indices, dims, []int{1}, jax.Fill, tensor.Tensor{})
	if err != nil {
		panic(err)
	}
	clamped, err := jax.Gather(x, indices, dims, []int{1}, jax.Default, tensor.Tensor{})
	if err != nil {
		panic(err)
	}
	fmt.Println(filled.Data(), clamped.Data())
	// Output: [10 NaN NaN] [10 12 10]
}

func ExampleScatterAdd() {
	// JAX's documented example: x.at[indices].add(values) as
	// lax.scatter_add.
	x := tensor.Must(tensor.From(tensor.Shape{5}, []float32{1, 1, 1, 1, 1}))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int32{1, 2, 4}))
	values := tensor.Must(tensor.From(tensor.Shape{3}, []float32{2, 3, 4}))
	out, err := jax.ScatterAdd(x, indices, values, jax.ScatterDimensionNumbers{
		InsertedWindowDims:       []int{0},
		ScatterDimsToOperandDims: []int{0},
	}, jax.PromiseInBounds)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Data())
	// Output: [1 3 4 1 5]
}

func ExampleScatter_clip() {
	// mode "clip" clamps an out-of-bounds index; the default mode drops
	// its update.
	x := tensor.Must(tensor.From(tensor.Shape{4}, []int64{0, 0, 0, 0}))
	indices := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{1, 9}))
	values := tensor.Must(tensor.From(tensor.Shape{2}, []int64{5, 7}))
	dims := jax.ScatterDimensionNumbers{InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}}
	clipped, err := jax.Scatter(x, indices, values, dims, jax.Clip)
	if err != nil {
		panic(err)
	}
	dropped, err := jax.Scatter(x, indices, values, dims, jax.Default)
	if err != nil {
		panic(err)
	}
	fmt.Println(clipped.Data(), dropped.Data())
	// Output: [0 5 0 7] [0 5 0 0]
}

func ExampleDynamicSlice() {
	// JAX's documented example: the 2x3 slice at (1, 1) of a 3x4 array,
	// and a start that overruns the array, moved back so that the slice
	// fits.
	x := tensor.Must(tensor.From(tensor.Shape{3, 4}, []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}))
	at := func(i, j int32) []tensor.Tensor { return []tensor.Tensor{tensor.Scalar(i), tensor.Scalar(j)} }
	inside, err := jax.DynamicSlice(x, at(1, 1), []int{2, 3}, true)
	if err != nil {
		panic(err)
	}
	overrun, err := jax.DynamicSlice(x, at(1, 1), []int{2, 4}, true)
	if err != nil {
		panic(err)
	}
	fmt.Println(inside.Data(), overrun.Data())
	// Output: [5 6 7 9 10 11] [4 5 6 7 8 9 10 11]
}

func ExampleScatterSub() {
	x := tensor.Must(tensor.From(tensor.Shape{4}, []int32{10, 10, 10, 10}))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int32{1, 1, 3}))
	values := tensor.Must(tensor.From(tensor.Shape{3}, []int32{2, 3, 4}))
	out, err := jax.ScatterSub(x, indices, values, rowDims, jax.Default)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Data())
	// Output: [10 5 10 6]
}

func ExampleScatterMul() {
	x := tensor.Must(tensor.From(tensor.Shape{4}, []int32{1, 2, 3, 4}))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int32{0, 0, 2}))
	values := tensor.Must(tensor.From(tensor.Shape{3}, []int32{5, 6, 7}))
	out, err := jax.ScatterMul(x, indices, values, rowDims, jax.Default)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Data())
	// Output: [30 2 21 4]
}

func ExampleScatterMin() {
	// XLA's minimum: NaN propagates, and -0 is less than +0.
	x := tensor.Must(tensor.From(tensor.Shape{3}, []float32{0, 5, 5}))
	indices := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int32{0, 1, 2}))
	values := tensor.Must(tensor.From(tensor.Shape{3}, []float32{float32(math.Copysign(0, -1)), 7, float32(math.NaN())}))
	out, err := jax.ScatterMin(x, indices, values, rowDims, jax.Default)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Data())
	// Output: [-0 5 NaN]
}

func ExampleScatterMax() {
	x := tensor.Must(tensor.From(tensor.Shape{2, 2}, []float32{1, 2, 3, 4}))
	// Rows: the window is a whole row; the start index 5 is out of
	// bounds, so its window is dropped.
	indices := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int32{1, 5}))
	values := tensor.Must(tensor.From(tensor.Shape{2, 2}, []float32{9, 0, 9, 9}))
	out, err := jax.ScatterMax(x, indices, values, jax.ScatterDimensionNumbers{
		UpdateWindowDims:         []int{1},
		InsertedWindowDims:       []int{0},
		ScatterDimsToOperandDims: []int{0},
	}, jax.Default)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Data())
	// Output: [1 2 9 4]
}

func ExampleDynamicUpdateSlice() {
	// A start of -1 counts from the end, then is clamped so that the
	// update fits: it lands on the last two columns.
	x := tensor.Must(tensor.From(tensor.Shape{2, 4}, []int32{0, 0, 0, 0, 0, 0, 0, 0}))
	update := tensor.Must(tensor.From(tensor.Shape{1, 2}, []int32{7, 8}))
	at := []tensor.Tensor{tensor.Scalar(int32(1)), tensor.Scalar(int32(-1))}
	out, err := jax.DynamicUpdateSlice(x, update, at, true)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Data())
	// Output: [0 0 0 0 0 0 7 8]
}

// rowDims are the dimension numbers of a scatter of single elements of a
// vector.
var rowDims = jax.ScatterDimensionNumbers{InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}}
