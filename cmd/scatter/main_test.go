package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/format"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/helpertest"
)

// write stores t in dir/name and returns the path.
func write(t *testing.T, dir, name string, x tensor.Tensor) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := format.WriteFile(p, x, strings.TrimSuffix(name, filepath.Ext(name))); err != nil {
		t.Fatal(err)
	}
	return p
}

func runArgs(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestEval(t *testing.T) {
	dir := t.TempDir()
	data := write(t, dir, "data.npy", tensor.Must(tensor.From(tensor.Shape{8}, []float32{1, 2, 3, 4, 5, 6, 7, 8})))
	idx := write(t, dir, "indices.pb", tensor.Must(tensor.From(tensor.Shape{4, 1}, []int64{4, 3, 1, 7})))
	upd := write(t, dir, "updates.npy", tensor.Must(tensor.From(tensor.Shape{4}, []float32{9, 10, 11, 12})))
	for _, out := range []string{"out.npy", "out.pb"} {
		outPath := filepath.Join(dir, out)
		code, stdout, stderr := runArgs("eval", "onnx.ScatterND", "--opset", "11", "--in", "data="+data,
			"--in", "indices="+idx, "--in", "updates="+upd, "--out", outPath)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		// What eval wrote is said on standard error, which results only
		// go to.
		if want := "scatter eval: onnx.ScatterND: wrote " + outPath + ": float32[8]\n"; stdout != "" || stderr != want {
			t.Errorf("stdout %q, stderr %q; want nothing and %q", stdout, stderr, want)
		}
		got, err := format.ReadFile(outPath)
		if err != nil {
			t.Fatal(err)
		}
		want := tensor.Must(tensor.From(tensor.Shape{8}, []float32{1, 11, 3, 10, 9, 6, 7, 12}))
		if !tensor.Equal(got, want) {
			t.Errorf("%s: got %v", out, got)
		}
	}
	// Flags before OP, and attributes.
	outPath := filepath.Join(dir, "sum.npy")
	code, _, stderr := runArgs("eval", "--attr", "reduction=add", "--in", "data="+data, "onnx.ScatterND",
		"--in", "indices="+idx, "--in", "updates="+upd, "--out", outPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, _ := format.ReadFile(outPath)
	if v := got.Data().([]float32); v[1] != 13 || v[7] != 20 {
		t.Errorf("add: got %v", v)
	}
}

func TestEvalInvalidInput(t *testing.T) {
	dir := t.TempDir()
	data := write(t, dir, "data.npy", tensor.Must(tensor.From(tensor.Shape{4}, []float32{1, 2, 3, 4})))
	bad := write(t, dir, "bad.npy", tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{0, 9})))
	upd := write(t, dir, "upd.npy", tensor.Must(tensor.From(tensor.Shape{2}, []float32{1, 1})))
	existing := filepath.Join(dir, "existing.npy")
	if err := os.WriteFile(existing, []byte("old contents"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{filepath.Join(dir, "new.npy"), existing} {
		code, stdout, stderr := runArgs("eval", "onnx.ScatterND", "--in", "data="+data, "--in", "indices="+bad,
			"--in", "updates="+upd, "--out", out)
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		want := "scatter eval: onnx.ScatterND: index out of range: indices[1] = [9]: component 0 is 9, allowed range [-4, 3] for dimension 0 of data [4]\n"
		if stderr != want || stdout != "" {
			t.Errorf("stderr %q\nwant   %q", stderr, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new.npy")); !os.IsNotExist(err) {
		t.Errorf("a failed eval created its output: %v", err)
	}
	if b, _ := os.ReadFile(existing); string(b) != "old contents" {
		t.Errorf("a failed eval changed an existing output: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("stray files left: %v", entries)
	}
	// Unreadable inputs are invalid input too, named.
	code, _, stderr := runArgs("eval", "onnx.Gather", "--in", "data="+filepath.Join(dir, "nope.npy"),
		"--in", "indices="+bad, "--out", filepath.Join(dir, "o.npy"))
	if code != 1 || !strings.HasPrefix(stderr, `scatter eval: onnx.Gather: input "data": `) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("missing file: exit %d, %q", code, stderr)
	}
}

// TestOutputNotWritable gives eval, explain and bench an output that is a
// directory, or in one that does not exist: each refuses it before its
// work, on one line naming the flag and the path, exit 1, and leaves the
// directory as it was.
func TestOutputNotWritable(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"o.npy", "o.svg", "o.png", "o.json"} {
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	in := []string{"--in", "data=float32:[1,2]", "--in", "indices=int64:[[0]]", "--in", "updates=float32:[3]"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append([]string{"eval", "onnx.ScatterND", "--out", filepath.Join(dir, "o.npy")}, in...),
			"scatter eval: onnx.ScatterND: --out " + filepath.Join(dir, "o.npy") + ": is a directory\n"},
		{append([]string{"eval", "onnx.ScatterND", "--out", filepath.Join(dir, "no", "o.npy")}, in...),
			"scatter eval: onnx.ScatterND: --out " + filepath.Join(dir, "no", "o.npy") + ": directory " + filepath.Join(dir, "no") + " does not exist\n"},
		{append([]string{"explain", "onnx.ScatterND", "--svg", filepath.Join(dir, "o.svg")}, in...),
			"scatter explain: onnx.ScatterND: --svg " + filepath.Join(dir, "o.svg") + ": is a directory\n"},
		{append([]string{"explain", "onnx.ScatterND", "--png", filepath.Join(dir, "o.png")}, in...),
			"scatter explain: onnx.ScatterND: --png " + filepath.Join(dir, "o.png") + ": is a directory\n"},
		{[]string{"bench", "--workload", "W1", "--json", filepath.Join(dir, "o.json")},
			"scatter bench: --json " + filepath.Join(dir, "o.json") + ": is a directory\n"},
		{[]string{"bench", "--workload", "W1", "--plot", filepath.Join(dir, "o.png")},
			"scatter bench: --plot " + filepath.Join(dir, "o.png") + ": is a directory\n"},
	} {
		code, stdout, stderr := runArgs(tc.args...)
		if code != 1 || stdout != "" || stderr != tc.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
	if names := helpertest.DirNames(t, dir); !slices.Equal(names, []string{"o.json", "o.npy", "o.png", "o.svg"}) {
		t.Errorf("the directory holds %v", names)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := [][]string{
		{"frobnicate"},
		{"eval"},
		{"eval", "onnx.ScatterND"},
		{"eval", "onnx.NoSuchOp", "--out", "x.npy"},
		{"eval", "onnx.ScatterND", "--out", "x.txt"},
		{"eval", "onnx.ScatterND", "--attr", "nope=1", "--out", "x.npy"},
		{"eval", "onnx.ScatterND", "--attr", "reduction", "--out", "x.npy"},
		{"eval", "onnx.Gather", "--attr", "axis=one", "--out", "x.npy"},
		{"eval", "onnx.Gather", "--in", "weights=w.npy", "--out", "x.npy"},
		{"eval", "onnx.Gather", "--in", "data=a.npy", "--in", "data=b.npy", "--out", "x.npy"},
		{"eval", "onnx.Gather", "onnx.GatherND", "--out", "x.npy"},
		{"eval", "onnx.Gather", "--opset", "x", "--out", "x.npy"},
		{"eval", "onnx.Gather", "--opset", "0", "--out", "x.npy"},
		{"eval", "onnx.Gather", "--frobnicate", "--out", "x.npy"},
		{"ops", "a", "b"},
		{"show"},
		{"show", "x.txt"},
		{"help", "frobnicate"},
		{"help", "eval", "explain"},
	}
	for _, args := range tests {
		cmd := args[0]
		if lookupCommand(cmd) == nil {
			cmd = ""
		}
		help := strings.TrimSpace("scatter help " + cmd)
		code, stdout, stderr := runArgs(args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, strings.TrimSpace("scatter "+cmd)+": ") ||
			!strings.HasSuffix(stderr, " Run '"+help+"' for usage.\n") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line on stderr ending in Run '%s' for usage.",
				args, code, stdout, stderr, help)
		}
	}
	// Without arguments, scatter prints its usage, as help does, but to
	// standard error.
	code, stdout, stderr := runArgs()
	if code != 2 || stdout != "" || stderr != usage() {
		t.Errorf("no arguments: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, stdout, _ := runArgs("help"); code != 0 || stdout != usage() {
		t.Errorf("help: exit %d", code)
	}
}

// TestUsageMessages pins the line a usage error prints.
func TestUsageMessages(t *testing.T) {
	in := []string{"--in", "data=float32:[1,2]", "--in", "indices=int64:[[0]]", "--in", "updates=float32:[5]", "--out", "x.npy"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "onnx.ScaterND", "--out", "x.npy"},
			`scatter eval: unknown operator "onnx.ScaterND": did you mean onnx.ScatterND? Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.NoSuchOp", "--out", "x.npy"},
			`scatter eval: unknown operator "onnx.NoSuchOp" (run 'scatter ops' for the list). Run 'scatter help eval' for usage.`},
		{append([]string{"eval", "onnx.ScatterND", "--attr", "reduce=add"}, in...),
			`scatter eval: onnx.ScatterND has no attribute "reduce": did you mean reduction? (its attributes: reduction). Run 'scatter help eval' for usage.`},
		{append([]string{"eval", "onnx.ScatterND", "--attr", "reductio=add"}, in...),
			`scatter eval: onnx.ScatterND has no attribute "reductio": did you mean reduction? (its attributes: reduction). Run 'scatter help eval' for usage.`},
		{[]string{"eval", "torch.scatter", "--attr", "axis=0", "--out", "x.npy"},
			`scatter eval: torch.scatter has no attribute "axis": did you mean dim? (its attributes: dim, reduce, value). Run 'scatter help eval' for usage.`},
		{[]string{"eval", "tf.gather_nd", "--attr", "axis=0", "--out", "x.npy"},
			`scatter eval: tf.gather_nd has no attribute "axis" (its attributes: batch_dims). Run 'scatter help eval' for usage.`},
		{[]string{"eval", "tf.gather", "--attr", "indices=0", "--out", "x.npy"},
			`scatter eval: "indices" is an input of tf.gather: give it with --in. Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--in", "index=int64:[[0]]", "--out", "x.npy"},
			`scatter eval: onnx.ScatterND has no input "index": did you mean indices? (its inputs: data, indices, updates). Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--in", "updaets=int64:[[0]]", "--out", "x.npy"},
			`scatter eval: onnx.ScatterND has no input "updaets": did you mean updates? (its inputs: data, indices, updates). Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--in", "reduction=x.npy", "--out", "x.npy"},
			`scatter eval: "reduction" is an attribute of onnx.ScatterND: give it with --attr. Run 'scatter help eval' for usage.`},
		{append([]string{"eval", "onnx.ScatterND", "--opset", "0"}, in...),
			`scatter eval: --opset 0: an opset is 1 or more, or leave --opset out for the newest (onnx.ScatterND's versions: 11, 13, 16, 18). Run 'scatter help eval' for usage.`},
		{append([]string{"eval", "onnx.ScatterND", "--opset", "-1"}, in...),
			`scatter eval: --opset -1: an opset is 1 or more, or leave --opset out for the newest (onnx.ScatterND's versions: 11, 13, 16, 18). Run 'scatter help eval' for usage.`},
		{append([]string{"eval", "onnx.ScatterND", "--opset", "10"}, in...),
			`scatter eval: --opset 10: onnx.ScatterND is defined from opset 11 (its versions: 11, 13, 16, 18). Run 'scatter help eval' for usage.`},
		{[]string{"explain", "onnx.Scatter", "--opset", "11"},
			`scatter explain: --opset 11: onnx.Scatter was removed in opset 11 (its versions: 9, for opsets 9 to 10). Run 'scatter help explain' for usage.`},
		{[]string{"eval", "torch.gather", "--opset", "0", "--out", "x.npy"},
			`scatter eval: --opset 0: an opset is 1 or more, or leave --opset out for the newest (torch.gather's versions: 1). Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--opset", "x", "--out", "x.npy"},
			`scatter eval: --opset "x": not a number. Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--opset", "9223372036854775808", "--out", "x.npy"},
			`scatter eval: --opset "9223372036854775808": out of range. Run 'scatter help eval' for usage.`},
		{[]string{"compare", "--family", "gather", "--opset", "onnx=9223372036854775808", "--in", "data=float32:[1]"},
			`scatter compare: --opset onnx=9223372036854775808: out of range. Run 'scatter help compare' for usage.`},
		{[]string{"compare", "--family", "gather", "--opset", "onnx=0", "--in", "data=float32:[1]"},
			`scatter compare: --opset onnx=0: an opset is 1 or more (leave --opset out for the newest). Run 'scatter help compare' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--in", "data=f32:[1,2]", "--out", "x.npy"},
			`scatter eval: --in data: tensor: invalid tensor literal: "f32:[1,2]": unknown element type "f32": did you mean float32? Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--in", "data=[1,2]", "--out", "x.npy"},
			`scatter eval: --in data: tensor: invalid tensor literal: "[1,2]" has no element type: want TYPE:VALUES, e.g. float32:[1,2]. Run 'scatter help eval' for usage.`},
		// A missing input is a mistake in the command line, as an unknown one is.
		{[]string{"eval", "onnx.Gather", "--in", "data=float32:[1]", "--out", "x.npy"},
			`scatter eval: onnx.Gather: missing input "indices" (give it with --in indices=FILE|TYPE:VALUES). Run 'scatter help eval' for usage.`},
		{[]string{"explain", "onnx.ScatterND", "--in", "data=float32:[1]", "--in", "indices=int64:[[0]]"},
			`scatter explain: onnx.ScatterND: missing input "updates" (give it with --in updates=FILE|TYPE:VALUES). Run 'scatter help explain' for usage.`},
		// The hint for a literal without a type suits the input's role.
		{[]string{"eval", "onnx.ScatterND", "--in", "indices=[[0]]", "--out", "x.npy"},
			`scatter eval: --in indices: tensor: invalid tensor literal: "[[0]]" has no element type: want TYPE:VALUES, e.g. int64:[[0]]. Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--in", "updates=[[5]]", "--out", "x.npy"},
			`scatter eval: --in updates: tensor: invalid tensor literal: "[[5]]" has no element type: want TYPE:VALUES, e.g. float32:[[5]]. Run 'scatter help eval' for usage.`},
		{[]string{"eval", "torch.gather", "--in", "index=3", "--out", "x.npy"},
			`scatter eval: --in index: tensor: invalid tensor literal: "3" has no element type: want TYPE:VALUES, e.g. int64:[0,1]. Run 'scatter help eval' for usage.`},
		{[]string{"compare", "--family", "gather", "--in", "index=[1]"},
			`scatter compare: --in index: tensor: invalid tensor literal: "[1]" has no element type: want TYPE:VALUES, e.g. int64:[1]. Run 'scatter help compare' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--in", "data=x.txt", "--out", "x.npy"},
			`scatter eval: --in data: "x.txt" is neither a .npy or .pb file nor a literal TYPE:VALUES such as float32:[1,2]. Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--in", "data=./data", "--out", "x.npy"},
			`scatter eval: --in data: "./data" is neither a .npy or .pb file nor a literal TYPE:VALUES such as float32:[1,2]. Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--in", "data=7", "--out", "x.npy"},
			`scatter eval: --in data: tensor: invalid tensor literal: "7" has no element type: want TYPE:VALUES, e.g. float32:[1,2]. Run 'scatter help eval' for usage.`},
		{[]string{"compare", "--family", "gather", "--in", "data=f32:[1]"},
			`scatter compare: --in data: tensor: invalid tensor literal: "f32:[1]": unknown element type "f32": did you mean float32? Run 'scatter help compare' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--out", "x.txt"},
			`scatter eval: --out x.txt: want a .npy or .pb file, or - for .npy on standard output. Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--bogus", "--out", "x.npy"},
			`scatter eval: unknown flag --bogus. Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--opst", "3", "--out", "x.npy"},
			`scatter eval: unknown flag --opst: did you mean --opset? Run 'scatter help eval' for usage.`},
		{[]string{"eval", "onnx.ScatterND", "--out"},
			`scatter eval: --out needs a value. Run 'scatter help eval' for usage.`},
		{[]string{"explain", "onnx.ScatterND", "--color", "sometimes"},
			`scatter explain: --color "sometimes": want auto, always or never. Run 'scatter help explain' for usage.`},
		{[]string{"evl"}, `scatter: unknown command "evl": did you mean eval? Run 'scatter help' for usage.`},
		{[]string{"help", "evl"}, `scatter: unknown command "evl": did you mean eval? Run 'scatter help' for usage.`},
	} {
		code, stdout, stderr := runArgs(c.args...)
		if code != 2 || stdout != "" || stderr != c.want+"\n" {
			t.Errorf("%q: exit %d, stdout %q\nstderr %s\nwant   %s", c.args, code, stdout, stderr, c.want)
		}
	}
}

// TestHelpCommand checks that scatter help CMD prints what CMD -h does.
func TestHelpCommand(t *testing.T) {
	for _, c := range commands {
		code, stdout, stderr := runArgs("help", c.name)
		_, want, _ := runArgs(c.name, "-h")
		if code != 0 || stderr != "" || stdout != want || !strings.HasPrefix(stdout, "usage: scatter "+c.name) {
			t.Errorf("help %s: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", c.name, code, stderr, stdout, want)
		}
	}
}

// TestOpsetGivenOrNot checks that leaving --opset out runs the newest
// version, and that a given opset is used.
func TestOpsetGivenOrNot(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "o.npy")
	args := []string{"eval", "onnx.ScatterND", "--in", "data=float32:[1,2]", "--in", "indices=int64:[[0],[0]]",
		"--in", "updates=float32:[5,6]", "--attr", "reduction=max", "--out", out}
	if code, _, stderr := runArgs(args...); code != 0 {
		t.Fatalf("no --opset: exit %d, %s", code, stderr)
	}
	if got, _ := format.ReadFile(out); got.Data().([]float32)[0] != 6 {
		t.Errorf("no --opset: got %v, want max of 1, 5, 6", got)
	}
	code, _, stderr := runArgs(append(args, "--opset", "16")...)
	if code != 1 || !strings.Contains(stderr, `reduction "max" is not allowed in version 16`) {
		t.Errorf("--opset 16: exit %d, %s", code, stderr)
	}
}
func TestConform(t *testing.T) {
	code, stdout, stderr := runArgs("conform")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || len(lines) != 1073 || lines[1072] != "1072 passed, 0 failed (onnx 26 of 26, stablehlo 1046 of 1046)" {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	// A directory of tests, and one test given directly.
	dir := t.TempDir()
	test := filepath.Join(dir, "test_gather_neg")
	if err := os.MkdirAll(filepath.Join(test, "test_data_set_0"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join("..", "..", "conformance", "testdata", "onnx-node", "test_gather_negative_indices")
	for _, f := range []string{"model.onnx", "test_data_set_0/input_0.pb", "test_data_set_0/input_1.pb", "test_data_set_0/output_0.pb"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(test, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, arg := range []string{dir, test} {
		code, stdout, _ = runArgs("conform", arg)
		if code != 0 || stdout != "PASS test_gather_neg\n1 passed, 0 failed (onnx 1 of 1)\n" {
			t.Errorf("conform %s: exit %d, %q", arg, code, stdout)
		}
	}
	// A StableHLO test file, given directly and in the directory.
	mlir, err := os.ReadFile(filepath.Join("..", "..", "conformance", "testdata", "stablehlo", "interpret", "gather.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gather.mlir"), mlir, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = runArgs("conform", filepath.Join(dir, "gather.mlir"))
	if code != 0 || !strings.HasSuffix(stdout, "\n2 passed, 0 failed (stablehlo 2 of 2)\n") {
		t.Errorf("conform gather.mlir: exit %d, %q", code, stdout)
	}
	code, stdout, _ = runArgs("conform", dir)
	if code != 0 || !strings.HasSuffix(stdout, "\n3 passed, 0 failed (onnx 1 of 1, stablehlo 2 of 2)\n") {
		t.Errorf("conform %s with a .mlir file: exit %d, %q", dir, code, stdout)
	}
	if err := os.Remove(filepath.Join(dir, "gather.mlir")); err != nil {
		t.Fatal(err)
	}
	// Break the expected output: the test fails and the exit code says so.
	out, _ := format.ReadFile(filepath.Join(test, "test_data_set_0", "output_0.pb"))
	out.Data().([]float32)[0]++
	write(t, filepath.Join(test, "test_data_set_0"), "output_0.pb", out)
	code, stdout, _ = runArgs("conform", dir)
	if code != 1 || !strings.HasPrefix(stdout, "FAIL test_gather_neg: ") || !strings.HasSuffix(stdout, "0 passed, 1 failed (onnx 0 of 1)\n") {
		t.Errorf("broken test: exit %d, %q", code, stdout)
	}
	if code, _, _ := runArgs("conform", filepath.Join(dir, "missing")); code != 1 {
		t.Errorf("missing dir: exit %d", code)
	}
}

func TestOps(t *testing.T) {
	code, stdout, _ := runArgs("ops")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"onnx.Gather  (versions 1, 11, 13)",
		"onnx.GatherElements  (versions 11, 13)",
		"onnx.GatherND  (versions 11, 12, 13)",
		"onnx.Scatter  (versions 9; removed in 11)",
		"onnx.ScatterElements  (versions 11, 13, 16, 18)",
		"onnx.ScatterND  (versions 11, 13, 16, 18)",
		"attr   reduction  string = none (from version 16)",
		"attr   batch_dims int = 0 (from version 12)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("ops output lacks %q", want)
		}
	}
	// An operator's input and attribute names form one column, however
	// long (stablehlo.scatter's scatter_dims_to_operand_dims).
	_, stdout, _ = runArgs("ops", "stablehlo.scatter")
	var col []int
	for line := range strings.Lines(stdout) {
		if rest, ok := strings.CutPrefix(line, "  input  "); ok || strings.HasPrefix(line, "  attr   ") {
			if !ok {
				rest = strings.TrimPrefix(line, "  attr   ")
			}
			name := strings.Fields(rest)[0]
			col = append(col, len(line)-len(strings.TrimLeft(strings.TrimPrefix(rest, name), " ")))
		}
	}
	if len(col) < 10 || slices.Min(col) != slices.Max(col) {
		t.Errorf("the descriptions start at columns %v:\n%s", col, stdout)
	}
}

// TestMessagesNameCommand checks that a failure of each command is told
// on one line that begins "scatter COMMAND: ", whatever the command's own
// error begins with.
func TestMessagesNameCommand(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"show", filepath.Join(dir, "nope.npy")}, "scatter show: npy: open "},
		{[]string{"conform", filepath.Join(dir, "nope")}, "scatter conform: stat "},
		{[]string{"ops", "nothing"}, `scatter ops: no operator name contains "nothing"`},
		{[]string{"eval", "onnx.Gather", "--in", "data=float32:[1]", "--in", "indices=int64:[5]", "--out", "-"}, "scatter eval: onnx.Gather: index out of range"},
		{[]string{"explain", "onnx.Gather", "--in", "data=float32:[1]", "--in", "indices=int64:[5]"}, "scatter explain: onnx.Gather: index out of range"},
	} {
		code, _, stderr := runArgs(c.args...)
		if code != exitInvalid || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 ||
			strings.Count(stderr, "scatter "+c.args[0]+": ") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit 1 and one line beginning %q", c.args, code, stderr, c.want)
		}
	}
}
