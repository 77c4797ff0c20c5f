package rawalloc

import (
	"errors"
	"math"
	"runtime"
	"testing"

	"github.com/scatter-dev/scatter/internal/rawbytes"
	"github.com/scatter-dev/scatter/tensor"
)

// TestNew: a large tensor of fixed-size elements is left unzeroed
// (poisoned here, so that it shows), a small one and one of strings or
// bools is tensor.New's, zeroed, and the errors are tensor.New's.
func TestNew(t *testing.T) {
	large := tensor.Shape{MinBytes / 4}
	defer Poison(MinBytes)()
	for _, c := range []struct {
		name     string
		d        tensor.DType
		s        tensor.Shape
		poisoned bool
	}{
		{"large float32", tensor.Float32, large, true},
		{"large int8", tensor.Int8, tensor.Shape{2, MinBytes / 2}, true},
		{"large complex128", tensor.Complex128, tensor.Shape{MinBytes / 16}, true},
		{"large float16", tensor.Float16, tensor.Shape{MinBytes / 2}, true},
		{"small float32", tensor.Float32, tensor.Shape{MinBytes/4 - 1}, false},
		{"large bool", tensor.Bool, tensor.Shape{MinBytes}, false},
		{"large string", tensor.String, tensor.Shape{MinBytes}, false},
		{"empty", tensor.Float32, tensor.Shape{0, MinBytes}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, err := New(c.d, c.s)
			if err != nil {
				t.Fatal(err)
			}
			if x.DType() != c.d || !x.HasShape(c.s) {
				t.Fatalf("got %v %v, want %v %v", x.DType(), x.Shape(), c.d, c.s)
			}
			if x.Len() == 0 {
				return
			}
			runtime.GC() // the memory must be a live object of the right size
			if c.d == tensor.String {
				if s := x.Data().([]string); s[0] != "" || s[len(s)-1] != "" {
					t.Errorf("strings %q, %q; want empty", s[0], s[len(s)-1])
				}
				return
			}
			b := rawbytes.Bytes(x)
			want := byte(0)
			if c.poisoned {
				want = PoisonByte
			}
			if b[0] != want || b[len(b)-1] != want {
				t.Errorf("bytes %#x ... %#x; want %#x", b[0], b[len(b)-1], want)
			}
		})
	}
}

// TestNewErrors: New refuses what tensor.New refuses, with its errors,
// the size limit included.
func TestNewErrors(t *testing.T) {
	if _, err := New(tensor.Undefined, tensor.Shape{MinBytes}); !errors.Is(err, tensor.ErrDType) {
		t.Errorf("undefined type: %v, want tensor.ErrDType", err)
	}
	if _, err := New(tensor.Float32, tensor.Shape{-1}); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("negative dimension: %v, want tensor.ErrShape", err)
	}
	if _, err := New(tensor.Float64, tensor.Shape{math.MaxInt, math.MaxInt}); err == nil {
		t.Error("MaxInt^2 elements: no error")
	}
	// Over the size limit, large enough to be left unzeroed.
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(2 * MinBytes))
	if _, err := New(tensor.Float32, tensor.Shape{MinBytes}); !errors.Is(err, tensor.ErrTooLarge) {
		t.Errorf("4 MiB over a 2 MiB limit: %v, want tensor.ErrTooLarge", err)
	}
}

// TestPoisonUndo: Poison's undo restores the size and leaves memory
// unpoisoned, and New at the default size does not poison.
func TestPoisonUndo(t *testing.T) {
	undo := Poison(0)
	if minBytes != 0 || !poison {
		t.Fatalf("under Poison(0): min %d, poison %v", minBytes, poison)
	}
	undo()
	if minBytes != MinBytes || poison {
		t.Fatalf("after undo: min %d, poison %v", minBytes, poison)
	}
}
