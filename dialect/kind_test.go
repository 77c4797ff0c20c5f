package dialect_test

import (
	"testing"

	"github.com/scatter-dev/scatter/dialect"
)

// TestKindString checks each kind's name and the fallback of a value that
// is no kind: the zero Kind, the one after Ints and the largest.
func TestKindString(t *testing.T) {
	for _, c := range []struct {
		k    dialect.Kind
		want string
	}{
		{dialect.Int, "int"}, {dialect.Float, "float"}, {dialect.String, "string"},
		{dialect.Bool, "bool"}, {dialect.Ints, "ints"},
		{0, "kind(0)"}, {dialect.Ints + 1, "kind(6)"}, {255, "kind(255)"},
	} {
		if got := c.k.String(); got != c.want {
			t.Errorf("Kind(%d).String() = %q, want %q", uint8(c.k), got, c.want)
		}
	}
}
