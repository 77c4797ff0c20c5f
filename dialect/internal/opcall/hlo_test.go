package opcall

import (
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// distinctCall gives each attribute of attrs a list of its own ([1], [2],
// ...) and index_vector_dim the value 9, and returns the call and the list
// each role got.
func distinctCall(attrs []dialect.Attr) (dialect.Call, map[dialect.Role][]int) {
	c := dialect.Call{Attrs: map[string]dialect.Value{"index_vector_dim": {Kind: dialect.Int, Int: 9}}}
	want := map[dialect.Role][]int{}
	for i, a := range attrs {
		c.Attrs[a.Name] = dialect.Value{Kind: dialect.Ints, Ints: []int64{int64(i + 1), 40 + int64(i)}}
		want[a.Role] = []int{i + 1, 40 + i}
	}
	return c, want
}

// TestGatherDimsOfReadsItsAttrs checks that GatherDimsOf reads each
// attribute GatherDimsAttrs declares into the field of its role.
func TestGatherDimsOfReadsItsAttrs(t *testing.T) {
	attrs := GatherDimsAttrs()
	c, want := distinctCall(attrs)
	d := GatherDimsOf(c)
	got := map[dialect.Role][]int{
		dialect.RoleOffsetDims:               d.OffsetDims,
		dialect.RoleCollapsedSliceDims:       d.CollapsedSliceDims,
		dialect.RoleOperandBatchingDims:      d.OperandBatchingDims,
		dialect.RoleStartIndicesBatchingDims: d.StartIndicesBatchingDims,
		dialect.RoleStartIndexMap:            d.StartIndexMap,
		dialect.RoleSliceSizes:               d.SliceSizes,
	}
	if len(attrs) != len(got) {
		t.Fatalf("GatherDimsAttrs declares %d attributes, want %d", len(attrs), len(got))
	}
	for role, g := range got {
		if !slices.Equal(g, want[role]) {
			t.Errorf("%s: got %v, want %v", role, g, want[role])
		}
	}
	if d.IndexVectorDim != 9 {
		t.Errorf("IndexVectorDim = %d, want 9", d.IndexVectorDim)
	}
}

// TestScatterDimsOfReadsItsAttrs checks the same of ScatterDimsOf and
// ScatterDimsAttrs, under both dialects' names of the batching dimensions.
func TestScatterDimsOfReadsItsAttrs(t *testing.T) {
	for _, tc := range []struct{ data, batching string }{
		{"inputs", "input_batching_dims"},
		{"operand", "operand_batching_dims"},
	} {
		attrs := ScatterDimsAttrs(tc.data, tc.batching)
		if !slices.ContainsFunc(attrs, func(a dialect.Attr) bool {
			return a.Name == tc.batching && a.Role == dialect.RoleOperandBatchingDims
		}) {
			t.Errorf("%s: no attribute %q of role %s", tc.data, tc.batching, dialect.RoleOperandBatchingDims)
		}
		c, want := distinctCall(attrs)
		d := ScatterDimsOf(c, tc.batching)
		got := map[dialect.Role][]int{
			dialect.RoleUpdateWindowDims:           d.UpdateWindowDims,
			dialect.RoleInsertedWindowDims:         d.InsertedWindowDims,
			dialect.RoleOperandBatchingDims:        d.InputBatchingDims,
			dialect.RoleScatterIndicesBatchingDims: d.ScatterIndicesBatchingDims,
			dialect.RoleScatterDimsToOperandDims:   d.ScatterDimsToOperandDims,
		}
		if len(attrs) != len(got) {
			t.Fatalf("%s: ScatterDimsAttrs declares %d attributes, want %d", tc.data, len(attrs), len(got))
		}
		for role, g := range got {
			if !slices.Equal(g, want[role]) {
				t.Errorf("%s: %s: got %v, want %v", tc.data, role, g, want[role])
			}
		}
		if d.IndexVectorDim != 9 {
			t.Errorf("%s: IndexVectorDim = %d, want 9", tc.data, d.IndexVectorDim)
		}
	}
}

// TestSlicesOps checks the two table entries Slices builds: their names,
// families, inputs and attributes, and that Eval and Plan follow Rules.
// (The update slice's Eval shares the slice's reading of starts and rules:
// DynamicUpdateSliceInto.)
func TestSlicesOps(t *testing.T) {
	clamp := engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeClamp}
	fromEnd := engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeClamp}
	operand := dialect.Param{Name: "x", Role: dialect.RoleData}
	s := Slices{
		Framework: "F", Slice: "f.slice", UpdateSlice: "f.update_slice",
		Read: operand, Write: operand,
		Starts: dialect.Param{Name: "starts", Role: dialect.RoleIndices},
		Attrs:  []dialect.Attr{{Name: "neg", Kind: dialect.Bool, Default: "false"}},
		Rules: func(c dialect.Call) engine.IndexRules {
			if c.Attrs["neg"].Bool {
				return fromEnd
			}
			return clamp
		},
	}
	ops := s.Ops()
	if len(ops) != 2 || ops[0].Name != "f.slice" || ops[0].Family != "dynamic_slice" ||
		ops[1].Name != "f.update_slice" || ops[1].Family != "dynamic_update_slice" {
		t.Fatalf("Ops: got %v and %v", ops[0].Name, ops[1].Name)
	}
	if names := []string{ops[0].Attrs[0].Name, ops[0].Attrs[1].Name}; !slices.Equal(names, []string{"slice_sizes", "neg"}) {
		t.Errorf("dynamic_slice attributes %v, want slice_sizes, neg", names)
	}
	if len(ops[1].Attrs) != 1 || ops[1].Attrs[0].Name != "neg" {
		t.Errorf("dynamic_update_slice attributes %v, want neg", ops[1].Attrs)
	}
	if in := ops[1].Inputs; len(in) != 3 || in[0].Name != "x" || in[1].Name != "update" || in[2].Name != "starts" {
		t.Errorf("dynamic_update_slice inputs %v, want x, update, starts", in)
	}
	for _, neg := range []bool{false, true} {
		want := clamp
		if neg {
			want = fromEnd
		}
		attrs := map[string]dialect.Value{"neg": {Kind: dialect.Bool, Bool: neg}, "slice_sizes": {Kind: dialect.Ints, Ints: []int64{1}}}
		for _, op := range ops {
			p, err := op.Plan(nil, dialect.Call{Attrs: attrs})
			if err != nil || p.Rules != want {
				t.Errorf("%s neg=%v: Plan rules %+v, %v; want %+v", op.Name, neg, p.Rules, err, want)
			}
		}
		// Eval too: a start of -1 counts from the end and is clamped
		// into [0, 2] (3 -> 2), or, refused as negative, is clamped to 0.
		x := tensor.Must(tensor.From(tensor.Shape{4}, []float32{1, 2, 3, 4}))
		starts := tensor.Must(tensor.From(tensor.Shape{1}, []int64{-1}))
		attrs["slice_sizes"] = dialect.Value{Kind: dialect.Ints, Ints: []int64{2}}
		got, err := ops[0].Eval(nil, dialect.Call{Inputs: map[string]tensor.Tensor{"x": x, "starts": starts}, Attrs: attrs})
		wantOut := []float32{1, 2}
		if neg {
			wantOut = []float32{3, 4}
		}
		if err != nil || !slices.Equal(got.Data().([]float32), wantOut) {
			t.Errorf("f.slice neg=%v: Eval gives %v, %v; want %v", neg, got, err, wantOut)
		}
	}
}
