package opcall

import (
	"errors"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/tensor"
)

// testOps is a table of one operator, versions 3 and 7.
var testOps = []*dialect.Op{{Name: "test.Op", Versions: []int{3, 7}}}

// TestWrap: an error gets the operator's name once; an error that names
// an operator already (Op.Shared's) keeps its name; nil stays nil.
func TestWrap(t *testing.T) {
	errRun := errors.New("run failed")
	_, _, errVersion := testOps[0].Shared(2)
	for _, tt := range []struct {
		name   string
		err    error
		want   error
		wantOp string
	}{
		{"an error of the call", errRun, errRun, "other.Op"},
		{"an error that names its operator", errVersion, dialect.ErrVersion, "test.Op"},
		{"no error", nil, nil, ""},
	} {
		err := Wrap("other.Op", tt.err)
		if tt.want == nil {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		var oe *dialect.OpError
		if !errors.Is(err, tt.want) || !errors.As(err, &oe) || oe.Op != tt.wantOp || errors.As(oe.Err, new(*dialect.OpError)) {
			t.Errorf("%s: got %v, want %v named once by %s", tt.name, err, tt.want, tt.wantOp)
		}
	}
}

func TestFixed(t *testing.T) {
	b := dialect.Behavior{IndexTypes: dialect.Types(tensor.Int32), Notes: []string{"one"}}
	f := Fixed(b)
	for _, v := range []int{0, 1, 12} {
		if got := f(v); got.IndexTypes != dialect.Types(tensor.Int32) || len(got.Notes) != 1 || got.Notes[0] != "one" {
			t.Errorf("version %d: got %+v", v, got)
		}
	}
}

// TestEvals checks that GatherEval and ScatterNDEval hand the call's
// Behavior, inputs and attributes to the function they are made of.
func TestEvals(t *testing.T) {
	data := tensor.Scalar(int64(1))
	indices := tensor.Scalar(int32(2))
	updates := tensor.Scalar(float32(3))
	c := dialect.Call{
		Inputs: map[string]tensor.Tensor{"data": data, "indices": indices, "updates": updates},
		Attrs: map[string]dialect.Value{"axis": {Kind: dialect.Int, Int: -2}, "batch_dims": {Kind: dialect.Int, Int: 4},
			"reduction": {Kind: dialect.String, Str: "add"}},
	}
	var got []any
	b := &dialect.Behavior{Version: 11}
	gather := func(b *dialect.Behavior, d, i tensor.Tensor, n int) (tensor.Tensor, error) {
		got = []any{b, d, i, n}
		return d, nil
	}
	scatter := func(b *dialect.Behavior, dst, d, i, u tensor.Tensor, red string) error {
		got = []any{b, d, i, u, red}
		return nil
	}
	tests := []struct {
		name string
		eval Eval
		want []any
	}{
		{"gather by axis", GatherEval(gather, "axis"), []any{b, data, indices, -2}},
		{"gather by batch_dims", GatherEval(gather, "batch_dims"), []any{b, data, indices, 4}},
		{"scatter", ScatterNDEval("test.ScatterND", scatter), []any{b, data, indices, updates, "add"}},
	}
	for _, tt := range tests {
		got = nil
		if _, err := tt.eval(b, c); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(got) != len(tt.want) {
			t.Fatalf("%s: got %v, want %v", tt.name, got, tt.want)
		}
		for i := range got {
			if x, ok := got[i].(tensor.Tensor); ok {
				if !tensor.Equal(x, tt.want[i].(tensor.Tensor)) {
					t.Errorf("%s: argument %d is %v, want %v", tt.name, i, x, tt.want[i])
				}
			} else if got[i] != tt.want[i] {
				t.Errorf("%s: argument %d is %v, want %v", tt.name, i, got[i], tt.want[i])
			}
		}
	}
}

// TestShapeScatterEval checks that ShapeScatterEval hands the shape input
// to the scatter as a shape, and refuses a bad one naming the operator
// without calling it.
func TestShapeScatterEval(t *testing.T) {
	indices := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{2}))
	updates := tensor.Must(tensor.From(tensor.Shape{1}, []float32{5}))
	var gotShape tensor.Shape
	calls := 0
	scatter := func(i, u tensor.Tensor, shape tensor.Shape) (tensor.Tensor, error) {
		calls++
		gotShape = shape
		if !tensor.Equal(i, indices) || !tensor.Equal(u, updates) {
			t.Errorf("scatter got indices %v and updates %v", i, u)
		}
		return u, nil
	}
	eval := ShapeScatterEval("test.scatter_nd", scatter)
	call := func(shape tensor.Tensor) dialect.Call {
		return dialect.Call{Inputs: map[string]tensor.Tensor{"indices": indices, "updates": updates, "shape": shape}}
	}
	if _, err := eval(nil, call(tensor.Must(tensor.From(tensor.Shape{2}, []int32{4, 3})))); err != nil ||
		!gotShape.Equal(tensor.Shape{4, 3}) || calls != 1 {
		t.Errorf("got shape %v, %d calls, %v; want [4,3], 1 call", gotShape, calls, err)
	}
	_, err := eval(nil, call(tensor.Must(tensor.From(tensor.Shape{2}, []float32{4, 3}))))
	var oe *dialect.OpError
	if !errors.Is(err, dialect.ErrInput) || !errors.As(err, &oe) || oe.Op != "test.scatter_nd" || calls != 1 {
		t.Errorf("float shape: %v after %d calls; want ErrInput naming test.scatter_nd, scatter not called", err, calls)
	}
}

// TestVariants: each member gets its own entry, in order, with the fields
// entry gives it and the inputs and attributes every member shares.
func TestVariants(t *testing.T) {
	inputs := []dialect.Param{{Name: "data", Role: dialect.RoleData}, {Name: "ids", Role: dialect.RoleIndices}}
	attrs := []dialect.Attr{{Name: "axis", Kind: dialect.Int}}
	ops := Variants([]string{"sum", "max"}, inputs, attrs, func(m string) *dialect.Op {
		return &dialect.Op{Name: "test." + m, Family: "family_" + m}
	})
	if len(ops) != 2 {
		t.Fatalf("got %d entries, want 2", len(ops))
	}
	for i, want := range []string{"sum", "max"} {
		op := ops[i]
		if op.Name != "test."+want || op.Family != "family_"+want {
			t.Errorf("entry %d: %s of %s, want test.%s of family_%s", i, op.Name, op.Family, want, want)
		}
		if len(op.Inputs) != 2 || op.Inputs[1].Name != "ids" || len(op.Attrs) != 1 || op.Attrs[0].Name != "axis" {
			t.Errorf("entry %d: inputs %v, attrs %v; want the shared ones", i, op.Inputs, op.Attrs)
		}
	}
	if ops[0] == ops[1] {
		t.Error("the members share one entry")
	}
}
