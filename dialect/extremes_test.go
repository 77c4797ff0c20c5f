package dialect_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
)

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
