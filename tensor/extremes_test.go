package tensor_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// TestParseExtremes reads integer literals at the edges of their types
// and refuses those just beyond them, never wrapping.
func TestParseExtremes(t *testing.T) {
	ok := []struct {
		text string
		want tensor.Tensor
	}{
		{"int64:[-9223372036854775808, 9223372036854775807]", tensor.Must(tensor.From(tensor.Shape{2}, []int64{math.MinInt64, math.MaxInt64}))},
		{"int64:-0x8000000000000000", tensor.Scalar(int64(math.MinInt64))},
		{"uint64:[0, 18446744073709551615]", tensor.Must(tensor.From(tensor.Shape{2}, []uint64{0, math.MaxUint64}))},
		{"int32:-2147483648", tensor.Scalar(int32(math.MinInt32))},
		{"int8:[-128, 127]", tensor.Must(tensor.From(tensor.Shape{2}, []int8{math.MinInt8, math.MaxInt8}))},
	}
	for _, tt := range ok {
		got, err := tensor.Parse(tt.text)
		if err != nil || !tensor.Equal(got, tt.want) {
			t.Errorf("Parse(%q) = %v, %v; want %v", tt.text, got, err, tt.want)
		}
	}
	for _, text := range []string{
		"int64:9223372036854775808", "int64:-9223372036854775809", "int64:18446744073709551615",
		"uint64:18446744073709551616", "uint64:-1", "uint32:4294967296", "int32:2147483648", "int8:-129",
	} {
		if got, err := tensor.Parse(text); !errors.Is(err, tensor.ErrSyntax) {
			t.Errorf("Parse(%q) = %v, %v; want ErrSyntax", text, got, err)
		}
	}
}

// TestParseShapeExtremes reads shapes whose dimensions are at the edges of
// int: a negative one or a product beyond int is refused as ErrShape,
// quoting the dimensions as given.
func TestParseShapeExtremes(t *testing.T) {
	tests := []struct {
		text, want string
	}{
		{"-9223372036854775808", "dimension 0 of [-9223372036854775808] is negative"},
		{"2,-1", "dimension 1 of [2,-1] is negative"},
		{"9223372036854775807,2", "element count of [9223372036854775807,2] overflows int"},
		{"3037000500,3037000500", "element count of [3037000500,3037000500] overflows int"},
		{"9223372036854775808", "dimension 0 is beyond the range of int"},
		{"x", "dimension 0 is not an integer"},
	}
	for _, tt := range tests {
		s, err := tensor.ParseShape(tt.text)
		if !errors.Is(err, tensor.ErrShape) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseShape(%q) = %v, %v; want ErrShape saying %q", tt.text, s, err, tt.want)
		}
	}
	if s, err := tensor.ParseShape("9223372036854775807"); err != nil || s[0] != math.MaxInt64 {
		t.Errorf("ParseShape of MaxInt64 = %v, %v", s, err)
	}
	if err := tensor.CheckSize(tensor.Uint8, tensor.Shape{math.MaxInt64}); !errors.Is(err, tensor.ErrTooLarge) {
		t.Errorf("CheckSize of MaxInt64 bytes: %v, want ErrTooLarge", err)
	}
}
