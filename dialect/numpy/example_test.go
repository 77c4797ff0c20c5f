package numpy_test

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect/numpy"
	"github.com/scatter-dev/scatter/tensor"
)

func ExampleTake() {
	// np.take's documentation: a = [4, 3, 5, 7, 6, 8], indices [0, 1, 4].
	a := tensor.Must(tensor.From(tensor.Shape{6}, []int64{4, 3, 5, 7, 6, 8}))
	out, err := numpy.Take(a, tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 1, 4})), numpy.Flat, numpy.ModeRaise)
	fmt.Println(out, err)

	// The modes on an axis of size 3: -1 is the last, or with clip the
	// first; 4 is an error, or wraps to 1, or clips to 2.
	for _, mode := range []numpy.Mode{numpy.ModeRaise, numpy.ModeWrap, numpy.ModeClip} {
		m := tensor.Must(tensor.From(tensor.Shape{2, 3}, []float32{1, 2, 3, 4, 5, 6}))
		out, err := numpy.Take(m, tensor.Must(tensor.From(tensor.Shape{2}, []int32{-1, 4})), numpy.AxisAt(1), mode)
		if err != nil {
			fmt.Println(mode, err)
			continue
		}
		fmt.Println(mode, out)
	}
	// Output:
	// int64[3] [4 3 6] <nil>
	// raise numpy.take: index out of range: indices[1] = 4: index 4 is out of bounds for axis 1 with size 3 (a of shape [2,3])
	// wrap float32[2,2] [[3 2] [6 5]]
	// clip float32[2,2] [[1 3] [4 6]]
}

func ExamplePut() {
	// np.put's documentation: a = arange(5), put(a, [0, 2], [-44, -55]).
	a := tensor.Must(tensor.From(tensor.Shape{5}, []int64{0, 1, 2, 3, 4}))
	err := numpy.Put(a, tensor.Must(tensor.From(tensor.Shape{2}, []int64{0, 2})),
		tensor.Must(tensor.From(tensor.Shape{2}, []int64{-44, -55})), numpy.ModeRaise)
	fmt.Println(a, err)

	// v repeats; mode clip sends 22 to the last position.
	a = tensor.Must(tensor.From(tensor.Shape{5}, []int64{0, 1, 2, 3, 4}))
	err = numpy.Put(a, tensor.Must(tensor.From(tensor.Shape{3}, []int64{22, 0, 1})),
		tensor.Must(tensor.From(tensor.Shape{1}, []int64{-5})), numpy.ModeClip)
	fmt.Println(a, err)

	// A bad index in mode raise: nothing is written.
	err = numpy.Put(a, tensor.Must(tensor.From(tensor.Shape{2}, []int64{2, 9})),
		tensor.Must(tensor.From(tensor.Shape{2}, []int64{7, 7})), numpy.ModeRaise)
	fmt.Println(a, err)
	// Output:
	// int64[5] [-44 1 -55 3 4] <nil>
	// int64[5] [-5 -5 2 3 -5] <nil>
	// int64[5] [-5 -5 2 3 -5] numpy.put: index out of range: ind[1] = 9: index 9 is out of bounds for axis 0 with size 5 (a of shape [5])
}

func ExampleTakeAlongAxis() {
	// np.take_along_axis's documentation: the largest element of each row,
	// at the argmax indices, keeping the dimension.
	a := tensor.Must(tensor.From(tensor.Shape{2, 3}, []int64{10, 30, 20, 60, 40, 50}))
	argmax := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{1, 0}))
	out, err := numpy.TakeAlongAxis(a, argmax, numpy.AxisAt(1))
	fmt.Println(out, err)
	// Output:
	// int64[2,1] [[30] [60]] <nil>
}

func ExamplePutAlongAxis() {
	// np.put_along_axis's documentation: replace the row maxima by 99.
	a := tensor.Must(tensor.From(tensor.Shape{2, 3}, []int64{10, 30, 20, 60, 40, 50}))
	argmax := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{1, 0}))
	err := numpy.PutAlongAxis(a, argmax, tensor.Scalar(int64(99)), numpy.AxisAt(1))
	fmt.Println(a, err)
	// Output:
	// int64[2,3] [[10 99 20] [99 40 50]] <nil>
}

func ExampleAddAt() {
	// ufunc.at's documentation: a[[0, 0]] += 1 adds once, add.at twice.
	a := tensor.Must(tensor.From(tensor.Shape{4}, []float32{1, 2, 3, 4}))
	err := numpy.AddAt(a, numpy.Indices{tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 1, 0}))}, tensor.Scalar(float32(1)))
	fmt.Println(a, err)

	// A tuple of index arrays: a[[0, 1, 1], [1, 0, 0]] += [1, 2, 3].
	m := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int32{0, 0, 0, 0}))
	err = numpy.AddAt(m, numpy.Indices{
		tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 1, 1})),
		tensor.Must(tensor.From(tensor.Shape{3}, []int64{1, 0, 0})),
	}, tensor.Must(tensor.From(tensor.Shape{3}, []int32{1, 2, 3})))
	fmt.Println(m, err)
	// Output:
	// float32[4] [3 3 3 4] <nil>
	// int32[2,2] [[0 1] [5 0]] <nil>
}

func ExampleMaximumAt() {
	// maximum.at, minimum.at, subtract.at and multiply.at are add.at's
	// siblings; a NaN wins, as in np.maximum.
	a := tensor.Must(tensor.From(tensor.Shape{3}, []float64{1, 2, 3}))
	idx := numpy.Indices{tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 0, 2}))}
	fmt.Println(numpy.MaximumAt(a, idx, tensor.Must(tensor.From(tensor.Shape{3}, []float64{5, 4, 0}))), a)
	fmt.Println(numpy.MinimumAt(a, idx, tensor.Must(tensor.From(tensor.Shape{3}, []float64{9, -1, 0}))), a)
	fmt.Println(numpy.SubtractAt(a, idx, tensor.Scalar(1.5)), a)
	fmt.Println(numpy.MultiplyAt(a, idx, tensor.Scalar(-2.0)), a)
	// Output:
	// <nil> float64[3] [5 2 3]
	// <nil> float64[3] [-1 2 0]
	// <nil> float64[3] [-4 2 -1.5]
	// <nil> float64[3] [-16 2 3]
}
