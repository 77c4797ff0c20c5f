package optest

import (
	"fmt"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/testkit/reftest"
)

// TestSameClass: SameClass takes the engine's class for the reference's,
// or a model's own; SameHLOClass takes that or the dialect layer's class
// for the same fault, and nothing else.
func TestSameClass(t *testing.T) {
	wrap := func(c error) error { return fmt.Errorf("op: %w: detail", c) }
	cases := []struct {
		err, want error
		same, hlo bool
	}{
		{engine.ErrIndex, reftest.ErrIndex, true, true},
		{engine.ErrShape, reftest.ErrShape, true, true},
		{engine.ErrType, reftest.ErrType, true, true},
		{engine.ErrArgument, reftest.ErrArgument, true, true},
		{dialect.ErrAttribute, reftest.ErrShape, false, true},
		{dialect.ErrInput, reftest.ErrType, false, true},
		{dialect.ErrAttribute, reftest.ErrArgument, false, true},
		{dialect.ErrAttribute, reftest.ErrIndex, false, false},
		{dialect.ErrInput, reftest.ErrShape, false, false},
		{engine.ErrShape, reftest.ErrIndex, false, false},
		{engine.ErrIndex, reftest.ErrShape, false, false},
		{dialect.ErrInput, Refuse(dialect.ErrInput, "no strings"), true, true},
		{engine.ErrShape, Refuse(dialect.ErrInput, "no strings"), false, false},
		{engine.ErrShape, fmt.Errorf("no class"), false, false},
	}
	for _, c := range cases {
		err, want := wrap(c.err), wrap(c.want)
		if got := SameClass(err, want); got != c.same {
			t.Errorf("SameClass(%v, %v) = %v, want %v", err, want, got, c.same)
		}
		if got := SameHLOClass(err, want); got != c.hlo {
			t.Errorf("SameHLOClass(%v, %v) = %v, want %v", err, want, got, c.hlo)
		}
	}
}
