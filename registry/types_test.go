package registry_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
)

// TestWrongTypesAreErrType gives every operator, one at a time, data of a
// type it refuses, indices of a floating-point type and updates of
// another type than data: each refusal matches engine.ErrType, whatever
// else it matches (a refusal of an input's type also matches
// dialect.ErrInput), and names the operator.
func TestWrongTypesAreErrType(t *testing.T) {
	checked := 0
	for _, op := range registry.Ops() {
		base := baseline(t, op)
		_, b, err := op.Resolve(0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range op.Inputs {
			x, ok := base.Inputs[p.Name]
			if !ok {
				continue
			}
			var wrong []tensor.DType
			switch p.Role {
			case dialect.RoleData:
				// The first type the operator refuses, if any.
				for _, d := range tensor.DTypes() {
					if !b.DataTypes.Has(d) {
						wrong = append(wrong, d)
						break
					}
				}
			case dialect.RoleIndices:
				wrong = []tensor.DType{tensor.Float32}
			case dialect.RoleUpdates:
				if hasData(op) {
					wrong = []tensor.DType{tensor.Float64} // data is float32
				}
			}
			for _, d := range wrong {
				c := dialect.Call{Inputs: map[string]tensor.Tensor{}, Attrs: base.Attrs}
				for name, in := range base.Inputs {
					c.Inputs[name] = in
				}
				c.Inputs[p.Name] = tensor.Must(tensor.New(d, x.Shape()))
				_, err := op.Run(c)
				var oe *dialect.OpError
				if !errors.Is(err, engine.ErrType) || !errors.As(err, &oe) || !strings.Contains(err.Error(), op.Name) {
					t.Errorf("%s with %s of type %v: %v; want an engine.ErrType error naming the operator", op.Name, p.Name, d, err)
				}
				checked++
			}
		}
	}
	t.Logf("%d refusals checked", checked)
	if checked < 90 {
		t.Errorf("checked %d refusals; the operators' inputs give more", checked)
	}
}

// hasData reports whether op takes a data input, whose type its updates
// must have (scatter_nd, which makes its output from a shape, has none).
func hasData(op *dialect.Op) bool {
	for _, p := range op.Inputs {
		if p.Role == dialect.RoleData {
			return true
		}
	}
	return false
}
