package optest

import (
	"fmt"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
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
		{engine.ErrIndex, engine.ErrIndex, true, true},
		{engine.ErrShape, engine.ErrShape, true, true},
		{engine.ErrType, engine.ErrType, true, true},
		{engine.ErrArgument, engine.ErrArgument, true, true},
		{dialect.ErrAttribute, engine.ErrShape, false, true},
		{dialect.ErrInput, engine.ErrType, false, true},
		{dialect.ErrAttribute, engine.ErrArgument, false, true},
		{dialect.ErrAttribute, engine.ErrIndex, false, false},
		{dialect.ErrInput, engine.ErrShape, false, false},
		{engine.ErrShape, engine.ErrIndex, false, false},
		{engine.ErrIndex, engine.ErrShape, false, false},
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
