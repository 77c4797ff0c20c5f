package tensortest

import (
	"math"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

func TestFuzzReader(t *testing.T) {
	f := NewFuzz([]byte{2, 3, 1, 0xff, 17, 0x80})
	s := f.Shape()
	if !s.Equal(tensor.Shape{3, 1}) {
		t.Fatalf("Shape = %v", s)
	}
	x := f.Indices(tensor.Int64, s)
	if got := x.Data().([]int64); got[0] != -1 || got[1] != 5 || got[2] != -2 {
		t.Errorf("Indices = %v", got)
	}
	if f.Next() != 0 || !f.Shape().Equal(tensor.Shape{}) {
		t.Error("an exhausted reader does not read zeros")
	}
	v := NewFuzz([]byte{0xfe, 7}).Values(tensor.Float32, tensor.Shape{2})
	if got := v.Data().([]float32); got[0] != -2 || got[1] != 7 {
		t.Errorf("Values = %v", got)
	}
}

func TestFuzzChoices(t *testing.T) {
	f := NewFuzz([]byte{0xff, 7, 2, 0, 2, 2, 5, 6})
	if got := f.Pick(10); got != 5 {
		t.Errorf("Pick(10) of 0xff = %d, want 5", got)
	}
	if !f.Bool() || f.Bool() {
		t.Error("Bool does not read the low bit")
	}
	// The first byte (0) says "another shape": rank 2, [2, 5&3].
	if got := f.Fit(tensor.Shape{3}); !got.Equal(tensor.Shape{2, 1}) {
		t.Errorf("Fit = %v, want [2,1]", got)
	}
	if got := f.Fit(tensor.Shape{3}); !got.Equal(tensor.Shape{3}) {
		t.Errorf("Fit = %v, want [3]", got)
	}
	// Dimension 0 is at most 2 (9 % 3 = 0), dimension 1 the axis: 0 to 3.
	g := NewFuzz([]byte{9, 7})
	if got := g.Within(tensor.Shape{2, 1}, 1); !got.Equal(tensor.Shape{0, 3}) {
		t.Errorf("Within = %v, want [0,3]", got)
	}
}

func TestFuzzElements(t *testing.T) {
	f := NewFuzz([]byte{127, 126, 0x81, 0x80, 125, 124, 6, 1})
	v := f.Elements(tensor.Float32, tensor.Shape{8}).Data().([]float32)
	if v[0] == v[0] || !math.IsInf(float64(v[1]), 1) || !math.IsInf(float64(v[2]), -1) ||
		v[3] != 0 || !math.Signbit(float64(v[3])) || v[4] != 65504 || v[5] != 1000 || v[6] != 2 || v[7] != float32(1.0/3) {
		t.Errorf("float32 elements %v", v)
	}
	b := NewFuzz([]byte{2, 3}).Elements(tensor.Bool, tensor.Shape{2}).Data().([]bool)
	if b[0] || !b[1] {
		t.Errorf("bool elements %v", b)
	}
	s := NewFuzz([]byte{8, 1, 7}).Elements(tensor.String, tensor.Shape{3}).Data().([]string)
	if s[0] != "" || s[1] != "a" || s[2] != "g" {
		t.Errorf("string elements %q", s)
	}
	u := NewFuzz([]byte{0xff}).Elements(tensor.Uint8, tensor.Shape{1}).Data().([]uint8)
	if u[0] != 255 {
		t.Errorf("uint8 element %v", u)
	}
}

func TestFuzzIndicesFor(t *testing.T) {
	// Bytes: 8*2+0 -> 2 % 3 = 2; 8*1+5 -> -1-1 = -2; 8*0+7 -> size;
	// 8*1+7 -> -size-1; for a dimension of size 0, 8*4+0 -> 4 % 3 = 1.
	f := NewFuzz([]byte{16, 13, 7, 15, 32})
	got := f.IndicesFor(tensor.Int64, tensor.Shape{5}, []int{3, 3, 3, 3, 0}).Data().([]int64)
	want := []int64{2, -2, 3, -4, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("IndicesFor = %v, want %v", got, want)
		}
	}
	w := NewFuzz([]byte{13}).IndicesFor(tensor.Uint8, tensor.Shape{1}, nil).Data().([]uint8)
	if w[0] != 254 {
		t.Errorf("a negative index in uint8 is %d, want 254", w[0])
	}
}

func TestJunk(t *testing.T) {
	if got := Junk(tensor.Int8, tensor.Shape{2}).Data().([]int8); got[0] != 7 || got[1] != 7 {
		t.Errorf("Junk int8 = %v", got)
	}
	if got := Junk(tensor.String, tensor.Shape{1}).Data().([]string); got[0] != "sssssss" {
		t.Errorf("Junk string = %q", got)
	}
	if got := Junk(tensor.Float32, tensor.Shape{}); got.Rank() != 0 || got.Len() != 1 {
		t.Errorf("Junk of a scalar's shape = %v", got)
	}
}

func TestFuzzND(t *testing.T) {
	ds := tensor.Shape{3, 2}
	// k = 5 % 4 = 1; lead [2]; 1 (not another shape); the tuples 8 -> 1
	// and 13 -> -2 (dimension 0, of size 3); then the updates' shape,
	// lead + ds[1:].
	f := NewFuzz([]byte{5, 1, 2, 1, 8, 13, 1})
	x, us := f.ND(tensor.Int64, ds, 0, true)
	if !x.Shape().Equal(tensor.Shape{2, 1}) || !us.Equal(tensor.Shape{2, 2}) {
		t.Fatalf("ND = indices %v, updates shape %v", x, us)
	}
	if got := x.Data().([]int64); got[0] != 1 || got[1] != -2 {
		t.Errorf("ND indices %v", got)
	}
	if f.Next() != 0 {
		t.Error("ND read past the updates' shape")
	}
	// One batch dimension: k = 3 % 3 = 0 (no tuple elements), lead rank 0;
	// indices [3, 0]; no updates for a gather, and no byte read for them.
	g := NewFuzz([]byte{3, 0, 1, 9})
	x, us = g.ND(tensor.Int32, ds, 1, false)
	if !x.Shape().Equal(tensor.Shape{3, 0}) || us != nil || g.Next() != 9 {
		t.Errorf("ND with a batch dimension = %v, %v", x, us)
	}
	// k beyond the rank: the updates take any shape.
	h := NewFuzz([]byte{3, 0, 1, 0, 0, 0, 1, 2})
	if _, us := h.ND(tensor.Int64, ds, 0, true); !us.Equal(tensor.Shape{2}) {
		t.Errorf("ND with k 3 > rank 2: updates shape %v, want [2]", us)
	}
}

func TestFuzzAlong(t *testing.T) {
	// Within [3, 2] along axis 1: [2 % 4, 7 % 4]; kept (1); values for a
	// dimension of size 2: 0 -> 0, 8 -> 1, 7 -> 2 (out of range), 5 -> -1.
	f := NewFuzz([]byte{2, 7, 1, 0, 8, 7, 5, 0, 0})
	x := f.Along(tensor.Int64, tensor.Shape{3, 2}, 1)
	if !x.Shape().Equal(tensor.Shape{2, 3}) {
		t.Fatalf("Along shape %v, want [2,3]", x.Shape())
	}
	if got := x.Data().([]int64); got[0] != 0 || got[1] != 1 || got[2] != 2 || got[3] != -1 {
		t.Errorf("Along values %v", got)
	}
}

func TestFuzzMaybeNegative(t *testing.T) {
	s := tensor.Shape{2, 3}
	if got := NewFuzz([]byte{15}).MaybeNegative(s); !got.Equal(tensor.Shape{-3, 3}) || s[0] != 2 {
		t.Errorf("MaybeNegative = %v (s now %v), want [-3,3]", got, s)
	}
	if got := NewFuzz([]byte{14}).MaybeNegative(s); !got.Equal(s) {
		t.Errorf("MaybeNegative = %v, want %v", got, s)
	}
	f := NewFuzz([]byte{15})
	if got := f.MaybeNegative(tensor.Shape{}); len(got) != 0 || f.Next() != 15 {
		t.Error("MaybeNegative of a scalar's shape read a byte")
	}
}

func TestCount(t *testing.T) {
	if Count(tensor.Shape{2, 3}) != 6 || Count(tensor.Shape{}) != 1 || Count(tensor.Shape{4, 0}) != 0 {
		t.Error("Count")
	}
	defer func() {
		if recover() == nil {
			t.Error("Count of an invalid shape did not panic")
		}
	}()
	Count(tensor.Shape{-1})
}
