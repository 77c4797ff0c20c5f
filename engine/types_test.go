package engine

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/scatter-dev/scatter/tensor"
)

// TestElemTypes checks that every element type of tensor has its row in
// elemTypes, and that sliceOf finds each type's elements: their address,
// their number and the size of one, as reflection sees them; nothing for
// the zero Tensor, no elements for an empty one.
func TestElemTypes(t *testing.T) {
	for _, d := range tensor.DTypes() {
		e := elemTypeOf(d)
		if e.reducer == nil {
			t.Errorf("%v: no row in elemTypes", d)
			continue
		}
		for _, n := range []int{0, 3} {
			x := tensor.Must(tensor.New(d, tensor.Shape{n}))
			v := reflect.ValueOf(x.Data())
			p, got, size := sliceOf(&x)
			if want := v.Type().Elem().Size(); size != want {
				t.Errorf("%v: size %d, want %d", d, size, want)
			}
			if d != tensor.String && int(size) != d.Size() {
				t.Errorf("%v: size %d, tensor says %d", d, size, d.Size())
			}
			if got != n || n > 0 && p != v.UnsafePointer() {
				t.Errorf("%v of %d elements: sliceOf gives %p, %d; want %p, %d", d, n, p, got, v.UnsafePointer(), n)
			}
		}
	}
	// The integer types but int64 widen their indices; no other does.
	for _, d := range tensor.DTypes() {
		widens := d.IsInteger() && d != tensor.Int64
		if w := elemTypeOf(d).widen; (w != nil) != widens {
			t.Errorf("%v: widen set %v, want %v", d, w != nil, widens)
		} else if widens {
			x := tensor.Must(tensor.New(d, tensor.Shape{3}))
			for i, v := range []int64{0, 5, 127} {
				x.SetIntAt(i, v)
			}
			out := make([]int64, 3)
			w(out, x.Data())
			if out[0] != 0 || out[1] != 5 || out[2] != 127 {
				t.Errorf("%v: [0 5 127] widens to %v", d, out)
			}
		}
	}
	var zero tensor.Tensor
	if p, n, size := sliceOf(&zero); p != nil || n != 0 || size != 0 {
		t.Errorf("zero Tensor: sliceOf gives %p, %d, %d; want nil, 0, 0", p, n, size)
	}
	if e := elemTypeOf(tensor.DType(len(elemTypes))); e.size != 0 || e.reducer != nil {
		t.Errorf("a number past the table has a row: size %d", e.size)
	}
}

// TestSliceOfSubslice checks that sliceOf reads a tensor's own slice,
// not the array under it: a tensor made from part of a slice.
func TestSliceOfSubslice(t *testing.T) {
	backing := []float32{1, 2, 3, 4, 5}
	x := tensor.Must(tensor.From(tensor.Shape{2}, backing[2:4]))
	p, n, _ := sliceOf(&x)
	if p != unsafe.Pointer(&backing[2]) || n != 2 {
		t.Errorf("sliceOf gives %p, %d; want %p, 2", p, n, &backing[2])
	}
}
