package engine_test

import (
	"errors"
	"testing"

	. "github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
)

// planCall is one ScatterND call of TestScatterNDPlan.
type planCall struct {
	data, indices, updates tensor.Tensor
	opt                    ScatterOptions
	inPlace                bool
}

// planF32 and planI64 make the tensors of the calls below.
func planF32(shape tensor.Shape, v ...float32) tensor.Tensor {
	return tensor.Must(tensor.From(shape, v))
}

func planI64(shape tensor.Shape, v ...int64) tensor.Tensor {
	return tensor.Must(tensor.From(shape, v))
}

// TestScatterNDPlan runs pairs of ScatterND calls through one scratch, so
// that the second finds the plan of the first (ndPlan), and checks the
// second against testkit/reftest: a call of the same types, shapes and
// rules takes the plan and still checks every index, its options and its
// memory; a call that differs in any of them (a shape of the same rank
// and size, the index type, the rules, data given or not, a fill value)
// does not take it, and gets its own result or error.
func TestScatterNDPlan(t *testing.T) {
	onto := ScatterOptions{Rules: IndexRules{Negative: NegativeFromEnd}}
	add := onto
	add.Reduction = Add
	strict := ScatterOptions{}
	zero := tensor.Tensor{}
	first := planCall{planF32(tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 6), planI64(tensor.Shape{2, 1}, 1, 0),
		planF32(tensor.Shape{2, 3}, 7, 8, 9, 10, 11, 12), onto, true}
	same := func(edit func(c *planCall)) planCall {
		c := first
		c.data = planF32(tensor.Shape{2, 3}, 6, 5, 4, 3, 2, 1) // afresh: the first call wrote its own
		edit(&c)
		return c
	}
	withFill := onto
	withFill.Fill = planF32(tensor.Shape{}, 9)
	tests := []struct {
		name string
		call planCall
		hit  bool // whether the second call takes the plan
	}{
		{"same shapes, other values", same(func(c *planCall) {
			c.indices, c.updates = planI64(tensor.Shape{2, 1}, -1, -1), planF32(tensor.Shape{2, 3}, -1, -2, -3, -4, -5, -6)
		}), true},
		{"same shapes, other reduction", same(func(c *planCall) { c.opt = add }), true},
		{"same shapes, an index out of range", same(func(c *planCall) { c.indices = planI64(tensor.Shape{2, 1}, 0, 2) }), true},
		{"same shapes, a negative index past the start", same(func(c *planCall) { c.indices = planI64(tensor.Shape{2, 1}, 0, -3) }), true},
		{"same shapes, an unknown reduction", same(func(c *planCall) { c.opt.Reduction = Mean + 9 }), true},
		{"same shapes, into another dst", same(func(c *planCall) { c.inPlace = false }), true},
		{"data of another shape, same size", same(func(c *planCall) {
			c.data, c.updates = planF32(tensor.Shape{3, 2}, 1, 2, 3, 4, 5, 6), planF32(tensor.Shape{2, 2}, 7, 8, 9, 10)
		}), false},
		{"more tuples", same(func(c *planCall) {
			c.indices, c.updates = planI64(tensor.Shape{3, 1}, 1, 0, 1), planF32(tensor.Shape{3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9)
		}), false},
		{"updates of the wrong shape", same(func(c *planCall) { c.updates = planF32(tensor.Shape{3, 2}, 1, 2, 3, 4, 5, 6) }), false},
		{"tuples of two", same(func(c *planCall) {
			c.indices, c.updates = planI64(tensor.Shape{2, 2}, 1, 2, 0, -1), planF32(tensor.Shape{2}, 7, 8)
		}), false},
		{"int32 indices", same(func(c *planCall) { c.indices = tensor.Must(tensor.From(tensor.Shape{2, 1}, []int32{0, -1})) }), false},
		{"rules refusing a negative index", same(func(c *planCall) {
			c.indices, c.opt = planI64(tensor.Shape{2, 1}, 0, -1), strict
		}), false},
		{"int32 elements", same(func(c *planCall) {
			c.data = tensor.Must(tensor.From(tensor.Shape{2, 3}, []int32{1, 2, 3, 4, 5, 6}))
			c.updates = tensor.Must(tensor.From(tensor.Shape{2, 3}, []int32{7, 8, 9, 10, 11, 12}))
		}), false},
		{"updates of another type", same(func(c *planCall) {
			c.updates = tensor.Must(tensor.From(tensor.Shape{2, 3}, []int32{7, 8, 9, 10, 11, 12}))
		}), false},
		{"no data", same(func(c *planCall) { c.data, c.inPlace = zero, false }), false},
		{"no data, a fill value", same(func(c *planCall) { c.data, c.inPlace, c.opt = zero, false, withFill }), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScratch()
			if d := runPlanCall(s, first); d != "" {
				t.Fatalf("first call: %s", d)
			}
			if !PlanValid(s) {
				t.Fatal("the first call left no plan")
			}
			c := tc.call
			dst := c.data
			if !c.inPlace {
				dst = tensor.Must(tensor.New(c.updates.DType(), tensor.Shape{2, 3}))
				if !c.data.IsZero() {
					dst = tensor.Must(tensor.New(c.data.DType(), c.data.Shape()))
				}
			}
			if hit := PlanMatches(s, &dst, &c.data, &c.indices, &c.updates, &c.opt); hit != tc.hit {
				t.Fatalf("the call takes the plan: %v, want %v", hit, tc.hit)
			}
			if d := runPlanCall(s, c); d != "" {
				t.Fatal(d)
			}
		})
	}
}

// runPlanCall runs c through s and returns how its outcome differs from
// the reference's, or "". A call without data writes a dst of shape
// [2,3], which the reference starts as zeros or the fill value. A failed
// call in place must leave data as it was.
func runPlanCall(s *Scratch, c planCall) string {
	dt := c.updates.DType()
	ref := c.data
	if ref.IsZero() {
		ref = tensor.Must(tensor.New(dt, tensor.Shape{2, 3}))
		if !c.opt.Fill.IsZero() {
			v := c.opt.Fill.Data().([]float32)[0]
			ref = planF32(tensor.Shape{2, 3}, v, v, v, v, v, v)
		}
	}
	ro := c.opt
	ro.Fill = tensor.Tensor{} // ref holds the fill already
	want, wantErr := reftest.ScatterND(ref, c.indices, c.updates, ro)
	dst, was := c.data, c.data.Clone()
	if !c.inPlace {
		dst = tensor.Must(tensor.New(dt, ref.Shape()))
	}
	opt := c.opt
	err := ScatterNDWith(s, &dst, &c.data, &c.indices, &c.updates, &opt)
	if d := reftest.Disagreement(dst, err, want, wantErr, sameClass); d != "" {
		return d
	}
	if c.inPlace {
		if d := reftest.Untouched(dst, err, was); d != "" {
			return d
		}
	}
	var ie *IndexError
	if errors.Is(err, ErrIndex) && !errors.As(err, &ie) {
		return "an index error without an *IndexError"
	}
	return ""
}
