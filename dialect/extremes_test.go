package dialect_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/internal/optest"
	"github.com/scatter-dev/scatter/tensor"
)

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
		for _, axis := range []int{math.MinInt64, math.MinInt64 + 1, math.MaxInt64, math.MaxInt64 - 1} {
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
// as ints: every int64 as it is, a uint64 above MaxInt64 refused as too
// large, quoted as it is.
func TestIntsOfExtremes(t *testing.T) {
	tests := []struct {
		x    tensor.Tensor
		want []int
		err  string
	}{
		{tensor.Must(tensor.From(tensor.Shape{2}, []int64{math.MinInt64, math.MaxInt64})), []int{math.MinInt64, math.MaxInt64}, ""},
		{tensor.Must(tensor.From(tensor.Shape{1}, []uint64{math.MaxInt64})), []int{math.MaxInt64}, ""},
		{tensor.Must(tensor.From(tensor.Shape{2}, []uint64{1, math.MaxInt64 + 1})), nil, "x[1] = 9223372036854775808 is too large"},
		{tensor.Must(tensor.From(tensor.Shape{1}, []uint64{math.MaxUint64})), nil, "x[0] = 18446744073709551615 is too large"},
		{tensor.Must(tensor.From(tensor.Shape{1}, []int32{math.MinInt32})), []int{math.MinInt32}, ""},
		{tensor.Must(tensor.From(tensor.Shape{1}, []uint32{math.MaxUint32})), []int{math.MaxUint32}, ""},
	}
	for _, tt := range tests {
		got, err := dialect.IntsOf(tt.x, "x")
		if tt.err != "" {
			if !errors.Is(err, dialect.ErrInput) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("IntsOf(%v): %v, %v; want ErrInput saying %q", tt.x, got, err, tt.err)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) || got[0] != tt.want[0] || got[len(got)-1] != tt.want[len(got)-1] {
			t.Errorf("IntsOf(%v) = %v, %v; want %v", tt.x, got, err, tt.want)
		}
		if one, err := dialect.IntOf(tensor.Must(tt.x.Reshape(tensor.Shape{tt.x.Len()})), "x"); tt.x.Len() == 1 && (err != nil || one != tt.want[0]) {
			t.Errorf("IntOf(%v) = %d, %v", tt.x, one, err)
		}
	}
	if _, err := dialect.ShapeOf(tensor.Must(tensor.From(tensor.Shape{1}, []uint64{math.MaxUint64})), "shape"); !errors.Is(err, dialect.ErrInput) {
		t.Errorf("ShapeOf of a uint64 shape: %v, want ErrInput", err)
	}
}

// TestParseValueExtremes reads the extreme int64 values of --attr, and
// refuses the values just beyond them.
func TestParseValueExtremes(t *testing.T) {
	tests := []struct {
		kind dialect.Kind
		text string
		want dialect.Value
		ok   bool
	}{
		{dialect.Int, "-9223372036854775808", dialect.Value{Kind: dialect.Int, Int: math.MinInt64}, true},
		{dialect.Int, "9223372036854775807", dialect.Value{Kind: dialect.Int, Int: math.MaxInt64}, true},
		{dialect.Int, "9223372036854775808", dialect.Value{}, false},
		{dialect.Int, "-9223372036854775809", dialect.Value{}, false},
		{dialect.Int, "18446744073709551615", dialect.Value{}, false},
		{dialect.Ints, "-9223372036854775808,9223372036854775807", dialect.Value{Kind: dialect.Ints, Ints: []int64{math.MinInt64, math.MaxInt64}}, true},
		{dialect.Ints, "1,18446744073709551615", dialect.Value{}, false},
	}
	for _, tt := range tests {
		v, err := dialect.ParseValue(tt.kind, tt.text)
		if !tt.ok && (!errors.Is(err, dialect.ErrAttribute) || !strings.Contains(err.Error(), "is beyond the range of int64")) {
			t.Errorf("ParseValue(%v, %q): %v, want ErrAttribute saying it is beyond int64", tt.kind, tt.text, err)
		}
		if (err == nil) != tt.ok || tt.ok && v.String() != tt.want.String() {
			t.Errorf("ParseValue(%v, %q) = %v, %v; want %v (ok %v)", tt.kind, tt.text, v, err, tt.want, tt.ok)
		}
	}
}
