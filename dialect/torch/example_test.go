package torch_test

import (
	"errors"
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/torch"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

func ExampleScatter() {
	// The first example of PyTorch's scatter_ documentation.
	src := tensor.Must(tensor.From(tensor.Shape{2, 5}, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}))
	index := tensor.Must(tensor.From(tensor.Shape{1, 4}, []int64{0, 1, 2, 0}))
	zeros := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{3, 5}))

	out, err := torch.Scatter(zeros, 0, index, src, "")
	fmt.Println(out, err)
	// Output: int64[3,5] [[1 0 0 4 0] [0 2 0 0 0] [0 0 3 0 0]] <nil>
}

func ExampleScatterInto() {
	// In place, as x.scatter_(1, index, src, reduce="add") would do; index
	// may be smaller than src.
	buf := []float32{1, 1, 1, 1}
	x := tensor.Must(tensor.From(tensor.Shape{1, 4}, buf))
	index := tensor.Must(tensor.From(tensor.Shape{1, 2}, []int64{3, 3}))
	src := tensor.Must(tensor.From(tensor.Shape{1, 3}, []float32{10, 20, 30}))

	err := torch.ScatterInto(x, x, 1, index, src, torch.ReduceAdd)
	fmt.Println(buf, err)
	// Output: [1 1 1 31] <nil>
}

func ExampleScatterValue() {
	// The reduce="multiply" example of PyTorch's scatter_ documentation.
	full := tensor.Must(tensor.From(tensor.Shape{2, 4}, []float32{2, 2, 2, 2, 2, 2, 2, 2}))
	index := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{2, 3}))

	out, err := torch.ScatterValue(full, 1, index, torch.Float(1.23), torch.ReduceMultiply)
	fmt.Println(out, err)
	// The value is cast to the input's type as PyTorch casts it.
	small := tensor.Must(tensor.New(tensor.Int8, tensor.Shape{4}))
	_, err = torch.ScatterValue(small, 0, tensor.Scalar(int64(0)), torch.Int(300), "")
	fmt.Println(err)
	// Output:
	// float32[2,4] [[2 2 2.46 2] [2 2 2 2.46]] <nil>
	// torch.scatter: invalid input: value 300 cannot be converted to int8 without overflow
}

func ExampleScatterAdd() {
	// The second example of PyTorch's scatter_add_ documentation.
	src := tensor.Must(tensor.From(tensor.Shape{2, 5}, []float32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}))
	index := tensor.Must(tensor.From(tensor.Shape{2, 5}, []int64{0, 1, 2, 0, 0, 0, 1, 2, 2, 2}))
	zeros := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{3, 5}))

	out, err := torch.ScatterAdd(zeros, 0, index, src)
	fmt.Println(out, err)
	// Output: float32[3,5] [[2 0 0 1 1] [0 2 0 0 0] [0 0 2 1 1]] <nil>
}

func ExampleScatterReduce() {
	// The examples of PyTorch's scatter_reduce_ documentation, and mean.
	src := tensor.Must(tensor.From(tensor.Shape{6}, []float32{1, 2, 3, 4, 5, 6}))
	index := tensor.Must(tensor.From(tensor.Shape{6}, []int64{0, 1, 0, 1, 2, 1}))
	input := tensor.Must(tensor.From(tensor.Shape{4}, []float32{1, 2, 3, 4}))
	input2 := tensor.Must(tensor.From(tensor.Shape{4}, []float32{5, 4, 3, 2}))

	for _, c := range []struct {
		input       tensor.Tensor
		reduce      torch.Reduce
		includeSelf bool
	}{
		{input, torch.ReduceSum, true}, {input, torch.ReduceSum, false},
		{input2, torch.ReduceAmax, true}, {input2, torch.ReduceAmax, false},
		{input, torch.ReduceMean, true},
	} {
		out, err := torch.ScatterReduce(c.input, 0, index, src, c.reduce, c.includeSelf)
		fmt.Println(c.reduce, c.includeSelf, out, err)
	}
	// Output:
	// sum true float32[4] [5 14 8 4] <nil>
	// sum false float32[4] [4 12 5 4] <nil>
	// amax true float32[4] [5 6 5 2] <nil>
	// amax false float32[4] [3 6 5 2] <nil>
	// mean true float32[4] [1.6666666 3.5 4 4] <nil>
}

func ExampleGather() {
	t := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int64{1, 2, 3, 4}))
	index := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int64{0, 0, 1, 0}))

	out, err := torch.Gather(t, 1, index)
	fmt.Println(out, err)
	// Output: int64[2,2] [[1 1] [4 3]] <nil>
}

func ExampleGather_error() {
	t := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int64{1, 2, 3, 4}))
	index := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int64{0, 0, -1, 0}))

	_, err := torch.Gather(t, 1, index)
	fmt.Println(err)
	var ie *engine.IndexError
	if errors.As(err, &ie) {
		fmt.Println("value", ie.Value, "at", ie.Pos, "dimension", ie.Dim)
	}
	// Output:
	// torch.gather: index out of range: index[1,0] = -1 is out of bounds for dimension 1 with size 2 (input [2,2], allowed range [0, 1])
	// value -1 at [1 0] dimension 1
}

func ExampleGatherInto() {
	input := tensor.Must(tensor.From(tensor.Shape{3}, []float64{1.5, 2.5, 3.5}))
	dst := tensor.Must(tensor.New(tensor.Float64, tensor.Shape{4}))
	index := tensor.Must(tensor.From(tensor.Shape{4}, []int64{2, 2, 0, 1}))

	err := torch.GatherInto(dst, input, 0, index)
	fmt.Println(dst, err)
	// Output: float64[4] [3.5 3.5 1.5 2.5] <nil>
}

func ExampleIndexSelect() {
	x := tensor.Must(tensor.From(tensor.Shape{3, 4}, []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}))
	indices := tensor.Must(tensor.From(tensor.Shape{2}, []int64{0, 2}))

	rows, err := torch.IndexSelect(x, 0, indices)
	fmt.Println(rows, err)
	cols, err := torch.IndexSelect(x, 1, indices)
	fmt.Println(cols, err)
	// Output:
	// int32[2,4] [[1 2 3 4] [9 10 11 12]] <nil>
	// int32[3,2] [[1 3] [5 7] [9 11]] <nil>
}

func ExampleIndexSelectInto() {
	x := tensor.Must(tensor.From(tensor.Shape{2, 2}, []bool{true, false, false, false}))
	dst := tensor.Must(tensor.New(tensor.Bool, tensor.Shape{3, 2}))
	index := tensor.Scalar(int64(0))

	err := torch.IndexSelectInto(dst, x, 0, tensor.Must(tensor.From(tensor.Shape{3}, []int64{1, 0, 1})))
	fmt.Println(dst, err)
	row, err := torch.IndexSelect(x, 0, index) // a 0-d index keeps the dimension
	fmt.Println(row, err)
	// Output:
	// bool[3,2] [[false false] [true false] [false false]] <nil>
	// bool[1,2] [[true false]] <nil>
}

func ExampleScatterReduceInto() {
	// In place, without the input's own values: positions that receive
	// updates start from the reduction's starting value, the others keep
	// theirs.
	buf := []int32{7, 7, 7}
	x := tensor.Must(tensor.From(tensor.Shape{3}, buf))
	index := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 0, 2}))
	src := tensor.Must(tensor.From(tensor.Shape{3}, []int32{-3, 2, 5}))

	err := torch.ScatterReduceInto(x, x, 0, index, src, torch.ReduceMean, false)
	fmt.Println(buf, err) // (-3 + 2) / 2 rounds down to -1
	// Output: [-1 7 5] <nil>
}

func ExampleOps() {
	// The generic interface the command line uses: value given as a float
	// attribute, as --attr value=1.23 gives it.
	var scatter *dialect.Op
	for _, op := range torch.Ops() {
		if op.Name == "torch.scatter" {
			scatter = op
		}
	}
	out, err := scatter.Run(dialect.Call{
		Inputs: map[string]tensor.Tensor{
			"input": tensor.Must(tensor.From(tensor.Shape{2, 4}, []float32{2, 2, 2, 2, 2, 2, 2, 2})),
			"index": tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{2, 3})),
		},
		Attrs: map[string]dialect.Value{
			"dim":    {Kind: dialect.Int, Int: 1},
			"value":  {Kind: dialect.Float, Float: 1.23},
			"reduce": {Kind: dialect.String, Str: "add"},
		},
	})
	fmt.Println(out, err)
	// Output: float32[2,4] [[2 2 3.23 2] [2 2 2 3.23]] <nil>
}
