package conformance_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/conformance"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
)

// attrsOf lists, for each operation the runner hands to exec, the
// attributes it must give and their kinds.
var attrsOf = map[string]map[string]dialect.Kind{
	"stablehlo.scatter": {
		"update_window_dims": dialect.Ints, "inserted_window_dims": dialect.Ints, "input_batching_dims": dialect.Ints,
		"scatter_indices_batching_dims": dialect.Ints, "scatter_dims_to_operand_dims": dialect.Ints,
		"index_vector_dim": dialect.Int, "indices_are_sorted": dialect.Bool, "unique_indices": dialect.Bool,
		"computation": dialect.String,
	},
	"stablehlo.gather": {
		"offset_dims": dialect.Ints, "collapsed_slice_dims": dialect.Ints, "operand_batching_dims": dialect.Ints,
		"start_indices_batching_dims": dialect.Ints, "start_index_map": dialect.Ints, "slice_sizes": dialect.Ints,
		"index_vector_dim": dialect.Int, "indices_are_sorted": dialect.Bool,
	},
}

var inputsOf = map[string][]string{
	"stablehlo.scatter": {"inputs", "scatter_indices", "updates"},
	"stablehlo.gather":  {"operand", "start_indices"},
}

// checkCall fails unless c has exactly the inputs and attributes of op,
// of the right kinds.
func checkCall(op string, c dialect.Call) error {
	want, ok := attrsOf[op]
	if !ok {
		return fmt.Errorf("unexpected operation %s", op)
	}
	for name, kind := range want {
		if v, ok := c.Attrs[name]; !ok || v.Kind != kind {
			return fmt.Errorf("%s: attribute %s is %+v, want a %v", op, name, v, kind)
		}
	}
	if len(c.Attrs) != len(want) {
		return fmt.Errorf("%s: %d attributes, want %d", op, len(c.Attrs), len(want))
	}
	for _, name := range inputsOf[op] {
		if c.Inputs[name].IsZero() {
			return fmt.Errorf("%s: no input %s", op, name)
		}
	}
	if len(c.Inputs) != len(inputsOf[op]) {
		return fmt.Errorf("%s: %d inputs, want %d", op, len(c.Inputs), len(inputsOf[op]))
	}
	return nil
}

func ints(v dialect.Value) []int {
	out := make([]int, len(v.Ints))
	for i, x := range v.Ints {
		out[i] = int(x)
	}
	return out
}

// refExec runs scatters and gathers with the reference loops of
// testkit/reftest: gathers clamp their start indices (the spec), and
// scatters apply mode to windows that do not fit.
func refExec(mode reftest.ScatterMode) conformance.ExecFunc {
	return func(op string, c dialect.Call) (tensor.Tensor, error) {
		if err := checkCall(op, c); err != nil {
			return tensor.Tensor{}, err
		}
		a := c.Attrs
		if op == "stablehlo.gather" {
			dims := engine.GatherDims{
				OffsetDims: ints(a["offset_dims"]), CollapsedSliceDims: ints(a["collapsed_slice_dims"]),
				OperandBatchingDims: ints(a["operand_batching_dims"]), StartIndicesBatchingDims: ints(a["start_indices_batching_dims"]),
				StartIndexMap: ints(a["start_index_map"]), IndexVectorDim: int(a["index_vector_dim"].Int),
				SliceSizes: ints(a["slice_sizes"]),
			}
			return reftest.HLOGather(c.Inputs["operand"], c.Inputs["start_indices"], dims, reftest.GatherClamp, nil)
		}
		comp, err := reftest.ParseComputation(a["computation"].Str)
		if err != nil {
			return tensor.Tensor{}, err
		}
		dims := engine.ScatterDims{
			UpdateWindowDims: ints(a["update_window_dims"]), InsertedWindowDims: ints(a["inserted_window_dims"]),
			InputBatchingDims: ints(a["input_batching_dims"]), ScatterIndicesBatchingDims: ints(a["scatter_indices_batching_dims"]),
			ScatterDimsToOperandDims: ints(a["scatter_dims_to_operand_dims"]), IndexVectorDim: int(a["index_vector_dim"].Int),
		}
		return reftest.HLOScatter(c.Inputs["inputs"], c.Inputs["scatter_indices"], c.Inputs["updates"], dims, comp, mode)
	}
}

// TestStableHLOSuite runs every bundled StableHLO test file through the
// runner, with the reference loops and with the registry's operators (the
// stablehlo dialect on the engine); every test must pass.
func TestStableHLOSuite(t *testing.T) {
	t.Run("reference", func(t *testing.T) { checkSuite(t, refExec(reftest.ScatterSkipWindow)) })
	t.Run("engine", func(t *testing.T) { checkSuite(t, conformance.Exec) })
}

func checkSuite(t *testing.T, exec conformance.ExecFunc) {
	results, err := conformance.RunStableHLO(conformance.StableHLOSuite(), ".", exec)
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, r := range results {
		if r.Err != nil {
			failed++
			if failed <= 20 {
				t.Errorf("%s: %v", r.Name, r.Err)
			}
		}
	}
	t.Log(conformance.Summary(results))
	if len(results) != 1046 {
		t.Errorf("%d tests, want 1046 (1041 files of testdata/, 5 modules in interpret/)", len(results))
	}
	names := make([]string, len(results))
	for i, r := range results {
		names[i] = r.Name
	}
	for _, want := range []string{"interpret/scatter.mlir:scatter_op_with_batching_dim_test", "interpret/dynamic_gather.mlir",
		"testdata/scatter_add_bfloat16_1_2_3_bfloat16_1_3.mlir"} {
		if !slices.Contains(names, want) {
			t.Errorf("no test named %s among %s ...", want, strings.Join(names[:3], ", "))
		}
	}
}
