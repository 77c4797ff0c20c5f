package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/format/npy"
	"github.com/scatter-dev/scatter/tensor"
)

func TestShow(t *testing.T) {
	dir := t.TempDir()
	m := write(t, dir, "m.npy", tensor.Must(tensor.From(tensor.Shape{3, 3}, []float32{1, 2, 3, 4, 5.5, 6, 7, 8, -9})))
	g := write(t, dir, "g.pb", tensor.Must(tensor.From(tensor.Shape{2, 2, 2}, []int64{1, 20, 3, 4, 5, 6, 7, 8})))
	s := write(t, dir, "s.npy", tensor.Must(tensor.From(tensor.Shape{2}, []string{"a", "bc d"})))
	z := write(t, dir, "z.npy", tensor.Scalar(float64(2.5)))
	e := write(t, dir, "e.npy", tensor.Must(tensor.New(tensor.Int8, tensor.Shape{2, 0})))
	big := make([]int32, 40*50)
	for i := range big {
		big[i] = int32(i)
	}
	b := write(t, dir, "b.npy", tensor.Must(tensor.From(tensor.Shape{40, 50}, big)))
	for _, c := range []struct {
		file, want string
	}{
		{m, m + ": float32[3,3]\n" +
			"[[  1   2   3]\n" +
			" [  4 5.5   6]\n" +
			" [  7   8  -9]]\n"},
		{g, g + `: int64[2,2,2], name "g"` + "\n" +
			"[[[ 1 20]\n" +
			"  [ 3  4]]\n" +
			"\n" +
			" [[ 5  6]\n" +
			"  [ 7  8]]]\n"},
		{s, s + ": string[2]\n" + `["a" "bc d"]` + "\n"},
		{z, z + ": float64[]\n2.5\n"},
		{e, e + ": int8[2,0]\n[[]\n []]\n"},
		{b, b + ": int32[40,50], 2000 elements (the first and last 3 of each dimension shown)\n" +
			"[[   0    1    2 ...   47   48   49]\n" +
			" [  50   51   52 ...   97   98   99]\n" +
			" [ 100  101  102 ...  147  148  149]\n" +
			" ...\n" +
			" [1850 1851 1852 ... 1897 1898 1899]\n" +
			" [1900 1901 1902 ... 1947 1948 1949]\n" +
			" [1950 1951 1952 ... 1997 1998 1999]]\n"},
	} {
		code, stdout, stderr := runArgs("show", c.file)
		if code != 0 || stdout != c.want {
			t.Errorf("show %s: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", filepath.Base(c.file), code, stderr, stdout, c.want)
		}
	}
	// Several files, a blank line apart.
	code, stdout, _ := runArgs("show", z, z)
	if want := z + ": float64[]\n2.5\n\n" + z + ": float64[]\n2.5\n"; code != 0 || stdout != want {
		t.Errorf("show z z: exit %d, %q", code, stdout)
	}
	// A file that cannot be read is an error about the data; --max-bytes holds.
	if code, _, stderr := runArgs("show", filepath.Join(dir, "nope.npy")); code != 1 || !strings.Contains(stderr, "no such file") {
		t.Errorf("missing file: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runArgs("show", "--max-bytes", "100B", b); code != 1 || !strings.Contains(stderr, "too large") {
		t.Errorf("--max-bytes: exit %d, %q", code, stderr)
	}
}

// TestEvalToStdout pipes eval --out - into show -.
func TestEvalToStdout(t *testing.T) {
	code, stdout, stderr := runArgs("eval", "onnx.ScatterND", "--in", "data=float32:[1,2,3]", "--in", "indices=int64:[[1]]",
		"--in", "updates=float32:[9]", "--out", "-")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	got, err := npy.Read(strings.NewReader(stdout))
	want := tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, 9, 3}))
	if err != nil || !tensor.Equal(got, want) {
		t.Fatalf("stdout holds %v, %v; want %v", got, err, want)
	}
	old := stdin
	defer func() { stdin = old }()
	stdin = strings.NewReader(stdout)
	code, shown, _ := runArgs("show", "-")
	if code != 0 || shown != "-: float32[3]\n[1 9 3]\n" {
		t.Errorf("show -: exit %d, %q", code, shown)
	}
	// A tensor that .npy cannot hold is refused before anything is written.
	code, stdout, stderr = runArgs("eval", "onnx.Gather", "--in", "data=bfloat16:[1,2]", "--in", "indices=int64:[0]", "--out", "-")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "onnx.Gather: output: ") {
		t.Errorf("bfloat16 to stdout: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestOpsPattern(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    []string
	}{
		{"onnx.scatter", []string{"onnx.Scatter", "onnx.ScatterElements", "onnx.ScatterND"}},
		{"gather_nd", []string{"mindspore.gather_nd", "onnx.GatherND", "openvino.GatherND", "tf.gather_nd"}},
		{"INDEX_SELECT", []string{"torch.index_select"}},
	} {
		code, stdout, stderr := runArgs("ops", c.pattern)
		var got []string
		for line := range strings.SplitSeq(stdout, "\n") {
			if name, _, ok := strings.Cut(line, "  (versions"); ok {
				got = append(got, name)
			}
		}
		if code != 0 || strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("ops %s: exit %d, stderr %q, listed %q, want %q", c.pattern, code, stderr, got, c.want)
		}
	}
	code, stdout, stderr := runArgs("ops", "nothing")
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, `scatter ops: no operator name contains "nothing"`) {
		t.Errorf("ops nothing: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
