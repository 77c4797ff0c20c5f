package tensor_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

func TestSetMaxBytes(t *testing.T) {
	if got := tensor.SetMaxBytes(-1); got != tensor.DefaultMaxBytes {
		t.Fatalf("default limit = %d, want %d", got, tensor.DefaultMaxBytes)
	}
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(64))
	tests := []struct {
		dtype tensor.DType
		shape tensor.Shape
		ok    bool
	}{
		{tensor.Float32, tensor.Shape{16}, true},
		{tensor.Float32, tensor.Shape{17}, false},
		{tensor.Float64, tensor.Shape{2, 4}, true},
		{tensor.Float64, tensor.Shape{3, 3}, false},
		{tensor.Uint8, tensor.Shape{64}, true},
		{tensor.Bool, tensor.Shape{65}, false},
		{tensor.String, tensor.Shape{4}, true},
		{tensor.String, tensor.Shape{5}, false},
		{tensor.Complex128, tensor.Shape{0, math.MaxInt}, true},
		{tensor.Int64, tensor.Shape{1 << 40, 1 << 20}, false},
	}
	for _, tt := range tests {
		_, err := tensor.New(tt.dtype, tt.shape)
		if tt.ok != (err == nil) || !tt.ok && !errors.Is(err, tensor.ErrTooLarge) {
			t.Errorf("New(%v, %v) with a 64-byte limit: error %v, want ok=%v", tt.dtype, tt.shape, err, tt.ok)
		}
	}
	_, err := tensor.New(tensor.Float32, tensor.Shape{1 << 40})
	if want := "float32[1099511627776] takes 4398046511104 bytes, over the limit of 64"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v, want it to say %q", err, want)
	}
	if _, err := tensor.New(tensor.Float32, tensor.Shape{-1}); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("a negative dimension: error %v, want ErrShape", err)
	}
	tensor.SetMaxBytes(0)
	if _, err := tensor.New(tensor.Float32, tensor.Shape{}); !errors.Is(err, tensor.ErrTooLarge) {
		t.Errorf("a scalar under a zero limit: error %v, want ErrTooLarge", err)
	}
	if _, err := tensor.New(tensor.Float32, tensor.Shape{0}); err != nil {
		t.Errorf("an empty tensor under a zero limit: %v", err)
	}
}
