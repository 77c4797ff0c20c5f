package conformance_test

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scatter-dev/scatter/conformance"
	"github.com/scatter-dev/scatter/tensor"
)

// Fuzzing runs the tests with a low budget: a tensor of at most 64 KiB,
// and a second a test.
const (
	fuzzMaxBytes = 64 << 10
	fuzzTimeout  = time.Second
)

// lowBudget sets the fuzzing budget until the returned function restores
// the previous one.
func lowBudget() func() {
	limit, timeout := tensor.SetMaxBytes(fuzzMaxBytes), conformance.SetTimeout(fuzzTimeout)
	return func() {
		tensor.SetMaxBytes(limit)
		conformance.SetTimeout(timeout)
	}
}

// FuzzRunMLIRBudget: the StableHLO runner, its scatters and gathers run by the
// registry's operators, never panics on any text and under a low budget
// returns at least one result per file, each named and of the stablehlo
// suite; a test that fails for its size says so (tensor.ErrTooLarge).
func FuzzRunMLIRBudget(f *testing.F) {
	for _, name := range []string{"interpret/gather.mlir", "interpret/scatter.mlir", "testdata/scatter_int8_1_int8.mlir",
		"testdata/gather_float32_5_int64_2_1.mlir"} {
		b, err := fs.ReadFile(conformance.StableHLOSuite(), name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(program("  %z = stablehlo.constant dense<0> : tensor<i8>\n" +
		"  %b = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<i8>) -> tensor<60000xi8>\n" +
		"  %r = stablehlo.reduce(%b init: %z) applies stablehlo.add across dimensions = [0] : (tensor<60000xi8>, tensor<i8>) -> tensor<i8>\n" +
		"  check.expect_eq %r, %z : tensor<i8>")))
	defer lowBudget()()
	f.Fuzz(func(t *testing.T, src []byte) {
		start := time.Now()
		results := conformance.RunMLIR("f.mlir", src, conformance.Exec)
		if len(results) == 0 {
			t.Fatal("no result")
		}
		for _, r := range results {
			if !strings.HasPrefix(r.Name, "f.mlir") || r.Suite != "stablehlo" {
				t.Fatalf("result %q of suite %q", r.Name, r.Suite)
			}
			if r.Err != nil && strings.Contains(r.Err.Error(), "takes") && strings.Contains(r.Err.Error(), "over the limit") &&
				!errors.Is(r.Err, tensor.ErrTooLarge) {
				t.Fatalf("an error over the limit that is not ErrTooLarge: %v", r.Err)
			}
		}
		if took := time.Since(start); took > 10*fuzzTimeout {
			t.Fatalf("ran for %v under a timeout of %v", took, fuzzTimeout)
		}
	})
}

// FuzzRunTest: the ONNX node-test runner never panics on any model and
// data, and under a low budget returns within its timeout's reach.
func FuzzRunTest(f *testing.F) {
	for _, name := range []string{"test_gather_0", "test_scatternd"} {
		m := copyTest(f, name)
		f.Add(m[name+"/model.onnx"].Data, m[name+"/test_data_set_0/input_0.pb"].Data,
			m[name+"/test_data_set_0/input_1.pb"].Data, m[name+"/test_data_set_0/output_0.pb"].Data)
	}
	chain := chainModel(f, 3, 100)
	f.Add(chain["chain/model.onnx"].Data, chain["chain/test_data_set_0/input_0.pb"].Data,
		chain["chain/test_data_set_0/input_1.pb"].Data, chain["chain/test_data_set_0/output_0.pb"].Data)
	defer lowBudget()()
	f.Fuzz(func(t *testing.T, model, in0, in1, out0 []byte) {
		fsys := fstest.MapFS{
			"t/model.onnx":                  {Data: model},
			"t/test_data_set_0/input_0.pb":  {Data: in0},
			"t/test_data_set_0/input_1.pb":  {Data: in1},
			"t/test_data_set_0/input_2.pb":  {Data: in1},
			"t/test_data_set_0/output_0.pb": {Data: out0},
		}
		start := time.Now()
		conformance.RunTest(fsys, "t")
		if took := time.Since(start); took > 10*fuzzTimeout {
			t.Fatalf("ran for %v under a timeout of %v", took, fuzzTimeout)
		}
	})
}
