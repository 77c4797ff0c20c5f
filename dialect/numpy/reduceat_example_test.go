package numpy_test

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect/numpy"
	"github.com/scatter-dev/scatter/tensor"
)

// NumPy's running sum: the sums of [0, 4), [1, 5), ... are every other
// result, and between them, where the next index is smaller, the element
// at the index alone.
func ExampleAddReduceat() {
	array := tensor.Must(tensor.From(tensor.Shape{8}, []int32{0, 1, 2, 3, 4, 5, 6, 7}))
	indices := tensor.Must(tensor.From(tensor.Shape{8}, []int64{0, 4, 1, 5, 2, 6, 3, 7}))
	out, err := numpy.AddReduceat(array, indices, 0)
	fmt.Println(out, err) // int32 sums in int64, as NumPy's add does
	_, err = numpy.AddReduceat(array, tensor.Must(tensor.From(tensor.Shape{1}, []int64{-1})), 0)
	fmt.Println(err)
	// Output:
	// int64[8] [6 4 10 5 14 6 18 7] <nil>
	// numpy.add.reduceat: index -1 out-of-bounds in add.reduceat [0, 8) (indices[0])
}

// The products, maximums and minimums of runs of rows (axis 0) and of
// columns (axis 1, or -1).
func ExampleMultiplyReduceat() {
	array := tensor.Must(tensor.From(tensor.Shape{3, 3}, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}))
	indices := tensor.Must(tensor.From(tensor.Shape{2}, []int64{0, 2}))
	prod, _ := numpy.MultiplyReduceat(array, indices, 0)
	fmt.Println(prod)
	largest, _ := numpy.MaximumReduceat(array, indices, -1)
	fmt.Println(largest)
	smallest, _ := numpy.MinimumReduceat(array, indices, 1)
	fmt.Println(smallest)
	// Output:
	// float64[2,3] [[4 10 18] [7 8 9]]
	// float64[3,2] [[2 3] [5 6] [8 9]]
	// float64[3,2] [[1 3] [4 6] [7 9]]
}

// The Into form writes a reused output of the widened type.
func ExampleAddReduceatInto() {
	array := tensor.Must(tensor.From(tensor.Shape{4}, []uint8{200, 100, 7, 1}))
	indices := tensor.Must(tensor.From(tensor.Shape{2}, []int64{0, 2}))
	dst := tensor.Must(tensor.New(tensor.Uint64, tensor.Shape{2}))
	err := numpy.AddReduceatInto(dst, array, indices, 0)
	fmt.Println(dst, err)
	// Output: uint64[2] [300 8] <nil>
}
