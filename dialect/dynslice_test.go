package dialect_test

import (
	"errors"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/jax"
	"github.com/scatter-dev/scatter/dialect/stablehlo"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// dynamicSlices are the dialects whose dynamic slices check their inputs
// alike (JAX's and StableHLO's, neither with string tensors), each in its
// allocating and Into forms; with starts that are not negative they
// agree on every result too.
var dynamicSlices = []struct {
	dialect               string
	slice                 func(operand tensor.Tensor, starts []tensor.Tensor, sizes []int) (tensor.Tensor, error)
	sliceInto             func(dst, operand tensor.Tensor, starts []tensor.Tensor) error
	update                func(operand, update tensor.Tensor, starts []tensor.Tensor) (tensor.Tensor, error)
	updateInto            func(dst, operand, update tensor.Tensor, starts []tensor.Tensor) error
	sliceName, updateName string
}{
	{
		"jax",
		func(o tensor.Tensor, s []tensor.Tensor, z []int) (tensor.Tensor, error) {
			return jax.DynamicSlice(o, s, z, true)
		},
		func(d, o tensor.Tensor, s []tensor.Tensor) error { return jax.DynamicSliceInto(d, o, s, true) },
		func(o, u tensor.Tensor, s []tensor.Tensor) (tensor.Tensor, error) {
			return jax.DynamicUpdateSlice(o, u, s, true)
		},
		func(d, o, u tensor.Tensor, s []tensor.Tensor) error {
			return jax.DynamicUpdateSliceInto(d, o, u, s, true)
		},
		"jax.lax.dynamic_slice", "jax.lax.dynamic_update_slice",
	},
	{
		"stablehlo", stablehlo.DynamicSlice, stablehlo.DynamicSliceInto, stablehlo.DynamicUpdateSlice, stablehlo.DynamicUpdateSliceInto,
		"stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice",
	},
}

// TestDynamicSlicesCheckAlike runs one table of dynamic slices and
// dynamic update slices through every dialect of dynamicSlices: each
// refuses strings (in operand or update), float, mixed, missing and
// miscounted start indices with the same error class, naming its
// operator, and slices and updates alike.
func TestDynamicSlicesCheckAlike(t *testing.T) {
	f32 := func(s tensor.Shape, v ...float32) tensor.Tensor { return tensor.Must(tensor.From(s, v)) }
	strs := func(s tensor.Shape, v ...string) tensor.Tensor { return tensor.Must(tensor.From(s, v)) }
	i64 := func(v int64) tensor.Tensor { return tensor.Scalar(v) }
	operand := f32(tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 6)
	words := strs(tensor.Shape{2, 3}, "a", "b", "c", "d", "e", "f")
	one := []tensor.Tensor{i64(1), i64(1)}
	cases := []struct {
		name            string
		operand, update tensor.Tensor // a dynamic update slice when update is given
		starts          []tensor.Tensor
		sizes           []int
		want            tensor.Tensor // the slice, or the updated operand
		wantErr         error
	}{
		{name: "slice", operand: operand, starts: one, sizes: []int{1, 2}, want: f32(tensor.Shape{1, 2}, 5, 6)},
		{name: "slice clamped", operand: operand, starts: []tensor.Tensor{i64(5), i64(2)}, sizes: []int{2, 2},
			want: f32(tensor.Shape{2, 2}, 2, 3, 5, 6)},
		{name: "update", operand: operand, update: f32(tensor.Shape{1, 2}, 7, 8), starts: one,
			want: f32(tensor.Shape{2, 3}, 1, 2, 3, 4, 7, 8)},
		{name: "update clamped", operand: operand, update: f32(tensor.Shape{1, 2}, 7, 8), starts: []tensor.Tensor{i64(9), i64(9)},
			want: f32(tensor.Shape{2, 3}, 1, 2, 3, 4, 7, 8)},
		{name: "slice of strings", operand: words, starts: one, sizes: []int{1, 1}, wantErr: dialect.ErrInput},
		{name: "update of strings", operand: words, update: strs(tensor.Shape{1, 1}, "z"), starts: one, wantErr: dialect.ErrInput},
		{name: "update of strings by a number", operand: words, update: f32(tensor.Shape{1, 1}, 7), starts: one, wantErr: dialect.ErrInput},
		{name: "update of numbers by a string", operand: operand, update: strs(tensor.Shape{1, 1}, "z"), starts: one, wantErr: dialect.ErrInput},
		{name: "update of another type", operand: operand, update: tensor.Must(tensor.From(tensor.Shape{1, 1}, []int32{7})), starts: one,
			wantErr: engine.ErrType},
		{name: "float start", operand: operand, starts: []tensor.Tensor{i64(0), tensor.Scalar(float32(0))}, sizes: []int{1, 1},
			wantErr: dialect.ErrInput},
		{name: "starts of two types", operand: operand, starts: []tensor.Tensor{i64(0), tensor.Scalar(int32(0))}, sizes: []int{1, 1},
			wantErr: dialect.ErrInput},
		{name: "one start for rank 2", operand: operand, starts: one[:1], sizes: []int{1, 1}, wantErr: dialect.ErrInput},
		{name: "missing start", operand: operand, starts: []tensor.Tensor{i64(0), {}}, sizes: []int{1, 1}, wantErr: dialect.ErrInput},
		{name: "missing operand", starts: one, sizes: []int{1, 1}, wantErr: dialect.ErrInput},
	}
	for _, d := range dynamicSlices {
		for _, c := range cases {
			isUpdate := !c.update.IsZero()
			name := d.sliceName
			if isUpdate {
				name = d.updateName
			}
			check := func(form string, got tensor.Tensor, err error) {
				t.Helper()
				switch {
				case c.wantErr == nil && err != nil:
					t.Errorf("%s %s (%s): %v", name, c.name, form, err)
				case c.wantErr == nil && !tensor.Equal(got, c.want):
					t.Errorf("%s %s (%s) = %v, want %v", name, c.name, form, got, c.want)
				case c.wantErr != nil && !errors.Is(err, c.wantErr):
					t.Errorf("%s %s (%s): error %v, want one of class %v", name, c.name, form, err, c.wantErr)
				case c.wantErr != nil:
					var oe *dialect.OpError
					if !errors.As(err, &oe) || oe.Op != name {
						t.Errorf("%s %s (%s): error %v does not name the operator", name, c.name, form, err)
					}
				}
			}
			if isUpdate {
				got, err := d.update(c.operand, c.update, c.starts)
				check("allocating", got, err)
				dst := c.operand
				if !dst.IsZero() {
					dst = c.operand.Clone()
				}
				check("into", dst, d.updateInto(dst, c.operand, c.update, c.starts))
				continue
			}
			got, err := d.slice(c.operand, c.starts, c.sizes)
			check("allocating", got, err)
			dt := c.operand.DType()
			if c.operand.IsZero() {
				dt = tensor.Float32
			}
			dst := tensor.Must(tensor.New(dt, c.sizes))
			check("into", dst, d.sliceInto(dst, c.operand, c.starts))
		}
	}
}
