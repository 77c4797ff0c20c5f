package openvino_test

import (
	"errors"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/openvino"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// ints builds a tensor of any type from small integers.
func ints(d tensor.DType, shape tensor.Shape, v ...int) tensor.Tensor {
	return tensortest.FromInts(d, shape, v...)
}

// filled returns a tensor of type d and the given shape with every element v.
func filled(d tensor.DType, shape tensor.Shape, v int) tensor.Tensor {
	n, _ := shape.NumElements()
	vals := make([]int, n)
	for i := range vals {
		vals[i] = v
	}
	return ints(d, shape, vals...)
}

// seq returns a tensor of type d and the given shape holding from,
// from+1, ... in row-major order.
func seq(d tensor.DType, shape tensor.Shape, from int) tensor.Tensor {
	n, _ := shape.NumElements()
	vals := make([]int, n)
	for i := range vals {
		vals[i] = from + i
	}
	return ints(d, shape, vals...)
}

func op(name string) *dialect.Op { return dialect.Find(openvino.Ops(), name) }

func inputs(kv ...any) map[string]tensor.Tensor {
	m := map[string]tensor.Tensor{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(tensor.Tensor)
	}
	return m
}

func sAttr(s string) dialect.Value { return dialect.Value{Kind: dialect.String, Str: s} }
func bAttr(b bool) dialect.Value   { return dialect.Value{Kind: dialect.Bool, Bool: b} }
func iAttr(i int64) dialect.Value  { return dialect.Value{Kind: dialect.Int, Int: i} }

// The examples of the ScatterElementsUpdate-12 specification
// (/work/shared/specs/openvino-ScatterElementsUpdate-12.txt, examples
// 1-5), run as the IR gives them: through the operation table, with axis
// as a 1-D input of one element.
func TestScatterElementsUpdate12SpecExamples(t *testing.T) {
	seu := op("openvino.ScatterElementsUpdate")
	tests := []struct {
		name       string
		reduction  openvino.Reduction
		useInitVal bool
		data       tensor.Tensor
		indices    tensor.Tensor
		updates    tensor.Tensor
		axis       int64
		want       tensor.Tensor
	}{
		{"example 1", "sum", true, tensortest.F32(tensor.Shape{4}, 2, 3, 4, 6), tensortest.I64(tensor.Shape{6}, 1, 0, 0, -2, -1, 2),
			tensortest.F32(tensor.Shape{6}, 10, 20, 30, 40, 70, 60), 0, tensortest.F32(tensor.Shape{4}, 52, 13, 104, 76)},
		{"example 2", "sum", false, tensortest.F32(tensor.Shape{4}, 2, 3, 4, 6), tensortest.I64(tensor.Shape{6}, 1, 0, 0, 2, 3, 2),
			tensortest.F32(tensor.Shape{6}, 10, 20, 30, 40, 70, 60), 0, tensortest.F32(tensor.Shape{4}, 50, 10, 100, 70)},
		{"example 3", "none", true, filled(tensor.Int32, tensor.Shape{3, 4}, 0), tensortest.I64(tensor.Shape{2, 2}, 1, 2, 0, 3),
			tensortest.I32(tensor.Shape{2, 2}, 11, 12, 13, 14), 1,
			tensortest.I32(tensor.Shape{3, 4}, 0, 11, 12, 0, 13, 0, 0, 14, 0, 0, 0, 0)},
		{"example 4", "sum", true, filled(tensor.Int32, tensor.Shape{3, 4}, 1), tensortest.I64(tensor.Shape{2, 2}, 1, 1, 0, 3),
			tensortest.I32(tensor.Shape{2, 2}, 11, 12, 13, 14), 1,
			tensortest.I32(tensor.Shape{3, 4}, 1, 24, 1, 1, 14, 1, 1, 15, 1, 1, 1, 1)},
		{"example 5", "prod", true, filled(tensor.Int32, tensor.Shape{3, 4}, 2), tensortest.I64(tensor.Shape{2, 2}, 1, 1, 0, 3),
			tensortest.I32(tensor.Shape{2, 2}, 11, 12, 13, 14), 1,
			tensortest.I32(tensor.Shape{3, 4}, 2, 264, 2, 2, 26, 2, 2, 28, 2, 2, 2, 2)},
	}
	for _, tt := range tests {
		for _, opset := range []int{12, 13, 15, 0} {
			out, err := seu.Run(dialect.Call{
				Opset:  opset,
				Inputs: inputs("data", tt.data, "indices", tt.indices, "updates", tt.updates, "axis", tensortest.I64(tensor.Shape{1}, tt.axis)),
				Attrs:  map[string]dialect.Value{"reduction": sAttr(string(tt.reduction)), "use_init_val": bAttr(tt.useInitVal)},
			})
			if err != nil || !tensor.Equal(out, tt.want) {
				t.Errorf("%s opset %d: got %v, %v; want %v", tt.name, opset, out, err, tt.want)
			}
		}
		// The typed API, with indices of every integer type (T_IND is any
		// integer type).
		for _, d := range []tensor.DType{tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64} {
			idx := toInts(tt.indices)
			out, err := openvino.Opset(12).ScatterElementsUpdate(tt.data, ints(d, tt.indices.Shape(), idx...), tt.updates,
				int(tt.axis), tt.reduction, tt.useInitVal)
			if err != nil || !tensor.Equal(out, tt.want) {
				t.Errorf("%s indices %v: got %v, %v; want %v", tt.name, d, out, err, tt.want)
			}
		}
	}
	// Examples 2-5 have no negative index, so version 3 gives example 3
	// (reduction none) too, and refuses the reductions.
	ex3 := tests[2]
	out, err := openvino.Opset(3).ScatterElementsUpdate(ex3.data, ex3.indices, ex3.updates, 1, "", true)
	if err != nil || !tensor.Equal(out, ex3.want) {
		t.Errorf("example 3 at version 3: got %v, %v", out, err)
	}
	if _, err := openvino.Opset(3).ScatterElementsUpdate(tests[0].data, tests[1].indices, tests[0].updates, 0, "sum", true); !errors.Is(err, dialect.ErrAttribute) {
		t.Errorf("sum at version 3: %v", err)
	}
	// Example 1 has negative indices, which version 3 refuses.
	_, err = openvino.Opset(3).ScatterElementsUpdate(tests[0].data, tests[0].indices, tests[0].updates, 0, "", true)
	if !errors.Is(err, engine.ErrIndex) {
		t.Errorf("example 1 indices at version 3: %v", err)
	}
}

// toInts reads an integer tensor's elements as ints.
func toInts(t tensor.Tensor) []int {
	v := make([]int, t.Len())
	for i := range v {
		switch x := t.At(i).(type) {
		case int32:
			v[i] = int(x)
		case int64:
			v[i] = int(x)
		}
	}
	return v
}

// Example 6 of ScatterElementsUpdate-12, the only example of
// ScatterElementsUpdate-3: shapes only. indices and updates are smaller
// than data in dimensions 1 and 3.
func TestScatterElementsUpdateSpecShapeExample(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 12.5 million elements")
	}
	data := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1000, 256, 7, 7}))
	indices := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{125, 20, 7, 6}))
	updates := filled(tensor.Float32, tensor.Shape{125, 20, 7, 6}, 1)
	for _, opset := range []openvino.Opset{3, 12} {
		out, err := opset.ScatterElementsUpdate(data, indices, updates, 0, "", true)
		if err != nil || !out.Shape().Equal(tensor.Shape{1000, 256, 7, 7}) {
			t.Fatalf("opset %d: %v %v", opset, out.Shape(), err)
		}
		v := out.Data().([]float32)
		// Every update lands in data[0, j<20, k, l<6].
		if v[0] != 1 || v[5] != 1 || v[6] != 0 || v[19*49+6*7+5] != 1 || v[19*49+6*7+6] != 0 || v[20*49] != 0 {
			t.Errorf("opset %d: wrong elements updated", opset)
		}
	}
}

// The two examples of the ScatterNDUpdate-3 specification, which
// ScatterNDUpdate-15 repeats (as its first two) with a duplicate added to
// the first.
func TestScatterNDUpdate3SpecExamples(t *testing.T) {
	rows := []int{1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1}
	rev := []int{8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8}
	fill := func(vals ...int) []int {
		var v []int
		for _, x := range vals {
			v = append(v, x, x, x, x)
		}
		return v
	}
	cat := func(parts ...[]int) []int {
		var v []int
		for _, p := range parts {
			v = append(v, p...)
		}
		return v
	}
	for _, opset := range []openvino.Opset{3, 14, 15, 0} {
		out, err := opset.ScatterNDUpdate(seq(tensor.Float32, tensor.Shape{8}, 1), tensortest.I64(tensor.Shape{4, 1}, 4, 3, 1, 7),
			tensortest.F32(tensor.Shape{4}, 9, 10, 11, 12), "")
		if want := tensortest.F32(tensor.Shape{8}, 1, 11, 3, 10, 9, 6, 7, 12); err != nil || !tensor.Equal(out, want) {
			t.Errorf("opset %d example 1: got %v, %v", opset, out, err)
		}
		data := ints(tensor.Float32, tensor.Shape{4, 4, 4}, cat(rows, rows, rev, rev)...)
		updates := ints(tensor.Float32, tensor.Shape{2, 4, 4}, cat(fill(5, 6, 7, 8), fill(1, 2, 3, 4))...)
		want := ints(tensor.Float32, tensor.Shape{4, 4, 4}, cat(fill(5, 6, 7, 8), rows, fill(1, 2, 3, 4), rev)...)
		out, err = opset.ScatterNDUpdate(data, tensortest.I32(tensor.Shape{2, 1}, 0, 2), updates, "none")
		if err != nil || !tensor.Equal(out, want) {
			t.Errorf("opset %d example 2: got %v, %v", opset, out, err)
		}
	}
}

// The examples of the ScatterNDUpdate-15 specification. Its rule is that
// updates apply in index order (the project's rule for duplicates: the
// last update wins, and reductions accumulate in row-major index order);
// three of its example outputs contradict that, and we follow the rule.
func TestScatterNDUpdate15SpecExamples(t *testing.T) {
	tests := []struct {
		name      string
		reduction openvino.Reduction
		data      tensor.Tensor
		indices   tensor.Tensor
		updates   tensor.Tensor
		want      tensor.Tensor // our answer, by the rule
		spec      tensor.Tensor // the specification's output when it differs, else nil
	}{
		// The first example of the text. Indices 4 and -4 (= 4) both update
		// element 4, with 9 and then 14: the rule gives 14. The
		// specification shows 4, data's own value, which no order of the
		// two updates gives. (The draft of this specification, version 14,
		// shows 14.)
		{"text example 1", "none", seq(tensor.Float32, tensor.Shape{8}, 1),
			tensortest.I64(tensor.Shape{6, 1}, 4, 3, 1, 7, -2, -4), tensortest.F32(tensor.Shape{6}, 9, 10, 11, 12, 13, 14),
			tensortest.F32(tensor.Shape{8}, 1, 11, 3, 10, 14, 6, 13, 12), tensortest.F32(tensor.Shape{8}, 1, 11, 3, 10, 4, 6, 13, 12)},
		// The IR examples write indices as <dim>5</dim> with values
		// [0, 2, -3, -3, 0]: five one-element index tuples, shape [5, 1]
		// (see TestScatterNDUpdate15LiteralShape for shape [5]).
		//
		// Example 1: element 1 (-3) gets 30 and then 40, element 0 gets 10
		// and then 50. The rule gives [50, 40, 20, 4]; the specification
		// shows [50, 20, 20, 4], with element 1 holding element 2's update,
		// which no order gives. (Version 14's draft shows [50, 40, 20, 4].)
		{"example 1", "none", tensortest.F32(tensor.Shape{4}, 1, 2, 3, 4), tensortest.I32(tensor.Shape{5, 1}, 0, 2, -3, -3, 0),
			tensortest.F32(tensor.Shape{5}, 10, 20, 30, 40, 50),
			tensortest.F32(tensor.Shape{4}, 50, 40, 20, 4), tensortest.F32(tensor.Shape{4}, 50, 20, 20, 4)},
		{"example 2", "sum", ints(tensor.Float16, tensor.Shape{4}, 1, 2, 3, 4), tensortest.I32(tensor.Shape{5, 1}, 0, 2, -3, -3, 0),
			ints(tensor.Float16, tensor.Shape{5}, 10, 20, 30, 40, 50),
			ints(tensor.Float16, tensor.Shape{4}, 61, 72, 23, 4), tensor.Tensor{}},
		{"example 3", "sub", tensortest.I32(tensor.Shape{4}, 1, 2, 3, 4), tensortest.I32(tensor.Shape{5, 1}, 0, 2, -3, -3, 0),
			tensortest.I32(tensor.Shape{5}, 10, 20, 30, 40, 50),
			tensortest.I32(tensor.Shape{4}, -59, -68, -17, 4), tensor.Tensor{}},
		// Example 4: element 1 is 2*30*40 = 2400 and element 2 is 3*20 =
		// 60 whatever the order. The specification shows 3600 and 40,
		// element 2's value times element 1's updates and the other way
		// round: the two elements are swapped.
		{"example 4", "prod", tensortest.F32(tensor.Shape{4}, 1, 2, 3, 4), tensortest.I32(tensor.Shape{5, 1}, 0, 2, -3, -3, 0),
			tensortest.F32(tensor.Shape{5}, 10, 20, 30, 40, 50),
			tensortest.F32(tensor.Shape{4}, 500, 2400, 60, 4), tensortest.F32(tensor.Shape{4}, 500, 3600, 40, 4)},
	}
	for _, tt := range tests {
		for _, opset := range []openvino.Opset{15, 16, 0} {
			out, err := opset.ScatterNDUpdate(tt.data, tt.indices, tt.updates, tt.reduction)
			if err != nil || !tensor.Equal(out, tt.want) {
				t.Errorf("%s opset %d: got %v, %v; want %v", tt.name, opset, out, err, tt.want)
			}
			if !tt.spec.IsZero() && tensor.Equal(out, tt.spec) {
				t.Errorf("%s: matches the specification's output, which contradicts its rule", tt.name)
			}
		}
		// Version 3 has neither negative indices nor reductions.
		_, err := openvino.Opset(3).ScatterNDUpdate(tt.data, tt.indices, tt.updates, "")
		if !errors.Is(err, engine.ErrIndex) {
			t.Errorf("%s at version 3: got %v, want an index error", tt.name, err)
		}
	}
}

// The IR examples of ScatterNDUpdate-15 declare indices of shape [5] for
// data of rank 1: read literally, that is one index tuple of 5 components,
// more than data's rank, which is a shape error.
func TestScatterNDUpdate15LiteralShape(t *testing.T) {
	_, err := openvino.Latest.ScatterNDUpdate(tensortest.F32(tensor.Shape{4}, 1, 2, 3, 4), tensortest.I32(tensor.Shape{5}, 0, 2, -3, -3, 0),
		tensortest.F32(tensor.Shape{5}, 10, 20, 30, 40, 50), "none")
	if !errors.Is(err, engine.ErrShape) {
		t.Errorf("got %v, want a shape error", err)
	}
}

// The shapes-only IR example of ScatterNDUpdate-3 (example 5 of
// ScatterNDUpdate-15).
func TestScatterNDUpdateSpecShapeExample(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 38 million elements")
	}
	data := tensor.Must(tensor.New(tensor.Uint8, tensor.Shape{1000, 256, 10, 15}))
	indices := tensor.Must(tensor.New(tensor.Int32, tensor.Shape{25, 125, 3}))
	updates := filled(tensor.Uint8, tensor.Shape{25, 125, 15}, 7)
	for _, opset := range []openvino.Opset{3, 15} {
		out, err := opset.ScatterNDUpdate(data, indices, updates, "none")
		if err != nil || !out.Shape().Equal(data.Shape()) {
			t.Fatalf("opset %d: %v %v", opset, out.Shape(), err)
		}
		if v := out.Data().([]uint8); v[14] != 7 || v[15] != 0 {
			t.Errorf("opset %d: wrong elements updated", opset)
		}
	}
}

// gatherNDExample is an example of a GatherND specification.
type gatherNDExample struct {
	name      string
	batchDims int
	data      tensor.Tensor
	indices   tensor.Tensor
	want      tensor.Tensor
}

// The examples of GatherND-5 and GatherND-8 that they share: batch_dims 0
// or 1, where the two versions agree.
func gatherNDCommonExamples() []gatherNDExample {
	m := tensortest.I32(tensor.Shape{2, 2}, 1, 2, 3, 4)
	return []gatherNDExample{
		{"example 1", 0, m, tensortest.I64(tensor.Shape{2, 2}, 0, 0, 1, 0), tensortest.I32(tensor.Shape{2}, 1, 3)},
		{"example 2", 0, m, tensortest.I64(tensor.Shape{2, 1}, 1, 0), tensortest.I32(tensor.Shape{2, 2}, 3, 4, 1, 2)},
		{"example 3", 0, m, tensortest.I64(tensor.Shape{2, 1, 1}, 1, 0), tensortest.I32(tensor.Shape{2, 1, 2}, 3, 4, 1, 2)},
		{"example 4", 1, m, tensortest.I64(tensor.Shape{2, 1}, 1, 0), tensortest.I32(tensor.Shape{2}, 2, 3)},
		{"example 5", 1, seq(tensor.Int32, tensor.Shape{2, 3, 4}, 1), tensortest.I64(tensor.Shape{2, 1}, 1, 0),
			tensortest.I32(tensor.Shape{2, 4}, 5, 6, 7, 8, 13, 14, 15, 16)},
	}
}

func runGatherND(t *testing.T, opsets []openvino.Opset, tests []gatherNDExample) {
	t.Helper()
	for _, tt := range tests {
		for _, opset := range opsets {
			out, err := opset.GatherND(tt.data, tt.indices, tt.batchDims)
			if err != nil || !tensor.Equal(out, tt.want) {
				t.Errorf("%s opset %d: got %v, %v; want %v", tt.name, opset, out, err, tt.want)
			}
		}
	}
}

// The examples of the GatherND-5 specification: with batch_dims 2, the
// batch dimensions [2, 3] become one output dimension of 6.
func TestGatherND5SpecExamples(t *testing.T) {
	tests := append(gatherNDCommonExamples(), gatherNDExample{"example 6", 2, seq(tensor.Int32, tensor.Shape{2, 3, 4}, 1),
		tensortest.I64(tensor.Shape{2, 3, 1, 1}, 1, 0, 2, 0, 2, 2), tensortest.I32(tensor.Shape{6, 1}, 2, 5, 11, 13, 19, 23)})
	runGatherND(t, []openvino.Opset{5, 6, 7}, tests)
}

// The examples of the GatherND-8 specification: batch dimensions are kept.
func TestGatherND8SpecExamples(t *testing.T) {
	tests := append(gatherNDCommonExamples(),
		gatherNDExample{"example 6", 2, seq(tensor.Int32, tensor.Shape{2, 3, 4}, 1),
			tensortest.I64(tensor.Shape{2, 3, 1, 1}, 1, 0, 2, 0, 2, 2), tensortest.I32(tensor.Shape{2, 3, 1}, 2, 5, 11, 13, 19, 23)},
		gatherNDExample{"example 7", 3, seq(tensor.Int32, tensor.Shape{1, 2, 2, 4}, 1),
			tensortest.I64(tensor.Shape{1, 2, 2, 1}, 1, 0, 3, 2), tensortest.I32(tensor.Shape{1, 2, 2}, 2, 5, 12, 15)})
	runGatherND(t, []openvino.Opset{8, 15, 0}, tests)
}

// The shapes-only IR examples of GatherND-5 and GatherND-8.
func TestGatherNDSpecShapeExamples(t *testing.T) {
	tests := []struct {
		opset     openvino.Opset
		batchDims int
		data      tensor.Shape
		indices   tensor.Shape
		want      tensor.Shape
		large     bool
	}{
		{5, 0, tensor.Shape{1000, 256, 10, 15}, tensor.Shape{25, 125, 3}, tensor.Shape{25, 125, 15}, true},
		{5, 2, tensor.Shape{30, 2, 100, 35}, tensor.Shape{30, 2, 3, 1}, tensor.Shape{60, 3, 35}, false},
		{8, 0, tensor.Shape{1000, 256, 10, 15}, tensor.Shape{25, 125, 3}, tensor.Shape{25, 125, 15}, true},
		{8, 2, tensor.Shape{30, 2, 100, 35}, tensor.Shape{30, 2, 3, 1}, tensor.Shape{30, 2, 3, 35}, false},
		{8, 3, tensor.Shape{1, 64, 64, 320}, tensor.Shape{1, 64, 64, 1, 1}, tensor.Shape{1, 64, 64, 1}, false},
	}
	for _, tt := range tests {
		if tt.large && testing.Short() {
			continue
		}
		data := tensor.Must(tensor.New(tensor.Uint8, tt.data))
		out, err := tt.opset.GatherND(data, tensor.Must(tensor.New(tensor.Int64, tt.indices)), tt.batchDims)
		if err != nil || !out.Shape().Equal(tt.want) {
			t.Errorf("opset %d batch_dims %d: got %v, %v; want %v", tt.opset, tt.batchDims, out.Shape(), err, tt.want)
		}
	}
}

// The examples of the GatherElements-6 specification.
func TestGatherElements6SpecExamples(t *testing.T) {
	tests := []struct {
		name    string
		data    tensor.Tensor
		indices tensor.Tensor
		axis    int
		want    tensor.Tensor
	}{
		{"example 1", tensortest.I32(tensor.Shape{2, 2}, 1, 2, 3, 4), tensortest.I32(tensor.Shape{2, 2}, 0, 1, 0, 0), 0,
			tensortest.I32(tensor.Shape{2, 2}, 1, 4, 1, 2)},
		{"example 2: indices larger along axis", tensortest.I32(tensor.Shape{2, 2}, 1, 7, 4, 3), tensortest.I32(tensor.Shape{2, 3}, 1, 1, 0, 1, 0, 1), 1,
			tensortest.I32(tensor.Shape{2, 3}, 7, 7, 1, 3, 4, 3)},
		{"example 3: indices smaller along axis", seq(tensor.Int32, tensor.Shape{3, 3}, 1), tensortest.I32(tensor.Shape{2, 3}, 1, 0, 1, 1, 2, 0), 0,
			tensortest.I32(tensor.Shape{2, 3}, 4, 2, 6, 4, 8, 3)},
	}
	for _, tt := range tests {
		for _, opset := range []openvino.Opset{6, 15, 0} {
			out, err := opset.GatherElements(tt.data, tt.indices, tt.axis)
			if err != nil || !tensor.Equal(out, tt.want) {
				t.Errorf("%s opset %d: got %v, %v; want %v", tt.name, opset, out, err, tt.want)
			}
			// The same with axis counted from the end.
			out, err = opset.GatherElements(tt.data, tt.indices, tt.axis-2)
			if err != nil || !tensor.Equal(out, tt.want) {
				t.Errorf("%s opset %d axis %d: got %v, %v", tt.name, opset, tt.axis-2, out, err)
			}
		}
	}
	// The IR example: shapes only.
	out, err := openvino.Opset(6).GatherElements(tensor.Must(tensor.New(tensor.Float32, tensor.Shape{3, 7, 5})),
		tensor.Must(tensor.New(tensor.Int32, tensor.Shape{3, 10, 5})), 1)
	if err != nil || !out.Shape().Equal(tensor.Shape{3, 10, 5}) {
		t.Errorf("IR example: %v %v", out.Shape(), err)
	}
}
