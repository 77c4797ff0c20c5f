package tensor

import (
	"errors"
	"math"
	"reflect"
	"runtime"
	"testing"
	"unsafe"

	"github.com/scatter-dev/scatter/internal/rawalloc"
)

// TestEmpty: a large tensor of fixed-size elements is left unzeroed
// (poisoned here, so that it shows), a small one and one of strings or
// bools is New's, zeroed.
func TestEmpty(t *testing.T) {
	const min = rawalloc.MinBytes
	defer rawalloc.Poison(min)()
	for _, c := range []struct {
		name     string
		d        DType
		s        Shape
		poisoned bool
	}{
		{"large float32", Float32, Shape{min / 4}, true},
		{"large int8", Int8, Shape{2, min / 2}, true},
		{"large complex128", Complex128, Shape{min / 16}, true},
		{"large float16", Float16, Shape{min / 2}, true},
		{"small float32", Float32, Shape{min/4 - 1}, false},
		{"large bool", Bool, Shape{min}, false},
		{"large string", String, Shape{min}, false},
		{"empty", Float32, Shape{0, min}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, err := Empty(c.d, c.s)
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
			if c.d == String {
				if s := x.Data().([]string); s[0] != "" || s[len(s)-1] != "" {
					t.Errorf("strings %q, %q; want empty", s[0], s[len(s)-1])
				}
				return
			}
			v := reflect.ValueOf(x.Data())
			b := unsafe.Slice((*byte)(v.UnsafePointer()), v.Len()*c.d.Size())
			want := byte(0)
			if c.poisoned {
				want = rawalloc.PoisonByte
			}
			if b[0] != want || b[len(b)-1] != want {
				t.Errorf("bytes %#x ... %#x; want %#x", b[0], b[len(b)-1], want)
			}
		})
	}
}

// TestEmptyErrors: Empty refuses what New refuses, with its errors, the
// size limit included.
func TestEmptyErrors(t *testing.T) {
	const min = rawalloc.MinBytes
	if _, err := Empty(Undefined, Shape{min}); !errors.Is(err, ErrDType) {
		t.Errorf("undefined type: %v, want ErrDType", err)
	}
	if _, err := Empty(Float32, Shape{-1}); !errors.Is(err, ErrShape) {
		t.Errorf("negative dimension: %v, want ErrShape", err)
	}
	if _, err := Empty(Float64, Shape{math.MaxInt, math.MaxInt}); err == nil {
		t.Error("MaxInt^2 elements: no error")
	}
	// Over the size limit, large enough to be left unzeroed.
	defer SetMaxBytes(SetMaxBytes(2 * min))
	if _, err := Empty(Float32, Shape{min}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("4 MiB over a 2 MiB limit: %v, want ErrTooLarge", err)
	}
}
