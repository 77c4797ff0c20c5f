package compare

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
	"github.com/x448/float16"
)

// lit parses a tensor literal, failing the test on a syntax error.
func lit(t *testing.T, s string) tensor.Tensor {
	t.Helper()
	x, err := tensor.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func str(s string) dialect.Value   { return dialect.Value{Kind: dialect.String, Str: s} }
func boolean(b bool) dialect.Value { return dialect.Value{Kind: dialect.Bool, Bool: b} }
func integer(i int64) dialect.Value {
	return dialect.Value{Kind: dialect.Int, Int: i}
}

func TestEveryNameHasOneRole(t *testing.T) {
	for _, op := range registry.Ops() {
		seen := map[Role]string{}
		play := func(name string, r Role) {
			if prev, dup := seen[r]; dup {
				t.Errorf("%s: %q and %q both play %s", op.Name, prev, name, r)
			}
			seen[r] = name
		}
		for _, p := range op.Inputs {
			if p.Role == "" {
				t.Errorf("%s: input %q has no role", op.Name, p.Name)
			}
			play(p.Name, p.Role)
		}
		for _, a := range op.Attrs {
			if a.Role == "" {
				continue // only its own dialect has it
			}
			if a.Role.IsInput() {
				t.Errorf("%s: attribute %q plays %q, an input's role", op.Name, a.Name, a.Role)
			}
			play(a.Name, a.Role)
		}
	}
}

// TestEveryNameOneRoleAcrossOps: an input or attribute name plays one
// role in every operator of a family that has it, and RoleOf reads each
// name of one role as the operators mean it.
func TestEveryNameOneRoleAcrossOps(t *testing.T) {
	if _, conflicts := scanSpellings(); len(conflicts) > 0 {
		t.Errorf("conflicting roles: %v", conflicts)
	}
	families := map[string]map[Role]bool{} // the roles each name plays
	for _, op := range registry.Ops() {
		for name, sp := range opRoles(op) {
			if families[name] == nil {
				families[name] = map[Role]bool{}
			}
			families[name][sp.role] = true
		}
	}
	for _, op := range registry.Ops() {
		for name, sp := range opRoles(op) {
			if len(families[name]) > 1 {
				continue // a name of two roles in two families: RoleOf reads the first
			}
			if r, ok := RoleOf(name); !ok || r != sp.role {
				t.Errorf("%s: RoleOf(%q) = %q, %v; the operator's role is %q", op.Name, name, r, ok, sp.role)
			}
		}
	}
}

func TestRoleKinds(t *testing.T) {
	if _, conflicts := scanKinds(); len(conflicts) > 0 {
		t.Errorf("conflicting kinds: %v", conflicts)
	}
	for _, c := range []struct {
		role Role
		kind dialect.Kind
	}{
		{Data, 0}, {Indices, 0}, {Updates, 0},
		{Value, dialect.Float}, {Shape, dialect.Ints}, {Axis, dialect.Int}, {BatchDims, dialect.Int},
		{Reduction, dialect.String}, {IncludeSelf, dialect.Bool},
	} {
		if got := Kind(c.role); got != c.kind {
			t.Errorf("%s: kind %v, want %v", c.role, got, c.kind)
		}
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		role Role
		want []string
	}{
		{Data, []string{"a", "arr", "array", "data", "input", "input_x", "inputs", "operand", "params", "ref", "tensor"}},
		{Indices, []string{"arr", "ind", "index", "indices", "indices.0", "mask", "scatter_indices", "segment_ids", "start_indices"}},
		{Updates, []string{"b", "source", "src", "update", "updates", "v", "values", "weights"}},
		{Axis, []string{"axis", "dim"}},
		{Reduction, []string{"computation", "reduce", "reduction"}},
		{IncludeSelf, []string{"include_self", "use_init_val"}},
		{dialect.RoleOperandBatchingDims, []string{"input_batching_dims", "operand_batching_dims"}},
	} {
		if got := Names(c.role); !slices.Equal(got, c.want) {
			t.Errorf("Names(%s) = %v, want %v", c.role, got, c.want)
		}
	}
}

func TestReductionOf(t *testing.T) {
	if _, conflicts := scanReductions(); len(conflicts) > 0 {
		t.Errorf("conflicting spellings: %v", conflicts)
	}
	for _, c := range []struct {
		spelling string
		want     engine.Reduction
	}{
		{"none", engine.None}, {"update", engine.None}, {"add", engine.Add}, {"sum", engine.Add},
		{"mul", engine.Mul}, {"multiply", engine.Mul}, {"prod", engine.Mul}, {"amax", engine.Max},
		{"max", engine.Max}, {"amin", engine.Min}, {"sub", engine.Sub}, {"mean", engine.Mean},
	} {
		got, err := ReductionOf(c.spelling)
		if err != nil || got != c.want {
			t.Errorf("ReductionOf(%q) = %v, %v; want %v", c.spelling, got, err, c.want)
		}
	}
	if _, err := ReductionOf("average"); !errors.Is(err, ErrRequest) || !strings.Contains(err.Error(), `"average"`) {
		t.Errorf("ReductionOf(average): %v", err)
	}
}

// TestAbsentReductions runs each scatter that can be called without a
// reduction, with a duplicate index, and checks that it does what
// absentReduction reads from its tables: a plain write (torch.scatter
// without reduce, ONNX's default none) or its one fixed reduction
// (tf.scatter_nd, torch.scatter_add, mindspore.scatter_nd add).
func TestAbsentReductions(t *testing.T) {
	tried := 0
	for _, op := range registry.Ops() {
		if !strings.HasPrefix(op.Family, "scatter") {
			continue
		}
		v := op.Versions[len(op.Versions)-1]
		run := &OpRun{Op: op, Version: v, behavior: op.Behavior(v)}
		name, hasAttr := attrAt(op, Reduction, v)
		want, known := run.absentReduction(name, hasAttr)
		if !known {
			continue
		}
		call := dialect.Call{Inputs: map[string]tensor.Tensor{}, Attrs: map[string]dialect.Value{}}
		for _, p := range op.Inputs {
			role, _ := RoleOf(p.Name)
			switch role {
			case Data:
				call.Inputs[p.Name] = lit(t, "float32:[0,0,0]")
			case Indices:
				if op.Family == "scatter_nd" {
					call.Inputs[p.Name] = lit(t, "int64:[[1],[1]]")
				} else {
					call.Inputs[p.Name] = lit(t, "int64:[1,1]")
				}
			case Updates:
				call.Inputs[p.Name] = lit(t, "float32:[2,3]")
			case Shape:
				call.Inputs[p.Name] = lit(t, "int64:[3]")
			}
		}
		if axis, ok := nameFor(op, Axis); ok {
			call.Attrs[axis] = integer(0)
		}
		wantValue, ok := map[engine.Reduction]float32{engine.None: 3, engine.Add: 5, engine.Sub: -5,
			engine.Mul: 0, engine.Max: 3, engine.Min: 0}[want]
		if !ok {
			continue
		}
		out, err := op.Run(call)
		if err != nil {
			t.Fatalf("%s: %v", op.Name, err)
		}
		if got := out.Data().([]float32)[1]; got != wantValue {
			t.Errorf("%s: duplicates give %v, but its tables say %v", op.Name, got, want)
		}
		tried++
	}
	if tried < 10 {
		t.Errorf("only %d scatters tried", tried)
	}
}

// TestEveryScatterHasAReduction checks that every scatter operator version
// says what it does when no reduction is asked for, or requires one.
func TestEveryScatterHasAReduction(t *testing.T) {
	for _, op := range registry.Ops() {
		if !strings.HasPrefix(op.Family, "scatter") {
			continue
		}
		for _, v := range op.Versions {
			run := &OpRun{Op: op, Version: v, behavior: op.Behavior(v)}
			name, hasAttr := attrAt(op, Reduction, v)
			if _, known := run.absentReduction(name, hasAttr); !known && !hasAttr {
				t.Errorf("%s: no reduction to choose, and none known", run.Label())
			}
		}
	}
}

// says reports whether one of rules has op saying text.
func says(rules []Rule, op, text string) bool {
	for _, r := range rules {
		for _, s := range r.Says {
			if slices.Contains(s.Ops, op) && strings.Contains(s.Text, text) {
				return true
			}
		}
	}
	return false
}

func cellRules(rep *Report) []Rule {
	var all []Rule
	for _, g := range rep.Cells {
		all = append(all, g.Why...)
	}
	return all
}

func cellPositions(rep *Report) []int {
	var pos []int
	for _, g := range rep.Cells {
		for _, c := range g.Cells {
			pos = append(pos, c.Pos)
		}
	}
	slices.Sort(pos)
	return pos
}

// saying is an expected rule: op says text.
type saying struct{ op, text string }

func TestCompare(t *testing.T) {
	cases := []struct {
		name     string
		req      func(t *testing.T) Request
		runs     []string // the labels of the runs, in order
		skipped  []string // the operators left out
		agree    bool
		outcomes []string // the outcome kinds, when they differ
		cells    []int    // the differing cells
		why      []saying // in the outcome, shape or cell explanations
	}{
		{
			name: "negative index: tf is an error, onnx and openvino count from the end",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"onnx.ScatterND", "tf.tensor_scatter_nd_update", "openvino.ScatterNDUpdate"},
					Inputs: map[string]tensor.Tensor{
						"data":    lit(t, "float32:[1,2,3,4,5,6,7,8]"),
						"indices": lit(t, "int64:[[4],[-5],[1],[7]]"),
						"updates": lit(t, "float32:[9,10,11,12]"),
					}}
			},
			runs:     []string{"onnx.ScatterND-18", "tf.tensor_scatter_nd_update", "openvino.ScatterNDUpdate-15"},
			outcomes: []string{"ok", "index out of range"},
			why: []saying{
				{"tf.tensor_scatter_nd_update", "a negative index is an error"},
				{"onnx.ScatterND-18", "it counts from the end"},
				{"openvino.ScatterNDUpdate-15", "it counts from the end"},
			},
		},
		{
			name: "negative index: openvino 3 refuses it too",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"onnx.ScatterND", "openvino.ScatterNDUpdate"}, Opsets: map[string]int{"openvino": 3},
					Inputs: map[string]tensor.Tensor{
						"data": lit(t, "int32:[1,2,3,4]"), "indices": lit(t, "int32:[[-1]]"), "updates": lit(t, "int32:[9]"),
					}}
			},
			runs:     []string{"onnx.ScatterND-18", "openvino.ScatterNDUpdate-3"},
			outcomes: []string{"unsupported element type", "index out of range"},
			why: []saying{
				{"onnx.ScatterND-18", "refuses int32"},
				{"openvino.ScatterNDUpdate-3", "accepts int32, int64"},
				{"openvino.ScatterNDUpdate-3", "a negative index is an error"},
			},
		},
		{
			name: "duplicates: reduction none against mindspore.scatter_nd, which adds",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"onnx.ScatterND", "mindspore.scatter_nd"},
					Inputs: map[string]tensor.Tensor{
						"data": lit(t, "int32:[0,0,0]"), "indices": lit(t, "int64:[[1],[1],[0]]"), "updates": lit(t, "int32:[5,6,7]"),
					}}
			},
			runs:  []string{"onnx.ScatterND-18", "mindspore.scatter_nd"},
			cells: []int{1},
			why: []saying{
				{"onnx.ScatterND-18", "the last update in index order replaces the value"},
				{"mindspore.scatter_nd", "add (no reduction to choose)"},
			},
		},
		{
			name: "include_self false against ONNX, which always includes the value",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"torch.scatter_reduce", "onnx.ScatterElements"},
					Inputs: map[string]tensor.Tensor{
						"input": lit(t, "float32:[1,2,3,4]"), "index": lit(t, "int64:[0,1,0,1,2,1]"), "src": lit(t, "float32:[1,2,3,4,5,6]"),
					},
					Attrs: map[string]dialect.Value{"reduce": str("sum"), "include_self": boolean(false)}}
			},
			runs:  []string{"torch.scatter_reduce", "onnx.ScatterElements-18"},
			cells: []int{0, 1, 2},
			why: []saying{
				{"torch.scatter_reduce", "include_self=false: the existing value does not take part"},
				{"onnx.ScatterElements-18", "always takes part"},
			},
		},
		{
			name: "include_self false: a family takes only the operators that can leave the value out",
			req: func(t *testing.T) Request {
				return Request{Family: "scatter_elements",
					Inputs: map[string]tensor.Tensor{
						"data": lit(t, "float32:[5,4,3,2]"), "indices": lit(t, "int64:[0,1,0,1,2,1]"), "updates": lit(t, "float32:[1,2,3,4,5,6]"),
					},
					Attrs: map[string]dialect.Value{"reduction": str("amax"), "use_init_val": boolean(false)}}
			},
			runs: []string{"openvino.ScatterElementsUpdate-12", "torch.scatter_reduce"},
			skipped: []string{"mindspore.tensor_scatter_elements", "numpy.put_along_axis", "onnx.Scatter", "onnx.ScatterElements-18",
				"torch.scatter", "torch.scatter_add"},
			agree: true,
		},
		{
			name: "integer mean: PyTorch and OpenVINO both round toward negative infinity",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"torch.scatter_reduce", "openvino.ScatterElementsUpdate"},
					Inputs: map[string]tensor.Tensor{
						"data": lit(t, "int32:[1,1,1,-7]"), "indices": lit(t, "int64:[0,0,2,3,3]"), "updates": lit(t, "int32:[-4,4,4,2,0]"),
					},
					Attrs: map[string]dialect.Value{"reduction": str("mean")}}
			},
			runs:  []string{"torch.scatter_reduce", "openvino.ScatterElementsUpdate-12"},
			agree: true,
		},
		{
			name: "integer mean: PyTorch counts in int8, which wraps",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"torch.scatter_reduce", "openvino.ScatterElementsUpdate"},
					Inputs: map[string]tensor.Tensor{
						"data":    lit(t, "int8:[0,5]"),
						"indices": lit(t, "int64:["+strings.Repeat("0,", 126)+"0]"),
						"updates": lit(t, "int8:["+strings.Repeat("1,", 126)+"1]"),
					},
					Attrs: map[string]dialect.Value{"reduction": str("mean")}}
			},
			runs:  []string{"torch.scatter_reduce", "openvino.ScatterElementsUpdate-12"},
			cells: []int{0},
			why: []saying{
				{"torch.scatter_reduce", dialect.MeanRule(true)},
				{"openvino.ScatterElementsUpdate-12", shared(dialect.MeanRule(false), true)},
			},
		},
		{
			name: "NaN in max: TensorFlow ignores a NaN update, ONNX propagates it",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"tf.tensor_scatter_nd_max", "onnx.ScatterND"},
					Inputs: map[string]tensor.Tensor{
						"data": lit(t, "float32:[1,NaN,3,4]"), "indices": lit(t, "int64:[[0],[1],[2]]"), "updates": lit(t, "float32:[NaN,5,2]"),
					},
					Attrs: map[string]dialect.Value{"reduction": str("max")}}
			},
			runs:  []string{"tf.tensor_scatter_nd_max", "onnx.ScatterND-18"},
			cells: []int{0},
			why: []saying{
				{"tf.tensor_scatter_nd_max", "a NaN update is ignored"},
				{"onnx.ScatterND-18", shared(dialect.MinMaxRule(engine.MinMaxNaN), true)},
			},
		},
		{
			name: "float16 sums: PyTorch rounds once, ONNX after every step",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"torch.scatter_reduce", "onnx.ScatterElements"},
					Inputs: map[string]tensor.Tensor{
						"data": lit(t, "float16:[1,1]"), "indices": lit(t, "int64:[0,0,0]"), "updates": lit(t, "float16:[0.0004,0.0004,0.0004]"),
					},
					Attrs: map[string]dialect.Value{"reduction": str("sum")}}
			},
			runs:  []string{"torch.scatter_reduce", "onnx.ScatterElements-18"},
			cells: []int{0},
			why: []saying{
				{"torch.scatter_reduce", "accumulate in float32 and round once"},
				{"onnx.ScatterElements-18", shared(dialect.HalfRule(false), true)},
			},
		},
		{
			// (1+e + ei)(1+e - ei) with e = 2^-12: 1 + 2^-11 + 2^-23 rounded
			// once, 1 + 2^-11 rounded step by step.
			name: "complex64 products: PyTorch rounds every operation, ONNX once",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"torch.scatter_reduce", "onnx.ScatterElements"},
					Inputs: map[string]tensor.Tensor{
						"data": lit(t, "complex64:[1.000244140625+0.000244140625i]"), "indices": lit(t, "int64:[0]"),
						"updates": lit(t, "complex64:[1.000244140625-0.000244140625i]"),
					},
					Attrs: map[string]dialect.Value{"reduction": str("mul")}}
			},
			runs:  []string{"torch.scatter_reduce", "onnx.ScatterElements-18"},
			cells: []int{0},
			why: []saying{
				{"torch.scatter_reduce", dialect.ComplexRule(engine.ComplexC10)},
				{"onnx.ScatterElements-18", shared(dialect.ComplexRule(engine.ComplexGo), true)},
			},
		},
		{
			name: "NaN equals NaN: PyTorch's amax and ONNX's max agree",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"torch.scatter_reduce", "onnx.ScatterElements"},
					Inputs: map[string]tensor.Tensor{
						"data": lit(t, "float64:[1,NaN,3]"), "indices": lit(t, "int64:[0,0,1]"), "updates": lit(t, "float64:[NaN,-NaN,5]"),
					},
					Attrs: map[string]dialect.Value{"reduction": str("max")}}
			},
			runs:  []string{"torch.scatter_reduce", "onnx.ScatterElements-18"},
			agree: true,
		},
		{
			name: "+0 and -0 differ",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"onnx.ScatterND", "tf.scatter_nd"},
					Inputs: map[string]tensor.Tensor{
						"shape": lit(t, "int64:[2]"), "indices": lit(t, "int64:[[0]]"), "updates": lit(t, "float32:[-0]"),
					}}
			},
			runs:  []string{"onnx.ScatterND-18", "tf.scatter_nd"},
			cells: []int{0},
			why: []saying{
				{"onnx.ScatterND-18", "reduction none"},
				{"tf.scatter_nd", "add (no reduction to choose)"},
			},
		},
		{
			name: "a 0-d index counts as 1-D, as PyTorch counts it",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"torch.scatter_add", "torch.scatter_reduce"},
					Inputs: map[string]tensor.Tensor{
						"input": lit(t, "float32:[1,2]"), "index": lit(t, "int64:0"), "src": lit(t, "float32:5"),
					},
					Attrs: map[string]dialect.Value{"reduce": str("sum"), "include_self": boolean(false)}}
			},
			runs:  []string{"torch.scatter_add", "torch.scatter_reduce"},
			cells: []int{0},
			why: []saying{
				{"torch.scatter_add", "the existing value always takes part"},
				{"torch.scatter_reduce", "include_self=false"},
			},
		},
		{
			name: "a family, reduction add on zeros: every dialect agrees",
			req: func(t *testing.T) Request {
				return Request{Family: "scatter_nd",
					Inputs: map[string]tensor.Tensor{
						"data": lit(t, "float32:[0,0,0,0]"), "indices": lit(t, "int64:[[1],[1],[0]]"), "updates": lit(t, "float32:[5,6,7]"),
					},
					Attrs: map[string]dialect.Value{"reduction": str("sum")}}
			},
			runs: []string{"mindspore.scatter_nd", "onnx.ScatterND-18", "openvino.ScatterNDUpdate-15", "tf.scatter_nd",
				"tf.tensor_scatter_nd_add"},
			skipped: []string{"tf.tensor_scatter_nd_max", "tf.tensor_scatter_nd_min", "tf.tensor_scatter_nd_sub",
				"tf.tensor_scatter_nd_update"},
			agree: true,
		},
		{
			name: "a family leaves out the scatters onto zeros when data is not zeros",
			req: func(t *testing.T) Request {
				return Request{Family: "scatter_nd",
					Inputs: map[string]tensor.Tensor{
						"data": lit(t, "float32:[1,2,3,4]"), "indices": lit(t, "int64:[[1]]"), "updates": lit(t, "float32:[5]"),
					},
					Attrs: map[string]dialect.Value{"reduction": str("add")}}
			},
			runs: []string{"onnx.ScatterND-18", "openvino.ScatterNDUpdate-15", "tf.tensor_scatter_nd_add"},
			skipped: []string{"mindspore.scatter_nd", "tf.scatter_nd", "tf.tensor_scatter_nd_max", "tf.tensor_scatter_nd_min",
				"tf.tensor_scatter_nd_sub", "tf.tensor_scatter_nd_update"},
			agree: true,
		},
		{
			name: "named, a scatter onto zeros starts from zeros where data does not",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"tf.tensor_scatter_nd_add", "tf.scatter_nd"},
					Inputs: map[string]tensor.Tensor{
						"tensor": lit(t, "float32:[1,2,3,4]"), "indices": lit(t, "int32:[[1]]"), "updates": lit(t, "float32:[5]"),
					}}
			},
			runs:  []string{"tf.tensor_scatter_nd_add", "tf.scatter_nd"},
			cells: []int{0, 1, 2, 3},
			why: []saying{
				{"tf.scatter_nd", "starts from zeros of the shape"},
				{"tf.tensor_scatter_nd_add", "starts from data, which holds 1 here"},
			},
		},
		{
			name: "out of range: MindSpore skips, ONNX fails",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"mindspore.tensor_scatter_elements", "onnx.ScatterElements"},
					Inputs: map[string]tensor.Tensor{
						"input_x": lit(t, "int32:[[1,2,3],[4,5,6],[7,8,9]]"),
						"indices": lit(t, "int32:[[3,-4,2],[0,9,-3]]"),
						"updates": lit(t, "int32:[[1,2,2],[4,5,8]]"),
					}}
			},
			runs:     []string{"mindspore.tensor_scatter_elements", "onnx.ScatterElements-18"},
			outcomes: []string{"ok", "index out of range"},
			why: []saying{
				{"mindspore.tensor_scatter_elements", "it is skipped: the update is ignored"},
				{"onnx.ScatterElements-18", "an out-of-range index is an error"},
			},
		},
		{
			name: "GatherND with batch dimensions: version 5 flattens them",
			req: func(t *testing.T) Request {
				return Request{Ops: []string{"openvino.GatherND", "onnx.GatherND", "tf.gather_nd"}, Opsets: map[string]int{"openvino": 5},
					Inputs: map[string]tensor.Tensor{
						"data":    lit(t, "int32:[[[1,2,3,4],[5,6,7,8],[9,10,11,12]],[[13,14,15,16],[17,18,19,20],[21,22,23,24]]]"),
						"indices": lit(t, "int64:[[[[1]],[[0]],[[2]]],[[[0]],[[2]],[[2]]]]"),
					},
					Attrs: map[string]dialect.Value{"batch_dims": integer(2)}}
			},
			runs: []string{"openvino.GatherND-5", "onnx.GatherND-13", "tf.gather_nd"},
			why: []saying{
				{"openvino.GatherND-5", "flattened into one output dimension"},
			},
		},
		{
			name: "gather: a negative index, and index_select's 1-D index",
			req: func(t *testing.T) Request {
				return Request{Family: "gather",
					Inputs: map[string]tensor.Tensor{
						"data": lit(t, "float32:[[0,0],[1,1],[2,2],[3,3]]"), "indices": lit(t, "int64:[[3,1],[0,-1]]"),
					}}
			},
			runs:     []string{"onnx.Gather-13", "tf.gather", "torch.index_select"},
			outcomes: []string{"ok", "index out of range", "shape mismatch"},
			why: []saying{
				{"onnx.Gather-13", "it counts from the end"},
				{"tf.gather", "a negative index is an error"},
				{"torch.index_select", "index is 0-d or 1-D"},
			},
		},
		{
			name: "gather_elements: the documented PyTorch example agrees everywhere",
			req: func(t *testing.T) Request {
				return Request{Family: "gather_elements",
					Inputs: map[string]tensor.Tensor{"input": lit(t, "int64:[[1,2],[3,4]]"), "index": lit(t, "int64:[[0,0],[1,0]]")},
					Attrs:  map[string]dialect.Value{"dim": integer(1)}}
			},
			runs:  []string{"onnx.GatherElements-13", "openvino.GatherElements-6", "torch.gather"},
			agree: true,
		},
		{
			name: "an older ONNX opset has no reduction: the family leaves it out",
			req: func(t *testing.T) Request {
				return Request{Family: "scatter_elements", Opsets: map[string]int{"onnx": 13},
					Inputs: map[string]tensor.Tensor{
						"data": lit(t, "float32:[1,2]"), "indices": lit(t, "int64:[0,0]"), "updates": lit(t, "float32:[3,4]"),
					},
					Attrs: map[string]dialect.Value{"reduction": str("mul")}}
			},
			runs: []string{"openvino.ScatterElementsUpdate-12", "torch.scatter", "torch.scatter_reduce"},
			skipped: []string{"mindspore.tensor_scatter_elements", "numpy.put_along_axis", "onnx.Scatter", "onnx.ScatterElements-13",
				"torch.scatter_add"},
			agree: true,
		},
		{
			name: "batching dimensions in JAX's names reach stablehlo's input_batching_dims",
			req:  func(t *testing.T) Request { return batchedScatter(t, "operand_batching_dims") },
			runs: []string{"jax.lax.scatter_add", "stablehlo.scatter"}, agree: true,
		},
		{
			name: "batching dimensions in StableHLO's names reach jax's operand_batching_dims",
			req:  func(t *testing.T) Request { return batchedScatter(t, "input_batching_dims") },
			runs: []string{"jax.lax.scatter_add", "stablehlo.scatter"}, agree: true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := Run(c.req(t))
			if err != nil {
				t.Fatal(err)
			}
			if got := labels(rep.Runs); !slices.Equal(got, c.runs) {
				t.Errorf("runs %v, want %v", got, c.runs)
			}
			var skipped []string
			for _, s := range rep.Skipped {
				skipped = append(skipped, s.Op)
				if s.Reason == "" {
					t.Errorf("%s left out without a reason", s.Op)
				}
			}
			if !slices.Equal(skipped, c.skipped) {
				t.Errorf("left out %v, want %v", skipped, c.skipped)
			}
			if rep.Agree() != c.agree {
				t.Errorf("Agree() = %v, want %v", rep.Agree(), c.agree)
			}
			var kinds []string
			for _, o := range rep.Outcomes {
				kinds = append(kinds, o.Kind)
			}
			if len(kinds) > 1 || c.outcomes != nil {
				if !slices.Equal(kinds, c.outcomes) {
					t.Errorf("outcomes %v, want %v", kinds, c.outcomes)
				}
			}
			if got := cellPositions(rep); !slices.Equal(got, c.cells) {
				t.Errorf("differing cells %v, want %v", got, c.cells)
			}
			if rep.Differing != len(c.cells) {
				t.Errorf("Differing = %d, want %d", rep.Differing, len(c.cells))
			}
			all := slices.Concat(rep.OutcomeWhy, rep.ShapeWhy, cellRules(rep))
			for _, w := range c.why {
				if !says(all, w.op, w.text) {
					t.Errorf("no rule has %s saying %q; rules:\n%s", w.op, w.text, rulesKey(all))
				}
			}
			if !c.agree && len(all) == 0 {
				t.Error("a difference without an explanation")
			}
		})
	}
}

// batchedScatter returns a request to add into each row of a [2,3]
// operand at its own column, its batching dimension given as batching
// (operand_batching_dims or input_batching_dims): the operators that miss
// the dimension refuse the shapes.
func batchedScatter(t *testing.T, batching string) Request {
	ints := func(v ...int64) dialect.Value { return dialect.Value{Kind: dialect.Ints, Ints: v} }
	return Request{Ops: []string{"jax.lax.scatter_add", "stablehlo.scatter"},
		Inputs: map[string]tensor.Tensor{
			"operand": lit(t, "float32:[[1,2,3],[4,5,6]]"), "scatter_indices": lit(t, "int64:[[2],[0]]"),
			"updates": lit(t, "float32:[10,20]"),
		},
		Attrs: map[string]dialect.Value{"reduction": str("add"), "update_window_dims": ints(),
			"inserted_window_dims": ints(1), batching: ints(0), "scatter_indices_batching_dims": ints(0),
			"scatter_dims_to_operand_dims": ints(1), "index_vector_dim": integer(1)}}
}

func TestCompareCells(t *testing.T) {
	// The values of a differing cell are grouped by run, and its sources
	// name the index entries landing there.
	rep, err := Run(Request{Ops: []string{"onnx.ScatterND", "openvino.ScatterNDUpdate", "mindspore.scatter_nd"},
		Inputs: map[string]tensor.Tensor{
			"data": lit(t, "int32:[[0,0],[0,0]]"), "indices": lit(t, "int64:[[1,0],[1,0]]"), "updates": lit(t, "int32:[5,6]"),
		}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Cells) != 1 || len(rep.Cells[0].Cells) != 1 {
		t.Fatalf("cells %+v", rep.Cells)
	}
	c := rep.Cells[0].Cells[0]
	if !slices.Equal(c.Coords, []int{1, 0}) || c.Pos != 2 {
		t.Errorf("cell at %v (%d), want [1 0] (2)", c.Coords, c.Pos)
	}
	if len(c.Values) != 2 || c.Values[0].Text != "6" || c.Values[1].Text != "11" ||
		!slices.Equal(labels(c.Values[0].Runs), []string{"onnx.ScatterND-18", "openvino.ScatterNDUpdate-15"}) {
		t.Errorf("values %+v", c.Values)
	}
	if want := "from indices[0] = [1, 0], indices[1] = [1, 0]"; c.Sources != want {
		t.Errorf("sources %q, want %q", c.Sources, want)
	}
}

func TestCompareMaxCells(t *testing.T) {
	n := MaxCells + 5
	rep, err := Run(Request{Ops: []string{"tf.tensor_scatter_nd_add", "tf.scatter_nd"},
		Inputs: map[string]tensor.Tensor{
			"tensor":  tensor.Must(tensor.From(tensor.Shape{n}, append([]float32{0}, slices.Repeat([]float32{1}, n-1)...))),
			"indices": lit(t, "int64:[[0]]"), "updates": lit(t, "float32:[1]"),
		}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Differing != n-1 || len(cellPositions(rep)) != MaxCells {
		t.Errorf("Differing %d, kept %d; want %d, %d", rep.Differing, len(cellPositions(rep)), n-1, MaxCells)
	}
}

func TestCompareRequestErrors(t *testing.T) {
	data := lit(t, "float32:[1,2,3]")
	idx := lit(t, "int64:[[0]]")
	upd := lit(t, "float32:[1]")
	ins := map[string]tensor.Tensor{"data": data, "indices": idx, "updates": upd}
	pair := []string{"onnx.ScatterND", "tf.tensor_scatter_nd_update"}
	cases := []struct {
		name string
		req  Request
		want string
	}{
		{"nothing to compare", Request{Inputs: ins}, `unknown family ""`},
		{"unknown family", Request{Family: "scatter", Inputs: ins}, `unknown family "scatter"`},
		{"operators and family", Request{Ops: pair, Family: "scatter_nd", Inputs: ins}, "not both"},
		{"unknown operator", Request{Ops: []string{"onnx.ScatterND", "tf.scatter"}, Inputs: ins}, `unknown operator "tf.scatter"`},
		{"named twice", Request{Ops: []string{"onnx.ScatterND", "onnx.ScatterND"}, Inputs: ins}, "named twice"},
		{"two families", Request{Ops: []string{"onnx.ScatterND", "onnx.ScatterElements"}, Inputs: ins}, "one family"},
		{"unknown name", Request{Ops: pair, Inputs: map[string]tensor.Tensor{"data": data, "indexes": idx}}, `unknown name "indexes"`},
		{"two names of one role", Request{Ops: pair, Inputs: map[string]tensor.Tensor{"data": data, "params": data, "indices": idx}},
			`"data" and "params" both name the data`},
		{"an attribute as input", Request{Ops: pair, Inputs: map[string]tensor.Tensor{"data": data, "dim": idx}}, `"dim" is an attribute`},
		{"an input as attribute", Request{Ops: pair, Inputs: map[string]tensor.Tensor{"data": data, "indices": idx}, Attrs: map[string]dialect.Value{"src": str("x")}}, `"src" is an input`},
		{"attribute of the wrong kind", Request{Ops: pair, Inputs: ins, Attrs: map[string]dialect.Value{"reduction": integer(1)}},
			`"reduction" must be string`},
		{"unknown reduction", Request{Ops: pair, Inputs: ins, Attrs: map[string]dialect.Value{"reduce": str("avg")}}, `reduction "avg"`},
		{"data and shape", Request{Ops: pair, Inputs: ins, Attrs: map[string]dialect.Value{"shape": {Kind: dialect.Ints, Ints: []int64{3}}}},
			"not both"},
		{"nobody takes it", Request{Family: "gather", Inputs: map[string]tensor.Tensor{"data": data, "indices": idx},
			Attrs: map[string]dialect.Value{"reduction": str("add")}}, "no gather operator takes reduction"},
		{"unknown dialect", Request{Ops: pair, Inputs: ins, Opsets: map[string]int{"onnxruntime": 1}}, `unknown dialect "onnxruntime"`},
		{"too few", Request{Family: "scatter_elements", Inputs: map[string]tensor.Tensor{"data": data, "index": lit(t, "int64:[0]")},
			Attrs: map[string]dialect.Value{"value": {Kind: dialect.Float, Float: 2}}}, "only torch.scatter can"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(c.req)
			if !errors.Is(err, ErrRequest) {
				t.Fatalf("error %v, want ErrRequest", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestWriteText(t *testing.T) {
	rep, err := Run(Request{Ops: []string{"onnx.ScatterND", "mindspore.scatter_nd"},
		Inputs: map[string]tensor.Tensor{
			"data": lit(t, "int32:[0,0,0,0]"), "indices": lit(t, "int64:[[1],[1],[3],[3]]"), "updates": lit(t, "int32:[5,6,7,8]"),
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		max  int
		want []string
		not  []string
	}{
		{0, []string{
			"compare scatter_nd: onnx.ScatterND-18, mindspore.scatter_nd\n",
			"  mindspore.scatter_nd  indices, updates, shape=[4] (data's shape)\n",
			"but: always add (no reduction to choose), not none\n",
			"  onnx.ScatterND-18     ok     int32[4] [0 6 0 8]\n",
			"2 of 4 cells differ:\n",
			"  [1]  onnx.ScatterND-18: 6 | mindspore.scatter_nd: 11  (from indices[0] = [1], indices[1] = [1])\n",
			"  [3]  onnx.ScatterND-18: 8 | mindspore.scatter_nd: 15",
			"    why: 2 updates land here (duplicate indices): onnx.ScatterND-18: reduction none: the last update in index order replaces the value; mindspore.scatter_nd: add (no reduction to choose): the updates are added to the value\n",
			"differ: 2 cells\n",
		}, nil},
		{1, []string{"  [1]  ", "(1 more cell not shown)\n"}, []string{"  [3]  "}},
	} {
		var b strings.Builder
		if err := rep.WriteText(&b, c.max); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("max %d: output lacks %q:\n%s", c.max, w, b.String())
			}
		}
		for _, w := range c.not {
			if strings.Contains(b.String(), w) {
				t.Errorf("max %d: output has %q:\n%s", c.max, w, b.String())
			}
		}
	}
}

// FuzzCompare compares random inputs, often of shapes that do not fit,
// across a family: a comparison never panics, fails only on the request,
// and explains every difference it reports.
func FuzzCompare(f *testing.F) {
	f.Add([]byte{0, 1, 1, 4, 1, 1, 1, 1, 2, 3, 4, 1, 2, 0, 1})
	f.Add([]byte{1, 2, 2, 3, 3, 2, 2, 3, 0, 1, 1, 9, 9, 9, 9, 2, 1})
	f.Add([]byte{2, 0, 3, 3, 3, 3, 255, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	spellings := []string{"none", "add", "sum", "mul", "amax", "min", "mean", "sub"}
	dtypes := []tensor.DType{tensor.Float32, tensor.Int32, tensor.Float16, tensor.Int8, tensor.Float64}
	f.Fuzz(func(t *testing.T, b []byte) {
		fz := tensortest.NewFuzz(b)
		family := dialect.Families[fz.Pick(len(dialect.Families))]
		d := dtypes[fz.Pick(len(dtypes))]
		data := fz.Values(d, fz.Shape())
		is := fz.Shape()
		idxType := tensor.Int64
		if fz.Bool() {
			idxType = tensor.Int32
		}
		req := Request{Family: family,
			Inputs: map[string]tensor.Tensor{"data": data, "indices": fz.Indices(idxType, is)},
			Attrs:  map[string]dialect.Value{}}
		if strings.HasPrefix(family, "scatter") {
			req.Inputs["updates"] = fz.Values(d, fz.Fit(is))
			req.Attrs["reduction"] = str(spellings[fz.Pick(len(spellings))])
			if fz.Bool() {
				req.Attrs["include_self"] = boolean(false)
			}
		}
		if family != "scatter_nd" && family != "gather_nd" {
			req.Attrs["axis"] = integer(int64(fz.Next() % 3))
		}
		if family == "gather_nd" && fz.Bool() {
			req.Attrs["batch_dims"] = integer(1)
		}
		rep, err := Run(req)
		if err != nil {
			if !errors.Is(err, ErrRequest) {
				t.Fatalf("error %v is not about the request", err)
			}
			return
		}
		var out strings.Builder
		if err := rep.WriteText(&out, 0); err != nil {
			t.Fatal(err)
		}
		if rep.Agree() != strings.Contains(out.String(), "\nagree: ") {
			t.Errorf("Agree() = %v, but the text says:\n%s", rep.Agree(), out.String())
		}
		if len(rep.Outcomes) > 1 && len(rep.OutcomeWhy) == 0 || len(rep.Shapes) > 1 && len(rep.ShapeWhy) == 0 {
			t.Errorf("a difference without an explanation:\n%s", out.String())
		}
		kept := 0
		for _, g := range rep.Cells {
			if len(g.Why) == 0 {
				t.Errorf("cells without an explanation:\n%s", out.String())
			}
			for _, c := range g.Cells {
				kept++
				if len(c.Values) < 2 {
					t.Errorf("cell %v listed with one value", c.Coords)
				}
			}
		}
		if kept != min(rep.Differing, MaxCells) || rep.Differing > rep.Compared {
			t.Errorf("%d cells kept, %d differing of %d", kept, rep.Differing, rep.Compared)
		}
	})
}

// TestKeysOf checks that elements key alike exactly when the comparison
// calls them equal, for each element type: equal bits, or NaN and NaN;
// +0 and -0 differ, and so do integers with the same low bits.
func TestKeysOf(t *testing.T) {
	h, bf := float16.Frombits, bfloat16.FromBits
	cases := []struct {
		name   string
		t      tensor.Tensor
		same   [][2]int // positions whose keys must be equal
		differ [][2]int // positions whose keys must differ
	}{
		{"float16", tensor.Must(tensor.From(tensor.Shape{5}, []float16.Float16{h(0x0000), h(0x8000), h(0x7e00), h(0xfe01), h(0x3c00)})),
			[][2]int{{2, 3}}, [][2]int{{0, 1}, {0, 4}, {2, 4}}},
		{"bfloat16", tensor.Must(tensor.From(tensor.Shape{5}, []bfloat16.BFloat16{bf(0x0000), bf(0x8000), bf(0x7fc0), bf(0xffc1), bf(0x3f80)})),
			[][2]int{{2, 3}}, [][2]int{{0, 1}, {0, 4}, {2, 4}}},
		{"float32", tensor.Must(tensor.From(tensor.Shape{5}, []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), math.Float32frombits(0xffc00001), 1})),
			[][2]int{{2, 3}}, [][2]int{{0, 1}, {0, 4}, {2, 4}}},
		{"float64", tensor.Must(tensor.From(tensor.Shape{5}, []float64{0, math.Copysign(0, -1), math.NaN(), -math.NaN(), 1})),
			[][2]int{{2, 3}}, [][2]int{{0, 1}, {0, 4}, {2, 4}}},
		{"complex64", tensor.Must(tensor.From(tensor.Shape{4}, []complex64{complex(0, 1), complex(float32(math.Copysign(0, -1)), 1), complex(float32(math.NaN()), 1), complex(float32(-math.NaN()), 1)})),
			[][2]int{{2, 3}}, [][2]int{{0, 1}, {0, 2}}},
		{"int8", tensor.Must(tensor.From(tensor.Shape{3}, []int8{-1, -1, 127})),
			[][2]int{{0, 1}}, [][2]int{{0, 2}}},
		{"uint8", tensor.Must(tensor.From(tensor.Shape{3}, []uint8{255, 255, 127})),
			[][2]int{{0, 1}}, [][2]int{{0, 2}}},
		{"uint64", tensor.Must(tensor.From(tensor.Shape{3}, []uint64{math.MaxUint64, math.MaxUint64, math.MaxUint32})),
			[][2]int{{0, 1}}, [][2]int{{0, 2}}},
		{"bool", tensor.Must(tensor.From(tensor.Shape{3}, []bool{true, true, false})),
			[][2]int{{0, 1}}, [][2]int{{0, 2}}},
		{"string", tensor.Must(tensor.From(tensor.Shape{3}, []string{"a", "a", "b"})),
			[][2]int{{0, 1}}, [][2]int{{0, 2}}},
	}
	for _, c := range cases {
		k := keysOf(c.t)
		for _, p := range c.same {
			if k(p[0]) != k(p[1]) {
				t.Errorf("%s: elements %d and %d (%v, %v) key differently", c.name, p[0], p[1], c.t.At(p[0]), c.t.At(p[1]))
			}
		}
		for _, p := range c.differ {
			if k(p[0]) == k(p[1]) {
				t.Errorf("%s: elements %d and %d (%v, %v) key alike", c.name, p[0], p[1], c.t.At(p[0]), c.t.At(p[1]))
			}
		}
	}
}
