package tensor_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

func TestSetMaxBytes(t *testing.T) {
	if got := tensor.SetMaxBytes(-1); got != tensor.DefaultMaxBytes {
		t.Fatalf("default limit = %d, want %d", got, int64(tensor.DefaultMaxBytes))
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
		{tensor.Int64, tensor.Shape{math.MaxInt >> 10, 1 << 10}, false},
	}
	for _, tt := range tests {
		_, err := tensor.New(tt.dtype, tt.shape)
		if tt.ok != (err == nil) || !tt.ok && !errors.Is(err, tensor.ErrTooLarge) {
			t.Errorf("New(%v, %v) with a 64-byte limit: error %v, want ok=%v", tt.dtype, tt.shape, err, tt.ok)
		}
	}
	_, err := tensor.New(tensor.Float32, tensor.Shape{1 << 28})
	if want := "float32[268435456] takes 1073741824 bytes, over the limit of 64"; err == nil || !strings.Contains(err.Error(), want) {
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

// TestCheckStrings checks that a string tensor counts its contents with a
// 16-byte header per element, where it is read or parsed.
func TestCheckStrings(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(100))
	tests := []struct {
		shape    tensor.Shape
		contents int64
		ok       bool
	}{
		{tensor.Shape{2}, 68, true},
		{tensor.Shape{2}, 69, false},
		{tensor.Shape{6}, 4, true},
		{tensor.Shape{7}, 0, false},
		{tensor.Shape{0}, 100, true}, // no elements hold nothing
		{tensor.Shape{}, 84, true},
		{tensor.Shape{}, math.MaxInt64, false},
		{tensor.Shape{math.MaxInt >> 10, 1 << 10}, 1, false},
	}
	for _, tt := range tests {
		err := tensor.CheckStrings(tt.shape, tt.contents)
		if tt.ok != (err == nil) || !tt.ok && !errors.Is(err, tensor.ErrTooLarge) {
			t.Errorf("CheckStrings(%v, %d) under 100 bytes: %v, want ok=%v", tt.shape, tt.contents, err, tt.ok)
		}
	}
	err := tensor.CheckStrings(tensor.Shape{2}, 69)
	if want := "string[2] takes 101 bytes (69 of contents), over the limit of 100 bytes"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want it to say %q", err, want)
	}
	if err := tensor.CheckStrings(tensor.Shape{-1}, 0); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("a negative dimension: %v, want ErrShape", err)
	}
	if err := tensor.CheckSize(tensor.String, tensor.Shape{7}); !errors.Is(err, tensor.ErrTooLarge) {
		t.Errorf("CheckSize of 7 strings under 100 bytes: %v", err)
	}
}

func TestCheckBytes(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(100))
	tests := []struct {
		n, size int64
		ok      bool
	}{
		{25, 4, true},
		{26, 4, false},
		{100, 1, true},
		{math.MaxInt64, 2, false},
		{7, 0, true},
	}
	for _, tt := range tests {
		err := tensor.CheckBytes("the thing", tt.n, tt.size)
		if tt.ok != (err == nil) || !tt.ok && (!errors.Is(err, tensor.ErrTooLarge) || !strings.Contains(err.Error(), "the thing takes")) {
			t.Errorf("CheckBytes(%d, %d) under 100 bytes: %v, want ok=%v", tt.n, tt.size, err, tt.ok)
		}
	}
	if err := tensor.CheckBytes("x", math.MaxInt64, 2); !strings.Contains(fmt.Sprint(err), "takes more than 2^63 bytes") {
		t.Errorf("an overflowing size: %v", err)
	}
	if err := tensor.CheckBytes("x", -1, 1); !errors.Is(err, tensor.ErrShape) {
		t.Errorf("a negative count: %v, want ErrShape", err)
	}
}

// TestParseStringsLimit checks that a string literal is held to the limit
// with its contents, as a file is.
func TestParseStringsLimit(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(40))
	if _, err := tensor.Parse(`string:["abcd", "efgh"]`); err != nil {
		t.Errorf("40 bytes under a 40-byte limit: %v", err)
	}
	if _, err := tensor.Parse(`string:["abcd", "efghi"]`); !errors.Is(err, tensor.ErrTooLarge) {
		t.Errorf("41 bytes under a 40-byte limit: %v, want ErrTooLarge", err)
	}
	// Bytes, not runes: 13 runes of 2 bytes each.
	if _, err := tensor.Parse(`string:["` + strings.Repeat("é", 13) + `"]`); !errors.Is(err, tensor.ErrTooLarge) {
		t.Errorf("16 + 26 bytes under a 40-byte limit: %v, want ErrTooLarge", err)
	}
}
