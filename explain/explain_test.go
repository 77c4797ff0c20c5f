package explain

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// call builds a call from literal inputs ("name=type:values") and
// attributes ("name=value", read by the attribute's kind).
func call(t *testing.T, op *dialect.Op, opset int, args ...string) dialect.Call {
	t.Helper()
	c := dialect.Call{Opset: opset, Inputs: map[string]tensor.Tensor{}, Attrs: map[string]dialect.Value{}}
	for _, a := range args {
		name, value, _ := strings.Cut(a, "=")
		if kind, ok := op.AttrKind(name); ok && !strings.Contains(value, ":") {
			v, err := dialect.ParseValue(kind, value)
			if err != nil {
				t.Fatal(err)
			}
			c.Attrs[name] = v
			continue
		}
		x, err := tensor.Parse(value)
		if err != nil {
			t.Fatal(err)
		}
		c.Inputs[name] = x
	}
	return c
}

func lookup(t *testing.T, name string) *dialect.Op {
	t.Helper()
	op, err := registry.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

// trace runs the operator called name on a call built by call, and fails
// the test if it fails.
func trace(t *testing.T, name string, opset int, args ...string) *Trace {
	t.Helper()
	op := lookup(t, name)
	tr, err := Run(op, call(t, op, opset, args...))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return tr
}

// moves returns the links as "from>to" pairs, "-" for a skipped end.
func moves(links []Link) string {
	parts := make([]string, len(links))
	for i, l := range links {
		end := func(i int) string {
			if i < 0 {
				return "-"
			}
			return fmt.Sprint(i)
		}
		parts[i] = end(l.From) + ">" + end(l.To)
	}
	return strings.Join(parts, " ")
}

// statuses returns an operand's cell statuses as letters: . plain,
// u untouched, w written, o overwritten, r reduced, g gathered, R read,
// a applied, l lost, s skipped, f failed, e empty.
func statuses(o *Operand) string {
	const letters = ".uworgRalsfe"
	var b strings.Builder
	for _, c := range o.Cells {
		b.WriteByte(letters[c.Status])
	}
	return b.String()
}

// traceCases are documented examples of every dialect, and corners.
var traceCases = []struct {
	name, op  string
	opset     int
	args      []string
	moves     string // From>To of every link
	out       string // statuses of the output cells
	src       string // statuses of the updates (scatter) or data (gather) cells
	reduction string
}{
	{name: "onnx ScatterND example 1", op: "onnx.ScatterND",
		args:  []string{"data=float32:[1,2,3,4,5,6,7,8]", "indices=int64:[[4],[3],[1],[7]]", "updates=float32:[9,10,11,12]"},
		moves: "0>4 1>3 2>1 3>7", out: "uwuwwuuw", src: "aaaa", reduction: "none"},
	{name: "onnx ScatterND slices", op: "onnx.ScatterND",
		args:  []string{"data=float32:[[1,2],[3,4],[5,6]]", "indices=int64:[[-1],[0]]", "updates=float32:[[7,8],[9,10]]"},
		moves: "0>4 1>5 2>0 3>1", out: "wwuuww", src: "aaaa", reduction: "none"},
	{name: "onnx ScatterND duplicates mul", op: "onnx.ScatterND", opset: 16,
		args:  []string{"data=float32:[1,2,3]", "indices=int64:[[0],[0],[2]]", "updates=float32:[2,3,4]", "reduction=mul"},
		moves: "0>0 1>0 2>2", out: "rur", src: "aaa", reduction: "mul"},
	{name: "onnx ScatterElements axis 1", op: "onnx.ScatterElements",
		args:  []string{"data=float32:[[1,2,3,4,5]]", "indices=int64:[[1,3]]", "updates=float32:[[1.1,2.1]]", "axis=1"},
		moves: "0>1 1>3", out: "uwuwu", src: "aa", reduction: "none"},
	{name: "onnx Scatter opset 10 duplicates", op: "onnx.Scatter", opset: 10,
		args:  []string{"data=int32:[0,0,0]", "indices=int32:[2,2,-3]", "updates=int32:[1,2,3]"},
		moves: "0>2 1>2 2>0", out: "wuo", src: "laa", reduction: "none"},
	{name: "onnx GatherND", op: "onnx.GatherND",
		args:  []string{"data=int32:[[0,1],[2,3]]", "indices=int64:[[1],[0]]"},
		moves: "2>0 3>1 0>2 1>3", out: "gggg", src: "RRRR"},
	{name: "onnx GatherND batch_dims", op: "onnx.GatherND",
		args:  []string{"data=int32:[[[0,1],[2,3]],[[4,5],[6,7]]]", "indices=int64:[[1],[0]]", "batch_dims=1"},
		moves: "2>0 3>1 4>2 5>3", out: "gggg", src: "uuRRRRuu"},
	{name: "onnx GatherElements", op: "onnx.GatherElements",
		args:  []string{"data=float32:[[1,2],[3,4]]", "indices=int64:[[0,0],[1,0]]", "axis=1"},
		moves: "0>0 0>1 3>2 2>3", out: "gggg", src: "RuRR"},
	{name: "onnx Gather axis 1", op: "onnx.Gather",
		args:  []string{"data=float32:[[1,2,3],[4,5,6]]", "indices=int64:[[0,2]]", "axis=1"},
		moves: "0>0 2>1 3>2 5>3", out: "gggg", src: "RuRRuR"},
	{name: "onnx Gather scalar index", op: "onnx.Gather",
		args:  []string{"data=float32:[[1,2],[3,4]]", "indices=int64:-1"},
		moves: "2>0 3>1", out: "gg", src: "uuRR"},
	{name: "tf scatter_nd duplicates", op: "tf.scatter_nd",
		args:  []string{"indices=int64:[[1],[0],[1]]", "updates=float32:[1,2,3]", "shape=3"},
		moves: "0>1 1>0 2>1", out: "rru", src: "aaa", reduction: "add"},
	{name: "tf tensor_scatter_nd_update", op: "tf.tensor_scatter_nd_update",
		args:  []string{"tensor=float32:[0,0,0,0]", "indices=int64:[[2],[2],[0]]", "updates=float32:[1,2,3]"},
		moves: "0>2 1>2 2>0", out: "wuou", src: "laa", reduction: "update"},
	{name: "tf gather_nd batch_dims", op: "tf.gather_nd",
		args:  []string{`params=string:[[["a0","b0"],["c0","d0"]],[["a1","b1"],["c1","d1"]]]`, "indices=int64:[[1],[0]]", "batch_dims=1"},
		moves: "2>0 3>1 4>2 5>3", out: "gggg", src: "uuRRRRuu"},
	{name: "tf gather batch_dims", op: "tf.gather",
		args:  []string{"params=int32:[[0,0,1,0,2],[3,0,0,0,4],[0,5,0,6,0]]", "indices=int64:[[2,4],[0,4],[1,3]]", "axis=1", "batch_dims=1"},
		moves: "2>0 4>1 5>2 9>3 11>4 13>5", out: "gggggg", src: "uuRuRRuuuRuRuRu"},
	{name: "tf gather axis None", op: "tf.gather",
		args:  []string{"params=int32:[[0,0,1,0,2],[3,0,0,0,4],[0,5,0,6,0]]", "indices=int64:[[2,4],[0,4],[1,3]]", "batch_dims=-1"},
		moves: "2>0 4>1 5>2 9>3 11>4 13>5", out: "gggggg", src: "uuRuRRuuuRuRuRu"},
	{name: "torch scatter src larger than index", op: "torch.scatter",
		args:  []string{"input=int64:[[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]]", "index=int64:[[0,1,2,0]]", "src=int64:[[1,2,3,4,5],[6,7,8,9,10]]", "dim=0"},
		moves: "0>0 1>6 2>12 3>3", out: "wuuwuuwuuuuuwuu", src: "aaaauuuuuu", reduction: "none"},
	{name: "torch scatter value multiply", op: "torch.scatter",
		args:  []string{"input=float32:[[2,2,2,2],[2,2,2,2]]", "index=int64:[[2],[3]]", "value=1.23", "reduce=multiply", "dim=1"},
		moves: "0>2 0>7", out: "uuruuuur", src: "a", reduction: "multiply"},
	{name: "torch scatter_add", op: "torch.scatter_add",
		args:  []string{"input=float32:[0,0,0]", "index=int64:[2,2]", "src=float32:[1,1]", "dim=0"},
		moves: "0>2 1>2", out: "uur", src: "aa", reduction: "add"},
	{name: "torch scatter_reduce without self", op: "torch.scatter_reduce",
		args:  []string{"input=float32:[1,2,3,4]", "index=int64:[0,1,0,1,2,1]", "src=float32:[1,2,3,4,5,6]", "dim=0", "reduce=sum", "include_self=false"},
		moves: "0>0 1>1 2>0 3>1 4>2 5>1", out: "rrru", src: "aaaaaa", reduction: "sum"},
	{name: "torch gather", op: "torch.gather",
		args:  []string{"input=float32:[[1,2],[3,4]]", "index=int64:[[0,0],[1,0]]", "dim=1"},
		moves: "0>0 0>1 3>2 2>3", out: "gggg", src: "RuRR"},
	{name: "torch index_select 0-d index", op: "torch.index_select",
		args:  []string{"input=float32:[[1,2,3],[4,5,6]]", "index=int32:1", "dim=1"},
		moves: "1>0 4>1", out: "gg", src: "uRuuRu"},
	{name: "torch index_select 0-d input", op: "torch.index_select",
		args:  []string{"input=float32:5", "index=int64:[0]", "dim=0"},
		moves: "0>0", out: "g", src: "R"},
	{name: "openvino ScatterElementsUpdate without init", op: "openvino.ScatterElementsUpdate",
		args:  []string{"data=float32:[2,3,4,6]", "indices=int64:[1,0,0,-2,-1,2]", "updates=float32:[10,20,30,40,70,60]", "axis=0", "reduction=sum", "use_init_val=false"},
		moves: "0>1 1>0 2>0 3>2 4>3 5>2", out: "rrrr", src: "aaaaaa", reduction: "sum"},
	{name: "openvino ScatterElementsUpdate axis tensor", op: "openvino.ScatterElementsUpdate", opset: 3,
		args:  []string{"data=float32:[[1,2],[3,4]]", "indices=int64:[[1],[0]]", "updates=float32:[[5],[6]]", "axis=int8:[-1]"},
		moves: "0>1 1>2", out: "uwwu", src: "aa", reduction: "none"},
	{name: "openvino ScatterNDUpdate one-element updates", op: "openvino.ScatterNDUpdate",
		args:  []string{"data=float32:[[1,2],[3,4]]", "indices=int64:[1,0]", "updates=float32:[[9]]"},
		moves: "0>2", out: "uuwu", src: "a", reduction: "none"},
	{name: "openvino GatherND version 5 flattens", op: "openvino.GatherND", opset: 5,
		args: []string{"data=int32:[[[1,2,3,4],[5,6,7,8],[9,10,11,12]],[[13,14,15,16],[17,18,19,20],[21,22,23,24]]]",
			"indices=int64:[[[[1]],[[0]],[[2]]],[[[0]],[[2]],[[2]]]]", "batch_dims=2"},
		moves: "1>0 4>1 10>2 12>3 18>4 22>5", out: "gggggg", src: "uRuuRuuuuuRuRuuuuuRuuuRu"},
	{name: "openvino GatherElements longer indices", op: "openvino.GatherElements",
		args:  []string{"data=float32:[[1,7],[4,3]]", "indices=int32:[[1,1,0],[1,0,1]]", "axis=1"},
		moves: "1>0 1>1 0>2 3>3 2>4 3>5", out: "gggggg", src: "RRRR"},
	{name: "mindspore scatter_nd", op: "mindspore.scatter_nd",
		args:  []string{"indices=int32:[[0,1],[1,1]]", "updates=float32:[3.2,1.1]", "shape=3,3"},
		moves: "0>1 1>4", out: "uruuruuuu", src: "aa", reduction: "add"},
	{name: "mindspore gather_nd scalar indices", op: "mindspore.gather_nd",
		args:  []string{"input_x=float32:[[1,2],[3,4]]", "indices=int64:1"},
		moves: "2>0 3>1", out: "gg", src: "uuRR"},
	{name: "mindspore tensor_scatter_elements skips", op: "mindspore.tensor_scatter_elements",
		args:  []string{"input_x=int32:[[1,2,3],[4,5,6],[7,8,9]]", "indices=int32:[[3,-4,2],[0,9,-3]]", "updates=int32:[[1,2,2],[4,5,8]]"},
		moves: "0>- 1>- 2>8 3>0 4>- 5>2", out: "wuwuuuuuw", src: "ssaasa", reduction: "none"},
}

func TestRun(t *testing.T) {
	for _, c := range traceCases {
		t.Run(c.name, func(t *testing.T) {
			tr := trace(t, c.op, c.opset, c.args...)
			if got := moves(tr.Links); got != c.moves {
				t.Errorf("moves %s, want %s", got, c.moves)
			}
			if got := statuses(tr.Output); got != c.out {
				t.Errorf("output %s, want %s", got, c.out)
			}
			if src := tr.source(); statuses(src) != c.src {
				t.Errorf("%s %s, want %s", src.Name, statuses(src), c.src)
			}
			if tr.Reduction != c.reduction {
				t.Errorf("reduction %q, want %q", tr.Reduction, c.reduction)
			}
			// size counted the links before they were made.
			if tr.moves() != len(tr.Links) {
				t.Errorf("moves() %d for %d links", tr.moves(), len(tr.Links))
			}
		})
	}
}

// TestRunAgreesWithOutput checks the links against the values the
// operator computed (see checkTrace).
func TestRunAgreesWithOutput(t *testing.T) {
	for _, c := range traceCases {
		tr := trace(t, c.op, c.opset, c.args...)
		checked := checkTrace(t, lookup(t, c.op), tr)
		if wantChecks := !tr.Scatter || tr.Combine == engine.None; wantChecks && checked == 0 {
			t.Errorf("%s: no link checked", c.name)
		}
	}
}

func TestRunIndexError(t *testing.T) {
	cases := []struct {
		op      string
		opset   int
		args    []string
		indices string // statuses of the indices cells
	}{
		{"onnx.ScatterND", 0, []string{"data=float32:[[1,2],[3,4]]", "indices=int64:[[0,1],[2,0]]", "updates=float32:[5,6]"}, "..f."},
		{"openvino.ScatterNDUpdate", 3, []string{"data=int32:[1,2,3,4]", "indices=int32:[[0],[2],[-3],[-3],[0]]", "updates=int32:[10,20,30,40,50]"}, "..f.."},
		{"tf.gather_nd", 0, []string{"params=float32:[[1,2],[3,4]]", "indices=int64:[[0,0],[7,0],[9,9]]"}, "....f."},
		{"torch.gather", 0, []string{"input=float32:[1,2]", "index=int64:[0,5]", "dim=0"}, ".f"},
		{"torch.scatter", 0, []string{"input=float32:[1,2]", "index=int64:[1,2]", "src=float32:[5,6]", "dim=0"}, ".f"},
	}
	for _, c := range cases {
		op := lookup(t, c.op)
		tr, err := Run(op, call(t, op, c.opset, c.args...))
		var ie *engine.IndexError
		if !errors.As(err, &ie) {
			t.Fatalf("%s: %v, want an index error", c.op, err)
		}
		var oe *dialect.OpError
		if !errors.As(err, &oe) || oe.Op != c.op {
			t.Errorf("%s: error %v does not name the operator", c.op, err)
		}
		if tr == nil || tr.Output != nil || tr.Links != nil || tr.Err != err {
			t.Fatalf("%s: trace %+v", c.op, tr)
		}
		if got := statuses(tr.Indices); got != c.indices {
			t.Errorf("%s: indices %s, want %s", c.op, got, c.indices)
		}
		var b strings.Builder
		if err := tr.WriteText(&b, false); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "marked !") {
			t.Errorf("%s: text does not point at the index:\n%s", c.op, b.String())
		}
	}
}

func TestRunOtherErrors(t *testing.T) {
	op := lookup(t, "onnx.Scatter")
	c := call(t, op, 11, "data=float32:[1]", "indices=int64:[0]", "updates=float32:[2]")
	tr, err := Run(op, c)
	if tr != nil || !errors.Is(err, dialect.ErrVersion) {
		t.Errorf("removed operator: %v, %v", tr, err)
	}
	op = lookup(t, "onnx.ScatterND")
	tr, err = Run(op, call(t, op, 0, "data=float32:[1]", "indices=int32:[[0]]", "updates=float32:[2]"))
	if tr != nil || !errors.Is(err, dialect.ErrInput) {
		t.Errorf("int32 indices: %v, %v", tr, err)
	}
	op = lookup(t, "torch.gather")
	tr, err = Run(op, call(t, op, 0, "input=float32:[1,2]", "index=int64:[[0]]", "dim=0"))
	if tr != nil || !errors.Is(err, engine.ErrShape) {
		t.Errorf("rank mismatch: %v, %v", tr, err)
	}
}

// longLiteral returns a literal of n elements of type dtype whose values
// value(i) gives.
func longLiteral(dtype string, n int, value func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = value(i)
	}
	return dtype + ":[" + strings.Join(parts, ",") + "]"
}

func TestSummary(t *testing.T) {
	// 500 updates into 1000 cells: update i goes to cell i%300, so cells
	// 0-199 are hit twice and 200-299 once.
	tr := trace(t, "onnx.ScatterElements", 0,
		"data="+longLiteral("float32", 1000, func(int) string { return "0" }),
		"indices="+longLiteral("int64", 500, func(i int) string { return fmt.Sprint(i % 300) }),
		"updates="+longLiteral("float32", 500, func(i int) string { return fmt.Sprint(i) }),
		"reduction=add")
	if err := tr.Fits(); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Fits: %v", err)
	}
	s := tr.Summary()
	want := Summary{Moves: 500, Cells: 1000, Hit: 300, Duplicates: 200,
		Top: []Count{{[]int{0}, 2}, {[]int{1}, 2}, {[]int{2}, 2}, {[]int{3}, 2}, {[]int{4}, 2}}}
	if fmt.Sprint(s) != fmt.Sprint(want) {
		t.Errorf("summary %+v, want %+v", s, want)
	}
	var b strings.Builder
	if err := tr.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"500 updates, 0 of them skipped",
		"300 of the 1000 output cells were hit; 200 updates went to a cell already hit",
		"most hit: output[0] 2 times, output[1] 2 times",
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("summary text lacks %q:\n%s", line, b.String())
		}
	}
	for name, write := range map[string]func(io.Writer) error{"svg": tr.WriteSVG, "png": tr.WritePNG} {
		if err := write(io.Discard); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v, want ErrTooLarge", name, err)
		}
	}
}

func TestSummaryGather(t *testing.T) {
	tr := trace(t, "tf.gather", 0,
		"params="+longLiteral("int32", 10, func(i int) string { return fmt.Sprint(i) }),
		"indices="+longLiteral("int64", 450, func(i int) string { return fmt.Sprint(i % 3) }))
	s := tr.Summary()
	want := Summary{Moves: 450, Cells: 10, Hit: 3, Duplicates: 447,
		Top: []Count{{[]int{0}, 150}, {[]int{1}, 150}, {[]int{2}, 150}}}
	if fmt.Sprint(s) != fmt.Sprint(want) {
		t.Errorf("summary %+v, want %+v", s, want)
	}
}

func TestEmptyCalls(t *testing.T) {
	cases := []struct {
		op   string
		args []string
	}{
		{"torch.scatter", []string{"input=float32:[1,2]", "index=int64:[]", "src=float32:[]", "dim=0"}},
		{"tf.gather", []string{"params=float32:[1,2]", "indices=int64:[]"}},
	}
	for _, c := range cases {
		tr := trace(t, c.op, 0, c.args...)
		if len(tr.Links) != 0 {
			t.Errorf("%s: links %v", c.op, tr.Links)
		}
		var b bytes.Buffer
		if err := tr.WriteText(&b, false); err != nil {
			t.Fatal(err)
		}
		if err := tr.WriteSVG(&b); err != nil {
			t.Fatal(err)
		}
	}
}

// goldenCases are rendered and compared with testdata/NAME.txt,
// NAME.color.txt and NAME.svg.
var goldenCases = []struct {
	name, op string
	args     []string
}{
	// Example 1 of the ONNX ScatterND specification.
	{"scatternd", "onnx.ScatterND", []string{"data=float32:[1,2,3,4,5,6,7,8]", "indices=int64:[[4],[3],[1],[7]]",
		"updates=float32:[9,10,11,12]"}},
	// Duplicates, the last winning, and an untouched cell.
	{"duplicates", "tf.tensor_scatter_nd_update", []string{"tensor=float32:[0,0,0,0]", "indices=int64:[[2],[2],[0]]",
		"updates=float32:[1,2,3]"}},
	// Example 1 of the ONNX GatherElements specification.
	{"gatherelements", "onnx.GatherElements", []string{"data=float32:[[1,2],[3,4]]", "indices=int64:[[0,0],[1,0]]",
		"axis=1"}},
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			tr := trace(t, c.op, 0, c.args...)
			renders := []struct {
				file  string
				write func(io.Writer) error
			}{
				{c.name + ".txt", func(w io.Writer) error { return tr.WriteText(w, false) }},
				{c.name + ".color.txt", func(w io.Writer) error { return tr.WriteText(w, true) }},
				{c.name + ".svg", tr.WriteSVG},
			}
			for _, r := range renders {
				var b bytes.Buffer
				if err := r.write(&b); err != nil {
					t.Fatal(err)
				}
				golden(t, r.file, b.Bytes())
			}
		})
	}
}

// golden compares got with testdata/name, or rewrites the file with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./explain -run TestGolden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gotLines, wantLines := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		i := 0
		for i < min(len(gotLines), len(wantLines)) && gotLines[i] == wantLines[i] {
			i++
		}
		line := func(l []string) string {
			if i < len(l) {
				return l[i]
			}
			return "(end)"
		}
		t.Errorf("%s differs from the rendering at line %d:\n got %q\nwant %q\n(go test ./explain -run TestGolden -update rewrites it)",
			path, i+1, line(gotLines), line(wantLines))
	}
}

func TestSVGIsXML(t *testing.T) {
	for _, c := range traceCases {
		tr := trace(t, c.op, c.opset, c.args...)
		var b bytes.Buffer
		if err := tr.WriteSVG(&b); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(&b)
		texts := 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "text" {
				texts++
			}
		}
		// At least a title and one value per cell.
		if min := 1 + tr.Output.Tensor.Len(); texts < min {
			t.Errorf("%s: %d text elements, want at least %d", c.name, texts, min)
		}
	}
}

func TestPNG(t *testing.T) {
	tr := trace(t, goldenCases[0].op, 0, goldenCases[0].args...)
	var b bytes.Buffer
	if err := tr.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("not a PNG: % x", b.Bytes()[:min(8, b.Len())])
	}
}

func TestTextRanks(t *testing.T) {
	// A 1-D tensor longer than a row wraps, rows labelled by their start;
	// 3-D and 4-D tensors print as titled 2-D slices.
	tr := trace(t, "onnx.GatherND", 0,
		"data="+longLiteral("int64", 45, func(i int) string { return fmt.Sprint(i) }),
		"indices=int64:[[[[44]]],[[[0]]]]")
	var b strings.Builder
	if err := tr.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{
		"\n  40  40    41    42    43    44 *\n",
		"indices int64[2,1,1,1]\n  [0,0,:,:]\n",
		"  [1,0,:,:]\n",
		"data[44] = 44 -> output[0,0,0]  by indices[0,0,0,:] = [44]",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if lines := strings.Count(text, "\n"); lines > 60 {
		t.Errorf("%d lines", lines)
	}
	if slices.ContainsFunc(strings.Split(text, "\n"), func(s string) bool { return strings.HasSuffix(s, " ") }) {
		t.Error("a line ends in a space")
	}
}
