package main

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/tensor"
)

// TestCompare runs the compare command on documented examples of every
// dialect against the equivalent operators of the others.
func TestCompare(t *testing.T) {
	many0 := "int64:[" + strings.Repeat("0,", 126) + "0]"
	many1 := "int8:[" + strings.Repeat("1,", 126) + "1]"
	cases := []struct {
		name string
		args []string
		code int
		want []string // lines or parts of lines of standard output
	}{
		{
			name: "onnx: the first ScatterND example agrees with OpenVINO and TensorFlow",
			args: []string{"--family", "scatter_nd", "--in", "data=float32:[1,2,3,4,5,6,7,8]",
				"--in", "indices=int64:[[4],[3],[1],[7]]", "--in", "updates=float32:[9,10,11,12]"},
			code: 0,
			want: []string{
				"compare scatter_nd: onnx.ScatterND-18, openvino.ScatterNDUpdate-15, tf.tensor_scatter_nd_update\n",
				"  tf.tensor_scatter_nd_update  tensor=data, indices, updates\n",
				"  mindspore.scatter_nd: takes no data",
				"  onnx.ScatterND-18            ok     float32[8] [1 11 3 10 9 6 7 12]\n",
				"agree: all 3 operators give the same outcome\n",
			},
		},
		{
			name: "onnx against tf: a negative index",
			args: []string{"onnx.ScatterND", "tf.tensor_scatter_nd_update", "--in", "data=float32:[1,2,3,4,5,6,7,8]",
				"--in", "indices=int64:[[4],[-5],[1],[7]]", "--in", "updates=float32:[9,10,11,12]"},
			code: 1,
			want: []string{
				"outcomes differ: ok: onnx.ScatterND-18; index out of range: tf.tensor_scatter_nd_update\n",
				"    why: negative index indices[1] = [-5] (dimension 0 of size 8): onnx.ScatterND-18: it counts from the end; tf.tensor_scatter_nd_update: a negative index is an error\n",
				"differ: outcomes\n",
			},
		},
		{
			name: "onnx: the GatherElements example with negative indices",
			args: []string{"--family", "gather_elements", "--in", "data=float32:[[1,2,3],[4,5,6],[7,8,9]]",
				"--in", "indices=int64:[[-1,-2,0],[-2,0,0]]"},
			code: 1,
			want: []string{
				"  onnx.GatherElements-13     ok     float32[2,3] [[7 5 3] [4 2 3]]\n",
				"onnx.GatherElements-13: it counts from the end; openvino.GatherElements-6, torch.gather: a negative index is an error\n",
			},
		},
		{
			name: "tf: the scatter_nd example, int32 indices that ONNX refuses",
			args: []string{"--family", "scatter_nd", "--attr", "reduction=add", "--attr", "shape=8",
				"--in", "indices=int32:[[4],[3],[1],[7]]", "--in", "updates=int32:[9,10,11,12]"},
			code: 1,
			want: []string{
				"  onnx.ScatterND-18            data=zeros[8] (from shape), indices, updates, reduction=add\n",
				"  tf.scatter_nd                ok     int32[8] [0 11 0 10 9 0 0 12]\n",
				"  onnx.ScatterND-18            error  onnx.ScatterND: invalid input",
				"why: int32 indices: mindspore.scatter_nd, openvino.ScatterNDUpdate-15, tf.scatter_nd, tf.tensor_scatter_nd_add: accepts int32, int64; onnx.ScatterND-18: refuses int32 (accepts int64 only)\n",
			},
		},
		{
			name: "tf: the tensor_scatter_nd_max example agrees with ONNX and OpenVINO",
			args: []string{"--family", "scatter_nd", "--attr", "reduction=max", "--in", "tensor=int32:[0,0,0,0,0,0,0,0]",
				"--in", "indices=int64:[[1],[4],[5]]", "--in", "updates=int32:[1,-1,1]"},
			code: 0,
			want: []string{
				"compare scatter_nd: onnx.ScatterND-18, openvino.ScatterNDUpdate-15, tf.tensor_scatter_nd_max\n",
				"  tf.tensor_scatter_nd_max     ok     int32[8] [0 1 0 0 0 1 0 0]\n",
				"agree: all 3",
			},
		},
		{
			name: "tf against onnx: NaN in max",
			args: []string{"tf.tensor_scatter_nd_max", "onnx.ScatterND", "--attr", "reduction=max",
				"--in", "data=float32:[1,NaN,3,4]", "--in", "indices=int64:[[0],[1],[2]]", "--in", "updates=float32:[NaN,5,2]"},
			code: 1,
			want: []string{
				"  [0]  tf.tensor_scatter_nd_max: 1 | onnx.ScatterND-18: NaN  (from indices[0] = [0])\n",
				"why: NaN in an update landing here: tf.tensor_scatter_nd_max: max and min compare as std::max and std::min: a NaN update is ignored",
				"onnx.ScatterND-18: max and min propagate NaN: a NaN in place stays, else the first NaN update (the shared rule)\n",
				"differ: 1 cell\n",
			},
		},
		{
			name: "torch: the scatter_reduce sum example agrees with every dialect's add",
			args: []string{"--family", "scatter_elements", "--attr", "reduce=sum", "--in", "input=float32:[1,2,3,4]",
				"--in", "index=int64:[0,1,0,1,2,1]", "--in", "src=float32:[1,2,3,4,5,6]"},
			code: 0,
			want: []string{
				"  mindspore.tensor_scatter_elements  input_x=data, indices, updates, axis=0, reduction=add\n",
				"  openvino.ScatterElementsUpdate-12  data, indices, updates, axis=0, reduction=sum\n",
				"  torch.scatter                      input=data, index=indices, src=updates, dim=0, reduce=add\n",
				"  torch.scatter_add                  input=data, index=indices, src=updates, dim=0\n",
				"  torch.scatter_reduce               ok     float32[4] [5 14 8 4]\n",
				"agree: all 6 operators give the same outcome\n",
			},
		},
		{
			name: "torch against onnx: include_self false",
			args: []string{"torch.scatter_reduce", "onnx.ScatterElements", "--attr", "reduce=sum", "--attr", "include_self=false",
				"--in", "input=float32:[1,2,3,4]", "--in", "index=int64:[0,1,0,1,2,1]", "--in", "src=float32:[1,2,3,4,5,6]"},
			code: 1,
			want: []string{
				"but: has no include_self: the existing value always takes part (asked: false)\n",
				"3 of 4 cells differ:\n",
				"  [1]  torch.scatter_reduce: 12 | onnx.ScatterElements-18: 14  (from indices[1] = 1, indices[3] = 1, indices[5] = 1)\n",
				"why: the value already here: torch.scatter_reduce: include_self=false: the existing value does not take part; onnx.ScatterElements-18: the existing value always takes part (no include_self)\n",
			},
		},
		{
			name: "torch: the gather example agrees with ONNX and OpenVINO",
			args: []string{"--family", "gather_elements", "--attr", "dim=1", "--in", "input=int64:[[1,2],[3,4]]",
				"--in", "index=int64:[[0,0],[1,0]]"},
			code: 0,
			want: []string{"  torch.gather               ok     int64[2,2] [[1 1] [4 3]]\n", "agree: all 3"},
		},
		{
			name: "torch against openvino: integer mean rounds alike",
			args: []string{"torch.scatter_reduce", "openvino.ScatterElementsUpdate", "--attr", "reduction=mean",
				"--in", "data=int32:[1,1,1,-7]", "--in", "indices=int64:[0,0,2,3,3]", "--in", "updates=int32:[-4,4,4,2,0]"},
			code: 0,
			want: []string{"int32[4] [0 1 2 -2]\n", "agree: both operators give the same outcome\n"},
		},
		{
			name: "torch against openvino: an int8 mean whose count wraps",
			args: []string{"torch.scatter_reduce", "openvino.ScatterElementsUpdate", "--attr", "reduction=mean",
				"--in", "data=int8:[0,5]", "--in", "indices=" + many0, "--in", "updates=" + many1},
			code: 1,
			want: []string{
				"  [0]  torch.scatter_reduce: -1 | openvino.ScatterElementsUpdate-12: 0  (from indices[0] = 0, indices[1] = 0, indices[2] = 0, indices[3] = 0, and 123 more)\n",
				"why: the mean of int8 values: torch.scatter_reduce: a mean counts its values in the element's type (an int8 count wraps, a float32 one stops at 2^24); openvino.ScatterElementsUpdate-12: a mean divides by the exact count; integer mean rounds toward negative infinity (the shared rule)\n",
			},
		},
		{
			name: "openvino: the ScatterElementsUpdate-12 example without use_init_val",
			args: []string{"--family", "scatter_elements", "--attr", "reduction=sum", "--attr", "use_init_val=false",
				"--in", "data=float32:[2,3,4,6]", "--in", "indices=int64:[1,0,0,-2,-1,2]", "--in", "updates=float32:[10,20,30,40,70,60]"},
			code: 1,
			want: []string{
				"compare scatter_elements: openvino.ScatterElementsUpdate-12, torch.scatter_reduce\n",
				"  onnx.ScatterElements-18: has no include_self: the existing value always takes part (asked: false)\n",
				"  openvino.ScatterElementsUpdate-12  ok     float32[4] [50 10 100 70]\n",
				"openvino.ScatterElementsUpdate-12: it counts from the end; torch.scatter_reduce: a negative index is an error\n",
			},
		},
		{
			name: "openvino: GatherND-5 flattens batch dimensions, GatherND-8 keeps them",
			args: []string{"openvino.GatherND", "onnx.GatherND", "--opset", "openvino=5", "--attr", "batch_dims=2",
				"--in", "data=int32:[[[1,2,3,4],[5,6,7,8],[9,10,11,12]],[[13,14,15,16],[17,18,19,20],[21,22,23,24]]]",
				"--in", "indices=int64:[[[[1]],[[0]],[[2]]],[[[0]],[[2]],[[2]]]]"},
			code: 1,
			want: []string{
				"shapes differ: int32[6,1]: openvino.GatherND-5; int32[2,3,1]: onnx.GatherND-13 (the same elements in row-major order)\n",
				"With batch_dims > 1 the batch dimensions are flattened into one output dimension.",
				"differ: shapes\n",
			},
		},
		{
			name: "mindspore against onnx: scatter_nd adds duplicates",
			args: []string{"mindspore.scatter_nd", "onnx.ScatterND", "--in", "updates=int32:[5,6,7]",
				"--in", "indices=int64:[[1],[1],[0]]", "--attr", "shape=3"},
			code: 1,
			want: []string{
				"  onnx.ScatterND-18     data=zeros[3] (from shape), indices, updates\n",
				"  [1]  mindspore.scatter_nd: 11 | onnx.ScatterND-18: 6  (from indices[0] = [1], indices[1] = [1])\n",
				"why: 2 updates land here (duplicate indices): mindspore.scatter_nd: add (no reduction to choose): the updates are added to the value; onnx.ScatterND-18: reduction none: the last update in index order replaces the value\n",
			},
		},
		{
			name: "mindspore: the tensor_scatter_elements add example, int32 and negative indices",
			args: []string{"--family", "scatter_elements", "--attr", "reduction=add", "--in", "input_x=int32:[[1,2,3],[4,5,6],[7,8,9]]",
				"--in", "indices=int32:[[1,-1,2],[0,2,1]]", "--in", "updates=int32:[[1,2,2],[4,5,8]]"},
			code: 1,
			want: []string{
				"  mindspore.tensor_scatter_elements  ok     int32[3,3] [[5 2 3] [5 5 14] [7 15 11]]\n",
				"  onnx.ScatterElements-18            ok     int32[3,3] [[5 2 3] [5 5 14] [7 15 11]]\n",
				"why: int32 indices: mindspore.tensor_scatter_elements, onnx.ScatterElements-18: accepts int32, int64; openvino.ScatterElementsUpdate-12: accepts any integer; torch.scatter, torch.scatter_add, torch.scatter_reduce: refuses int32 (accepts int64 only)\n",
			},
		},
		{
			name: "mindspore against onnx: out-of-range indices are skipped",
			args: []string{"mindspore.tensor_scatter_elements", "onnx.ScatterElements", "--in", "input_x=int32:[[1,2,3],[4,5,6],[7,8,9]]",
				"--in", "indices=int64:[[3,-4,2],[0,9,-3]]", "--in", "updates=int32:[[1,2,2],[4,5,8]]"},
			code: 1,
			want: []string{"why: index indices[0,0] = 3 is outside [-3, 2] for dimension 0: mindspore.tensor_scatter_elements: it is skipped: the update is ignored; onnx.ScatterElements-18: an out-of-range index is an error\n"},
		},
		{
			name: "mindspore: the gather_nd example agrees with every dialect",
			args: []string{"--family", "gather_nd", "--in", "input_x=float32:[[-0.1,0.3,3.6],[0.4,0.5,-3.2]]", "--in", "indices=int64:[[0,0],[1,1]]"},
			code: 0,
			want: []string{"  mindspore.gather_nd  ok     float32[2] [-0.1 0.5]\n", "agree: all 4 operators give the same outcome\n"},
		},
		{
			name: "--cells limits the cells listed",
			args: []string{"tf.tensor_scatter_nd_add", "tf.scatter_nd", "--cells", "1", "--in", "tensor=float32:[1,2,3]",
				"--in", "indices=int64:[[0]]", "--in", "updates=float32:[0]"},
			code: 1,
			want: []string{"3 of 3 cells differ:\n", "  [0]  ", "  (2 more cells not shown)\n"},
		},
		{
			name: "segment_sum: NumPy and PyTorch into zeros, a negative id",
			args: []string{"--family", "segment_sum", "--in", "data=float32:[[1,2],[3,4],[5,6]]",
				"--in", "segment_ids=int64:[0,-1,0]", "--attr", "num_segments=3"},
			code: 1,
			want: []string{
				"  numpy.add.at                  a=[3,2] filled with 0 (num_segments rows), indices, b=data (the rows)\n",
				"  numpy.add.at                  ok     float32[3,2] [[6 8] [0 0] [3 4]]\n",
				"numpy.add.at: it counts from the end; tf.math.unsorted_segment_sum: a negative index is dropped; torch.index_add: a negative index is an error\n",
				"  [2,1]  jax.ops.segment_sum, tf.math.unsorted_segment_sum: 0 | numpy.add.at: 4  (from indices[1] = -1)\n",
			},
		},
		{
			name: "take: onnx.Gather of the flattened data agrees with NumPy and PyTorch",
			args: []string{"--family", "take", "--in", "data=int32:[[1,2],[3,4]]", "--in", "indices=int64:[3,-4]"},
			code: 0,
			want: []string{"  onnx.Gather-13  data=data flattened to [4] (no axis), indices\n", "agree: all 3 operators give the same outcome\n"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(append([]string{"compare"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, c.code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("standard output lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
}

func TestCompareFiles(t *testing.T) {
	dir := t.TempDir()
	data := write(t, dir, "data.npy", tensor.Must(tensor.From(tensor.Shape{4}, []float32{1, 2, 3, 4})))
	idx := write(t, dir, "indices.pb", tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{0, -1})))
	code, stdout, stderr := runArgs("compare", "onnx.ScatterND", "openvino.ScatterNDUpdate", "--opset", "openvino=3",
		"--in", "data="+data, "--in", "indices="+idx, "--in", "updates=float32:[5,6]")
	if code != 1 {
		t.Errorf("exit %d, want 1; stderr %s", code, stderr)
	}
	if want := "onnx.ScatterND-18: it counts from the end; openvino.ScatterNDUpdate-3: a negative index is an error"; !strings.Contains(stdout, want) {
		t.Errorf("standard output lacks %q:\n%s", want, stdout)
	}
}

func TestCompareUsage(t *testing.T) {
	ins := []string{"--in", "data=float32:[1,2]", "--in", "indices=int64:[[0]]", "--in", "updates=float32:[1]"}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"nothing to compare", ins, "name two operators or more, or give --family"},
		{"one operator", append([]string{"onnx.ScatterND"}, ins...), "one operator, onnx.ScatterND"},
		{"operators and family", append([]string{"onnx.ScatterND", "tf.scatter_nd", "--family", "scatter_nd"}, ins...), "not both"},
		{"no inputs", []string{"--family", "scatter_nd"}, "no --in inputs"},
		{"unknown input name", []string{"--family", "scatter_nd", "--in", "x=float32:[1]"}, `--in x: not an input name`},
		{"attribute given as input", []string{"--family", "scatter_nd", "--in", "axis=int64:1"}, `--in axis: not an input name`},
		{"input given as attribute", append([]string{"--family", "scatter_nd", "--attr", "src=1"}, ins...), `--attr src: not an attribute name`},
		{"bad attribute value", append([]string{"--family", "scatter_nd", "--attr", "include_self=maybe"}, ins...), "--attr include_self"},
		{"bad opset", append([]string{"--family", "scatter_nd", "--opset", "onnx=new"}, ins...), "--opset onnx=new: not a number"},
		{"unknown dialect", append([]string{"--family", "scatter_nd", "--opset", "paddle=1"}, ins...), `unknown dialect "paddle"`},
		{"unreadable file", []string{"--family", "scatter_nd", "--in", "data=missing.npy"}, "--in data"},
		{"bad literal", []string{"--family", "scatter_nd", "--in", "data=float32:[1,"}, "--in data"},
		{"input over --max-bytes", append([]string{"--family", "scatter_nd", "--max-bytes", "4B"}, ins...), "over the limit of 4 bytes"},
		{"unknown operator", append([]string{"onnx.ScatterND", "onnx.scatternd"}, ins...), "did you mean onnx.ScatterND"},
		{"no operator takes it", append([]string{"--family", "gather_nd", "--attr", "reduce=sum"}, ins...), "no gather_nd operator takes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runArgs(append([]string{"compare"}, c.args...)...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("standard error lacks %q:\n%s", c.want, stderr)
			}
		})
	}
}

// TestCompareTooLarge: an input over --max-bytes, a literal or a file, is
// a usage error (exit 2, as README says of compare's unreadable input)
// that still matches tensor.ErrTooLarge and, printed, says how to raise
// the limit, as eval's error does.
func TestCompareTooLarge(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(-1))
	file := write(t, t.TempDir(), "data.npy", tensor.Must(tensor.From(tensor.Shape{4}, []float32{1, 2, 3, 4})))
	for _, data := range []string{"float32:[1,2,3,4]", file} {
		t.Run(data, func(t *testing.T) {
			err := compareCommand.run([]string{"--family", "scatter_nd", "--max-bytes", "8B", "--in", "data=" + data,
				"--in", "indices=int64:[[0]]", "--in", "updates=float32:[1]"}, io.Discard, io.Discard)
			var ue *usageError
			if !errors.Is(err, tensor.ErrTooLarge) || !errors.As(err, &ue) {
				t.Fatalf("got %v, want a usage error that is tensor.ErrTooLarge", err)
			}
			if !strings.Contains(err.Error(), "--in data: ") {
				t.Errorf("%q does not name --in data", err)
			}
			code, _, stderr := runArgs("compare", "--family", "scatter_nd", "--max-bytes", "8B", "--in", "data="+data,
				"--in", "indices=int64:[[0]]", "--in", "updates=float32:[1]")
			if code != exitUsage || !strings.Contains(stderr, "--in data: ") || !strings.Contains(stderr, tooLargeHint) {
				t.Errorf("exit %d, standard error %q; want %d, naming --in data and saying %q", code, stderr, exitUsage, tooLargeHint)
			}
		})
	}
}

// TestCompareHelpFamilies checks that the help of --family names every
// family that compare accepts, the general ones included.
func TestCompareHelpFamilies(t *testing.T) {
	_, stdout, _ := runArgs("help", "compare")
	for _, f := range dialect.Families {
		if !strings.Contains(stdout, f) {
			t.Errorf("help compare does not name the family %s:\n%s", f, stdout)
		}
	}
}
