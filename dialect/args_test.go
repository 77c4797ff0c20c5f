package dialect_test

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
)

func TestIntsOfAndIntOf(t *testing.T) {
	if v, err := dialect.IntsOf(tensor.Scalar(int64(3)), "axis"); err != nil || len(v) != 1 || v[0] != 3 {
		t.Errorf("scalar: %v %v", v, err)
	}
	if v, err := dialect.IntOf(tensor.Must(tensor.From(tensor.Shape{1}, []int32{-2})), "axis"); err != nil || v != -2 {
		t.Errorf("1-D: %v %v", v, err)
	}
	if v, err := dialect.IntOf(tensor.Scalar(uint8(200)), "axis"); err != nil || v != 200 {
		t.Errorf("uint8: %v %v", v, err)
	}
	if v, err := dialect.IntsOf(tensor.Must(tensor.From(tensor.Shape{2}, []int16{-1, 4})), "shape"); err != nil || v[0] != -1 || v[1] != 4 {
		t.Errorf("int16: %v %v", v, err)
	}
	bad := []tensor.Tensor{
		tensor.Scalar(uint64(1 << 63)),
		tensor.Must(tensor.New(tensor.Int64, tensor.Shape{1, 1})),
		tensor.Scalar(float32(1)),
		tensor.Must(tensor.New(tensor.Int64, tensor.Shape{2})),
	}
	for _, b := range bad {
		if _, err := dialect.IntOf(b, "axis"); !errors.Is(err, dialect.ErrInput) {
			t.Errorf("%v: %v", b, err)
		}
	}
}

func TestNormAxis(t *testing.T) {
	tests := []struct {
		axis, rank, want int
		msg              string // "" for no error
	}{
		{0, 1, 0, ""},
		{-1, 1, 0, ""},
		{2, 3, 2, ""},
		{-3, 3, 0, ""},
		{-2, 3, 1, ""},
		{3, 3, 0, "axis 3 is out of range [-3, 2] for data of rank 3"},
		{-4, 3, 0, "axis -4 is out of range [-3, 2] for data of rank 3"},
		{0, 0, 0, "axis 0 is out of range [0, -1] for data of rank 0"},
	}
	norms := []struct {
		name     string
		norm     func(axis, rank int, of string) (int, error)
		sentinel error
	}{
		{"NormAxis", dialect.NormAxis, dialect.ErrAttribute},
		{"NormAxisInput", dialect.NormAxisInput, dialect.ErrInput},
	}
	for _, n := range norms {
		for _, tt := range tests {
			got, err := n.norm(tt.axis, tt.rank, "data")
			switch {
			case tt.msg == "" && (err != nil || got != tt.want):
				t.Errorf("%s(%d, %d) = %d, %v; want %d", n.name, tt.axis, tt.rank, got, err, tt.want)
			case tt.msg != "" && (!errors.Is(err, n.sentinel) || err.Error() != n.sentinel.Error()+": "+tt.msg):
				t.Errorf("%s(%d, %d): got %v, want %q wrapping %v", n.name, tt.axis, tt.rank, err, tt.msg, n.sentinel)
			}
		}
	}
	if _, err := dialect.NormAxisInput(5, 2, "data"); errors.Is(err, dialect.ErrAttribute) {
		t.Errorf("NormAxisInput's error wraps ErrAttribute: %v", err)
	}
}

// TestAxisExtremes checks NormAxis and NormAxisInput on the extreme int
// values: refused with their class, quoting the value itself.
func TestAxisExtremes(t *testing.T) {
	for _, f := range []struct {
		name  string
		norm  func(axis, rank int, of string) (int, error)
		class error
	}{
		{"NormAxis", dialect.NormAxis, dialect.ErrAttribute},
		{"NormAxisInput", dialect.NormAxisInput, dialect.ErrInput},
	} {
		for _, axis := range []int{math.MinInt, math.MinInt + 1, math.MaxInt, math.MaxInt - 1} {
			for _, rank := range []int{0, 1, 3} {
				got, err := f.norm(axis, rank, "data")
				if !errors.Is(err, f.class) || !strings.Contains(err.Error(), "axis "+strconv.Itoa(axis)+" is out of range") ||
					optest.QuotesShifted(err.Error(), int64(axis)) {
					t.Errorf("%s(%d, %d) = %d, %v; want %v quoting the axis", f.name, axis, rank, got, err, f.class)
				}
			}
		}
	}
}

// TestIntsOfExtremes reads the extreme values of int64 and uint64 tensors
// as ints: every int that fits as it is, a uint64 above MaxInt64 refused as
// too large, quoted as it is, and where int has 32 bits, an int64 beyond
// it refused as too large, never truncated.
func TestIntsOfExtremes(t *testing.T) {
	// Variables, not constants, so that the 64-bit cases compile anywhere.
	minInt64, maxInt64, maxUint32 := int64(math.MinInt64), int64(math.MaxInt64), int64(math.MaxUint32)
	type intsCase struct {
		x    tensor.Tensor
		want []int
		err  string
	}
	tests := []intsCase{
		{tensor.Must(tensor.From(tensor.Shape{2}, []int64{math.MinInt, math.MaxInt})), []int{math.MinInt, math.MaxInt}, ""},
		{tensor.Must(tensor.From(tensor.Shape{1}, []uint64{math.MaxInt})), []int{math.MaxInt}, ""},
		{tensor.Must(tensor.From(tensor.Shape{2}, []uint64{1, math.MaxInt64 + 1})), nil, "x[1] = 9223372036854775808 is too large"},
		{tensor.Must(tensor.From(tensor.Shape{1}, []uint64{math.MaxUint64})), nil, "x[0] = 18446744073709551615 is too large"},
		{tensor.Must(tensor.From(tensor.Shape{1}, []int32{math.MinInt32})), []int{math.MinInt32}, ""},
	}
	if bits.UintSize == 64 {
		tests = append(tests,
			intsCase{tensor.Must(tensor.From(tensor.Shape{2}, []int64{math.MinInt64, math.MaxInt64})), []int{int(minInt64), int(maxInt64)}, ""},
			intsCase{tensor.Must(tensor.From(tensor.Shape{1}, []uint32{math.MaxUint32})), []int{int(maxUint32)}, ""})
	} else {
		tests = append(tests,
			intsCase{tensor.Must(tensor.From(tensor.Shape{2}, []int64{0, math.MinInt64})), nil, "x[1] = -9223372036854775808 is beyond a 32-bit int (too large)"},
			intsCase{tensor.Must(tensor.From(tensor.Shape{1}, []uint32{math.MaxUint32})), nil, "x[0] = 4294967295 is beyond a 32-bit int (too large)"})
	}
	for _, tt := range tests {
		got, err := dialect.IntsOf(tt.x, "x")
		if tt.err != "" {
			if !errors.Is(err, dialect.ErrInput) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("dialect.IntsOf(%v): %v, %v; want ErrInput saying %q", tt.x, got, err, tt.err)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) || got[0] != tt.want[0] || got[len(got)-1] != tt.want[len(got)-1] {
			t.Errorf("dialect.IntsOf(%v) = %v, %v; want %v", tt.x, got, err, tt.want)
		}
		if one, err := dialect.IntOf(tensor.Must(tt.x.Reshape(tensor.Shape{tt.x.Len()})), "x"); tt.x.Len() == 1 && (err != nil || one != tt.want[0]) {
			t.Errorf("dialect.IntOf(%v) = %d, %v", tt.x, one, err)
		}
	}
}

func reversed(s []tensor.DType) []tensor.DType {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}
