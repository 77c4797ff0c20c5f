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
		// A dialect's own operators come first, by their last part.
		{"jax.gather", "did you mean jax.lax.gather?"},
		{"jax.scatter_ad", "did you mean jax.lax.scatter_add?"},
		{"stablehlo.Gather", "did you mean stablehlo.gather?"},
		// With none of that dialect close, every dialect's.
		{"jax.GatherElements", "did you mean onnx.GatherElements or openvino.GatherElements?"},
	}
	for _, tt := range tests {
		_, err := registry.Lookup(tt.name)
		if !errors.Is(err, dialect.ErrUnknownOp) || !strings.Contains(err.Error(), tt.hint) {
			t.Errorf("%s: got %v", tt.name, err)
		}
	}
}

// allOps are the names of every operator of every dialect, sorted: a
// lost, renamed or added operator changes the list.
var allOps = []string{
	"jax.lax.dynamic_slice", "jax.lax.dynamic_update_slice", "jax.lax.gather", "jax.lax.scatter",
	"jax.lax.scatter_add", "jax.lax.scatter_max", "jax.lax.scatter_min", "jax.lax.scatter_mul", "jax.lax.scatter_sub",
	"jax.ops.segment_max", "jax.ops.segment_min", "jax.ops.segment_prod", "jax.ops.segment_sum",
	"mindspore.gather_nd", "mindspore.scatter_nd", "mindspore.tensor_scatter_elements",
	"numpy.add.at", "numpy.add.reduceat", "numpy.maximum.at", "numpy.maximum.reduceat", "numpy.minimum.at",
	"numpy.minimum.reduceat", "numpy.multiply.at", "numpy.multiply.reduceat", "numpy.put", "numpy.put_along_axis",
	"numpy.subtract.at", "numpy.take", "numpy.take_along_axis",
	"onnx.Gather", "onnx.GatherElements", "onnx.GatherND", "onnx.Scatter", "onnx.ScatterElements", "onnx.ScatterND",
	"openvino.GatherElements", "openvino.GatherND", "openvino.ScatterElementsUpdate", "openvino.ScatterNDUpdate",
	"stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice", "stablehlo.gather", "stablehlo.scatter",
	"tf.compat.v1.scatter_add", "tf.compat.v1.scatter_div", "tf.compat.v1.scatter_max", "tf.compat.v1.scatter_min",
	"tf.compat.v1.scatter_mul", "tf.compat.v1.scatter_sub", "tf.compat.v1.scatter_update",
	"tf.gather", "tf.gather_nd", "tf.math.bincount",
	"tf.math.segment_max", "tf.math.segment_mean", "tf.math.segment_min", "tf.math.segment_prod", "tf.math.segment_sum",
	"tf.math.unsorted_segment_max", "tf.math.unsorted_segment_mean",
	"tf.math.unsorted_segment_min", "tf.math.unsorted_segment_prod", "tf.math.unsorted_segment_sqrt_n",
	"tf.math.unsorted_segment_sum", "tf.scatter_nd", "tf.tensor_scatter_nd_add", "tf.tensor_scatter_nd_max",
	"tf.tensor_scatter_nd_min", "tf.tensor_scatter_nd_sub", "tf.tensor_scatter_nd_update",
	"torch.gather", "torch.index_add", "torch.index_copy", "torch.index_fill", "torch.index_put", "torch.index_reduce", "torch.index_select", "torch.masked_scatter", "torch.put", "torch.scatter", "torch.scatter_add", "torch.scatter_reduce", "torch.take", "torch.take_along_dim",
}

func TestOpsAreSortedAndWellFormed(t *testing.T) {
	ops := registry.Ops()
	names := make([]string, len(ops))
	for i, op := range ops {
		names[i] = op.Name
	}
	if !slices.Equal(names, allOps) {
		t.Errorf("operators\n%s\nwant\n%s", strings.Join(names, " "), strings.Join(allOps, " "))
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
			b := op.Behavior(v)
			types := b.IndexTypes
			// bool: a mask, where a framework takes one (torch.index_put,
			// torch.masked_scatter).
			if types == 0 || types&^(dialect.IntegerTypes|dialect.Types(tensor.Bool)) != 0 {
				t.Errorf("%s version %d: index types %v", op.Name, v, types)
			}
			// The typed functions check data against DataTypes.
			if b.DataTypes == 0 || b.DataTypes&^dialect.AnyType != 0 {
				t.Errorf("%s version %d: data types %#x", op.Name, v, uint32(b.DataTypes))
			}
		}
		for _, p := range op.Inputs {
			if op.InputTypes(p) == "" || p.Doc == "" {
				t.Errorf("%s: input %s is undocumented", op.Name, p.Name)
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
