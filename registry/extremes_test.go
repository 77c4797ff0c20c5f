package registry_test

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
)

// classes are the errors every refusal of an extreme value wraps one of.
var classes = []error{engine.ErrIndex, engine.ErrShape, engine.ErrType, engine.ErrArgument,
	dialect.ErrVersion, dialect.ErrAttribute, dialect.ErrInput, tensor.ErrTooLarge}

// extremes are the int64 values each integer a caller gives is replaced by.
var extremes = []int64{math.MinInt64, math.MinInt64 + 1, math.MaxInt64}

// baseline returns a call of op, at its newest version, that succeeds:
// float32 data [2,3], index values 1 and 0, an int64 shape [2,3] where
// the operator takes one, and its required attributes (0, or its first
// reduction).
// hasNumSegments reports whether op takes its number of segments
// (TensorFlow's and JAX's segment reductions, whose ids are one per row of
// data), unlike the members of its family that scatter into an input.
func hasNumSegments(op *dialect.Op) bool {
	return slices.ContainsFunc(op.Inputs, func(p dialect.Param) bool { return p.Role == dialect.RoleNumSegments })
}

func baseline(t *testing.T, op *dialect.Op) dialect.Call {
	t.Helper()
	c := dialect.Call{Inputs: map[string]tensor.Tensor{}, Attrs: map[string]dialect.Value{}}
	data := tensor.Must(tensor.From(tensor.Shape{2, 3}, []float32{1, 2, 3, 4, 5, 6}))
	row := tensor.Must(tensor.From(tensor.Shape{1, 3}, []float32{7, 8, 9}))
	var indices tensor.Tensor
	switch op.Family {
	case "scatter_nd", "gather_nd":
		indices = tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{1}))
	case "gather", "scatter_rows", "segment_sum", "segment_max", "index_copy", "index_fill":
		indices = tensor.Must(tensor.From(tensor.Shape{1}, []int64{1}))
	default:
		indices = tensor.Must(tensor.From(tensor.Shape{1, 3}, []int64{1, 0, 1}))
	}
	_, b, err := op.Resolve(0)
	if err != nil {
		t.Fatal(err)
	}
	switch op.Family {
	case "segment_sum", "segment_prod", "segment_max", "segment_min", "segment_mean", "segment_sqrt_n":
		if hasNumSegments(op) {
			indices = tensor.Must(tensor.From(tensor.Shape{2}, []int64{1, 0})) // a segment id per row of data
		}
	case "masked_scatter":
		indices = tensor.Must(tensor.From(tensor.Shape{1, 3}, []bool{true, false, false}))
	case "general_scatter", "general_gather":
		indices = tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{1}))
	case "dynamic_slice", "dynamic_update_slice":
		indices = tensor.Must(tensor.From(tensor.Shape{2}, []int64{1, 0}))
	case "segment_sum_sorted", "reduceat":
		indices = tensor.Must(tensor.From(tensor.Shape{2}, []int64{0, 1}))
	}
	for _, p := range op.Inputs {
		switch p.Role {
		case dialect.RoleData:
			c.Inputs[p.Name] = data
		case dialect.RoleIndices:
			c.Inputs[p.Name] = indices
		case dialect.RoleUpdates:
			c.Inputs[p.Name] = row
		case dialect.RoleShape:
			c.Inputs[p.Name] = tensor.Must(tensor.From(tensor.Shape{2}, []int64{2, 3}))
		case dialect.RoleAxis:
			c.Inputs[p.Name] = tensor.Scalar(int64(0))
		case dialect.RoleNumSegments:
			c.Inputs[p.Name] = tensor.Scalar(int64(2))
		case dialect.RoleValue:
			if !p.Optional {
				c.Inputs[p.Name] = tensor.Scalar(2.5)
			}
		}
	}
	// The general operators: the dimension numbers of a gather or
	// scatter of rows, [1, 3] at index 1, and a [1, 3] dynamic slice.
	dims := map[dialect.Role]dialect.Value{
		dialect.RoleOffsetDims: ints(1), dialect.RoleCollapsedSliceDims: ints(0), dialect.RoleStartIndexMap: ints(0),
		dialect.RoleSliceSizes: ints(1, 3), dialect.RoleIndexVectorDim: {Kind: dialect.Int, Int: 1},
		dialect.RoleUpdateWindowDims: ints(1), dialect.RoleInsertedWindowDims: ints(0),
		dialect.RoleScatterDimsToOperandDims: ints(0),
	}
	for _, a := range op.Attrs {
		if v, ok := dims[a.Role]; ok {
			c.Attrs[a.Name] = v
		}
	}
	for _, a := range op.Attrs {
		if _, set := c.Attrs[a.Name]; !a.Required || set {
			continue
		}
		switch a.Kind {
		case dialect.Int:
			c.Attrs[a.Name] = dialect.Value{Kind: dialect.Int}
		case dialect.String:
			c.Attrs[a.Name] = dialect.Value{Kind: dialect.String, Str: dialect.ReductionNames(b.Reductions)[0]}
		}
	}
	if _, err := op.Run(c); err != nil {
		t.Fatalf("%s: the baseline call fails: %v", op.Name, err)
	}
	return c
}

// mutation is a call with one integer replaced by an extreme value, and
// the error classes its refusal may wrap (any of classes when nil); a
// value that the operator may take (cast to the input's type) may pass.
type mutation struct {
	what  string
	value int64 // as the caller gave it; a uint64 as its bits
	call  dialect.Call
	class []error
	pass  bool
}

// mutations returns the calls of op that replace, one at a time, each
// integer a caller gives by each extreme value: an integer attribute, an
// integer input (as a tensor of each type it may be, uint64 MaxUint64
// too), a dimension of a shape, and an index value.
func mutations(op *dialect.Op, base dialect.Call) []mutation {
	var out []mutation
	with := func(what string, v int64, class []error, change func(c *dialect.Call)) {
		c := dialect.Call{Inputs: maps.Clone(base.Inputs), Attrs: maps.Clone(base.Attrs)}
		change(&c)
		out = append(out, mutation{what, v, c, class, false})
	}
	// The engine checks the general operators' dimension numbers.
	attrClass := []error{dialect.ErrAttribute}
	if op.Plan != nil {
		attrClass = append(attrClass, engine.ErrArgument)
	}
	for _, a := range op.Attrs {
		if a.Kind != dialect.Int {
			continue
		}
		// A bound of bincount's number of bins may take any value: one
		// that makes too many bins is refused as too large.
		bound := op.Family == "bincount" && a.Role == ""
		class := attrClass
		if bound {
			class = []error{dialect.ErrAttribute, tensor.ErrTooLarge}
		}
		for _, v := range extremes {
			with("attribute "+a.Name, v, class, func(c *dialect.Call) {
				c.Attrs[a.Name] = dialect.Value{Kind: dialect.Int, Int: v}
			})
			// JAX's bucket_size may be as large as it likes: one bucket.
			out[len(out)-1].pass = bound || a.Name == "bucket_size" && v > 0
		}
	}
	for _, p := range op.Inputs {
		x, ok := base.Inputs[p.Name]
		if !ok {
			continue
		}
		switch {
		case p.Name == "axis":
			for _, v := range extremes {
				with("input axis", v, []error{dialect.ErrInput}, func(c *dialect.Call) { c.Inputs["axis"] = tensor.Scalar(v) })
			}
			with("uint64 input axis", -1, []error{dialect.ErrInput}, func(c *dialect.Call) {
				c.Inputs["axis"] = tensor.Scalar(uint64(math.MaxUint64))
			})
		case p.Name == "updates" || p.Name == "src":
			if _, ok := op.Param("value"); !ok {
				continue
			}
			for _, v := range extremes {
				with("input value", v, []error{dialect.ErrInput}, func(c *dialect.Call) {
					delete(c.Inputs, p.Name)
					c.Inputs["value"] = tensor.Scalar(v)
				})
				out[len(out)-1].pass = true
			}
		case p.Role == dialect.RoleNumSegments:
			for _, v := range extremes {
				// Negative, or more elements than an int counts.
				with("input num_segments", v, []error{dialect.ErrInput, engine.ErrShape}, func(c *dialect.Call) {
					c.Inputs[p.Name] = tensor.Scalar(v)
				})
			}
		case p.Name == "shape":
			for _, v := range extremes {
				with("a dimension of shape", v, nil, func(c *dialect.Call) {
					c.Inputs["shape"] = tensor.Must(tensor.From(tensor.Shape{2}, []int64{v, 3}))
				})
			}
		case x.DType() == tensor.Int64 && p.Role == dialect.RoleIndices:
			for _, v := range extremes {
				with("an index value", v, []error{engine.ErrIndex}, func(c *dialect.Call) {
					c.Inputs[p.Name] = withFirst(x, v)
				})
			}
			_, b, _ := op.Resolve(0)
			if b.IndexTypes.Has(tensor.Uint64) {
				u := tensor.Must(tensor.New(tensor.Uint64, x.Shape()))
				u.Data().([]uint64)[0] = math.MaxUint64
				with("a uint64 index value", -1, []error{engine.ErrIndex}, func(c *dialect.Call) { c.Inputs[p.Name] = u })
			}
		}
	}
	return out
}

// ints returns an Ints attribute value.
func ints(v ...int64) dialect.Value { return dialect.Value{Kind: dialect.Ints, Ints: v} }

// withFirst returns a copy of the int64 tensor x whose first element is v.
func withFirst(x tensor.Tensor, v int64) tensor.Tensor {
	y := x.Clone()
	y.Data().([]int64)[0] = v
	return y
}

// TestExtremeIntegers runs every operator with each integer a caller gives
// it (attributes, integer inputs, shapes, index values) replaced by
// MinInt64, MinInt64+1 and MaxInt64, and by MaxUint64 where a uint64 is
// taken: the call must be refused, not panic, with an error of the class
// the value's place calls for that quotes the value as it was given
// (never shifted, as an overflowing negation or addition shifts it); an
// index error quotes it in IndexError.Value. An operator whose rules skip
// an index out of range may succeed instead.
func TestExtremeIntegers(t *testing.T) {
	covered := map[string]bool{}
	for _, op := range registry.Ops() {
		if op.Removed != 0 {
			continue // its newest version is not defined at the newest opset
		}
		base := baseline(t, op)
		_, b, _ := op.Resolve(0)
		for _, m := range mutations(op, base) {
			covered[m.what] = true
			name := fmt.Sprintf("%s: %s %d", op.Name, m.what, m.value)
			_, err := op.Run(m.call)
			if err == nil {
				skips := slices.Contains(m.class, engine.ErrIndex) &&
					(b.Index.OutOfRange != engine.OutOfRangeError || b.Index.Negative == engine.NegativeSkip && m.value < 0)
				if !m.pass && !skips {
					t.Errorf("%s: no error", name)
				}
				continue
			}
			class := m.class
			if class == nil {
				class = classes
			}
			if !slices.ContainsFunc(class, func(c error) bool { return errors.Is(err, c) }) {
				t.Errorf("%s: %v, want an error wrapping one of %v", name, err, class)
			}
			if m.value != -1 && optest.QuotesShifted(err.Error(), m.value) {
				t.Errorf("%s: %v quotes the value shifted", name, err)
			}
			var ie *engine.IndexError
			if errors.As(err, &ie) && strings.HasSuffix(m.what, "index value") && ie.Value != m.value {
				t.Errorf("%s: IndexError.Value = %d, want %d", name, ie.Value, m.value)
			}
		}
	}
	for _, what := range []string{"attribute axis", "attribute batch_dims", "attribute dim", "input axis",
		"uint64 input axis", "input value", "a dimension of shape", "an index value", "a uint64 index value"} {
		if !covered[what] {
			t.Errorf("no operator was given an extreme %s", what)
		}
	}
}
