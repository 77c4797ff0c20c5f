package conformance_test

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scatter-dev/scatter/conformance"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/format/stablehlo"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
)

// program wraps operations in a test function.
func program(body string) string {
	return "func.func @main() {\n" + body + "\n  func.return\n}\n"
}

// runOne runs src, a file of one test, with the reference loops.
func runOne(t *testing.T, src string) error {
	t.Helper()
	results := conformance.RunMLIR("t.mlir", []byte(src), refExec(reftest.ScatterSkipWindow))
	if len(results) != 1 || results[0].Name != "t.mlir" {
		t.Fatalf("results %+v", results)
	}
	return results[0].Err
}

// TestChecks: what each check accepts and refuses.
func TestChecks(t *testing.T) {
	closeTo := func(a, b, typ string) string {
		return program(fmt.Sprintf("  %%a = stablehlo.constant dense<%s> : %s\n  %%b = stablehlo.constant dense<%s> : %s\n"+
			"  stablehlo.custom_call @check.expect_close(%%a, %%b) {has_side_effect = true} : (%s, %s) -> ()", a, typ, b, typ, typ, typ))
	}
	eq := func(a, b, typ string) string {
		return program(fmt.Sprintf("  %%a = stablehlo.constant dense<%s> : %s\n  check.expect_eq_const %%a, dense<%s> : %s", a, typ, b, typ))
	}
	cases := []struct {
		name, src string
		msg       string // "" when the test passes
	}{
		{"close within 3 ULP", closeTo("[1.0, 2.0]", "[0x3F800003, 2.0]", "tensor<2xf32>"), ""},
		{"close 4 ULP apart", closeTo("[2.0, 1.0]", "[2.0, 0x3F800004]", "tensor<2xf32>"),
			"t.mlir:4: stablehlo.custom_call @check.expect_close: output differs from the expected one: element [1] (of [2]) is 1, want 1.0000005: 4 ULP apart, allowed 0 to 3"},
		{"close across zero", closeTo("0x80000001", "0x00000002", "tensor<f32>"), ""},
		{"close across zero, 4 ULP", closeTo("0x80000002", "0x00000002", "tensor<f32>"), "4 ULP apart"},
		{"close: NaNs of any payload", closeTo("0x7FC00001", "0xFFC00000", "tensor<f32>"), ""},
		{"close: NaN and a number", closeTo("0x7FC00000", "1.0", "tensor<f32>"), "infinitely many ULP apart"},
		{"close: infinities", closeTo("0x7F800000", "0x7F800000", "tensor<f32>"), ""},
		{"close: infinity and the largest float", closeTo("0x7F800000", "0x7F7FFFFF", "tensor<f32>"), "infinitely many"},
		{"close: -0 and +0", closeTo("-0.0", "0.0", "tensor<f64>"), ""},
		{"close: bfloat16", closeTo("0x3F80", "0x3F83", "tensor<bf16>"), ""},
		{"close: float16 4 ULP", closeTo("0x3C00", "0x3C04", "tensor<f16>"), "4 ULP apart"},
		{"close: complex parts", closeTo("(1.0, 0x3F800004)", "(1.0, 1.0)", "tensor<complex<f32>>"), "4 ULP apart"},
		{"close: of integers", closeTo("1", "1", "tensor<i32>"), "compares floating-point or complex elements"},
		{"close: own bounds", program("  %a = stablehlo.constant dense<0x3F800002> : tensor<f32>\n  %b = stablehlo.constant dense<1.0> : tensor<f32>\n" +
			"  check.expect_close %a, %b, max_ulp_difference = 1 : tensor<f32>, tensor<f32>"), "2 ULP apart, allowed 0 to 1"},
		{"close: min bound", program("  %a = stablehlo.constant dense<1.0> : tensor<f32>\n" +
			"  check.expect_close %a, %a, max_ulp_difference = 3, min_ulp_difference = 1 : tensor<f32>, tensor<f32>"), "0 ULP apart, allowed 1 to 3"},
		{"eq", eq("[1, -2]", "[1, -2]", "tensor<2xi8>"), ""},
		{"eq differs", eq("[[1, -2], [3, 4]]", "[[1, -2], [3, 5]]", "tensor<2x2xi8>"),
			"t.mlir:3: check.expect_eq_const: output differs from the expected one: element [1 1] (of [2,2]) is 4, want 5"},
		{"eq: same NaN", eq("0x7FC00000", "0x7FC00000", "tensor<f32>"), ""},
		{"eq: NaNs of other payloads", eq("0x7FC00001", "0x7FC00000", "tensor<f32>"), "is NaN, want NaN"},
		{"eq: -0 and +0", eq("-0.0", "0.0", "tensor<f32>"), "is -0, want 0"},
		{"eq: types", program("  %a = stablehlo.constant dense<1> : tensor<2xi8>\n  %b = stablehlo.constant dense<1> : tensor<2xi16>\n" +
			"  check.expect_eq %a, %b : tensor<2xi8>"), "%b is tensor<2xi16>, declared tensor<2xi8>"},
		{"eq custom call: shapes", program("  %a = stablehlo.constant dense<1> : tensor<2xi8>\n  %b = stablehlo.constant dense<1> : tensor<3xi8>\n" +
			"  stablehlo.custom_call @check.expect_eq(%a, %b) : (tensor<2xi8>, tensor<3xi8>) -> ()"), "got tensor<2xi8>, want tensor<3xi8>"},
	}
	for _, c := range cases {
		err := runOne(t, c.src)
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.msg != "" && (err == nil || !strings.Contains(err.Error(), c.msg)):
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.msg)
		case c.msg != "" && errors.Is(err, conformance.ErrMismatch) == (c.name == "close: of integers" || c.name == "eq: types"):
			t.Errorf("%s: error %v: a check that does not hold, and only that, is an ErrMismatch", c.name, err)
		}
	}
}

// TestRunnerOps checks the results of the operations the runner
// computes itself against constants.
func TestRunnerOps(t *testing.T) {
	cases := []struct{ name, body string }{
		{"add wraps", `%a = stablehlo.constant dense<[127, -128]> : tensor<2xi8>
  %r = stablehlo.add %a, %a : tensor<2xi8>
  check.expect_eq_const %r, dense<[-2, 0]> : tensor<2xi8>`},
		{"subtract unsigned", `%a = stablehlo.constant dense<[1, 5]> : tensor<2xui32>
  %b = stablehlo.constant dense<[2, 3]> : tensor<2xui32>
  %r = stablehlo.subtract %a, %b : tensor<2xui32>
  check.expect_eq_const %r, dense<[4294967295, 2]> : tensor<2xui32>`},
		{"maximum and minimum", `%a = stablehlo.constant dense<[0x7FC00000, -0.0, 1.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[1.0, 0.0, 2.0]> : tensor<3xf32>
  %x = stablehlo.maximum %a, %b : tensor<3xf32>
  %n = stablehlo.minimum %b, %a : tensor<3xf32>
  check.expect_eq_const %x, dense<[0x7FC00000, 0.0, 2.0]> : tensor<3xf32>
  check.expect_eq_const %n, dense<[0x7FC00000, -0.0, 1.0]> : tensor<3xf32>`},
		{"unsigned maximum", `%a = stablehlo.constant dense<[255, 1]> : tensor<2xui8>
  %b = stablehlo.constant dense<[1, 2]> : tensor<2xui8>
  %r = stablehlo.maximum %a, %b : tensor<2xui8>
  check.expect_eq_const %r, dense<[255, 2]> : tensor<2xui8>`},
		{"multiply bf16 rounds", `%a = stablehlo.constant dense<1.0078125> : tensor<bf16>
  %r = stablehlo.multiply %a, %a : tensor<bf16>
  check.expect_eq_const %r, dense<1.015625> : tensor<bf16>`},
		{"bool ops", `%a = stablehlo.constant dense<[true, true, false]> : tensor<3xi1>
  %b = stablehlo.constant dense<[true, false, false]> : tensor<3xi1>
  %x = stablehlo.and %a, %b : tensor<3xi1>
  %o = stablehlo.or %a, %b : tensor<3xi1>
  %e = stablehlo.xor %a, %b : tensor<3xi1>
  %s = stablehlo.add %a, %b : tensor<3xi1>
  check.expect_eq_const %x, dense<[true, false, false]> : tensor<3xi1>
  check.expect_eq_const %o, dense<[true, true, false]> : tensor<3xi1>
  check.expect_eq_const %e, dense<[false, true, false]> : tensor<3xi1>
  check.expect_eq_const %s, dense<[true, true, false]> : tensor<3xi1>`},
		{"compare", `%a = stablehlo.constant dense<[-1, 2, 3]> : tensor<3xi32>
  %b = stablehlo.constant dense<[1, 2, 1]> : tensor<3xi32>
  %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %ge = stablehlo.compare GE, %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %ne = stablehlo.compare NE, %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  check.expect_eq_const %lt, dense<[true, false, false]> : tensor<3xi1>
  check.expect_eq_const %ge, dense<[false, true, true]> : tensor<3xi1>
  check.expect_eq_const %ne, dense<[true, false, true]> : tensor<3xi1>`},
		{"compare unsigned", `%a = stablehlo.constant dense<[4294967295, 0]> : tensor<2xui32>
  %b = stablehlo.constant dense<[1, 1]> : tensor<2xui32>
  %gt = stablehlo.compare GT, %a, %b, UNSIGNED : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xi1>
  check.expect_eq_const %gt, dense<[true, false]> : tensor<2xi1>`},
		{"compare floats", `%a = stablehlo.constant dense<[0x7FC00000, -0.0, 1.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[0x7FC00000, 0.0, 2.0]> : tensor<3xf32>
  %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %ne = stablehlo.compare NE, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %to = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %eq, dense<[false, true, false]> : tensor<3xi1>
  check.expect_eq_const %ne, dense<[true, false, true]> : tensor<3xi1>
  check.expect_eq_const %to, dense<[false, true, true]> : tensor<3xi1>`},
		{"select", `%p = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf16>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf16>
  %r = stablehlo.select %p, %a, %b : tensor<2xi1>, tensor<2xf16>
  %q = stablehlo.constant dense<true> : tensor<i1>
  %s = stablehlo.select %q, %a, %b : tensor<i1>, tensor<2xf16>
  check.expect_eq_const %r, dense<[1.0, 4.0]> : tensor<2xf16>
  check.expect_eq_const %s, dense<[1.0, 2.0]> : tensor<2xf16>`},
		{"convert", `%a = stablehlo.constant dense<[300, -1]> : tensor<2xi32>
  %b = stablehlo.convert %a : (tensor<2xi32>) -> tensor<2xi8>
  %u = stablehlo.convert %a : (tensor<2xi32>) -> tensor<2xui32>
  %f = stablehlo.constant dense<[-2.75, 3.5]> : tensor<2xf64>
  %i = stablehlo.convert %f : (tensor<2xf64>) -> tensor<2xi16>
  %h = stablehlo.convert %f : (tensor<2xf64>) -> tensor<2xbf16>
  %t = stablehlo.convert %a : (tensor<2xi32>) -> tensor<2xi1>
  %c = stablehlo.convert %f : (tensor<2xf64>) -> tensor<2xcomplex<f32>>
  check.expect_eq_const %b, dense<[44, -1]> : tensor<2xi8>
  check.expect_eq_const %u, dense<[300, 4294967295]> : tensor<2xui32>
  check.expect_eq_const %i, dense<[-2, 3]> : tensor<2xi16>
  check.expect_eq_const %h, dense<[-2.75, 3.5]> : tensor<2xbf16>
  check.expect_eq_const %t, dense<[true, true]> : tensor<2xi1>
  check.expect_eq_const %c, dense<[(-2.75, 0.0), (3.5, 0.0)]> : tensor<2xcomplex<f32>>`},
		{"broadcast_in_dim", `%a = stablehlo.constant dense<[[1], [2]]> : tensor<2x1xi64>
  %r = stablehlo.broadcast_in_dim %a, dims = [2, 0] : (tensor<2x1xi64>) -> tensor<3x2x2xi64>
  %s = stablehlo.constant dense<7> : tensor<i64>
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i64>) -> tensor<2xi64>
  check.expect_eq_const %r, dense<[[[1, 2], [1, 2]], [[1, 2], [1, 2]], [[1, 2], [1, 2]]]> : tensor<3x2x2xi64>
  check.expect_eq_const %b, dense<[7, 7]> : tensor<2xi64>`},
		{"concatenate", `%a = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi64>
  %b = stablehlo.constant dense<[[3, 4], [5, 6]]> : tensor<2x2xi64>
  %r = stablehlo.concatenate %a, %b, %a, dim = 0 : (tensor<1x2xi64>, tensor<2x2xi64>, tensor<1x2xi64>) -> tensor<4x2xi64>
  check.expect_eq_const %r, dense<[[1, 2], [3, 4], [5, 6], [1, 2]]> : tensor<4x2xi64>`},
		{"reduce", `%a = stablehlo.constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %r = stablehlo.reduce(%a init: %t) applies stablehlo.and across dimensions = [1] : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %z = stablehlo.constant dense<10> : tensor<i32>
  %s = "stablehlo.reduce"(%x, %z) ({
    ^bb0(%p: tensor<i32>, %q: tensor<i32>):
      %m = stablehlo.add %p, %q : tensor<i32>
      stablehlo.return %m : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<3xi32>
  %all = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %r, dense<[false, true]> : tensor<2xi1>
  check.expect_eq_const %s, dense<[15, 17, 19]> : tensor<3xi32>
  check.expect_eq_const %all, dense<10> : tensor<i32>`},
	}
	for _, c := range cases {
		if err := runOne(t, program("  "+c.body)); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestRunnerCalls: calls with several results, and values used as %x#0.
func TestRunnerCalls(t *testing.T) {
	src := `module @m {
  func.func public @main() -> tensor<2xi32> {
    %0:2 = call @pair() : () -> (tensor<2xi32>, tensor<i1>)
    %1 = func.call @twice(%0#0) : (tensor<2xi32>) -> tensor<2xi32>
    %2 = stablehlo.add %1, %1#0 : tensor<2xi32>
    check.expect_eq_const %2, dense<[4, 8]> : tensor<2xi32>
    check.expect_eq_const %0#1, dense<true> : tensor<i1>
    return %2 : tensor<2xi32>
  }
  func.func private @pair() -> (tensor<2xi32>, tensor<i1>) {
    %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %b = stablehlo.constant dense<true> : tensor<i1>
    return %a, %b : tensor<2xi32>, tensor<i1>
  }
  func.func private @twice(%x: tensor<2xi32>) -> tensor<2xi32> {
    %y = stablehlo.add %x, %x : tensor<2xi32>
    func.return %y : tensor<2xi32>
  }
}`
	if err := runOne(t, src); err != nil {
		t.Error(err)
	}
}

// TestRunnerErrors: what the runner refuses, and where it says it is.
func TestRunnerErrors(t *testing.T) {
	cases := []struct{ name, src, msg string }{
		{"does not parse", "func.func @main() {", "t.mlir:1:"},
		{"no module", "// nothing\n", "no module"},
		{"no entry", "func.func @a() {\n func.return\n}\nfunc.func @b() {\n func.return\n}", "t.mlir:1: the module has no function main"},
		{"entry with arguments", "func.func @main(%a: tensor<i1>) {\n func.return\n}", "takes 1 arguments"},
		{"checks nothing", program("  %a = stablehlo.constant dense<1> : tensor<i8>"), "@main checks nothing"},
		{"undefined value", program("  %r = stablehlo.add %a, %a : tensor<i8>"), "t.mlir:2: stablehlo.add: %a is not defined"},
		{"declared type", program("  %a = stablehlo.constant dense<1> : tensor<i8>\n  %r = stablehlo.add %a, %a : tensor<i16>"),
			"t.mlir:3: stablehlo.add: %a is tensor<i8>, declared tensor<i16>"},
		{"result type", program("  %a = stablehlo.constant dense<1> : tensor<2xi8>\n  %r = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2xi8>, tensor<2xi8>) -> tensor<3xi8>"),
			"t.mlir:3: stablehlo.concatenate: the result is tensor<4xi8>, declared tensor<3xi8>"},
		{"operation on the wrong type", program("  %a = stablehlo.constant dense<1.0> : tensor<f32>\n  %r = stablehlo.xor %a, %a : tensor<f32>"),
			"t.mlir:3: stablehlo.xor: xor on f32: not defined"},
		{"convert out of range", program("  %a = stablehlo.constant dense<300.0> : tensor<f32>\n  %r = stablehlo.convert %a : (tensor<f32>) -> tensor<i8>"),
			"convert 300 to i8: out of range"},
		{"broadcast dims", program("  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi8>\n  %r = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<2xi8>) -> tensor<3xi8>"),
			"dims [0] do not fit"},
		{"unknown custom call", program("  %a = stablehlo.constant dense<1> : tensor<i8>\n  stablehlo.custom_call @foo(%a) : (tensor<i8>) -> ()"),
			"custom call @foo"},
		{"unknown callee", program("  %a = call @nowhere() : () -> tensor<i8>"), "t.mlir:2: func.call: no function @nowhere"},
		{"no return", "func.func @main() {\n  %a = stablehlo.constant dense<1> : tensor<i8>\n}", "t.mlir:1: @main ends without a return"},
		{"returns the wrong type", "func.func @main() -> tensor<i16> {\n  %a = stablehlo.constant dense<1> : tensor<i8>\n  return %a : tensor<i8>\n}",
			"t.mlir:3: @main returns tensor<i8>, declared tensor<i16>"},
		{"recursion", "func.func @main() {\n  call @main() : () -> ()\n  func.return\n}", "nested more than 64 deep"},
		{"too many steps", strings.Replace(program("  call @f() : () -> ()"), "}\n", "}\n"+
			fanOut("f", "g")+fanOut("g", "h")+fanOut("h", "k")+"func.func @k() {\n"+
			strings.Repeat("  %a = stablehlo.constant dense<1> : tensor<i8>\n", 32)+"  func.return\n}\n", 1), "more than 1000000 operations"},
		{"a tensor over the limit", program("  %a = stablehlo.constant dense<1> : tensor<i8>\n  %r = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<i8>) -> tensor<2000000xi8>"),
			"t.mlir:3: stablehlo.broadcast_in_dim: tensor: too large: int8[2000000] takes 2000000 bytes, over the limit of 1048576 bytes"},
		{"tensors over the budget", program("  %a = stablehlo.constant dense<1> : tensor<i8>\n" +
			strings.Repeat("  %r = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<i8>) -> tensor<1000000xi8>\n", 9)),
			"t.mlir:11: stablehlo.broadcast_in_dim: too large: the test's tensors take more than 8388608 bytes, 8 times the limit of one"},
		{"scatter refused by exec", program(`  %a = stablehlo.constant dense<0> : tensor<4xf32>
  %i = stablehlo.constant dense<[[0], [1]]> : tensor<2x1xi64>
  %u = stablehlo.constant dense<1.0> : tensor<2xf32>
  %r = "stablehlo.scatter"(%a, %i, %u) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.and %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<4xf32>`),
			"t.mlir:5: stablehlo.scatter: reftest: unsupported element type: (C23) update computation and on float32 elements"},
	}
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 20))
	for _, c := range cases {
		results := conformance.RunMLIR("t.mlir", []byte(c.src), refExec(reftest.ScatterSkipWindow))
		if len(results) != 1 {
			t.Errorf("%s: %d results", c.name, len(results))
			continue
		}
		err := results[0].Err
		if err == nil || !strings.Contains(err.Error(), c.msg) || errors.Is(err, conformance.ErrMismatch) {
			t.Errorf("%s: error %v, want one saying %q (and no mismatch)", c.name, err, c.msg)
		}
	}
}

// fanOut returns function @name, which calls @callee 32 times.
func fanOut(name, callee string) string {
	return "func.func @" + name + "() {\n" + strings.Repeat("  call @"+callee+"() : () -> ()\n", 32) + "  func.return\n}\n"
}

// TestExecCalls: what exec receives for each kind of operation: StableHLO's
// names, the defaults of absent attributes, a dynamic_gather's slice sizes.
func TestExecCalls(t *testing.T) {
	src := program(`  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %i = stablehlo.constant dense<1> : tensor<1xi64>
  %u = stablehlo.constant dense<[7, 8]> : tensor<2xi32>
  %r = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %m = stablehlo.multiply %y, %x : tensor<i32>
      stablehlo.return %m : tensor<i32>
  }) : (tensor<2x2xi32>, tensor<1xi64>, tensor<2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[1, 2], [21, 32]]> : tensor<2x2xi32>
  %s = stablehlo.constant dense<[1, 2]> : tensor<2xui8>
  %g = "stablehlo.dynamic_gather"(%a, %i, %s) {dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0]>, indices_are_sorted = true} : (tensor<2x2xi32>, tensor<1xi64>, tensor<2xui8>) -> tensor<2xi32>
  check.expect_eq_const %g, dense<[3, 4]> : tensor<2xi32>`)
	ref := refExec(reftest.ScatterSkipWindow)
	var calls []string
	exec := func(op string, c dialect.Call) (tensor.Tensor, error) {
		var attrs []string
		for name, v := range c.Attrs {
			attrs = append(attrs, name+"="+v.String())
		}
		slices.Sort(attrs)
		calls = append(calls, op+" "+strings.Join(attrs, " "))
		return ref(op, c)
	}
	results := conformance.RunMLIR("t.mlir", []byte(src), exec)
	if len(results) != 1 || results[0].Err != nil {
		t.Fatalf("%+v", results)
	}
	want := []string{
		"stablehlo.scatter computation=multiply index_vector_dim=0 indices_are_sorted=false input_batching_dims= " +
			"inserted_window_dims=0 scatter_dims_to_operand_dims=0 scatter_indices_batching_dims= unique_indices=false update_window_dims=0",
		"stablehlo.gather collapsed_slice_dims=0 index_vector_dim=0 indices_are_sorted=true offset_dims=0 operand_batching_dims= " +
			"slice_sizes=1,2 start_index_map=0 start_indices_batching_dims=",
	}
	if !slices.Equal(calls, want) {
		t.Errorf("calls\n%s\nwant\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
}

// TestRunStableHLO: files are found under a root, in path order, named
// by path under it; a file of several sections gives a test per section,
// named by its entry function.
func TestRunStableHLO(t *testing.T) {
	pass := program("  %a = stablehlo.constant dense<1> : tensor<i8>\n  check.expect_eq_const %a, dense<1> : tensor<i8>")
	fail := program("  %a = stablehlo.constant dense<1> : tensor<i8>\n  check.expect_eq_const %a, dense<2> : tensor<i8>")
	sections := strings.Replace(pass, "@main", "@first", 1) + "// -----\n" + strings.Replace(fail, "@main", "@second", 1) +
		"// -----\nfunc.func @a() {\n func.return\n}\nfunc.func @b() {\n func.return\n}\n"
	fsys := fstest.MapFS{
		"d/b.mlir":       {Data: []byte(fail)},
		"d/a.mlir":       {Data: []byte(pass)},
		"d/sub/c.mlir":   {Data: []byte(sections)},
		"d/readme.txt":   {Data: []byte("not a test")},
		"other/x.mlir":   {Data: []byte(pass)},
		"empty/note.txt": {Data: []byte("")},
	}
	results, err := conformance.RunStableHLO(fsys, "d", refExec(reftest.ScatterSkipWindow))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range results {
		got = append(got, conformance.Line(r))
	}
	want := []string{
		"PASS a.mlir",
		"FAIL b.mlir: b.mlir:3: check.expect_eq_const: output differs from the expected one: element [] (of []) is 1, want 2",
		"PASS sub/c.mlir:first",
		"FAIL sub/c.mlir:second: sub/c.mlir:9: check.expect_eq_const: output differs from the expected one: element [] (of []) is 1, want 2",
		"FAIL sub/c.mlir#3: sub/c.mlir:13: the module has no function main and more than one function",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := conformance.Summary(results); s != "2 passed, 3 failed (stablehlo 2 of 5)" {
		t.Errorf("summary %q", s)
	}
	if _, err := conformance.RunStableHLO(fsys, "empty", refExec(reftest.ScatterSkipWindow)); err == nil || !strings.Contains(err.Error(), "no .mlir file") {
		t.Errorf("empty directory: %v", err)
	}
	if _, err := conformance.RunStableHLO(fsys, "missing", refExec(reftest.ScatterSkipWindow)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing directory: %v", err)
	}
	// A single file as the root is named by its path.
	if r, err := conformance.RunStableHLO(fsys, "other/x.mlir", refExec(reftest.ScatterSkipWindow)); err != nil || len(r) != 1 || r[0].Name != "other/x.mlir" || r[0].Err != nil {
		t.Errorf("a file as the root: %+v, %v", r, err)
	}
}

// FuzzRunMLIR: the runner never panics on any file, with the reference
// loops as exec, and every error it reports says where.
func FuzzRunMLIR(f *testing.F) {
	for _, name := range []string{"testdata/scatter_add_bfloat16_1_2_3_bfloat16_1_3.mlir", "testdata/scatter_float32_1_5_float32_1.mlir",
		"testdata/gather_float32_10_10_10_uint32_2.mlir", "interpret/scatter.mlir", "interpret/dynamic_gather.mlir"} {
		b, err := fs.ReadFile(conformance.StableHLOSuite(), name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(program(`  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<2x2xi32>) -> tensor<2x2xi32>
  %c = stablehlo.compare GE, %a, %b : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi1>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %r = stablehlo.reduce(%c init: %t) applies stablehlo.and across dimensions = [1] : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
  %k = stablehlo.concatenate %a, %b, dim = 1 : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x4xi32>
  %v = stablehlo.convert %k : (tensor<2x4xi32>) -> tensor<2x4xf16>
  check.expect_eq_const %r, dense<true> : tensor<2xi1>`)))
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 20))
	exec := refExec(reftest.ScatterSkipWindow)
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, r := range conformance.RunMLIR("f.mlir", src, exec) {
			if r.Err != nil && !strings.HasPrefix(r.Err.Error(), "f.mlir:") && !errors.Is(r.Err, stablehlo.ErrSyntax) {
				t.Fatalf("error %q does not say where", r.Err)
			}
		}
	})
}
