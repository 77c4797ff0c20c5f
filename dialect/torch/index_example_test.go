package torch_test

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect/torch"
	"github.com/scatter-dev/scatter/tensor"
)

func ExampleIndexAdd() {
	// The example of PyTorch's index_add_ documentation, with alpha 2:
	// rows 0, 4 and 2 of x receive twice rows 0, 1 and 2 of t.
	x := tensor.Must(tensor.From(tensor.Shape{5, 3}, []float32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}))
	t := tensor.Must(tensor.From(tensor.Shape{3, 3}, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9}))
	index := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 4, 2}))

	out, err := torch.IndexAdd(x, 0, index, t, torch.Int(2))
	fmt.Println(out, err)
	// A negative index is an error, as in PyTorch.
	_, err = torch.IndexAdd(x, 0, tensor.Must(tensor.From(tensor.Shape{1}, []int64{-1})), tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1, 3})), torch.Int(1))
	fmt.Println(err)
	// Output:
	// float32[5,3] [[3 5 7] [1 1 1] [15 17 19] [1 1 1] [9 11 13]] <nil>
	// torch.index_add: index out of range: index[0] = -1 is out of bounds for dimension 0 with size 5 (input [5,3], allowed range [0, 4])
}

func ExampleIndexCopyInto() {
	// In place, as x.index_copy_(1, index, t) would do: of the duplicate
	// column 2, the last wins.
	buf := []int32{0, 0, 0, 0, 0, 0}
	x := tensor.Must(tensor.From(tensor.Shape{2, 3}, buf))
	t := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int32{1, 2, 3, 4}))
	index := tensor.Must(tensor.From(tensor.Shape{2}, []int64{2, 2}))

	err := torch.IndexCopyInto(x, x, 1, index, t)
	fmt.Println(buf, err)
	// Output: [0 0 2 0 0 4] <nil>
}

func ExampleIndexFill() {
	// The example of PyTorch's index_fill_ documentation; a negative index
	// counts from the end.
	x := tensor.Must(tensor.From(tensor.Shape{3, 3}, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9}))
	index := tensor.Must(tensor.From(tensor.Shape{2}, []int64{0, -1}))

	out, err := torch.IndexFill(x, 1, index, torch.Int(-1))
	fmt.Println(out, err)
	// Output: float32[3,3] [[-1 2 -1] [-1 5 -1] [-1 8 -1]] <nil>
}

func ExampleIndexReduce() {
	// The example of PyTorch's index_reduce_ documentation: prod into rows
	// 0, 4, 2 and 0, with and without x's own values.
	x := tensor.Must(tensor.From(tensor.Shape{5, 3}, []float32{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}))
	t := tensor.Must(tensor.From(tensor.Shape{4, 3}, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}))
	index := tensor.Must(tensor.From(tensor.Shape{4}, []int64{0, 4, 2, 0}))

	with, err := torch.IndexReduce(x, 0, index, t, torch.ReduceProd, true)
	fmt.Println(with, err)
	without, err := torch.IndexReduce(x, 0, index, t, torch.ReduceProd, false)
	fmt.Println(without, err)
	// Output:
	// float32[5,3] [[20 44 72] [2 2 2] [14 16 18] [2 2 2] [8 10 12]] <nil>
	// float32[5,3] [[10 22 36] [2 2 2] [7 8 9] [2 2 2] [4 5 6]] <nil>
}

func ExampleTake() {
	// The example of PyTorch's take documentation, and a negative index.
	src := tensor.Must(tensor.From(tensor.Shape{2, 3}, []float32{4, 3, 5, 6, 7, 8}))
	index := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int64{0, 2, 5, -6}))

	out, err := torch.Take(src, index)
	fmt.Println(out, err)
	// Output: float32[2,2] [[4 5] [8 4]] <nil>
}

func ExampleTakeAlongDim() {
	// The examples of PyTorch's take_along_dim documentation: with dim,
	// the values in sorted order; without, the flat argmax.
	t := tensor.Must(tensor.From(tensor.Shape{2, 3}, []float32{10, 30, 20, 60, 40, 50}))
	sorted := tensor.Must(tensor.From(tensor.Shape{2, 3}, []int64{0, 2, 1, 1, 2, 0}))

	out, err := torch.TakeAlongDim(t, sorted, 1)
	fmt.Println(out, err)
	flat, err := torch.TakeAlongDimFlat(t, tensor.Scalar(int64(3)))
	fmt.Println(flat, err)
	// Output:
	// float32[2,3] [[10 20 30] [40 50 60]] <nil>
	// float32[1] [60] <nil>
}

func ExamplePutInto() {
	// The example of PyTorch's put_ documentation, in place.
	buf := []float32{4, 3, 5, 6, 7, 8}
	src := tensor.Must(tensor.From(tensor.Shape{2, 3}, buf))
	index := tensor.Must(tensor.From(tensor.Shape{2}, []int64{1, 3}))
	values := tensor.Must(tensor.From(tensor.Shape{2}, []float32{9, 10}))

	err := torch.PutInto(src, src, index, values, false)
	fmt.Println(buf, err)
	// Output: [4 9 5 10 7 8] <nil>
}

func ExampleIndexPut() {
	// x[rows, cols] += values, the tuple of index tensors broadcast
	// together; duplicates accumulate.
	x := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2, 3}))
	rows := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 1, 1}))
	cols := tensor.Must(tensor.From(tensor.Shape{3}, []int64{2, 0, 0}))
	values := tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, 2, 3}))

	out, err := torch.IndexPut(x, []tensor.Tensor{rows, cols}, values, true)
	fmt.Println(out, err)
	// A bool mask selects rows.
	mask := tensor.Must(tensor.From(tensor.Shape{2}, []bool{false, true}))
	out, err = torch.IndexPut(x, []tensor.Tensor{mask}, tensor.Scalar(float32(7)), false)
	fmt.Println(out, err)
	// Output:
	// float32[2,3] [[0 0 1] [5 0 0]] <nil>
	// float32[2,3] [[0 0 0] [7 7 7]] <nil>
}

func ExampleMaskedScatter() {
	// The example of PyTorch's masked_scatter_ documentation: source's
	// elements go, in order, where mask is true.
	x := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2, 5}))
	mask := tensor.Must(tensor.From(tensor.Shape{2, 5}, []bool{false, false, false, true, true, true, true, false, true, true}))
	source := tensor.Must(tensor.From(tensor.Shape{2, 5}, []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}))

	out, err := torch.MaskedScatter(x, mask, source)
	fmt.Println(out, err)
	// Output: float32[2,5] [[0 0 0 0 1] [2 3 0 4 5]] <nil>
}
