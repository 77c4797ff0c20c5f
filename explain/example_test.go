package explain_test

import (
	"errors"
	"fmt"
	"os"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/explain"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
)

func Example() {
	// tf.tensor_scatter_nd_update with a duplicate index: which update
	// survives?
	op, err := registry.Lookup("tf.tensor_scatter_nd_update")
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := explain.Run(op, dialect.Call{Inputs: map[string]tensor.Tensor{
		"tensor":  tensor.Must(tensor.From(tensor.Shape{4}, []float32{0, 0, 0, 0})),
		"indices": tensor.Must(tensor.From(tensor.Shape{3, 1}, []int64{2, 2, 0})),
		"updates": tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, 2, 3})),
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := tr.WriteText(os.Stdout, false); err != nil {
		fmt.Println(err)
	}
	// Output:
	// tf.tensor_scatter_nd_update
	//   reduction update (none): each update replaces the value of its cell; of duplicates, the last in index order wins
	//   indices: a negative index is out of range; an index out of range is an error
	//
	// tensor float32[4]
	//   0  1  2  3
	//   0  0  0  0
	//
	// indices int64[3,1]
	//      0
	//   0  2
	//   1  2
	//   2  0
	//
	// updates float32[3]
	//   0    1    2
	//   1 L  2    3
	//
	// output float32[4]
	//   0     1     2     3
	//   3 W   0     2 O2  0
	//
	//   updates[0] = 1 -> output[2]  by indices[0,:] = [2]  lost: a later update overwrites it
	//   updates[1] = 2 -> output[2]  by indices[1,:] = [2]
	//   updates[2] = 3 -> output[0]  by indices[2,:] = [0]
	//
	// legend:
	//         updates  applied      takes part in the output
	//    L    updates  lost         overwritten by a later update to the same cell
	//         output   untouched    no update reaches it: it keeps its value
	//    W    output   written      written by one update
	//    On   output   overwritten  written by n updates: the last in index order wins
}

func ExampleRun_links() {
	// torch.gather: where did each output element come from?
	op, err := registry.Lookup("torch.gather")
	if err != nil {
		fmt.Println(err)
		return
	}
	dim, _ := dialect.ParseValue(dialect.Int, "1")
	tr, err := explain.Run(op, dialect.Call{
		Inputs: map[string]tensor.Tensor{
			"input": tensor.Must(tensor.From(tensor.Shape{2, 2}, []float32{1, 2, 3, 4})),
			"index": tensor.Must(tensor.From(tensor.Shape{2, 2}, []int64{0, 0, 1, 0})),
		},
		Attrs: map[string]dialect.Value{"dim": dim},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range tr.Links {
		fmt.Printf("input cell %d -> out cell %d (index value at %d)\n", l.From, l.To, l.Index)
	}
	fmt.Println("input cell 0 is read", tr.Data.Cells[0].Hits, "times; cell 1 is", tr.Data.Cells[1].Status)
	// Output:
	// input cell 0 -> out cell 0 (index value at 0)
	// input cell 0 -> out cell 1 (index value at 1)
	// input cell 3 -> out cell 2 (index value at 2)
	// input cell 2 -> out cell 3 (index value at 3)
	// input cell 0 is read 2 times; cell 1 is untouched
}

func ExampleRun_indexError() {
	// An index out of range: the operator's error, and a trace of the
	// inputs that marks the offending value.
	op, err := registry.Lookup("onnx.ScatterND")
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := explain.Run(op, dialect.Call{Inputs: map[string]tensor.Tensor{
		"data":    tensor.Must(tensor.From(tensor.Shape{2, 2}, []float32{1, 2, 3, 4})),
		"indices": tensor.Must(tensor.From(tensor.Shape{2, 2}, []int64{0, 1, 2, 0})),
		"updates": tensor.Must(tensor.From(tensor.Shape{2}, []float32{5, 6})),
	}})
	fmt.Println(err)
	fmt.Println(errors.Is(err, engine.ErrIndex), tr.Output == nil)
	for i, c := range tr.Indices.Cells {
		fmt.Println(i, c.Status)
	}
	// Output:
	// onnx.ScatterND: index out of range: indices[1] = [2, 0]: component 0 is 2, allowed range [-2, 1] for dimension 0 of data [2,2]
	// true true
	// 0 plain
	// 1 plain
	// 2 failed
	// 3 plain
}

func ExampleTrace_Summary() {
	// A gather of 1000 elements is too large to show cell by cell; the
	// summary counts where they came from.
	idx := make([]int64, 1000)
	for i := range idx {
		idx[i] = int64(i % 7 % 4)
	}
	op, err := registry.Lookup("onnx.Gather")
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := explain.Run(op, dialect.Call{Inputs: map[string]tensor.Tensor{
		"data":    tensor.Must(tensor.From(tensor.Shape{5}, []int32{10, 11, 12, 13, 14})),
		"indices": tensor.Must(tensor.From(tensor.Shape{1000}, idx)),
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(errors.Is(tr.Fits(), explain.ErrTooLarge))
	s := tr.Summary()
	fmt.Printf("%d elements from %d of %d data cells, %d repeats\n", s.Moves, s.Hit, s.Cells, s.Duplicates)
	for _, c := range s.Top {
		fmt.Println("data", c.Pos, c.Hits)
	}
	// Output:
	// true
	// 1000 elements from 4 of 5 data cells, 996 repeats
	// data [0] 286
	// data [1] 286
	// data [2] 285
	// data [3] 143
}

func Example_segments() {
	// jax.ops.segment_max of three rows into three segments: which rows
	// went where, the id past the end dropped, and what the empty
	// segment holds.
	op, err := registry.Lookup("jax.ops.segment_max")
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := explain.Run(op, dialect.Call{Inputs: map[string]tensor.Tensor{
		"data":         tensor.Must(tensor.From(tensor.Shape{3, 2}, []float32{1, 8, 5, 2, 7, 7})),
		"segment_ids":  tensor.Must(tensor.From(tensor.Shape{3}, []int32{0, 0, 4})),
		"num_segments": tensor.Scalar(int64(2)),
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := tr.WriteText(os.Stdout, false); err != nil {
		fmt.Println(err)
	}
	// Output:
	// jax.ops.segment_max
	//   attributes: indices_are_sorted=false (default), unique_indices=false (default), num_segments=2
	//   reduction max: each output row combines, in index order, the rows of data whose segment_ids names it; an empty segment holds -inf (the lowest integer, false)
	//   indices: a negative index is out of range; an index out of range is skipped
	//
	// segment_ids int32[3]
	//   0    1    2
	//   0    0    4 S
	//
	// data float32[3,2]
	//      0    1
	//   0  1    8
	//   1  5    2
	//   2  7 S  7 S
	//
	// result float32[2,2]
	//         0        1
	//   0     5 R2     8 R2
	//   1  -Inf E   -Inf E
	//
	//   data[0,0] = 1 -> result[0,0]  by segment_ids[0] = 0
	//   data[0,1] = 8 -> result[0,1]  by segment_ids[0] = 0
	//   data[1,0] = 5 -> result[0,0]  by segment_ids[1] = 0
	//   data[1,1] = 2 -> result[0,1]  by segment_ids[1] = 0
	//   data[2,0] = 7 -> (skipped)    by segment_ids[2] = 4  its id names no segment: dropped
	//   data[2,1] = 7 -> (skipped)    by segment_ids[2] = 4  its id names no segment: dropped
	//
	// legend:
	//    S    segment_ids  skipped      its segment id names no segment: dropped
	//         data         applied      takes part in the output
	//    S    data         skipped      its segment id names no segment: dropped
	//    Rn   result       reduced      a segment: its n rows combined by max, in index order
	//    E    result       empty        an empty segment: no row reaches it, it holds -inf (the lowest integer, false)
}
