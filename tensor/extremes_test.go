package tensor_test

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
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
	minInt, maxInt := strconv.Itoa(math.MinInt), strconv.Itoa(math.MaxInt)
	// The smallest dimension whose square overflows int.
	root := strconv.Itoa(int(math.Sqrt(math.MaxInt)) + 1)
	tests := []struct {
		text, want string
	}{
		{minInt, "dimension 0 of [" + minInt + "] is negative"},
		{"2,-1", "dimension 1 of [2,-1] is negative"},
		{maxInt + ",2", "element count of [" + maxInt + ",2] overflows int"},
		{root + "," + root, "element count of [" + root + "," + root + "] overflows int"},
		{"9223372036854775808", "dimension 0 is beyond the range of int"},
		{"x", "dimension 0 is not an integer"},
	}
	for _, tt := range tests {
		s, err := tensor.ParseShape(tt.text)
		if !errors.Is(err, tensor.ErrShape) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseShape(%q) = %v, %v; want ErrShape saying %q", tt.text, s, err, tt.want)
		}
	}
	if s, err := tensor.ParseShape(maxInt); err != nil || s[0] != math.MaxInt {
		t.Errorf("ParseShape of MaxInt = %v, %v", s, err)
	}
	if err := tensor.CheckSize(tensor.Uint16, tensor.Shape{math.MaxInt}); !errors.Is(err, tensor.ErrTooLarge) {
		t.Errorf("CheckSize of MaxInt uint16s: %v, want ErrTooLarge", err)
	}
}

// TestBeyondInt checks that on a platform whose int has 32 bits a tensor
// that would be valid with 64-bit ints, but whose element count or byte
// size an int cannot hold, is refused as too large, naming its size,
// however high the limit.
func TestBeyondInt(t *testing.T) {
	if bits.UintSize != 32 {
		t.Skip("int has 64 bits: every count that fits an int64 fits an int (TestNumElements)")
	}
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(math.MaxInt64))
	tests := []struct {
		dtype tensor.DType
		shape tensor.Shape
		want  string
	}{
		{tensor.Float32, tensor.Shape{1 << 30}, "float32[1073741824] takes 4294967296 bytes, more than a 32-bit int counts"},
		{tensor.Uint8, tensor.Shape{1 << 16, 1 << 16}, "element count of [65536,65536] overflows int: 4294967296 elements"},
		{tensor.String, tensor.Shape{1 << 28}, "string[268435456] takes 4294967296 bytes, more than a 32-bit int counts"},
	}
	for _, tt := range tests {
		_, err := tensor.New(tt.dtype, tt.shape)
		if !errors.Is(err, tensor.ErrTooLarge) || !strings.Contains(fmt.Sprint(err), tt.want) {
			t.Errorf("New(%v, %v) = %v, want ErrTooLarge saying %q", tt.dtype, tt.shape, err, tt.want)
		}
	}
	if _, err := tensor.ParseShape("4294967296"); !errors.Is(err, tensor.ErrTooLarge) || !strings.Contains(fmt.Sprint(err), "4294967296") {
		t.Errorf("ParseShape of 2^32 = %v, want ErrTooLarge naming it", err)
	}
}
