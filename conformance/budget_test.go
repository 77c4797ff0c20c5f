package conformance_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scatter-dev/scatter/conformance"
	"github.com/scatter-dev/scatter/format/onnxpb"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
)

// chainModel returns a node test in dir "chain" of n Gather nodes, each
// gathering every element of the previous one's output again, on an input
// of size float32 elements.
func chainModel(t testing.TB, n, size int) fstest.MapFS {
	t.Helper()
	m := &onnxpb.Model{IRVersion: 8, Opsets: map[string]int64{"": 13}}
	m.Graph.Inputs = []onnxpb.ValueInfo{{Name: "x", DType: tensor.Float32}, {Name: "i", DType: tensor.Int64}}
	prev := "x"
	for k := range n {
		out := fmt.Sprintf("g%d", k)
		m.Graph.Nodes = append(m.Graph.Nodes, onnxpb.Node{OpType: "Gather", Inputs: []string{prev, "i"}, Outputs: []string{out}})
		prev = out
	}
	m.Graph.Outputs = []onnxpb.ValueInfo{{Name: prev, DType: tensor.Float32}}
	model, err := onnxpb.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	x := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{size}))
	i := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{size}))
	fsys := fstest.MapFS{"chain/model.onnx": {Data: model}}
	for name, v := range map[string]tensor.Tensor{"input_0.pb": x, "input_1.pb": i, "output_0.pb": x} {
		b, err := onnxpb.EncodeTensor(v, "")
		if err != nil {
			t.Fatal(err)
		}
		fsys["chain/test_data_set_0/"+name] = &fstest.MapFile{Data: b}
	}
	return fsys
}

// TestNodeTestBudget: a node test's model may have at most 1000 nodes,
// and its nodes may make and touch elements of at most 8 times the size
// limit; a chain that fits passes.
func TestNodeTestBudget(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 20))
	if err := conformance.RunTest(chainModel(t, 3, 1000), "chain"); err != nil {
		t.Errorf("3 gathers of 1000 elements: %v", err)
	}
	err := conformance.RunTest(chainModel(t, 1001, 1), "chain")
	if !errors.Is(err, tensor.ErrTooLarge) || !strings.Contains(err.Error(), "1001 nodes, more than a node test may have (1000)") {
		t.Errorf("1001 nodes: %v, want ErrTooLarge naming the count", err)
	}
	// Each gather reads 12 bytes an element and makes 4 of them: 16 KiB
	// elements take 256 KiB a node, 8 MiB in 32 nodes.
	err = conformance.RunTest(chainModel(t, 40, 16<<10), "chain")
	if !errors.Is(err, tensor.ErrTooLarge) || !strings.Contains(err.Error(), "onnx.Gather: too large: the test's operations read and write more than 8388608 bytes") {
		t.Errorf("40 gathers of 64 KiB under a limit of 1 MiB: %v, want ErrTooLarge naming the node", err)
	}
}

// TestTimeout: a test that runs past the timeout fails with ErrTimeout,
// an ONNX node test and a StableHLO test alike.
func TestTimeout(t *testing.T) {
	defer conformance.SetTimeout(conformance.SetTimeout(time.Nanosecond))
	time.Sleep(time.Microsecond)
	if err := conformance.RunTest(chainModel(t, 2, 4), "chain"); !errors.Is(err, conformance.ErrTimeout) {
		t.Errorf("node test: %v, want ErrTimeout", err)
	}
	r := conformance.RunMLIR("t.mlir", []byte(program("  %a = stablehlo.constant dense<1> : tensor<i8>\n  check.expect_eq %a, %a : tensor<i8>")),
		refExec(reftest.ScatterSkipWindow))
	if len(r) != 1 || !errors.Is(r[0].Err, conformance.ErrTimeout) || !strings.Contains(r[0].Err.Error(), "t.mlir:2: stablehlo.constant: the test timed out") {
		t.Errorf("StableHLO test: %v, want ErrTimeout naming the operation", r)
	}
	conformance.SetTimeout(time.Minute)
	if err := conformance.RunTest(chainModel(t, 2, 4), "chain"); err != nil {
		t.Errorf("node test within a minute: %v", err)
	}
}

// TestElementBudget: a StableHLO test whose operations read more elements
// than its budget, though each of its tensors fits, stops at the operation
// over it.
func TestElementBudget(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 20))
	// A tensor of 512 KiB reduced 20 times: 10 MiB read, over 8 MiB.
	src := program("  %z = stablehlo.constant dense<0> : tensor<i8>\n" +
		"  %b = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<i8>) -> tensor<524288xi8>\n" +
		strings.Repeat("  %r = stablehlo.reduce(%b init: %z) applies stablehlo.add across dimensions = [0] : (tensor<524288xi8>, tensor<i8>) -> tensor<i8>\n", 20) +
		"  check.expect_eq %r, %z : tensor<i8>")
	r := conformance.RunMLIR("t.mlir", []byte(src), refExec(reftest.ScatterSkipWindow))
	if len(r) != 1 || !errors.Is(r[0].Err, tensor.ErrTooLarge) || !strings.Contains(r[0].Err.Error(), "stablehlo.reduce: too large: the test's operations read and write more than 8388608 bytes") {
		t.Errorf("20 reduces of 512 KiB under a limit of 1 MiB: %v, want ErrTooLarge naming the reduce", r)
	}
}

// TestLineEscapes: a name or an error holding a newline, a terminal's
// escape sequence or an invalid byte prints on one line with them
// escaped, so that no name forges a line of its own.
func TestLineEscapes(t *testing.T) {
	for _, c := range []struct {
		r    conformance.Result
		want string
	}{
		{conformance.Result{Name: "x.mlir\nPASS y.mlir"}, `PASS "x.mlir\nPASS y.mlir"`},
		{conformance.Result{Name: "\x1b[2Jx.mlir"}, `PASS "\x1b[2Jx.mlir"`},
		{conformance.Result{Name: "plain name.mlir"}, "PASS plain name.mlir"},
		{conformance.Result{Name: "a\xffb", Err: errors.New("a\xffb:1: bad\n\x1b[31mred")}, `FAIL "a\xffb": a\xffb:1: bad\n\x1b[31mred`},
	} {
		if got := conformance.Line(c.r); got != c.want {
			t.Errorf("Line(%q, %v) = %q, want %q", c.r.Name, c.r.Err, got, c.want)
		}
	}
}

// TestErrorNamesOperationOnce: an operator's error, which names the
// operation, is not prefixed with its name again.
func TestErrorNamesOperationOnce(t *testing.T) {
	src := program(`  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %i = stablehlo.constant dense<[[0], [1]]> : tensor<2x1xi64>
  %g = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 5>}> : (tensor<3xi32>, tensor<2x1xi64>) -> tensor<2x5xi32>
  check.expect_eq_const %g, dense<0> : tensor<2x5xi32>`)
	r := conformance.RunMLIR("g.mlir", []byte(src), conformance.Exec)
	if len(r) != 1 || r[0].Err == nil || !strings.HasPrefix(r[0].Err.Error(), "g.mlir:4: stablehlo.gather: shape mismatch: slice_sizes[0] = 5") {
		t.Errorf("a gather of slices too large: %v, want its error naming stablehlo.gather once", r)
	}
}
