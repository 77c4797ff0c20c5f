package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// explainExamples are documented examples of every dialect, as command
// lines, with lines their explanation must hold.
var explainExamples = []struct {
	name string
	args []string
	want []string
}{
	{"tf unsorted_segment_max, an empty segment", []string{"tf.math.unsorted_segment_max", "--in", "data=float32:[[1,2],[3,4],[5,6]]",
		"--in", "segment_ids=int64:[2,-1,2]", "--attr", "num_segments=3"},
		[]string{"data[1,0] = 3 -> (skipped)    by segment_ids[1] = -1  its id names no segment: dropped",
			"E    output       empty        an empty segment: no row reaches it, it holds the lowest finite value of the type"}},
	{"numpy add.reduceat, runs", []string{"numpy.add.reduceat", "--in", "array=float32:[1,2,3,4,5]", "--in", "indices=int64:[0,3,1]"},
		[]string{"array[1] = 2 -> out[2]  by indices[2] = 1", "   6 R3   4 R1  14 R4"}},
	{"onnx ScatterND example 1", []string{"onnx.ScatterND", "--in", "data=float32:[1,2,3,4,5,6,7,8]",
		"--in", "indices=int64:[[4],[3],[1],[7]]", "--in", "updates=float32:[9,10,11,12]"},
		[]string{"   1    11 W   3    10 W   9 W   6     7    12 W", "updates[2] = 11 -> output[1]  by indices[2,:] = [1]"}},
	{"onnx ScatterElements with duplicates, opset 18", []string{"onnx.ScatterElements", "--opset", "18",
		"--in", "data=float32:[[1,2,3,4,5]]", "--in", "indices=int64:[[1,1]]", "--in", "updates=float32:[[1.1,2.1]]",
		"--attr", "axis=1", "--attr", "reduction=add"},
		[]string{"onnx.ScatterElements, version 18", "  0    1     5.2 R2    3       4       5", "Rn   output   reduced      combined with its n updates by add, in index order"}},
	{"onnx GatherND batch_dims", []string{"onnx.GatherND", "--in", "data=int32:[[[0,1],[2,3]],[[4,5],[6,7]]]",
		"--in", "indices=int64:[[1],[0]]", "--attr", "batch_dims=1"},
		[]string{"data[1,0,1] = 5 -> output[1,1]  by indices[1,:] = [0]"}},
	{"onnx Gather opset 11", []string{"onnx.Gather", "--opset", "11", "--in", "data=float32:[[1,1.2],[2.3,3.4],[4.5,5.7]]",
		"--in", "indices=int64:[[0,1],[1,2]]"},
		[]string{"onnx.Gather, version 11", "data[2,1] = 5.7 -> output[1,1,1]  by indices[1,1] = 2"}},
	{"tf scatter_nd", []string{"tf.scatter_nd", "--in", "indices=int32:[[4],[3],[1],[7]]",
		"--in", "updates=int32:[9,10,11,12]", "--attr", "shape=8"},
		[]string{"the output starts as zeros", "   0     11 R1   0     10 R1   9 R1   0      0     12 R1"}},
	{"tf gather_nd", []string{"tf.gather_nd", "--in", `params=string:[["a","b"],["c","d"]]`, "--in", "indices=int32:[[0,0],[1,1]]"},
		[]string{`params[1,1] = "d" -> output[1]  by indices[1,:] = [1, 1]`}},
	{"tf tensor_scatter_nd_max", []string{"tf.tensor_scatter_nd_max", "--in", "tensor=int32:[0,0,0,0,0,0,0,0]",
		"--in", "indices=int32:[[1],[4],[5]]", "--in", "updates=int32:[1,-1,1]"},
		[]string{"reduction max: a cell keeps the largest of its value and its updates", "output   reduced"}},
	{"torch scatter", []string{"torch.scatter", "--in", "input=int64:[[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]]",
		"--in", "index=int64:[[0,1,2,0]]", "--in", "src=int64:[[1,2,3,4,5],[6,7,8,9,10]]", "--attr", "dim=0"},
		[]string{"src[0,3] = 4 -> out[0,3]  by index[0,3] = 0", "src  untouched    not used: beyond the extent of the indices"}},
	{"torch scatter value multiply", []string{"torch.scatter", "--in", "input=float32:[[2,2,2,2],[2,2,2,2]]",
		"--in", "index=int64:[[2],[3]]", "--attr", "value=1.23", "--attr", "reduce=multiply", "--attr", "dim=1"},
		[]string{"reduction multiply (mul)", "value = 1.23 -> out[1,3]  by index[1,0] = 3"}},
	{"torch scatter_reduce amax without self", []string{"torch.scatter_reduce", "--in", "input=float32:[5,4,3,2]",
		"--in", "index=int64:[0,1,0,1,2,1]", "--in", "src=float32:[1,2,3,4,5,6]", "--attr", "dim=0",
		"--attr", "reduce=amax", "--attr", "include_self=false"},
		[]string{"reduction amax (max)", "its own value left out", "  3 R2  6 R3  5 R1  2"}},
	{"torch index_select", []string{"torch.index_select", "--in", "input=float32:[[1,2,3],[4,5,6]]",
		"--in", "index=int64:[2,0]", "--attr", "dim=1"},
		[]string{"input[1,0] = 4 -> out[1,1]  by index[1] = 0"}},
	{"openvino ScatterElementsUpdate example 2", []string{"openvino.ScatterElementsUpdate", "--in", "data=float32:[2,3,4,6]",
		"--in", "indices=int64:[1,0,0,-2,-1,2]", "--in", "updates=float32:[10,20,30,40,70,60]", "--attr", "axis=0",
		"--attr", "reduction=sum", "--attr", "use_init_val=false"},
		[]string{"openvino.ScatterElementsUpdate, version 12", "   50 R2   10 R1  100 R2   70 R1"}},
	{"openvino ScatterNDUpdate opset 15", []string{"openvino.ScatterNDUpdate", "--opset", "15", "--in", "data=int32:[1,2,3,4]",
		"--in", "indices=int32:[[0],[2],[-3],[-3],[0]]", "--in", "updates=int32:[10,20,30,40,50]", "--attr", "reduction=sub"},
		[]string{"reduction sub", "  -59 R2  -68 R2  -17 R1    4"}},
	{"openvino GatherND opset 5", []string{"openvino.GatherND", "--opset", "5",
		"--in", "data=int32:[[[1,2,3,4],[5,6,7,8],[9,10,11,12]],[[13,14,15,16],[17,18,19,20],[21,22,23,24]]]",
		"--in", "indices=int64:[[[[1]],[[0]],[[2]]],[[[0]],[[2]],[[2]]]]", "--attr", "batch_dims=2"},
		[]string{"output int32[6,1]", "data[1,2,2] = 23 -> output[5,0]  by indices[1,2,0,:] = [2]"}},
	{"openvino GatherElements example 2", []string{"openvino.GatherElements", "--in", "data=float32:[[1,7],[4,3]]",
		"--in", "indices=int32:[[1,1,0],[1,0,1]]", "--attr", "axis=1"},
		[]string{"  0  1 *   7 *2", "data[1,1] = 3 -> output[1,2]  by indices[1,2] = 1"}},
	{"mindspore scatter_nd", []string{"mindspore.scatter_nd", "--in", "indices=int32:[[0,1],[1,1]]",
		"--in", "updates=float32:[3.2,1.1]", "--attr", "shape=3,3"},
		[]string{"updates[1] = 1.1 -> output[1,1]  by indices[1,:] = [1, 1]", "no update reaches it: it stays zero"}},
	{"mindspore gather_nd", []string{"mindspore.gather_nd", "--in", "input_x=float32:[[-0.1,0.3,3.6],[0.4,0.5,-3.2]]",
		"--in", "indices=int32:[[0,0],[1,1]]"},
		[]string{"input_x[1,1] = 0.5  -> output[1]  by indices[1,:] = [1, 1]"}},
	{"mindspore tensor_scatter_elements", []string{"mindspore.tensor_scatter_elements",
		"--in", "input_x=int32:[[1,2,3],[4,5,6],[7,8,9]]", "--in", "indices=int32:[[3,-4,2],[0,9,-3]]",
		"--in", "updates=int32:[[1,2,2],[4,5,8]]"},
		[]string{"an index out of range is skipped", "updates[1,1] = 5 -> (skipped)    by indices[1,1] = 9   index out of range: skipped"}},
}

func TestExplainExamples(t *testing.T) {
	dir := t.TempDir()
	for i, c := range explainExamples {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(append([]string{"explain", "--color", "never"}, c.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, want := range c.want {
				if !strings.Contains(stdout, want) {
					t.Errorf("output lacks %q:\n%s", want, stdout)
				}
			}
			if strings.Contains(stdout, "\x1b[") {
				t.Error("colour with --color never")
			}
			svg := filepath.Join(dir, strconv.Itoa(i)+".svg")
			code, stdout, stderr = runArgs(append([]string{"explain", "--svg", svg}, c.args...)...)
			if code != 0 {
				t.Fatalf("--svg: exit %d: %s", code, stderr)
			}
			if b, err := os.ReadFile(svg); err != nil || !bytes.Contains(b, []byte("<svg")) || stdout != "" || !strings.Contains(stderr, "wrote "+svg) {
				t.Errorf("--svg: %v, stdout %q, stderr %q; want the file and what was written said on standard error", err, stdout, stderr)
			}
		})
	}
}

func TestExplainPNG(t *testing.T) {
	png := filepath.Join(t.TempDir(), "x.png")
	code, stdout, stderr := runArgs("explain", "onnx.GatherElements", "--in", "data=float32:[[1,2],[3,4]]",
		"--in", "indices=int64:[[0,0],[1,0]]", "--attr", "axis=1", "--png", png)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(png)
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("%v, %q", err, stdout)
	}
}

func TestExplainColor(t *testing.T) {
	args := []string{"onnx.ScatterND", "--in", "data=float32:[1,2]", "--in", "indices=int64:[[1]]", "--in", "updates=float32:[5]"}
	for _, c := range []struct {
		mode  string
		color bool
	}{{"always", true}, {"never", false}, {"auto", false}} { // a buffer is no terminal
		code, stdout, stderr := runArgs(append([]string{"explain", "--color", c.mode}, args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.mode, code, stderr)
		}
		if got := strings.Contains(stdout, "\x1b[30;42m5 W\x1b[0m"); got != c.color {
			t.Errorf("--color %s: coloured %v, want %v:\n%q", c.mode, got, c.color, stdout)
		}
	}
}

func TestExplainIndexError(t *testing.T) {
	dir := t.TempDir()
	args := []string{"explain", "tf.gather_nd", "--in", "params=float32:[[1,2],[3,4]]", "--in", "indices=int64:[[0,0],[7,0]]"}
	code, stdout, stderr := runArgs(append(args, "--color", "never")...)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if want := "scatter explain: tf.gather_nd: indices[1] = [7, 0] does not index into param shape [2,2]\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	for _, want := range []string{"  1  7 !  0", "the call failed on an index value out of range, marked !"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// No picture of a failed call, and nothing left behind.
	svg := filepath.Join(dir, "x.svg")
	code, _, stderr = runArgs(append(args, "--svg", svg)...)
	if code != 1 || strings.Count(stderr, "\n") != 1 {
		t.Errorf("--svg: exit %d, stderr %q", code, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left: %v", entries)
	}
}

func TestExplainTooLarge(t *testing.T) {
	data := make([]string, 500)
	for i := range data {
		data[i] = strconv.Itoa(i)
	}
	args := []string{"explain", "onnx.Gather", "--in", "data=int32:[" + strings.Join(data, ",") + "]",
		"--in", "indices=int64:[3,3,499]"}
	code, stdout, stderr := runArgs(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"too large to show cell by cell", "3 output elements, 0 of them skipped",
		"2 of the 500 data cells were hit; 1 output elements came from a cell already hit", "most hit: data[3] 2 times"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	png := filepath.Join(t.TempDir(), "x.png")
	code, _, stderr = runArgs(append(args, "--png", png)...)
	if code != 1 || !strings.Contains(stderr, "too large to draw: data int32[500] has 500 elements, more than 400") {
		t.Errorf("--png: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(png); !os.IsNotExist(err) {
		t.Errorf("picture written: %v", err)
	}
}

func TestExplainUsageErrors(t *testing.T) {
	in := []string{"--in", "data=float32:[1]", "--in", "indices=int64:[[0]]", "--in", "updates=float32:[2]"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "explain: missing OP"},
		{[]string{"onnx.ScatterND", "onnx.GatherND"}, "one OP expected"},
		{append([]string{"onnx.ScatterND", "--svg", "a.svg", "--png", "a.png"}, in...), "give --svg or --png, not both"},
		{append([]string{"onnx.ScatterND", "--svg", "a.png"}, in...), "must end in .svg"},
		{append([]string{"onnx.ScatterND", "--png", "a.svg"}, in...), "must end in .png"},
		{append([]string{"onnx.ScatterND", "--color", "sometimes"}, in...), `--color "sometimes"`},
		{append([]string{"onnx.ScatterNd"}, in...), "did you mean onnx.ScatterND"},
		{[]string{"onnx.ScatterND", "--in", "params=float32:[1]"}, `has no input "params"`},
		{[]string{"onnx.ScatterND", "--in", "data=float32:[1"}, "--in data"},
	} {
		code, _, stderr := runArgs(append([]string{"explain"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
