package registry_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
)

func TestLookup(t *testing.T) {
	op, err := registry.Lookup("onnx.ScatterND")
	if err != nil || op.Name != "onnx.ScatterND" {
		t.Fatalf("got %v, %v", op, err)
	}
	tests := []struct{ name, hint string }{
		{"onnx.scatternd", "did you mean onnx.ScatterND?"},
		{"GatherND", "did you mean onnx.GatherND or openvino.GatherND?"},
		{"tf.nothing", "run 'scatter ops'"},
		{"onnx.ScaterND", "did you mean onnx.ScatterND?"},
		{"onnx.GatherElement", "did you mean onnx.GatherElements?"},
		{"torch.scatter_reduc", "did you mean torch.scatter_reduce?"},
		{"tf.ScatterND", "did you mean tf.scatter_nd?"},
		{"gather_nd", "did you mean mindspore.gather_nd or tf.gather_nd?"},
		{"onnx.Foo", "run 'scatter ops'"},
	}
	for _, tt := range tests {
		_, err := registry.Lookup(tt.name)
		if !errors.Is(err, dialect.ErrUnknownOp) || !strings.Contains(err.Error(), tt.hint) {
			t.Errorf("%s: got %v", tt.name, err)
		}
	}
}

func TestOpsAreSortedAndWellFormed(t *testing.T) {
	ops := registry.Ops()
	if len(ops) < 6 {
		t.Fatalf("%d operators", len(ops))
	}
	for i, op := range ops {
		if i > 0 && ops[i-1].Name >= op.Name {
			t.Errorf("not sorted: %s before %s", ops[i-1].Name, op.Name)
		}
		if !strings.Contains(op.Name, ".") || len(op.Versions) == 0 || op.Eval == nil || op.Summary == "" || op.Output == "" {
			t.Errorf("%s is incomplete", op.Name)
		}
		for _, v := range op.Versions {
			// The typed functions check indices against IndexTypes.
			if op.Behavior == nil {
				t.Errorf("%s has no Behavior", op.Name)
				break
			}
			types := op.Behavior(v).IndexTypes
			if len(types) == 0 || slices.ContainsFunc(types, func(d tensor.DType) bool { return !d.IsInteger() }) {
				t.Errorf("%s version %d: index types %v", op.Name, v, types)
			}
		}
		for _, a := range op.Attrs {
			if a.Default != "" {
				if _, err := dialect.ParseValue(a.Kind, a.Default); err != nil {
					t.Errorf("%s: default of %s: %v", op.Name, a.Name, err)
				}
			}
		}
	}
}
