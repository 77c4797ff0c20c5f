package stablehlo_test

import (
	"errors"
	"testing"

	"github.com/scatter-dev/scatter/format/stablehlo"
	"github.com/scatter-dev/scatter/tensor"
)

// fuzzSeeds are corpus files of every kind the corpus holds: scatters of
// each computation, gathers with the operations of JAX's fill mode, the
// interpreter's tests with sections and batching dims.
var fuzzSeeds = []string{
	"testdata/scatter_add_bfloat16_1_2_3_bfloat16_1_3.mlir",
	"testdata/scatter_float32_1_5_float32_1.mlir",
	"testdata/scatter_max_uint8_2_3_uint8_2_1_3.mlir",
	"testdata/scatter_min_int16_1_2_3_int16_2_3.mlir",
	"testdata/gather_float32_5_int64_2_1.mlir",
	"testdata/gather_float32_10_10_10_uint32_2.mlir",
	"interpret/scatter.mlir",
	"interpret/gather.mlir",
	"interpret/dynamic_gather.mlir",
}

// FuzzParse: Parse never panics, fails only with an *Error wrapping
// ErrSyntax, ErrUnsupported or tensor.ErrTooLarge, and what it returns
// is consistent: each operation has a type for each operand and result,
// and a constant the value of its result type.
func FuzzParse(f *testing.F) {
	for _, name := range fuzzSeeds {
		f.Add(readCorpus(f, name))
	}
	f.Add([]byte("func.func @main() {\n  %c = stablehlo.constant dense<[(1.0, 2.0)]> : tensor<1xcomplex<f64>>\n" +
		"  %r = stablehlo.reduce(%a init: %c) across dimensions = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<i32>\n" +
		"    reducer(%x: tensor<i32>, %y: tensor<i32>) {\n  %m = stablehlo.maximum %x, %y : tensor<i32>\n  stablehlo.return %m : tensor<i32>\n}\n" +
		"  check.expect_close %c, %c, max_ulp_difference = 3 : tensor<1xcomplex<f64>>, tensor<1xcomplex<f64>>\n  func.return\n}\n"))
	// Splats are allocated in full: hold them to a size that fuzzing can
	// afford.
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 20))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := stablehlo.Parse("f.mlir", src)
		if err != nil {
			var e *stablehlo.Error
			if !errors.As(err, &e) || e.Line < 1 || e.Col < 1 ||
				!errors.Is(err, stablehlo.ErrSyntax) && !errors.Is(err, stablehlo.ErrUnsupported) && !errors.Is(err, tensor.ErrTooLarge) {
				t.Fatalf("error %#v is not an *Error of a known class", err)
			}
			return
		}
		for _, m := range file.Modules {
			for _, fn := range m.Funcs {
				checkOps(t, fn.Body)
			}
		}
	})
}

func checkOps(t *testing.T, ops []*stablehlo.Op) {
	for _, op := range ops {
		if len(op.OperandTypes) != len(op.Operands) || len(op.ResultTypes) != len(op.Results) {
			t.Fatalf("line %d: %s: %d operands, %d types; %d results, %d types", op.Line, op.Name,
				len(op.Operands), len(op.OperandTypes), len(op.Results), len(op.ResultTypes))
		}
		switch op.Name {
		case "stablehlo.constant":
			if !stablehlo.TypeOf(op.Value).Equal(op.ResultTypes[0]) {
				t.Fatalf("line %d: constant of %v typed %v", op.Line, stablehlo.TypeOf(op.Value), op.ResultTypes[0])
			}
		case "stablehlo.scatter":
			if op.Scatter == nil || op.Computation == "" || op.Region == nil {
				t.Fatalf("line %d: scatter without dims or computation", op.Line)
			}
		case "stablehlo.gather":
			if op.Gather == nil || op.SliceSizes == nil {
				t.Fatalf("line %d: gather without dims or slice sizes", op.Line)
			}
		}
		if op.Region != nil {
			checkOps(t, op.Region.Body)
		}
	}
}
