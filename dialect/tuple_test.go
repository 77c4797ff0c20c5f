package dialect_test

import (
	"errors"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/tensor"
)

// TestTupleInputs: an input with Tuple set is given whole or as items
// name.0, name.1, ... without gaps; Param finds the items' names, and Run
// accepts a call that gives only items.
func TestTupleInputs(t *testing.T) {
	a, b := tensor.Scalar(int64(1)), tensor.Scalar(int64(2))
	for _, c := range []struct {
		name   string
		inputs map[string]tensor.Tensor
		want   int
		err    error
	}{
		{"whole", map[string]tensor.Tensor{"indices": a}, 1, nil},
		{"items", map[string]tensor.Tensor{"indices.1": b, "indices.0": a}, 2, nil},
		{"none", map[string]tensor.Tensor{"other": a}, 0, nil},
		{"gap", map[string]tensor.Tensor{"indices.0": a, "indices.2": b}, 0, dialect.ErrInput},
		{"both", map[string]tensor.Tensor{"indices": a, "indices.0": b}, 0, dialect.ErrInput},
		{"leading zero is not an item", map[string]tensor.Tensor{"indices.01": a}, 0, nil},
	} {
		got, err := dialect.TupleInputs(dialect.Call{Inputs: c.inputs}, "indices")
		if !errors.Is(err, c.err) || err == nil && len(got) != c.want {
			t.Errorf("%s: got %d tensors, err %v; want %d, %v", c.name, len(got), err, c.want, c.err)
		}
		if c.name == "items" && (got[0].Data().([]int64)[0] != 1 || got[1].Data().([]int64)[0] != 2) {
			t.Errorf("items out of order: %v", got)
		}
	}
	op := &dialect.Op{Name: "x.op", Versions: []int{1},
		Inputs: []dialect.Param{{Name: "indices", Role: dialect.RoleIndices, Tuple: true}},
		Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
			items, err := dialect.TupleInputs(c, "indices")
			return tensor.Scalar(int64(len(items))), err
		}}
	if p, ok := op.Param("indices.3"); !ok || p.Name != "indices" {
		t.Errorf("Param(indices.3) = %v, %v; want the tuple input", p, ok)
	}
	if _, ok := op.Param("indices.x"); ok {
		t.Error("Param(indices.x) found an input")
	}
	out, err := op.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"indices.0": a, "indices.1": b}})
	if err != nil || out.Data().([]int64)[0] != 2 {
		t.Errorf("Run with two items: %v, %v; want 2", out, err)
	}
	if _, err := op.Run(dialect.Call{}); !errors.Is(err, dialect.ErrInput) {
		t.Errorf("Run without the input: err = %v, want ErrInput", err)
	}
}
