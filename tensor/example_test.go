package tensor_test

import (
	"fmt"

	"github.com/scatter-dev/scatter/tensor"
)

// A tensor wraps a Go slice without copying it: writes through either are
// seen by both.
func ExampleFrom() {
	data := []float32{1, 2, 3, 4, 5, 6}
	x, err := tensor.From(tensor.Shape{2, 3}, data)
	if err != nil {
		fmt.Println(err)
		return
	}
	data[0] = 10
	fmt.Println(x.DType(), x.Shape(), x.Len())
	fmt.Println(x)
	// Output:
	// float32 [2,3] 6
	// float32[2,3] [[10 2 3] [4 5 6]]
}

// float16 and bfloat16 tensors are made from, and read back as, float32s
// or float64s, each value rounded once. A tensor prints each element as
// the shortest decimal that reads back as the same value.
func ExampleFromFloat32s() {
	h, err := tensor.FromFloat32s(tensor.Float16, tensor.Shape{3}, []float32{0.1, 1.5, 70000})
	if err != nil {
		fmt.Println(err)
		return
	}
	b := tensor.Must(tensor.FromFloat32s(tensor.BFloat16, tensor.Shape{3}, []float32{0.1, 1.5, 70000}))
	hs, _ := tensor.Float32s(h)
	bs, _ := tensor.Float32s(b)
	fmt.Println(h, hs)
	fmt.Println(b, bs)
	// Output:
	// float16[3] [0.1 1.5 +Inf] [0.099975586 1.5 +Inf]
	// bfloat16[3] [0.1 1.5 70000] [0.100097656 1.5 70144]
}

// A literal names its element type and nests its elements by dimension,
// as the command line takes them.
func ExampleParse() {
	for _, lit := range []string{"int64:[[4],[3],[1]]", "bfloat16:2.5", `string:["a","b"]`} {
		x, err := tensor.Parse(lit)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(x)
	}
	_, err := tensor.Parse("int64:[[1,2],[3]]")
	fmt.Println(err)
	// Output:
	// int64[3,1] [[4] [3] [1]]
	// bfloat16[] 2.5
	// string[2] ["a" "b"]
	// tensor: invalid tensor literal: "int64:[[1,2],[3]]": ragged: a list at depth 1 has 1 items, another 2
}

// Empty leaves a large tensor's memory as it was, for a destination that
// an operator's Into form is about to overwrite whole.
func ExampleEmpty() {
	dst, err := tensor.Empty(tensor.Float32, tensor.Shape{1024, 1024})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(dst.DType(), dst.Shape())
	// Output:
	// float32 [1024,1024]
}
