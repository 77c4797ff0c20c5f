package tensor_test

import (
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

func TestBroadcast(t *testing.T) {
	cases := []struct {
		shapes []tensor.Shape
		want   tensor.Shape // nil: they do not broadcast
	}{
		{nil, tensor.Shape{}},
		{[]tensor.Shape{{}}, tensor.Shape{}},
		{[]tensor.Shape{{3}, {}}, tensor.Shape{3}},
		{[]tensor.Shape{{2, 1, 4}, {3, 1}}, tensor.Shape{2, 3, 4}},
		{[]tensor.Shape{{1, 5}, {7, 1}, {5}}, tensor.Shape{7, 5}},
		{[]tensor.Shape{{0}, {1}}, tensor.Shape{0}},
		{[]tensor.Shape{{2, 0}, {3, 1, 1}}, tensor.Shape{3, 2, 0}},
		{[]tensor.Shape{{2, 3}, {3, 2}}, nil},
		{[]tensor.Shape{{4}, {1}, {5}}, nil},
		{[]tensor.Shape{{0}, {2}}, nil},
	}
	for _, c := range cases {
		got, ok := tensor.Broadcast(c.shapes...)
		if ok != (c.want != nil) || ok && !got.Equal(c.want) {
			t.Errorf("Broadcast(%v) = %v, %v; want %v", c.shapes, got, ok, c.want)
		}
		if !ok {
			continue
		}
		for _, s := range c.shapes {
			if !s.BroadcastsTo(got) {
				t.Errorf("%v.BroadcastsTo(%v) = false", s, got)
			}
		}
	}
}

func TestBroadcastsTo(t *testing.T) {
	cases := []struct {
		s, to tensor.Shape
		want  bool
	}{
		{tensor.Shape{}, tensor.Shape{}, true},
		{tensor.Shape{}, tensor.Shape{2, 3}, true},
		{tensor.Shape{1, 3}, tensor.Shape{4, 2, 3}, true},
		{tensor.Shape{2, 1}, tensor.Shape{2, 5}, true},
		{tensor.Shape{3}, tensor.Shape{3, 1}, false}, // target does not stretch
		{tensor.Shape{2, 3}, tensor.Shape{3}, false},
		{tensor.Shape{2}, tensor.Shape{0}, false},
		{tensor.Shape{1}, tensor.Shape{0}, true},
	}
	for _, c := range cases {
		if got := c.s.BroadcastsTo(c.to); got != c.want {
			t.Errorf("%v.BroadcastsTo(%v) = %v, want %v", c.s, c.to, got, c.want)
		}
		x := tensor.Must(tensor.New(tensor.Int8, c.s))
		if got := x.BroadcastsTo(c.to); got != c.want {
			t.Errorf("a tensor of shape %v: BroadcastsTo(%v) = %v, want %v", c.s, c.to, got, c.want)
		}
	}
}

func TestBroadcastStrides(t *testing.T) {
	cases := []struct {
		s, to tensor.Shape
		want  []int
	}{
		{tensor.Shape{}, tensor.Shape{2, 3}, []int{0, 0}},
		{tensor.Shape{2, 3}, tensor.Shape{2, 3}, []int{3, 1}},
		{tensor.Shape{3}, tensor.Shape{4, 3}, []int{0, 1}},
		{tensor.Shape{2, 1, 5}, tensor.Shape{7, 2, 6, 5}, []int{0, 5, 0, 1}},
		{tensor.Shape{4, 1}, tensor.Shape{4, 1}, []int{1, 1}},
	}
	for _, c := range cases {
		if got := c.s.BroadcastStrides(c.to); !slices.Equal(got, c.want) {
			t.Errorf("%v.BroadcastStrides(%v) = %v, want %v", c.s, c.to, got, c.want)
		}
	}
}

// TestBroadcastStridesRepeat checks the strides against the rule they
// serve: the element of the broadcast tensor at coordinates c repeats the
// element of the small one at c, each stretched coordinate taken as 0.
func TestBroadcastStridesRepeat(t *testing.T) {
	s, to := tensor.Shape{3, 1, 2}, tensor.Shape{2, 3, 4, 2}
	st := s.BroadcastStrides(to)
	n, _ := to.NumElements()
	for i := range n {
		c := to.Coords(i)
		off := 0
		for d := range c {
			off += c[d] * st[d]
		}
		small := c[1:]
		small[1] = 0
		if want := s.Offset(small); off != want {
			t.Fatalf("element %v: offset %d, want %d", to.Coords(i), off, want)
		}
	}
}
