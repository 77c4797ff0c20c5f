package stablehlo_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/format/stablehlo"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// corpus is the bundled StableHLO corpus, which the conformance package
// embeds.
const corpus = "../../conformance/testdata/stablehlo"

func readCorpus(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustParse(t *testing.T, src string) *stablehlo.File {
	t.Helper()
	f, err := stablehlo.Parse("test.mlir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// opsOf returns the body of the first function of the first module.
func opsOf(t *testing.T, src string) []*stablehlo.Op {
	t.Helper()
	f := mustParse(t, src)
	if len(f.Modules) == 0 || len(f.Modules[0].Funcs) == 0 {
		t.Fatalf("no function in %q", src)
	}
	return f.Modules[0].Funcs[0].Body
}

// TestParseCorpusFile reads one JAX-generated scatter test and checks
// everything the runner needs from it.
func TestParseCorpusFile(t *testing.T) {
	f, err := stablehlo.Parse("x.mlir", readCorpus(t, "testdata/scatter_add_bfloat16_1_2_3_bfloat16_1_3.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Modules) != 1 {
		t.Fatalf("%d modules", len(f.Modules))
	}
	m := f.Modules[0]
	if m.Name != "jit_main" || len(m.Funcs) != 3 || m.Entry() != m.Funcs[0] || m.Funcs[0].Name != "main" {
		t.Fatalf("module %q with %d funcs", m.Name, len(m.Funcs))
	}
	main := m.Func("main")
	if main.Private || !m.Func("inputs").Private || main.Line != 7 {
		t.Errorf("main private %v line %d; inputs private %v", main.Private, main.Line, m.Func("inputs").Private)
	}
	bf16 := func(s ...int) stablehlo.Type { return stablehlo.Type{DType: tensor.BFloat16, Shape: s} }
	if len(main.Results) != 1 || !main.Results[0].Equal(bf16(1, 2, 3)) {
		t.Errorf("main returns %v", main.Results)
	}
	var names []string
	for _, op := range main.Body {
		names = append(names, op.Name)
	}
	want := []string{"stablehlo.constant", "func.call", "func.call", "stablehlo.scatter", "stablehlo.custom_call", "func.return"}
	if !slices.Equal(names, want) {
		t.Fatalf("ops %v, want %v", names, want)
	}
	call := main.Body[1]
	if call.Callee != "inputs" || !slices.Equal(call.Results, []string{"%0#0", "%0#1"}) || len(call.ResultTypes) != 2 {
		t.Errorf("call: %+v", call)
	}
	sc := main.Body[3]
	wantDims := stablehlo.ScatterDims{UpdateWindowDims: []int64{0, 1}, InsertedWindowDims: []int64{1}, InputBatchingDims: []int64{},
		ScatterIndicesBatchingDims: []int64{}, ScatterDimsToOperandDims: []int64{1}}
	if sc.Scatter == nil || !sameDims(*sc.Scatter, wantDims) {
		t.Errorf("scatter dims %+v, want %+v", sc.Scatter, wantDims)
	}
	if sc.Computation != "add" || !sc.UniqueIndices || sc.IndicesAreSorted || sc.Line != 11 {
		t.Errorf("scatter computation %q unique %v sorted %v line %d", sc.Computation, sc.UniqueIndices, sc.IndicesAreSorted, sc.Line)
	}
	if !slices.Equal(sc.Operands, []string{"%0#0", "%c", "%0#1"}) || !sc.OperandTypes[1].Equal(stablehlo.Type{DType: tensor.Int64, Shape: tensor.Shape{1}}) {
		t.Errorf("scatter operands %v %v", sc.Operands, sc.OperandTypes)
	}
	if cc := main.Body[4]; cc.Callee != "check.expect_close" || len(cc.Results) != 0 {
		t.Errorf("custom call %+v", cc)
	}
	// The bf16 decimal 5.351560e-01 is the bfloat16 0.53515625 (0x3F09).
	in := m.Func("inputs").Body[0].Value
	if got := in.Data().([]bfloat16.BFloat16)[0].Bits(); got != 0x3F09 || !stablehlo.TypeOf(in).Equal(bf16(1, 2, 3)) {
		t.Errorf("first input element %#x of %v", got, stablehlo.TypeOf(in))
	}
}

func sameDims(a, b stablehlo.ScatterDims) bool {
	return slices.Equal(a.UpdateWindowDims, b.UpdateWindowDims) && slices.Equal(a.InsertedWindowDims, b.InsertedWindowDims) &&
		slices.Equal(a.InputBatchingDims, b.InputBatchingDims) && slices.Equal(a.ScatterIndicesBatchingDims, b.ScatterIndicesBatchingDims) &&
		slices.Equal(a.ScatterDimsToOperandDims, b.ScatterDimsToOperandDims) && a.IndexVectorDim == b.IndexVectorDim
}

// TestInterpretSections reads the interpreter's file of two tests split
// by "// -----", with line numbers counted over the whole file.
func TestInterpretSections(t *testing.T) {
	f, err := stablehlo.Parse("gather.mlir", readCorpus(t, "interpret/gather.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Modules) != 2 {
		t.Fatalf("%d modules", len(f.Modules))
	}
	second := f.Modules[1].Entry()
	if second == nil || second.Name != "gather_op_with_batching_dim_test" || second.Line != 29 {
		t.Fatalf("second entry %+v", second)
	}
	g := second.Body[2]
	if g.Name != "stablehlo.gather" || g.Line != 52 || !slices.Equal(g.SliceSizes, []int64{1, 1, 2, 2}) ||
		!slices.Equal(g.Gather.OperandBatchingDims, []int64{0}) || !slices.Equal(g.Gather.StartIndicesBatchingDims, []int64{1}) ||
		!slices.Equal(g.Gather.StartIndexMap, []int64{2, 1}) || g.Gather.IndexVectorDim != 3 || !slices.Equal(g.Gather.OffsetDims, []int64{3, 4}) {
		t.Errorf("gather %+v dims %+v", g, g.Gather)
	}
	check := second.Body[3]
	if check.Name != "check.expect_eq_const" || check.Value.Len() != 48 || check.Value.Data().([]int64)[47] != 30 {
		t.Errorf("check %s with %v", check.Name, check.Value)
	}
	dg, err := stablehlo.Parse("dg.mlir", readCorpus(t, "interpret/dynamic_gather.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	op := dg.Modules[0].Funcs[0].Body[3]
	if op.Name != "stablehlo.dynamic_gather" || len(op.Operands) != 3 || op.SliceSizes != nil || op.Gather.IndexVectorDim != 2 {
		t.Errorf("dynamic_gather %+v", op)
	}
}

// TestWholeCorpus parses every bundled file and counts what it holds.
func TestWholeCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpus, "*", "*.mlir"))
	if err != nil || len(files) != 1044 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	count := map[string]int{}
	for _, name := range files {
		f, err := stablehlo.Parse(name, readCorpus(t, strings.TrimPrefix(name, corpus+"/")))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range f.Modules {
			for _, fn := range m.Funcs {
				for _, op := range fn.Body {
					count[op.Name]++
					if op.Computation != "" {
						count[op.Name+" "+op.Computation]++
					}
				}
			}
		}
	}
	want := map[string]int{
		"stablehlo.scatter": 1027, "stablehlo.gather": 34, "stablehlo.dynamic_gather": 1,
		"stablehlo.scatter replace": 157, "stablehlo.scatter add": 219, "stablehlo.scatter multiply": 217,
		"stablehlo.scatter maximum": 217, "stablehlo.scatter minimum": 217, "stablehlo.reduce and": 8,
		"stablehlo.custom_call": 1041, "check.expect_eq_const": 7,
	}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%s: %d, want %d", k, count[k], n)
		}
	}
}

const hloPrefix = "func.func @main() {\n"

// constant parses "%c = stablehlo.constant LIT : TYPE" and returns its
// value.
func constant(lit, typ string) (tensor.Tensor, error) {
	src := hloPrefix + "  %c = stablehlo.constant " + lit + " : " + typ + "\n  func.return\n}\n"
	f, err := stablehlo.Parse("c.mlir", []byte(src))
	if err != nil {
		return tensor.Tensor{}, err
	}
	return f.Modules[0].Funcs[0].Body[0].Value, nil
}

func TestDense(t *testing.T) {
	f16 := func(bits ...uint16) tensor.Tensor {
		v := make([]float16.Float16, len(bits))
		for i, b := range bits {
			v[i] = float16.Frombits(b)
		}
		return tensor.Must(tensor.From(tensor.Shape{len(bits)}, v))
	}
	cases := []struct {
		lit, typ string
		want     tensor.Tensor
	}{
		{"dense<[[1, -2], [3, 4]]>", "tensor<2x2xi32>", tensor.Must(tensor.Parse("int32:[[1, -2], [3, 4]]"))},
		{"dense<7>", "tensor<2x3xi8>", tensor.Must(tensor.Parse("int8:[[7, 7, 7], [7, 7, 7]]"))},
		{"dense<-128>", "tensor<i8>", tensor.Scalar(int8(-128))},
		{"dense<255>", "tensor<i8>", tensor.Scalar(int8(-1))}, // signless: the bits of 255
		{"dense<18446744073709551615>", "tensor<ui64>", tensor.Scalar(uint64(math.MaxUint64))},
		{"dense<0x10>", "tensor<ui8>", tensor.Scalar(uint8(16))},
		{"dense<[true, false]>", "tensor<2xi1>", tensor.Must(tensor.Parse("bool:[true, false]"))},
		{"dense<true>", "tensor<i1>", tensor.Scalar(true)},
		{"dense<\"0x0100000002000000\">", "tensor<2xi32>", tensor.Must(tensor.Parse("int32:[1, 2]"))},
		{"dense<\"0x0000C07F\">", "tensor<3xf32>", tensor.Must(tensor.From(tensor.Shape{3}, []float32{
			math.Float32frombits(0x7FC00000), math.Float32frombits(0x7FC00000), math.Float32frombits(0x7FC00000)}))},
		{"dense<\"0x0001\">", "tensor<2xi1>", tensor.Must(tensor.Parse("bool:[false, true]"))},
		{"dense<0x7FC00000>", "tensor<f32>", tensor.Scalar(math.Float32frombits(0x7FC00000))},
		{"dense<0x7FF8000000000001>", "tensor<f64>", tensor.Scalar(math.Float64frombits(0x7FF8000000000001))},
		{"dense<[0x7C00, 0xFC00, 1.0, -0.0]>", "tensor<4xf16>", f16(0x7C00, 0xFC00, 0x3C00, 0x8000)},
		{"dense<[inf, -inf, 1.5e+00, 6.550400e+04]>", "tensor<4xf16>", f16(0x7C00, 0xFC00, 0x3E00, 0x7BFF)},
		// 2049 is halfway between the float16 values 2048 and 2050: the even one.
		{"dense<[2049.0, 2051.0, 1e-8]>", "tensor<3xf16>", f16(0x6800, 0x6802, 0x0000)},
		{"dense<5.351560e-01>", "tensor<bf16>", tensor.Scalar(bfloat16.FromBits(0x3F09))},
		{"dense<[1.27891302, 0.396668941]>", "tensor<2xf32>", tensor.Must(tensor.From(tensor.Shape{2}, []float32{1.27891302, 0.396668941}))},
		{"dense<0.1>", "tensor<f64>", tensor.Scalar(0.1)},
		{"dense<3>", "tensor<f64>", tensor.Scalar(3.0)},
		{"dense<(1.5, -2.0)>", "tensor<2xcomplex<f32>>", tensor.Must(tensor.From(tensor.Shape{2}, []complex64{1.5 - 2i, 1.5 - 2i}))},
		{"dense<[(1.0, 2.0), (3.0, 4.0)]>", "tensor<2xcomplex<f64>>", tensor.Must(tensor.From(tensor.Shape{2}, []complex128{1 + 2i, 3 + 4i}))},
		{"dense<\"0x0000803F00000040\">", "tensor<complex<f32>>", tensor.Scalar(complex64(1 + 2i))},
		{"dense<[]>", "tensor<0xf32>", tensor.Must(tensor.New(tensor.Float32, tensor.Shape{0}))},
		{"dense<[[], []]>", "tensor<2x0xi64>", tensor.Must(tensor.New(tensor.Int64, tensor.Shape{2, 0}))},
		{"dense<1>", "tensor<0x3xi64>", tensor.Must(tensor.New(tensor.Int64, tensor.Shape{0, 3}))},
	}
	for _, c := range cases {
		got, err := constant(c.lit, c.typ)
		if err != nil {
			t.Errorf("%s : %s: %v", c.lit, c.typ, err)
			continue
		}
		if !tensor.Equal(got, c.want) {
			t.Errorf("%s : %s = %v, want %v", c.lit, c.typ, got, c.want)
		}
	}
}

func TestDenseErrors(t *testing.T) {
	cases := []struct{ lit, typ, msg string }{
		{"dense<[[1, 2], [3]]>", "tensor<2x2xi32>", "ragged"},
		{"dense<[[1, 2], 3]>", "tensor<2x2xi32>", "ragged"},
		{"dense<[1, 2, 3]>", "tensor<2xi32>", "shape [3] for type tensor<2xi32>"},
		{"dense<128>", "tensor<ui8>", ""},
		{"dense<256>", "tensor<i8>", "above the 8-bit range"},
		{"dense<-129>", "tensor<i8>", "below the 8-bit range"},
		{"dense<-1>", "tensor<ui32>", "negative value for an unsigned type"},
		{"dense<1.5>", "tensor<i32>", "want an integer"},
		{"dense<2>", "tensor<i1>", "want true or false"},
		{"dense<0x1FFFF>", "tensor<f16>", "fit in 16 bits"},
		{"dense<1.0>", "tensor<complex<f32>>", "want a (re, im) pair"},
		{"dense<(1.0, 2.0)>", "tensor<f32>", "not complex"},
		{"dense<\"0x0102\">", "tensor<3xi8>", "2 bytes for type tensor<3xi8>"},
		{"dense<\"0x02\">", "tensor<i1>", "want 0 or 1"},
		{"dense<\"0xZZ\">", "tensor<i8>", "invalid hex"},
		{"dense<Inf>", "tensor<f32>", "want a number"},
		{"dense<1e999>", "tensor<f64>", "want a number"},
		{"dense<--1>", "tensor<f32>", "expected a dense element"},
		{"dense<[1, 2>", "tensor<2xi32>", "expected \",\""},
	}
	for _, c := range cases {
		_, err := constant(c.lit, c.typ)
		switch {
		case c.msg == "":
			if err != nil {
				t.Errorf("%s : %s: %v", c.lit, c.typ, err)
			}
		case !errors.Is(err, stablehlo.ErrSyntax) || !strings.Contains(err.Error(), c.msg):
			t.Errorf("%s : %s: error %v, want ErrSyntax mentioning %q", c.lit, c.typ, err, c.msg)
		}
	}
}

// TestDenseLimit: a splat of a huge type is refused before it is
// allocated, by the limit of tensor.SetMaxBytes.
func TestDenseLimit(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 20))
	_, err := constant("dense<0>", "tensor<1024x1024x1024xf32>")
	if !errors.Is(err, tensor.ErrTooLarge) {
		t.Errorf("error %v, want ErrTooLarge", err)
	}
	var e *stablehlo.Error
	if !errors.As(err, &e) || e.Line != 2 {
		t.Errorf("error %#v does not say line 2", err)
	}
}

// TestConstantsLimit: the constants of a file are held to the limit of
// tensor.SetMaxBytes in all, with what the parse holds besides, across its
// sections, each counted before it is allocated; a file whose constants
// fit is read.
func TestConstantsLimit(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 20))
	fn := func(n int) string { // a section whose constant takes n KiB
		return fmt.Sprintf("func.func @main() {\n  %%c = stablehlo.constant dense<1> : tensor<%dx256xf32>\n  func.return\n}\n", n)
	}
	if _, err := stablehlo.Parse("c.mlir", []byte(fn(500)+"// -----\n"+fn(500))); err != nil {
		t.Errorf("two constants of 500 KiB under a limit of 1 MiB: %v", err)
	}
	_, err := stablehlo.Parse("c.mlir", []byte(fn(512)+"// -----\n"+fn(256)+"// -----\n"+fn(257)))
	var e *stablehlo.Error
	if !errors.Is(err, tensor.ErrTooLarge) || !errors.As(err, &e) || e.Line != 12 || !strings.Contains(err.Error(), "the parse of the file takes") {
		t.Errorf("constants of 1025 KiB in all under a limit of 1 MiB: error %v, want ErrTooLarge at line 12 naming the file's parse", err)
	}
}

// allocated returns the bytes that f allocates on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLiteralCheckedFirst: a literal whose form does not match its type
// (too few elements, the wrong number of hex bytes) is refused before the
// type's tensor is allocated.
func TestLiteralCheckedFirst(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 30))
	for _, lit := range []string{"dense<[1.0, 2.0]>", `dense<"0x0000803F0000803F">`} {
		var err error
		bytes := allocated(func() { _, err = constant(lit, "tensor<100000000xf32>") })
		if !errors.Is(err, stablehlo.ErrSyntax) || bytes > 1<<20 {
			t.Errorf("%s for 400 MB: error %v after allocating %d bytes, want ErrSyntax before allocating", lit, err, bytes)
		}
	}
}

// TestLiteralCostsItsTensor: a literal of a million elements costs the
// memory of its tensor, not of its elements as written: they go straight
// into the tensor.
func TestLiteralCostsItsTensor(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(4 << 20))
	src := []byte("func.func @main() {\n  %c = stablehlo.constant dense<[" + strings.TrimSuffix(strings.Repeat("7,", 1<<20), ",") +
		"]> : tensor<1048576xi8>\n  func.return\n}\n")
	var f *stablehlo.File
	var err error
	bytes := allocated(func() { f, err = stablehlo.Parse("l.mlir", src) })
	if err != nil {
		t.Fatal(err)
	}
	if v := f.Modules[0].Funcs[0].Body[0].Value; v.Len() != 1<<20 || v.Data().([]int8)[1<<20-1] != 7 {
		t.Errorf("the constant is %v", v.Shape())
	}
	if bytes > 2<<20 {
		t.Errorf("reading a literal of 1 MiB elements of i8 allocated %d bytes, want little more than 1 MiB", bytes)
	}
}

// TestParseHeld: the integers of a list and the operations of a file
// count towards the limit as they are read, so that a file many times
// smaller than what reading it would hold is refused while it is read.
func TestParseHeld(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(64 << 10))
	list := func(n int, elem string) string {
		return strings.TrimSuffix(strings.Repeat(elem+",", n), ",")
	}
	for _, c := range []struct{ what, src string }{
		{"a list of 10000 integers", "func.func @main() {\n  %r = stablehlo.broadcast_in_dim %a, dims = [" + list(10000, "0") + "] : (tensor<i8>) -> tensor<i8>\n  func.return\n}\n"},
		{"100 operations", "func.func @main() {\n" + strings.Repeat("  %c = stablehlo.constant dense<0> : tensor<i8>\n", 100) + "  func.return\n}\n"},
	} {
		if len(c.src) > 32<<10 {
			t.Fatalf("%s: the file takes %d bytes, more than half the limit", c.what, len(c.src))
		}
		_, err := stablehlo.Parse("h.mlir", []byte(c.src))
		if !errors.Is(err, tensor.ErrTooLarge) || !strings.Contains(err.Error(), "the parse of the file takes") {
			t.Errorf("%s under a limit of 64 KiB: %v, want ErrTooLarge naming the parse", c.what, err)
		}
	}
}

// TestForms: the generic and custom forms of an operation read alike.
func TestForms(t *testing.T) {
	cases := []struct{ pretty, generic string }{
		{`%r = stablehlo.add %a, %b : tensor<2xi32>`,
			`%r = "stablehlo.add"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>`},
		{`%r = stablehlo.compare  LT, %a, %b,  SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>`,
			`%r = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>`},
		{`%r = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<2xi32>) -> tensor<3x2xi32>`,
			`%r = "stablehlo.broadcast_in_dim"(%a) <{broadcast_dimensions = array<i64: 1>}> : (tensor<2xi32>) -> tensor<3x2xi32>`},
		{`%r = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>`,
			`%r = "stablehlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>`},
		{`%r = stablehlo.select %p, %a, %b : tensor<2xi1>, tensor<2xi32>`,
			`%r = "stablehlo.select"(%p, %a, %b) : (tensor<2xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>`},
		{`%r = stablehlo.reduce(%a init: %c) applies stablehlo.maximum across dimensions = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<i32>`,
			`%r = "stablehlo.reduce"(%a, %c) ({
			  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
			    %m = "stablehlo.maximum"(%y, %x) : (tensor<i32>, tensor<i32>) -> tensor<i32>
			    "stablehlo.return"(%m) : (tensor<i32>) -> ()
			  }) {dimensions = array<i64: 0>} : (tensor<2xi32>, tensor<i32>) -> tensor<i32>`},
		{`%r = stablehlo.reduce(%a init: %c) across dimensions = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<i32>
			reducer(%x: tensor<i32>, %y: tensor<i32>) {
			  %m = stablehlo.maximum %x, %y : tensor<i32>
			  stablehlo.return %m : tensor<i32>
			}`,
			`%r = "stablehlo.reduce"(%a, %c) ({
			  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
			    %m = stablehlo.maximum %x, %y : tensor<i32>
			    stablehlo.return %m : tensor<i32>
			  }) {dimensions = array<i64: 0>} : (tensor<2xi32>, tensor<i32>) -> tensor<i32>`},
		{`%r = stablehlo.constant dense<[1, 2]> : tensor<2xi32>`,
			`%r = "stablehlo.constant"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>`},
		{`stablehlo.custom_call @check.expect_eq(%a, %b) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()`,
			`"stablehlo.custom_call"(%a, %b) {call_target_name = "check.expect_eq", has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()`},
		{`check.expect_close %a, %b, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>`,
			`"check.expect_close"(%a, %b) {max_ulp_difference = 3 : ui64} : (tensor<2xf32>, tensor<2xf32>) -> ()`},
		{`%r:2 = call @f(%a) : (tensor<2xi32>) -> (tensor<2xi32>, tensor<i1>)`,
			`%r:2 = "func.call"(%a) {callee = @f} : (tensor<2xi32>) -> (tensor<2xi32>, tensor<i1>)`},
	}
	for _, c := range cases {
		p, g := opsOf(t, hloPrefix+c.pretty+"\n}")[0], opsOf(t, hloPrefix+c.generic+"\n}")[0]
		if dump(p) != dump(g) {
			t.Errorf("%s\n  reads as %s\n%s\n  reads as %s", c.pretty, dump(p), c.generic, dump(g))
		}
	}
}

// dump describes an op's fields, but for its line and region.
func dump(op *stablehlo.Op) string {
	var scatter stablehlo.ScatterDims
	if op.Scatter != nil {
		scatter = *op.Scatter
	}
	var gather stablehlo.GatherDims
	if op.Gather != nil {
		gather = *op.Gather
	}
	return fmt.Sprintf("%s results=%v operands=%v in=%v out=%v callee=%s computation=%s %+v %+v sizes=%v sorted=%v unique=%v "+
		"dims=%v dim=%d %s %s ulp=%d,%d value=%v", op.Name, op.Results, op.Operands, op.OperandTypes, op.ResultTypes, op.Callee,
		op.Computation, scatter, gather, op.SliceSizes, op.IndicesAreSorted, op.UniqueIndices, op.Dims, op.Dim, op.Direction,
		op.CompareType, op.MaxULP, op.MinULP, op.Value)
}

// TestComputations: every update computation the reader knows, and the
// refusal of any other region.
func TestComputations(t *testing.T) {
	scatter := func(body string) string {
		return hloPrefix + `%r = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
` + body + `
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = true} : (tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<4xf32>
}`
	}
	for _, name := range []string{"add", "multiply", "maximum", "minimum", "and", "or", "xor"} {
		for _, args := range []string{"%x, %y", "%y, %x"} {
			body := "%s = stablehlo." + name + " " + args + " : tensor<f32>\n stablehlo.return %s : tensor<f32>"
			op := opsOf(t, scatter(body))[0]
			if op.Computation != name || !op.IndicesAreSorted || op.UniqueIndices || op.Scatter.IndexVectorDim != 1 {
				t.Errorf("%s(%s): computation %q, sorted %v, unique %v", name, args, op.Computation, op.IndicesAreSorted, op.UniqueIndices)
			}
		}
	}
	if op := opsOf(t, scatter("stablehlo.return %y : tensor<f32>"))[0]; op.Computation != "replace" {
		t.Errorf("return of the update: %q", op.Computation)
	}
	refused := []string{
		"stablehlo.return %x : tensor<f32>",
		"%s = stablehlo.subtract %x, %y : tensor<f32>\n stablehlo.return %s : tensor<f32>",
		"%s = stablehlo.add %x, %x : tensor<f32>\n stablehlo.return %s : tensor<f32>",
		"%s = stablehlo.add %x, %y : tensor<f32>\n stablehlo.return %y : tensor<f32>",
		"%s = stablehlo.add %x, %y : tensor<f32>\n %t = stablehlo.add %s, %y : tensor<f32>\n stablehlo.return %t : tensor<f32>",
	}
	for _, body := range refused {
		_, err := stablehlo.Parse("s.mlir", []byte(scatter(body)))
		var e *stablehlo.Error
		if !errors.Is(err, stablehlo.ErrUnsupported) || !errors.As(err, &e) || e.Line != 4 ||
			!strings.Contains(err.Error(), "stablehlo.scatter body") {
			t.Errorf("%q: error %v, want ErrUnsupported at line 4, the body's first", body, err)
		}
	}
	// The region's arguments must be scalars of the inputs' element type.
	src := strings.Replace(scatter("stablehlo.return %y : tensor<f32>"), "%y: tensor<f32>", "%y: tensor<f64>", 1)
	if _, err := stablehlo.Parse("s.mlir", []byte(src)); !errors.Is(err, stablehlo.ErrUnsupported) || !strings.Contains(err.Error(), "tensor<f64>") {
		t.Errorf("argument of another type: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		src      string
		sentinel error
		line     int
		msg      string
	}{
		{"func.func @main() {\n  %a = stablehlo.constant dense<1> : tensor<i32>\n  %b = stablehlo.negate %a : tensor<i32>\n}", stablehlo.ErrUnsupported, 3, "operation stablehlo.negate"},
		{"func.func @main() {\n  %a = stablehlo.constant dense<1> : tensor<?xi32>\n}", stablehlo.ErrUnsupported, 2, "dynamic"},
		{"func.func @main() {\n  %a = stablehlo.constant dense<1> : tensor<f8E4M3FN>\n}", stablehlo.ErrUnsupported, 2, "element type f8E4M3FN"},
		{"func.func @main() {\n  %a = stablehlo.constant dense<1> : tensor<i32>\n", stablehlo.ErrSyntax, 3, "expected an operation or '}'"},
		{"func.func @main() {\n  %a = stablehlo.add %b : tensor<i32>\n}", stablehlo.ErrSyntax, 2, "1 operands, want 2"},
		{"func.func @main() {\n  stablehlo.add %a, %b : tensor<i32>\n}", stablehlo.ErrSyntax, 2, "0 results named, want 1"},
		{"func.func @main() {\n  stablehlo.custom_call @check.expect_eq(%a) : (tensor<f32>) -> ()\n}", stablehlo.ErrSyntax, 2,
			"stablehlo.custom_call @check.expect_eq: 1 operands, want 2"},
		{"func.func @main() {\n  stablehlo.custom_call @check.expect_close() : () -> ()\n}", stablehlo.ErrSyntax, 2,
			"stablehlo.custom_call @check.expect_close: 0 operands, want 2"},
		{"func.func @main() {\n  %r = \"stablehlo.gather\"(%a, %b) <{slice_sizes = array<i64: 1>}> : (tensor<2xf32>, tensor<1xi32>) -> tensor<f32>\n}",
			stablehlo.ErrSyntax, 2, "missing attribute dimension_numbers"},
		{"func.func @main() {\n  %r = \"stablehlo.gather\"(%a, %b) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], bogus = [1]>, slice_sizes = array<i64: 1>}> : (tensor<2xf32>, tensor<1xi32>) -> tensor<f32>\n}",
			stablehlo.ErrSyntax, 2, "a field of #stablehlo.gather"},
		{"func.func @main() {\n  %r = \"stablehlo.gather\"(%a, %b) <{dimension_numbers = #stablehlo.gather<>, slice_sizes = 3}> : (tensor<2xf32>, tensor<1xi32>) -> tensor<f32>\n}",
			stablehlo.ErrSyntax, 2, "slice_sizes must be a list of integers, got an integer"},
		{"func.func @main() {\n  %r = \"stablehlo.scatter\"(%a, %b, %c) {scatter_dimension_numbers = #stablehlo.scatter<>} : (tensor<2xf32>, tensor<1xi32>, tensor<f32>) -> tensor<2xf32>\n}",
			stablehlo.ErrSyntax, 2, "without an update computation"},
		{"func.func @main() {\n  %r = stablehlo.scatter %a, %b, %c : tensor<2xf32>\n}", stablehlo.ErrUnsupported, 2, "in custom form"},
		{"func.func @main() {\n  %r = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n  %s = stablehlo.compare XX, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>\n}",
			stablehlo.ErrSyntax, 3, "comparison_direction must be a comparison_direction"},
		{"func.func @main() {\n  %c = \"stablehlo.constant\"() {value = dense<1> : tensor<i32>} : () -> (tensor<i32>, tensor<i32>)\n}",
			stablehlo.ErrSyntax, 2, "stablehlo.constant: 2 result types, want 1"},
		{"func.func @main() {\n  \"check.expect_eq_const\"(%a) {value = dense<1> : tensor<i32>} : (tensor<i32>, tensor<i32>) -> ()\n}",
			stablehlo.ErrSyntax, 2, "check.expect_eq_const: 2 operand types, want 1"},
		{"func.func @main() {\n  %r = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> ()\n}",
			stablehlo.ErrSyntax, 2, "1 results named and 0 result types"},
		{"func.func @main() {\n  %r = stablehlo.reduce(%a init: %b) applies stablehlo.subtract across dimensions = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<i32>\n}",
			stablehlo.ErrUnsupported, 2, "applying stablehlo.subtract"},
		{"func.func @main() {\n  %r = stablehlo.constant dense<1> : tensor<i32>\n}\nfunc.func @main() {\n  func.return\n}", stablehlo.ErrSyntax, 6, "@main defined twice"},
		{"module {\n  func.func @f() {\n    func.return\n  }\n} extra", stablehlo.ErrSyntax, 5, "the end of the section"},
		{"func.func @f(%a: tensor<i32>, %a: tensor<i32>) {\n  func.return\n}", stablehlo.ErrSyntax, 1, "argument %a named twice"},
		{"func.func private @f() -> tensor<i32>\n", stablehlo.ErrUnsupported, 2, "has no body"},
		{"func.func @f() {\n  %r = \"stablehlo.add\"(%a, %b) {x = \"unclosed} : (tensor<i32>, tensor<i32>) -> tensor<i32>\n}", stablehlo.ErrSyntax, 2, "string not closed"},
		{"func.func @f() {\n  %r = \"stablehlo.add\"(%a, %b) {x = 1, x = 2} : (tensor<i32>, tensor<i32>) -> tensor<i32>\n}", stablehlo.ErrSyntax, 2, "attribute x given twice"},
		{"func.func @f() {\n  %r:0 = call @g() : () -> ()\n}", stablehlo.ErrSyntax, 2, "1 to 1024 results"},
		{"func.func @f() {\n  %r:1000, %s:25 = call @g() : () -> ()\n}", stablehlo.ErrSyntax, 2, "1 to 1024 results"},
		{"func.func @f() {\n  %r = stablehlo.constant dense<1> : !stablehlo.token\n}", stablehlo.ErrUnsupported, 2, "only tensor types"},
		{"ç", stablehlo.ErrSyntax, 1, "expected func.func"},
		{"func.func @f() {\n" + strings.Repeat("%r = \"stablehlo.add\"(%a, %b) ({\n", 70), stablehlo.ErrUnsupported, 66, "nesting deeper"},
		{"func.func @f() {\n  %c = stablehlo.constant dense<\"abc\"> : tensor<i8>\n}", stablehlo.ErrUnsupported, 2, "not hex bytes"},
	}
	for _, c := range cases {
		_, err := stablehlo.Parse("e.mlir", []byte(c.src))
		var e *stablehlo.Error
		if !errors.Is(err, c.sentinel) || !errors.As(err, &e) || e.Line != c.line || e.File != "e.mlir" || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q:\n  error %v\n  want %v at line %d mentioning %q", c.src, err, c.sentinel, c.line, c.msg)
		}
	}
}

// TestTypeOf: Type.Of holds for a tensor of the type's element type and
// shape, and for no other.
func TestTypeOf(t *testing.T) {
	typ := stablehlo.Type{DType: tensor.Float32, Shape: tensor.Shape{2, 3}}
	for _, c := range []struct {
		x    tensor.Tensor
		want bool
	}{
		{tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2, 3})), true},
		{tensor.Must(tensor.New(tensor.Int32, tensor.Shape{2, 3})), false},
		{tensor.Must(tensor.New(tensor.Float32, tensor.Shape{3, 2})), false},
		{tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2, 3, 1})), false},
		{tensor.Must(tensor.New(tensor.Float32, tensor.Shape{})), false},
	} {
		if got := typ.Of(c.x); got != c.want || got != stablehlo.TypeOf(c.x).Equal(typ) {
			t.Errorf("%v.Of(%v) = %v, want %v", typ, stablehlo.TypeOf(c.x), got, c.want)
		}
	}
	scalar := stablehlo.Type{DType: tensor.Int64, Shape: tensor.Shape{}}
	if !scalar.Of(tensor.Must(tensor.New(tensor.Int64, nil))) || scalar.Of(tensor.Must(tensor.New(tensor.Int64, tensor.Shape{1}))) {
		t.Error("tensor<i64> is not the type of an int64 scalar alone")
	}
}

// TestDimsLists checks that Lists names every dimension list of the
// scatter's and the gather's dimension numbers by its attribute name,
// with its value.
func TestDimsLists(t *testing.T) {
	s := stablehlo.ScatterDims{UpdateWindowDims: []int64{1}, InsertedWindowDims: []int64{2}, InputBatchingDims: []int64{3},
		ScatterIndicesBatchingDims: []int64{4}, ScatterDimsToOperandDims: []int64{5}}
	g := stablehlo.GatherDims{OffsetDims: []int64{1}, CollapsedSliceDims: []int64{2}, OperandBatchingDims: []int64{3},
		StartIndicesBatchingDims: []int64{4}, StartIndexMap: []int64{5}}
	for _, c := range []struct {
		lists map[string][]int64
		names []string // in field order, whose values are 1, 2, ...
	}{
		{s.Lists(), []string{"update_window_dims", "inserted_window_dims", "input_batching_dims",
			"scatter_indices_batching_dims", "scatter_dims_to_operand_dims"}},
		{g.Lists(), []string{"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
			"start_indices_batching_dims", "start_index_map"}},
	} {
		if len(c.lists) != len(c.names) {
			t.Errorf("Lists = %v, want %d lists", c.lists, len(c.names))
		}
		for i, name := range c.names {
			if v := c.lists[name]; !slices.Equal(v, []int64{int64(i + 1)}) {
				t.Errorf("Lists()[%q] = %v, want [%d]", name, v, i+1)
			}
		}
	}
}
