package conformance

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/format/stablehlo"
	"github.com/scatter-dev/scatter/tensor"
)

// StableHLOSuite returns the bundled StableHLO gather/scatter tests (1041
// JAX-generated files under testdata/, the interpreter's own under
// interpret/; see testdata/stablehlo/LICENSE-NOTE.md), rooted so that
// RunStableHLO(StableHLOSuite(), ".", exec) runs them all.
func StableHLOSuite() fs.FS { return embedded("testdata/stablehlo") }

// ExecFunc runs one operation of a StableHLO test for RunMLIR:
// "stablehlo.scatter" or "stablehlo.gather", with the inputs and
// attributes StableHLO names them by. A scatter has the inputs "inputs",
// "scatter_indices" and "updates"; a gather "operand" and "start_indices".
// Their attributes are every dimension-number list as dialect.Ints
// (scatter: update_window_dims, inserted_window_dims, input_batching_dims,
// scatter_indices_batching_dims, scatter_dims_to_operand_dims; gather:
// offset_dims, collapsed_slice_dims, operand_batching_dims,
// start_indices_batching_dims, start_index_map, slice_sizes),
// index_vector_dim as a dialect.Int, indices_are_sorted (and the scatter's
// unique_indices) as a dialect.Bool, and the scatter's update computation
// as the dialect.String "computation": replace, add, multiply, maximum,
// minimum, and, or or xor. Attributes the file leaves out have
// StableHLO's defaults: empty lists, 0, false. A stablehlo.dynamic_gather
// comes as a stablehlo.gather whose slice_sizes are its third operand's
// values. The result must be a new tensor: the inputs are the test's
// values, which later checks may read.
type ExecFunc func(op string, c dialect.Call) (tensor.Tensor, error)

// RunStableHLO runs every .mlir file under root in fsys, in path order,
// with RunMLIR; results are named by path relative to root.
func RunStableHLO(fsys fs.FS, root string, exec ExecFunc) ([]Result, error) {
	var files []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".mlir") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	if len(files) == 0 {
		return nil, &noTests{root, "no .mlir file"}
	}
	slices.Sort(files)
	var results []Result
	for _, f := range files {
		src, err := readFile(fsys, f)
		name := strings.TrimPrefix(f, strings.TrimSuffix(root, "/")+"/")
		if root == "." || root == f {
			name = f
		}
		if err != nil {
			results = append(results, Result{Name: name, Suite: "stablehlo", Err: err})
			continue
		}
		results = append(results, RunMLIR(name, src, exec)...)
	}
	return results, nil
}

// RunMLIR runs the StableHLO tests in src, the text of the file called
// name: one test per module (per section between "// -----" lines), which
// runs the module's entry function (main, or its only function) as the
// StableHLO interpreter does. Every stablehlo.scatter, stablehlo.gather
// and stablehlo.dynamic_gather goes to exec; the operations around them
// (constants, calls, broadcast_in_dim, compare, select, convert,
// concatenate, reduce and the element-wise arithmetic) the runner
// computes itself. A test passes when it runs at least one check and
// every check holds:
//
//   - check.expect_eq, check.expect_eq_const and the custom call
//     @check.expect_eq compare bit for bit: the same element type, shape
//     and bits, so that a NaN equals only a NaN with the same bits and +0
//     differs from -0. (The interpreter compares floats with IEEE's ==,
//     under which no NaN equals anything and +0 equals -0; every
//     expect_eq of the bundled tests is on integers, where the two agree.)
//   - The custom call @check.expect_close holds when every element is
//     within 3 ULP of the expected one, and check.expect_close within its
//     own [min_ulp_difference, max_ulp_difference] (default [0, 1]): the
//     bounds and the distance of the StableHLO interpreter's
//     (stablehlo/tools/StablehloTranslateMain.cpp calls evalExpectCloseOp
//     with 0 and 3 for the custom call; stablehlo/tests/CheckOps.cpp
//     measures it), under which any NaN is 0 ULP from any NaN.
//
// The test stops at the first check that fails, whose error (matching
// ErrMismatch) names the file, the line, the first differing element by
// its coordinates and both values. Any other error (a file that does not
// parse, an operation exec or the runner refuses, a value of another type
// than the file declares) is returned as is. A file that does not parse is
// one failed test named name.
//
// Every tensor the runner makes goes through tensor.New and the limit of
// tensor.SetMaxBytes; a test may run at most a million operations, nest
// calls 64 deep, make tensors (its own and exec's) of at most 8 times that
// limit in all, and read and write elements (the operands and results of
// each operation but constants and calls) of at most 8 times that limit
// in all, which bounds its time; the first operation over a bound fails
// the test, naming it. It stops at the first operation that starts after
// the timeout SetTimeout sets.
func RunMLIR(name string, src []byte, exec ExecFunc) []Result {
	f, err := stablehlo.Parse(name, src)
	if err != nil {
		return []Result{{Name: name, Suite: "stablehlo", Err: err}}
	}
	if len(f.Modules) == 0 {
		return []Result{{Name: name, Suite: "stablehlo", Err: fmt.Errorf("%s: no module in the file", name)}}
	}
	results := make([]Result, len(f.Modules))
	for i, m := range f.Modules {
		r := &results[i]
		r.Name, r.Suite = name, "stablehlo"
		entry := m.Entry()
		if len(f.Modules) > 1 {
			r.Name = fmt.Sprintf("%s#%d", name, i+1)
			if entry != nil {
				r.Name = name + ":" + entry.Name
			}
		}
		if entry == nil {
			r.Err = fmt.Errorf("%s:%d: the module has no function main and more than one function", name, m.Line)
			continue
		}
		run := &machine{file: name, mod: m, exec: exec, budget: newBudget()}
		if len(entry.Params) > 0 {
			r.Err = fmt.Errorf("%s:%d: entry function @%s takes %d arguments; a test takes none", name, entry.Line, entry.Name, len(entry.Params))
			continue
		}
		if _, r.Err = run.call(entry, nil); r.Err == nil && run.checks == 0 {
			r.Err = fmt.Errorf("%s:%d: @%s checks nothing", name, entry.Line, entry.Name)
		}
	}
	return results
}

// Limits of one test's run: operations run and calls nested.
const (
	maxSteps     = 1_000_000
	maxCallDepth = 64
)

// machine runs the functions of one module.
type machine struct {
	file   string
	mod    *stablehlo.Module
	exec   ExecFunc
	budget *budget
	steps  int
	depth  int
	checks int
}

// call runs fn on args and returns its results.
func (m *machine) call(fn *stablehlo.Func, args []tensor.Tensor) ([]tensor.Tensor, error) {
	if m.depth >= maxCallDepth {
		return nil, fmt.Errorf("%s:%d: calls nested more than %d deep", m.file, fn.Line, maxCallDepth)
	}
	m.depth++
	defer func() { m.depth-- }()
	env := map[string]tensor.Tensor{}
	for i, p := range fn.Params {
		if !p.Type.Of(args[i]) {
			return nil, fmt.Errorf("%s:%d: @%s: argument %s is %v, declared %v", m.file, fn.Line, fn.Name, p.Name,
				stablehlo.TypeOf(args[i]), p.Type)
		}
		env[p.Name] = args[i]
	}
	for _, op := range fn.Body {
		if m.steps++; m.steps > maxSteps {
			return nil, fmt.Errorf("%s:%d: more than %d operations run", m.file, op.Line, maxSteps)
		}
		if err := m.budget.due(); err != nil {
			return nil, m.errorAt(op, err)
		}
		in, err := m.operands(op, env)
		if err != nil {
			return nil, err
		}
		if op.Name == "func.return" {
			if err := m.matchTypes(op.Line, "@"+fn.Name+" returns", in, fn.Results); err != nil {
				return nil, err
			}
			return in, nil
		}
		var out []tensor.Tensor
		if op.Name == "func.call" {
			out, err = m.callOp(op, in) // its errors say where they happened
		} else if out, err = m.eval(op, in); err != nil {
			err = m.errorAt(op, err)
		}
		if err != nil {
			return nil, err
		}
		if err := m.matchTypes(op.Line, op.Name+" returned", out, op.ResultTypes); err != nil {
			return nil, err
		}
		if op.Name != "stablehlo.constant" && op.Name != "func.call" { // these make no tensor
			if err := m.budget.spend(in, out); err != nil {
				return nil, m.errorAt(op, err)
			}
		}
		for i, name := range op.Results {
			env[name] = out[i]
		}
	}
	return nil, fmt.Errorf("%s:%d: @%s ends without a return", m.file, fn.Line, fn.Name)
}

// errorAt returns err, an error of op, prefixed with the file, the line
// and the operation's name, unless it names the operation already (as the
// registry's operators' errors do).
func (m *machine) errorAt(op *stablehlo.Op, err error) error {
	if strings.HasPrefix(err.Error(), opName(op)+": ") {
		return fmt.Errorf("%s:%d: %w", m.file, op.Line, err)
	}
	return fmt.Errorf("%s:%d: %s: %w", m.file, op.Line, opName(op), err)
}

// operands looks up op's operands in env and checks their declared types.
func (m *machine) operands(op *stablehlo.Op, env map[string]tensor.Tensor) ([]tensor.Tensor, error) {
	in := make([]tensor.Tensor, len(op.Operands))
	for i, name := range op.Operands {
		v, ok := env[name]
		if !ok {
			if base, single := strings.CutSuffix(name, "#0"); single {
				v, ok = env[base]
			}
		}
		if !ok {
			return nil, fmt.Errorf("%s:%d: %s: %s is not defined", m.file, op.Line, op.Name, name)
		}
		if i < len(op.OperandTypes) && !op.OperandTypes[i].Of(v) {
			return nil, fmt.Errorf("%s:%d: %s: %s is %v, declared %v", m.file, op.Line, op.Name, name,
				stablehlo.TypeOf(v), op.OperandTypes[i])
		}
		in[i] = v
	}
	return in, nil
}

// matchTypes checks values against the types the file declares for them.
func (m *machine) matchTypes(line int, what string, vs []tensor.Tensor, types []stablehlo.Type) error {
	if len(vs) != len(types) {
		return fmt.Errorf("%s:%d: %s %d values, declared %d", m.file, line, what, len(vs), len(types))
	}
	for i, v := range vs {
		if !types[i].Of(v) {
			return fmt.Errorf("%s:%d: %s %v, declared %v", m.file, line, what, stablehlo.TypeOf(v), types[i])
		}
	}
	return nil
}

// callOp runs a func.call.
func (m *machine) callOp(op *stablehlo.Op, in []tensor.Tensor) ([]tensor.Tensor, error) {
	fn := m.mod.Func(op.Callee)
	if fn == nil {
		return nil, fmt.Errorf("%s:%d: func.call: no function @%s in the module", m.file, op.Line, op.Callee)
	}
	if len(in) != len(fn.Params) {
		return nil, fmt.Errorf("%s:%d: func.call: @%s takes %d arguments, given %d", m.file, op.Line, op.Callee,
			len(fn.Params), len(in))
	}
	return m.call(fn, in)
}

// eval runs one operation other than a return or a call on its operand
// values.
func (m *machine) eval(op *stablehlo.Op, in []tensor.Tensor) ([]tensor.Tensor, error) {
	one := func(t tensor.Tensor, err error) ([]tensor.Tensor, error) {
		if err != nil {
			return nil, err
		}
		return []tensor.Tensor{t}, nil
	}
	var res stablehlo.Type
	if len(op.ResultTypes) == 1 {
		res = op.ResultTypes[0]
	}
	switch name, _ := strings.CutPrefix(op.Name, "stablehlo."); name {
	case "constant":
		return []tensor.Tensor{op.Value}, nil
	case "add", "subtract", "multiply", "maximum", "minimum", "and", "or", "xor":
		return one(elementwise(name, in[0], in[1]))
	case "compare":
		return one(compareOp(op, in[0], in[1]))
	case "select":
		return one(selectOp(in[0], in[1], in[2]))
	case "convert":
		return one(convertOp(in[0], res))
	case "broadcast_in_dim":
		return one(broadcastInDim(in[0], op.Dims, res))
	case "concatenate":
		return one(concatenate(in, op.Dim, res))
	case "reduce":
		return one(reduce(in[0], in[1], op.Dims, op.Computation, res))
	case "scatter", "gather", "dynamic_gather":
		return one(m.run(op, in))
	case "custom_call":
		switch op.Callee {
		case "check.expect_eq":
			return nil, m.expectEq(in)
		case "check.expect_close":
			return nil, m.expectClose(in, 0, 3)
		}
		return nil, fmt.Errorf("%w: custom call @%s (the runner knows @check.expect_eq and @check.expect_close)",
			stablehlo.ErrUnsupported, op.Callee)
	case "check.expect_eq":
		return nil, m.expectEq(in)
	case "check.expect_eq_const":
		return nil, m.expectEq([]tensor.Tensor{in[0], op.Value})
	case "check.expect_close":
		return nil, m.expectClose(in, op.MinULP, op.MaxULP)
	}
	return nil, fmt.Errorf("%w: the runner does not run %s", stablehlo.ErrUnsupported, op.Name)
}

// run hands a scatter or gather to exec.
func (m *machine) run(op *stablehlo.Op, in []tensor.Tensor) (tensor.Tensor, error) {
	c := dialect.Call{Inputs: map[string]tensor.Tensor{}, Attrs: map[string]dialect.Value{}}
	ints := func(name string, v []int64) { c.Attrs[name] = dialect.Value{Kind: dialect.Ints, Ints: slices.Clone(v)} }
	dims := func(lists map[string][]int64, indexVectorDim int64) {
		for name, v := range lists {
			ints(name, v)
		}
		c.Attrs["index_vector_dim"] = dialect.Value{Kind: dialect.Int, Int: indexVectorDim}
	}
	c.Attrs["indices_are_sorted"] = dialect.Value{Kind: dialect.Bool, Bool: op.IndicesAreSorted}
	name := "stablehlo.gather"
	if op.Scatter != nil {
		name = "stablehlo.scatter"
		c.Inputs["inputs"], c.Inputs["scatter_indices"], c.Inputs["updates"] = in[0], in[1], in[2]
		dims(op.Scatter.Lists(), op.Scatter.IndexVectorDim)
		c.Attrs["unique_indices"] = dialect.Value{Kind: dialect.Bool, Bool: op.UniqueIndices}
		c.Attrs["computation"] = dialect.Value{Kind: dialect.String, Str: op.Computation}
	} else {
		c.Inputs["operand"], c.Inputs["start_indices"] = in[0], in[1]
		dims(op.Gather.Lists(), op.Gather.IndexVectorDim)
		sizes := op.SliceSizes
		if op.Name == "stablehlo.dynamic_gather" {
			s := in[2]
			if s.Rank() != 1 || !s.DType().IsInteger() {
				return tensor.Tensor{}, fmt.Errorf("slice_sizes must be a 1-D integer tensor, got %v", stablehlo.TypeOf(s))
			}
			sizes = make([]int64, s.Len())
			for i := range sizes {
				sizes[i] = int64(getInt(s, i))
			}
		}
		ints("slice_sizes", sizes)
	}
	return m.exec(name, c)
}

// mismatch returns the error of a check that does not hold.
func mismatch(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMismatch, fmt.Sprintf(format, args...))
}

// opName names an operation in an error: a custom call by its target.
func opName(op *stablehlo.Op) string {
	if op.Name == "stablehlo.custom_call" {
		return "stablehlo.custom_call @" + op.Callee
	}
	return op.Name
}

// sameType fails the check when got and want differ in type or shape.
func sameType(got, want tensor.Tensor) error {
	if got.DType() != want.DType() || !got.SameShape(want) {
		return mismatch("got %v, want %v", stablehlo.TypeOf(got), stablehlo.TypeOf(want))
	}
	return nil
}

// expectEq checks in[0] against in[1] bit for bit.
func (m *machine) expectEq(in []tensor.Tensor) error {
	m.checks++
	got, want := in[0], in[1]
	if err := sameType(got, want); err != nil {
		return err
	}
	if i := tensor.FirstDiff(got, want); i >= 0 {
		return mismatch("element %v (of %v) is %s, want %s", got.Shape().Coords(i), got.Shape(),
			tensor.FormatElem(got.At(i)), tensor.FormatElem(want.At(i)))
	}
	return nil
}

// expectClose checks that every element of in[0] is within [lo, hi] ULP
// of in[1]'s.
func (m *machine) expectClose(in []tensor.Tensor, lo, hi uint64) error {
	m.checks++
	got, want := in[0], in[1]
	if d := got.DType(); !d.IsFloat() && !d.IsComplex() {
		return fmt.Errorf("%w: expect_close compares floating-point or complex elements, got %s", stablehlo.ErrUnsupported,
			stablehlo.ElemName(d))
	}
	if err := sameType(got, want); err != nil {
		return err
	}
	for i := range got.Len() {
		if d := ulpDistance(got, i, want, i); d < lo || d > hi {
			dist := fmt.Sprint(d)
			if d == ^uint64(0) {
				dist = "infinitely many"
			}
			return mismatch("element %v (of %v) is %s, want %s: %s ULP apart, allowed %d to %d",
				got.Shape().Coords(i), got.Shape(), tensor.FormatElem(got.At(i)), tensor.FormatElem(want.At(i)), dist, lo, hi)
		}
	}
	return nil
}
